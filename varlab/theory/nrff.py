"""Normalized random Fourier features (paper 000, Theorem 3).

NRFF estimates exp(-gamma (1 - rho)) by sum X_j Y_j / sqrt(sum X_j^2 sum Y_j^2). Theorem 3
gives its asymptotic variance V_n / k (Eq. 20); the finite-k bias and the 1/k^2 term of the MSE
are varlab's own (see varlab.theory.derivations and ``nrff.finite_k``).

Stable numerics (derived here, checked symbolically in the tests): with
s = 1 - exp(-2 gamma (1 - rho)) = -expm1(-2 gamma (1 - rho)),
    V_n = V - e^{-2 gamma (1-rho)} [3 - e^{-4 gamma (1-rho)}] / 4 = s^2 (5 - s) / 4,
which is exactly 0 at rho = 1 and free of cancellation near it.
"""
from __future__ import annotations

import numpy as np
import sympy

from .. import _validate
from .formula import Formula
from .rff import variance as rff_variance
from .symbols import gamma as _gamma, rho as _rho

_PARAMS = {"rho": _validate.correlation, "gamma": _validate.positive}
_A2 = sympy.exp(-2 * _gamma * (1 - _rho))


def _s(rho, gamma):
    return -np.expm1(-2.0 * gamma * (1.0 - rho))


asymptotic_variance = Formula(
    name="nrff.asymptotic_variance",
    expr=rff_variance.expr - _A2 * (3 - _A2 ** 2) / 4,
    numeric=lambda rho, gamma: _s(rho, gamma) ** 2 * (5.0 - _s(rho, gamma)) / 4.0,
    validators=_PARAMS,
    source="000, Thm 3, Eq. (20)-(21)",
    description="V_n: k Var(NRFF) -> V_n as k -> infinity",
    asymptotic=True,
)

variance_ratio = Formula(
    name="nrff.variance_ratio",
    expr=asymptotic_variance.expr / rff_variance.expr,
    numeric=lambda rho, gamma: (_s(rho, gamma) ** 2 * (5.0 - _s(rho, gamma)))
    / (2.0 * (1.0 + _s(rho, gamma) ** 2)),
    validators=_PARAMS,
    source="000, Fig. 1: V_n / V from Eq. (20)-(21)",
    description="Improvement of NRFF over RFF; 0 at rho = 1, -> 1 as gamma (1 - rho) -> infinity",
    asymptotic=True,
)

relative_variance_of_mean = Formula(
    name="nrff.relative_variance_of_mean",
    expr=(1 - sympy.Symbol("E", real=True) ** 2) ** 2 * (4 + sympy.Symbol("E", real=True) ** 2)
    / (4 * sympy.Symbol("E", real=True) ** 2),
    numeric=lambda E: ((1.0 - E) * (1.0 + E)) ** 2 * (4.0 + E ** 2) / (4.0 * E ** 2),
    validators={"E": lambda value, name: _validate.probability(value, name, open_low=True)},
    source="000, Fig. 3: V_n / E^2 against E = exp(-gamma (1 - rho)) (from Eq. 20)",
    description="(1 - E^2)^2 (4 + E^2) / (4 E^2); independent of gamma",
    asymptotic=True,
)
