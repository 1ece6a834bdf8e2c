"""Moments of one random Fourier feature product (paper 000, Theorem 2).

With x, y standard bivariate normal, E(xy) = rho, and w ~ U(0, 2 pi), one RFF sample is
X Y = sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w); the no-phase sample is
cos(sqrt(gamma) x) cos(sqrt(gamma) y). The estimator of k samples is their average, so its
variance is the per-sample variance divided by k, exactly.

Stable numerics: with s = -expm1(-2 gamma (1 - rho)) = 1 - exp(-2 gamma (1 - rho)),
V = 1/2 + s^2 / 2; near rho = 1 s is computed without cancellation. Products are formed as
2 (gamma (1 - rho)), never (2 gamma)(1 - rho): the latter overflows to -inf * 0 = NaN at
rho = 1 for gamma near the float64 maximum (the two agree to the last bit otherwise).

>>> variance(rho=0.0, gamma=1.0)
0.873822536208
"""
from __future__ import annotations

import numpy as np
import sympy

from .formula import Formula, _doctests
from .parameters import parameter

__all__ = ["mean", "variance", "no_phase_mean", "no_phase_variance", "relative_variance",
           "relative_variance_of_mean"]

_rho, _gamma, _E = (parameter(name).symbol for name in ("rho", "gamma", "E"))


def _twice(rho, gamma):
    """-2 gamma (1 - rho), without overflowing to -inf * 0 at rho = 1."""
    return -2.0 * (gamma * (1.0 - rho))


mean = Formula(
    name="rff.mean",
    parameters=("rho", "gamma"),
    expr=sympy.exp(-_gamma * (1 - _rho)),
    numeric=lambda rho, gamma: np.exp(-gamma * (1.0 - rho)),
    source="000, Thm 2, Eq. (16)",
    description="E[sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)] = exp(-gamma (1 - rho))",
    examples="""
        >>> from varlab.theory import rff
        >>> round(rff.mean(rho=0.5, gamma=2.0), 10)            # exp(-2 (1 - 0.5)) = exp(-1)
        0.3678794412
        """,
)

variance = Formula(
    name="rff.variance",
    parameters=("rho", "gamma"),
    expr=sympy.Rational(1, 2) + sympy.Rational(1, 2) * (1 - sympy.exp(-2 * _gamma * (1 - _rho))) ** 2,
    numeric=lambda rho, gamma: 0.5 + 0.5 * np.expm1(_twice(rho, gamma)) ** 2,
    source="000, Thm 2, Eq. (18)",
    description="Var of one RFF sample; the k-sample estimator has variance V / k exactly",
    examples="""
        >>> from varlab.theory import rff
        >>> round(rff.variance(rho=0.5, gamma=1.0), 10)        # one sample; k samples: this / k
        0.6997882004
        >>> rff.variance(rho=1.0, gamma=1.0)                   # 1/2 even at rho = 1
        0.5
        """,
)

no_phase_mean = Formula(
    name="rff.no_phase_mean",
    parameters=("rho", "gamma"),
    expr=(sympy.exp(-_gamma * (1 - _rho)) + sympy.exp(-_gamma * (1 + _rho))) / 2,
    numeric=lambda rho, gamma: 0.5 * np.exp(-gamma * (1.0 - rho)) + 0.5 * np.exp(-gamma * (1.0 + rho)),
    source="000, Thm 2, Eq. (17); 001, Eq. (11) (folded RBF)",
    description="E[cos(sqrt(gamma) x) cos(sqrt(gamma) y)]",
    examples="""
        >>> from varlab.theory import rff
        >>> round(rff.no_phase_mean(rho=0.5, gamma=1.0), 10)   # (e^{-1/2} + e^{-3/2}) / 2
        0.4148304099
        """,
)

no_phase_variance = Formula(
    name="rff.no_phase_variance",
    parameters=("rho", "gamma"),
    expr=((1 - sympy.exp(-2 * _gamma * (1 - _rho))) ** 2
          + (1 - sympy.exp(-2 * _gamma * (1 + _rho))) ** 2) / 8,
    numeric=lambda rho, gamma: 0.125 * (np.expm1(_twice(rho, gamma)) ** 2
                                        + np.expm1(-2.0 * (gamma * (1.0 + rho))) ** 2),
    source="varlab (derived; not in the papers): cos^2 = (1 + cos 2.)/2 and "
           "E cos(a x + b y) = exp(-(a^2 + b^2 + 2ab rho)/2); see varlab.theory.derivations",
    description="Var[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = "
                "[(1 - e^{-2 gamma (1 - rho)})^2 + (1 - e^{-2 gamma (1 + rho)})^2] / 8",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import rff
        >>> round(rff.no_phase_variance(rho=0.5, gamma=1.0), 10)
        0.162810127
        """,
)


def _relative(variance_values, mean_values):
    # E^2 underflows to 0 once gamma (1 - rho) > ~372: Var/E^2 is then above the float64 range
    # and +inf is returned (never NaN: Var >= 1/2)
    with np.errstate(divide="ignore", over="ignore", under="ignore"):
        return variance_values / mean_values ** 2


relative_variance = Formula(
    name="rff.relative_variance",
    parameters=("rho", "gamma"),
    expr=variance.expr / mean.expr ** 2,
    numeric=lambda rho, gamma: _relative(variance.numeric(rho, gamma), mean.numeric(rho, gamma)),
    source="001, Fig. 1 (left), from Eq. (12) and (14); 000, Fig. 3",
    description="Var / E^2 of one RFF sample as a function of (rho, gamma)",
    examples="""
        >>> from varlab.theory import rff
        >>> rff.relative_variance(rho=[0.0, 0.5, 0.9], gamma=1.0).round(6)    # Var / E^2 grows as rho falls
        array([6.456724, 1.902222, 0.630768])
        """,
)

relative_variance_of_mean = Formula(
    name="rff.relative_variance_of_mean",
    parameters=("E",),
    expr=(sympy.Rational(1, 2) + sympy.Rational(1, 2) * (1 - _E ** 2) ** 2) / _E ** 2,
    numeric=lambda E: (0.5 + 0.5 * ((1.0 - E) * (1.0 + E)) ** 2) / E ** 2,
    source="001, Fig. 1 (right); 000, Fig. 3: Var/E^2 of RFF against E = exp(-gamma (1 - rho))",
    description="(1/2 + (1 - E^2)^2 / 2) / E^2; independent of gamma",
    examples="""
        >>> from varlab.theory import rff
        >>> rff.relative_variance_of_mean(E=0.5), rff.relative_variance_of_mean(E=1.0)
        (3.125, 0.5)
        """,
)


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
