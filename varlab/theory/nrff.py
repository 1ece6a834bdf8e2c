"""Normalized random Fourier features (paper 000, Theorem 3).

NRFF estimates exp(-gamma (1 - rho)) by sum X_j Y_j / sqrt(sum X_j^2 sum Y_j^2). Theorem 3
gives its asymptotic variance V_n / k (Eq. 20); the finite-k bias and the 1/k^2 term of the MSE
are varlab's own (``bias_coefficient``, ``mse_second_order_coefficient``, ``mse_expansion``;
derived in varlab.theory.derivations).

Stable numerics (derived here, checked symbolically in the tests): with
s = 1 - exp(-2 gamma (1 - rho)) = -expm1(-2 gamma (1 - rho))::

    V_n = V - e^{-2 gamma (1-rho)} [3 - e^{-4 gamma (1-rho)}] / 4 = s^2 (5 - s) / 4,

which is exactly 0 at rho = 1 and free of cancellation near it.

>>> asymptotic_variance(rho=0.5, gamma=1.0)
0.43632538666
>>> mse_expansion(rho=0.5, gamma=1.0, k=2.0)
Traceback (most recent call last):
...
TypeError: k must be an integer >= 1 (or an array of them), got 2.0
"""
from __future__ import annotations

import numpy as np
import sympy

from .formula import Formula, _doctests
from .parameters import parameter
from .rff import _twice, variance as rff_variance

__all__ = ["asymptotic_variance", "variance_ratio", "relative_variance_of_mean", "bias_coefficient",
           "mse_second_order_coefficient", "bias_expansion", "mse_expansion"]

_rho, _gamma, _k, _E = (parameter(name).symbol for name in ("rho", "gamma", "k", "E"))
_A2 = sympy.exp(-2 * _gamma * (1 - _rho))


def _s(rho, gamma):
    return -np.expm1(_twice(rho, gamma))


asymptotic_variance = Formula(
    name="nrff.asymptotic_variance",
    expr=rff_variance.expr - _A2 * (3 - _A2 ** 2) / 4,
    numeric=lambda rho, gamma: _s(rho, gamma) ** 2 * (5.0 - _s(rho, gamma)) / 4.0,
    parameters=("rho", "gamma"),
    source="000, Thm 3, Eq. (20)-(21)",
    description="V_n: k Var(NRFF) -> V_n as k -> infinity",
    asymptotic=True,
    examples="""
        >>> from varlab.theory import nrff, rff
        >>> round(nrff.asymptotic_variance(rho=0.5, gamma=1.0), 10)     # V_n < V = 0.6998 of RFF
        0.4363253867
        """,
)

variance_ratio = Formula(
    name="nrff.variance_ratio",
    expr=asymptotic_variance.expr / rff_variance.expr,
    numeric=lambda rho, gamma: (_s(rho, gamma) ** 2 * (5.0 - _s(rho, gamma)))
    / (2.0 * (1.0 + _s(rho, gamma) ** 2)),
    parameters=("rho", "gamma"),
    source="000, Fig. 1: V_n / V from Eq. (20)-(21)",
    description="Improvement of NRFF over RFF; 0 at rho = 1, -> 1 as gamma (1 - rho) -> infinity",
    asymptotic=True,
    examples="""
        >>> from varlab.theory import nrff
        >>> nrff.variance_ratio(rho=[0.0, 0.9, 1.0], gamma=1.0).round(6)     # V_n / V (000, Fig. 1)
        array([0.884551, 0.07665 , 0.      ])
        """,
)

relative_variance_of_mean = Formula(
    name="nrff.relative_variance_of_mean",
    expr=(1 - _E ** 2) ** 2 * (4 + _E ** 2) / (4 * _E ** 2),
    numeric=lambda E: ((1.0 - E) * (1.0 + E)) ** 2 * (4.0 + E ** 2) / (4.0 * E ** 2),
    parameters=("E",),
    source="000, Fig. 3: V_n / E^2 against E = exp(-gamma (1 - rho)) (from Eq. 20)",
    description="(1 - E^2)^2 (4 + E^2) / (4 E^2); independent of gamma",
    asymptotic=True,
    examples="""
        >>> from varlab.theory import nrff
        >>> nrff.relative_variance_of_mean(E=0.5)               # (1 - 1/4)^2 (4 + 1/4) / 1
        2.390625
        """,
)


# ---------------------------------------------------------------------------------------------
# varlab's own finite-k terms (second-order delta method; see varlab.theory.derivations)
#
# With t = exp(-gamma (1 - rho)), u = t^2 = exp(-2 gamma (1 - rho)) and s = 1 - u:
#     b1 = t (t^4 - 1) / 8 = -t s (2 - s) / 8                                  (<= 0)
#     c2 = t^2 (1 - t^2)^2 (47 t^4 + 110 t^2 + 55) / 64 = u s^2 (47 u^2 + 110 u + 55) / 64   (>= 0)
# Both are products of non-negative factors computed without cancellation, and exactly 0 at
# rho = 1 (s = 0), where NRFF = 1 exactly.
# ---------------------------------------------------------------------------------------------

_T = sympy.exp(-_gamma * (1 - _rho))
_DERIVED = "varlab (derived): second-order delta method, see varlab.theory.derivations"


def _float(k):
    """k (validated int64, <= 2^53) as float64: exact, and k^2 cannot wrap."""
    return np.asarray(k, dtype=np.float64)


def _bias_coefficient(rho, gamma):
    s = _s(rho, gamma)
    # 0.0 - x: +0.0 (not -0.0) at rho = 1
    return 0.0 - np.exp(-gamma * (1.0 - rho)) * s * (2.0 - s) / 8.0


def _mse_second_order_coefficient(rho, gamma):
    u = np.exp(_twice(rho, gamma))
    s = _s(rho, gamma)
    return u * s ** 2 * ((47.0 * u + 110.0) * u + 55.0) / 64.0


bias_coefficient = Formula(
    name="nrff.bias_coefficient",
    expr=_T * (_T ** 4 - 1) / 8,
    numeric=_bias_coefficient,
    parameters=("rho", "gamma"),
    source=_DERIVED + " (nrff_bias_coefficient: b1 = tr(H Sigma) / 2)",
    description="b1 in E[NRFF] = exp(-gamma (1 - rho)) + b1 / k + O(1/k^2); b1 = t (t^4 - 1) / 8, "
                "t = exp(-gamma (1 - rho)); NRFF underestimates the kernel",
    asymptotic=True,
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import nrff
        >>> round(nrff.bias_coefficient(rho=0.5, gamma=1.0), 10)        # b1 < 0: NRFF underestimates
        -0.0655557076
        """,
)

mse_second_order_coefficient = Formula(
    name="nrff.mse_second_order_coefficient",
    expr=_T ** 2 * (1 - _T ** 2) ** 2 * (47 * _T ** 4 + 110 * _T ** 2 + 55) / 64,
    numeric=_mse_second_order_coefficient,
    parameters=("rho", "gamma"),
    source=_DERIVED + " (nrff_mse_second_order_coefficient)",
    description="c2 in MSE(NRFF) = V_n / k + c2 / k^2 + O(1/k^3); "
                "c2 = t^2 (1 - t^2)^2 (47 t^4 + 110 t^2 + 55) / 64, t = exp(-gamma (1 - rho))",
    asymptotic=True,
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import nrff
        >>> round(nrff.mse_second_order_coefficient(rho=0.5, gamma=1.0), 10)
        0.233878577
        """,
)

bias_expansion = Formula(
    name="nrff.bias_expansion",
    expr=bias_coefficient.expr / _k,
    numeric=lambda rho, gamma, k: _bias_coefficient(rho, gamma) / _float(k),
    parameters=("rho", "gamma", "k"),
    source=_DERIVED,
    description="b1 / k: the leading term of E[NRFF] - exp(-gamma (1 - rho)); error O(1/k^2)",
    asymptotic=True,
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import nrff
        >>> round(nrff.bias_expansion(rho=0.5, gamma=1.0, k=100), 12)   # b1 / k
        -0.000655557076
        """,
)

mse_expansion = Formula(
    name="nrff.mse_expansion",
    expr=asymptotic_variance.expr / _k + mse_second_order_coefficient.expr / _k ** 2,
    numeric=lambda rho, gamma, k: (_s(rho, gamma) ** 2 * (5.0 - _s(rho, gamma)) / 4.0) / _float(k)
    + _mse_second_order_coefficient(rho, gamma) / _float(k) ** 2,
    parameters=("rho", "gamma", "k"),
    source=_DERIVED + "; the 1/k term is 000, Thm 3, Eq. (20)",
    description="V_n / k + c2 / k^2: the MSE of NRFF with k samples up to O(1/k^3)",
    asymptotic=True,
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import nrff
        >>> round(nrff.mse_expansion(rho=0.5, gamma=1.0, k=100), 12)    # V_n / k + c2 / k^2
        0.004386641724
        """,
)


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
