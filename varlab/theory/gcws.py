"""Generalized consistent weighted sampling: collision moments and the GCWS-based RBF estimator.

Paper 000, Sec. 1.3 and Sec. 3.

* **Collision estimator** (000, Eq. 11-12). One GCWS sample collides with probability
  GMM(u, v), so the indicator is Bernoulli(GMM) and the k-sample average is Binomial(k, GMM)/k:
  mean GMM, variance GMM (1 - GMM) / k, exactly. Its relative variance Var/E^2 per sample is
  (1 - E)/E with E = GMM (000, Fig. 3; 001, Fig. 1).
* **The GMM limit** (000, Eq. 22-23). Under the model of Sec. 3, GMM -> g(rho) =
  (1 - s)/(1 + s) with s = sqrt((1 - rho)/2); conversely rho = 1 - 2 ((1 - g)/(1 + g))^2 and
  the RBF kernel is exp(-gamma (1 - rho)) = exp(-2 gamma ((1 - g)/(1 + g))^2).
* **Theorem 4** (000, Eq. 24-26). With Xbar = Binomial(k, g)/k and
  h(x) = exp(-2 gamma ((1 - x)/(1 + x))^2), h(Xbar) estimates the RBF kernel with bias O(1/k)
  and variance V_g/k + O(1/k^2), V_g = exp(-2 gamma (1 - rho)) 64 gamma^2 g (1 - g)^3/(1 + g)^6.
  varlab adds (its own, labelled): the 1/k bias coefficient b1 = h''(g) g (1 - g)/2
  (``asymptotic_bias``), and the *exact* finite-k mean and variance of h(Xbar), summed over the
  binomial law (``exact_mean``, ``exact_variance``, ``exact_moments``; an mpmath reference
  ``exact_moments_mp``), so that the error of the asymptotic form can be mapped
  (``asymptotic_accuracy``). Those sums are an algorithm of their own, in
  ``varlab.theory.gcws_exact``; g(rho) and its inverse are in ``varlab.theory.gcws_limit``, below
  both; every name is importable from here. The derivations are in
  ``varlab.theory.gcws_derivation``.
* **Fig. 4**: the ratio V_n/V_g of the NRFF and GCWS asymptotic variances (``variance_ratio``).

Stable numerics (each checked against mpmath in the tests). With s = sqrt((1 - rho)/2)::

    g = (1 + rho) / (2 (1 + s)^2),        1 - g = 2 s / (1 + s),
    V_g = 4 gamma^2 (1 + rho) (1 + s) s^3 exp(-2 gamma (1 - rho)),
    b1  = (gamma/2) exp(-gamma (1 - rho)) s (1 + rho) (1 + s) [2 gamma (1 - rho) - (2 - g)],
    V_n/V_g = s (5 - S) (sinh(y)/y)^2 / ((1 + rho)(1 + s)),  y = gamma (1 - rho),
              S = 1 - exp(-2 y),

so V_g and b1 are exactly 0 at rho = +-1 (where Xbar = g is constant), g is accurate near
rho = -1 (g -> 0) and 1 - g near rho = 1 (g -> 1). rho(g) is evaluated as
(g - a)(b - g)/(1 + g)^2 with a, b = 3 -+ 2 sqrt(2) (a held as a double-double), free of the
cancellation of 1 - 2 t^2 near rho = 0.

The ratio V_n/V_g at the edges (both documented in ``variance_ratio``):
rho -> 1: both variances vanish, V_n ~ 5 gamma^2 (1 - rho)^2 and V_g ~ 8 gamma^2 s^3, so the
ratio ~ (5/2) s -> 0; varlab returns the limit 0 at rho = 1. rho = -1: g = 0, Xbar is constant
and V_g = 0 while V_n > 0: the ratio is +inf there (numpy inf, never NaN).
"""
from __future__ import annotations

from functools import lru_cache

import mpmath
import numpy as np
import sympy

from .formula import Formula, _doctests
from .gcws_exact import (_broadcast_inputs, exact_bias, exact_mean, exact_moments, exact_moments_mp,
                         exact_variance)
from .gcws_limit import _g_of_rho_expr, _g_pair, _s, g_of_rho, rbf_of_g, rho_of_g
from .nrff import asymptotic_variance as _nrff_asymptotic_variance
from .parameters import parameter

__all__ = [
    "collision_mean", "collision_variance", "estimator_mean", "estimator_variance",
    "relative_variance_of_mean",
    "g_of_rho", "rho_of_g", "rbf_of_g",                  # defined in gcws_limit
    "asymptotic_variance", "asymptotic_bias", "variance_ratio",
    "asymptotic_accuracy",
    # the exact finite-k moments, defined in gcws_exact
    "exact_moments", "exact_mean", "exact_variance", "exact_bias", "exact_moments_mp",
]

_rho, _gamma, _k, _g, _E, _gmm = (parameter(name).symbol
                                  for name in ("rho", "gamma", "k", "g", "E", "gmm"))
_RHO_GAMMA = ("rho", "gamma")


# ---------------------------------------------------------------------------------------------
# the collision estimator (000, Sec. 1.3)
# ---------------------------------------------------------------------------------------------

collision_mean = Formula(
    name="gcws.collision_mean",
    expr=_gmm,
    numeric=lambda gmm: gmm * 1.0,
    parameters=("gmm",),
    source="000, Thm 1 and Eq. (11)",
    description="E 1{GCWS samples of u and v collide} = GMM(u, v)",
    examples="""
        >>> from varlab.theory import gcws
        >>> gcws.collision_mean(gmm=0.6)                   # P(collision) = GMM(u, v)
        0.6
        """,
)

collision_variance = Formula(
    name="gcws.collision_variance",
    expr=_gmm * (1 - _gmm),
    numeric=lambda gmm: gmm * (1.0 - gmm),
    parameters=("gmm",),
    source="000, Eq. (12)",
    description="Var of one collision indicator (Bernoulli): GMM (1 - GMM)",
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.collision_variance(gmm=0.6), 10)    # Bernoulli: 0.6 * 0.4
        0.24
        """,
)

estimator_mean = Formula(
    name="gcws.estimator_mean",
    expr=_gmm,
    numeric=lambda gmm, k: gmm + 0.0 * k,
    parameters=("gmm", "k"),
    source="000, Sec. 1.3 (binomial, after Eq. 12)",
    description="E of the k-sample collision fraction: GMM (unbiased for every k)",
    examples="""
        >>> from varlab.theory import gcws
        >>> gcws.estimator_mean(gmm=0.6, k=100)            # unbiased for every k
        0.6
        """,
)

estimator_variance = Formula(
    name="gcws.estimator_variance",
    expr=_gmm * (1 - _gmm) / _k,
    numeric=lambda gmm, k: gmm * (1.0 - gmm) / k,
    parameters=("gmm", "k"),
    source="000, Sec. 1.3 (binomial, after Eq. 12)",
    description="Var of the k-sample collision fraction: GMM (1 - GMM) / k (exact)",
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.estimator_variance(gmm=0.6, k=100), 12)     # 0.6 * 0.4 / 100
        0.0024
        """,
)

relative_variance_of_mean = Formula(
    name="gcws.relative_variance_of_mean",
    expr=(1 - _E) / _E,
    numeric=lambda E: (1.0 - E) / E,
    parameters=("E",),
    source="001, Fig. 1 (right) and Sec. 3; 000, Fig. 3: Var/E^2 = E(1 - E)/E^2 with E = GMM",
    description="(1 - E)/E per sample; the k-sample value is this over k",
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.relative_variance_of_mean(E=0.6), 10)       # (1 - E) / E
        0.6666666667
        """,
)


# ---------------------------------------------------------------------------------------------
# Theorem 4: V_g, the 1/k bias and the ratio of Fig. 4
# ---------------------------------------------------------------------------------------------

_eq26_in_g = (sympy.exp(-2 * _gamma * (1 - _rho)) * _g * (1 - _g) ** 3 / (1 + _g) ** 6
              * 64 * _gamma ** 2)


def _asymptotic_variance(rho, gamma):
    s = _s(rho)
    with np.errstate(divide="ignore", over="ignore"):
        log_value = (np.log(4.0) + 2.0 * np.log(gamma) + np.log1p(rho) + np.log1p(s)
                     + 3.0 * np.log(s) - 2.0 * (gamma * (1.0 - rho)))
    return np.exp(log_value)   # exactly 0 at rho = +-1 (log -> -inf), never NaN


asymptotic_variance = Formula(
    name="gcws.asymptotic_variance",
    expr=_eq26_in_g.subs(_g, _g_of_rho_expr),
    numeric=_asymptotic_variance,
    parameters=_RHO_GAMMA,
    source="000, Thm 4, Eq. (25)-(26), with g = g(rho) of Eq. (22)",
    description="V_g: k Var(exp(-2 gamma ((1 - Xbar)/(1 + Xbar))^2)) -> V_g as k -> infinity; "
                "evaluated as 4 gamma^2 (1 + rho)(1 + s) s^3 exp(-2 gamma (1 - rho)); "
                "exactly 0 at rho = +-1",
    asymptotic=True,
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.asymptotic_variance(rho=0.5, gamma=1.0), 10)          # V_g; Var = V_g / k for large k
        0.4138643713
        """,
)

_h_in_g = sympy.exp(-2 * _gamma * ((1 - _g) / (1 + _g)) ** 2)
_bias_in_g = (8 * _gamma * _h_in_g * _g * (1 - _g) / (1 + _g) ** 4
              * (4 * _gamma * ((1 - _g) / (1 + _g)) ** 2 - 2 + _g))


def _asymptotic_bias(rho, gamma):
    s, g, _ = _g_pair(rho)
    # the bracket B = 2 gamma (1 - rho) - (2 - g), through log|B| so that no gamma overflows:
    # B = gamma (2 (1 - rho) - (2 - g)/gamma) for gamma >= 1
    large = gamma >= 1.0
    gamma_large = np.where(large, gamma, 1.0)
    gamma_small = np.where(large, 1.0, gamma)
    bracket = np.where(large, 2.0 * (1.0 - rho) - (2.0 - g) / gamma_large,
                       2.0 * gamma_small * (1.0 - rho) - (2.0 - g))
    with np.errstate(divide="ignore", over="ignore"):
        log_value = (np.log(0.5) + np.log(s) + np.log1p(rho) + np.log1p(s) + np.log(gamma)
                     - gamma * (1.0 - rho) + np.log(np.abs(bracket))
                     + np.where(large, np.log(gamma_large), 0.0))
    sign = np.sign(bracket)
    return sign * np.exp(log_value)   # exactly 0 at rho = +-1 (log -> -inf), never NaN


asymptotic_bias = Formula(
    name="gcws.asymptotic_bias",
    expr=_bias_in_g.subs(_g, _g_of_rho_expr),
    numeric=_asymptotic_bias,
    parameters=_RHO_GAMMA,
    source="varlab (derived; the paper states only O(1/k) in 000, Thm 4, Eq. (24)): "
           "b1 = h''(g) g (1 - g) / 2 by the delta method; see varlab.theory.gcws_derivation",
    description="b1: k (E exp(-2 gamma ((1-Xbar)/(1+Xbar))^2) - exp(-gamma (1 - rho))) -> b1; "
                "b1 = 8 gamma h(g) g (1-g)/(1+g)^4 [4 gamma ((1-g)/(1+g))^2 - 2 + g], "
                "evaluated as (gamma/2) e^{-gamma (1-rho)} s (1+rho)(1+s) [2 gamma (1-rho) - (2-g)]; "
                "exactly 0 at rho = +-1",
    asymptotic=True,
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.asymptotic_bias(rho=0.5, gamma=1.0), 10)              # b1; bias = b1 / k for large k
        -0.2274489974
        """,
)


def _log_sinhc(y):
    """log(sinh(y)/y) for y >= 0, without overflow (0 at y = 0)."""
    small = y < 20.0
    ys = np.where(small, y, 1.0)
    yl = np.where(small, 20.0, y)
    with np.errstate(invalid="ignore", divide="ignore"):
        near = np.where(ys == 0.0, 0.0, np.log(np.sinh(ys) / np.where(ys == 0.0, 1.0, ys)))
    with np.errstate(invalid="ignore"):
        far = yl - np.log(2.0) - np.log(yl) + np.log1p(-np.exp(-2.0 * yl))
    return np.where(small, near, np.where(np.isinf(yl), np.inf, far))


def _variance_ratio(rho, gamma):
    s = _s(rho)
    with np.errstate(over="ignore"):
        y = gamma * (1.0 - rho)
        big_s = -np.expm1(-2.0 * y)
    with np.errstate(divide="ignore", over="ignore"):
        log_value = (np.log(s) + np.log(5.0 - big_s) + 2.0 * _log_sinhc(y)
                     - np.log1p(rho) - np.log1p(s))
        return np.exp(log_value)   # 0 at rho = 1 (limit), +inf at rho = -1; never NaN


@lru_cache(maxsize=None)
def _variance_ratio_lambdified():
    return sympy.lambdify((_rho, _gamma), _nrff_asymptotic_variance.expr / asymptotic_variance.expr,
                          modules="mpmath")


def _variance_ratio_mp(rho, gamma):
    """mpmath reference: V_n/V_g from the two expressions, and their limits where both are 0 or
    V_g is 0: 0 at rho = 1, +inf at rho = -1 (sympy's limits; test_variance_ratio_limits)."""
    if rho == 1:
        return mpmath.mpf(0)
    if rho == -1:
        return mpmath.inf
    return _variance_ratio_lambdified()(rho, gamma)


variance_ratio = Formula(
    name="gcws.variance_ratio",
    expr=_nrff_asymptotic_variance.expr / asymptotic_variance.expr,
    reference=_variance_ratio_mp,
    numeric=_variance_ratio,
    parameters=_RHO_GAMMA,
    source="000, Fig. 4: V_n / V_g from Thm 3, Eq. (20) and Thm 4, Eq. (26)",
    description="NRFF over GCWS asymptotic variance for estimating the RBF kernel; "
                "= s (5 - S)(sinh(y)/y)^2/((1+rho)(1+s)), y = gamma (1 - rho), S = 1 - e^{-2y}. "
                "rho = 1: both variances are 0; the value returned is the limit 0 "
                "(ratio ~ (5/2) sqrt((1 - rho)/2)). rho = -1: V_g = 0 < V_n, returns +inf. "
                "Values above the float64 range (gamma (1 - rho) > ~350) return +inf.",
    asymptotic=True,
    examples="""
        >>> from varlab.theory import gcws
        >>> gcws.variance_ratio(rho=[0.0, 0.5, 0.9], gamma=1.0).round(6)     # V_n / V_g (000, Fig. 4)
        array([2.365699, 1.054271, 0.465018])
        """,
)


def asymptotic_accuracy(rho, gamma, k):
    """Relative error |V_g/k - Var| / Var of Theorem 4's variance against the exact one.

    Broadcasts like ``exact_moments``. Where the exact variance is 0 (rho = +-1, where V_g = 0
    too) the asymptotic form is exact and 0 is returned; where only the exact variance
    underflows to 0 (extreme gamma), +inf.

    Examples
    --------
    >>> from varlab.theory import gcws
    >>> float(gcws.asymptotic_accuracy(rho=0.5, gamma=1.0, k=1000))     # Thm 4's V_g/k is 0.18% off at k = 1000
    0.00175083883803
    """
    rho_a, gamma_a, k_a = _broadcast_inputs(rho, gamma, k)
    variance = np.asarray(exact_variance(rho=rho_a, gamma=gamma_a, k=k_a))
    approx = np.asarray(asymptotic_variance(rho=rho_a, gamma=gamma_a)) / k_a
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.abs(approx - variance) / variance
    ratio = np.where(variance > 0, ratio, np.where(approx > 0, np.inf, 0.0))
    return float(ratio) if ratio.ndim == 0 else ratio


__test__ = _doctests(globals())     # the Formulas' Examples, those of gcws_limit and gcws_exact too
