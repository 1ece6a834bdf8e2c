"""The GMM limit g(rho) of paper 000 (Sec. 3, Eq. 22-23), its inverse and the RBF kernel in g.

Under the model of 000's Sec. 3, GMM -> g(rho) = (1 - s)/(1 + s) with s = sqrt((1 - rho)/2);
conversely rho = 1 - 2 ((1 - g)/(1 + g))^2 and the RBF kernel is exp(-gamma (1 - rho)) =
exp(-2 gamma ((1 - g)/(1 + g))^2). Stable numerics: g = (1 + rho) / (2 (1 + s)^2) and
1 - g = 2 s / (1 + s) (``_g_pair``), so g is accurate near rho = -1 (g -> 0) and 1 - g near
rho = 1 (g -> 1); rho(g) is evaluated as (g - a)(b - g)/(1 + g)^2 with a, b = 3 -+ 2 sqrt(2)
(a held as a double-double), free of the cancellation of 1 - 2 t^2 near rho = 0.

Below ``varlab.theory.gcws`` (Theorem 4) and ``varlab.theory.gcws_exact`` (the exact finite-k
moments), which build on g(rho); the Formulas are importable from ``varlab.theory.gcws``, where
their examples run.
"""
from __future__ import annotations

import mpmath
import numpy as np
import sympy

from .formula import Formula
from .parameters import parameter

__all__ = ["g_of_rho", "rho_of_g", "rbf_of_g"]

_rho, _gamma, _g = (parameter(name).symbol for name in ("rho", "gamma", "g"))

_s_expr = sympy.sqrt((1 - _rho) / 2)
_g_of_rho_expr = (1 - _s_expr) / (1 + _s_expr)


def _s(rho):
    return np.sqrt(0.5 * (1.0 - rho))


def _g_pair(rho):
    """(s, g, 1 - g), each with small relative error on all of [-1, 1]."""
    s = _s(rho)
    return s, 0.5 * (1.0 + rho) / (1.0 + s) ** 2, 2.0 * s / (1.0 + s)


g_of_rho = Formula(
    name="gcws.g_of_rho",
    expr=_g_of_rho_expr,
    numeric=lambda rho: _g_pair(rho)[1],
    parameters=("rho",),
    source="000, Sec. 3, Eq. (22) (limit of GMM under the model of [19])",
    description="g = (1 - sqrt((1-rho)/2)) / (1 + sqrt((1-rho)/2)); evaluated as "
                "(1 + rho) / (2 (1 + s)^2)",
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.g_of_rho(rho=0.5), 10)                      # s = 1/2: (1 - s) / (1 + s)
        0.3333333333
        >>> gcws.g_of_rho(rho=[-1.0, 0.0, 1.0]).round(6)
        array([0.      , 0.171573, 1.      ])
        """,
)

# rho(g) = -(g - a)(g - b)/(1 + g)^2, a b = 1, a + b = 6; a = 3 - 2 sqrt2 as a double-double
with mpmath.workdps(40):
    _A_EXACT = 3 - 2 * mpmath.sqrt(2)
    _A_HI = float(_A_EXACT)
    _A_LO = float(_A_EXACT - mpmath.mpf(_A_HI))
    _B = float(3 + 2 * mpmath.sqrt(2))


def _rho_of_g(g):
    value = ((g - _A_HI) - _A_LO) * (_B - g) / (1.0 + g) ** 2
    return np.clip(value, -1.0, 1.0)


rho_of_g = Formula(
    name="gcws.rho_of_g",
    expr=1 - 2 * ((1 - _g) / (1 + _g)) ** 2,
    numeric=_rho_of_g,
    parameters=("g",),
    source="000, Sec. 3, Eq. (23)",
    description="rho = 1 - 2 ((1 - g)/(1 + g))^2, the inverse of g(rho) on [0, 1]",
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.rho_of_g(g=gcws.g_of_rho(rho=0.5)), 10)     # the inverse of g_of_rho
        0.5
        """,
)

def _rbf_of_g(g, gamma):
    with np.errstate(over="ignore"):
        return np.exp(-2.0 * (gamma * ((1.0 - g) / (1.0 + g)) ** 2))


rbf_of_g = Formula(
    name="gcws.rbf_of_g",
    expr=sympy.exp(-2 * _gamma * ((1 - _g) / (1 + _g)) ** 2),
    numeric=lambda g, gamma: _rbf_of_g(g, gamma),
    parameters=("g", "gamma"),
    source="000, Sec. 3, Eq. (23)",
    description="exp(-gamma (1 - rho)) written in g: exp(-2 gamma ((1 - g)/(1 + g))^2) "
                "(= h(g), the function the GCWS-based RBF estimator applies to Xbar)",
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.rbf_of_g(g=gcws.g_of_rho(rho=0.5), gamma=1.0), 10)     # = exp(-1 (1 - 0.5))
        0.6065306597
        """,
)
