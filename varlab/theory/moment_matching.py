"""Variances of Monte Carlo, control-variate, antithetic and moment-matched random features of
the Gaussian kernel (paper 003, Shen, Yang and Wang, Sec. 3), and varlab's exact finite-m law of
the moment-matched estimator.

Setting (003, Eq. 3-5): k(x, y) = exp(-|c|^2 / (2 sigma^2)), c = x - y, w ~ N(0, Sigma),
Sigma = I / sigma^2. Everything depends on c only through s = |c| / sigma (``scaled_distance``;
c' Sigma c = s^2 = y below): t = c'w ~ N(0, s^2) for i.i.d. Gaussian frequencies in any d.

* Complex features (003, Eq. 4-5): E_MC = (1/m) sum exp(-i t_j); its variance E|E - k|^2 is
  V_MC = (1 - e^{-y}) / m (Cor. 1). Controls (Eq. 10): g1 = -i t, g2 = -(t^2 - y)/2, with the
  optimal coefficients beta1* = beta2* = e^{-y/2} (Thm 1) and V_CV* = V_MC (1 - rho1^2 -
  rho2^2 / 2) = (1 - e^{-y}(1 + y + y^2/2)) / m (Cor. 1, Eq. 12) = P(3, y) / m, the regularized
  incomplete gamma function (no cancellation at small y).
* Real cosine features (cos/sin pairs; the real part of E_MC), varlab's own: V = (1 - e^{-y})^2
  / (2m); the first control is imaginary and drops out (its optimal coefficient is 0); with the
  second, V_CV* = ((1 - e^{-y})^2 - y^2 e^{-y}) / (2m).
* Antithetic pairs (w, -w), varlab's own: the imaginary parts cancel and each pair gives
  cos t; V_anti = (1 - e^{-y})^2 / m for m = 2 x pairs (complex and real alike).
* Random-phase cosine features sqrt2 cos(w'x + b), b ~ U[0, 2 pi) i.i.d. per feature (Rahimi and
  Recht's real map; ``varlab.features.RFF``'s default, also with ``sampler=``), varlab's own:
  with a = w'x + b (uniform mod 2 pi and independent of w) one product is 2 cos(a) cos(a - t) =
  cos t + cos(2a - t); given the frequencies the second term has mean 0 and variance 1/2, so each
  feature's variance is 1 + k(2c)/2 - k(c)^2 = (1 + (1 - e^{-y})^2) / 2 (000, Thm 2, Eq. 18 with
  2 gamma (1 - rho) = y) -- not the (1 + k(2c))/2 - k(c)^2 = (1 - e^{-y})^2 / 2 of a cos/sin pair
  per frequency -- and for ANY frequency sampler (MC, CV, antithetic, moment matching) the
  random-phase estimator has the cos-pair variance plus 1/(2m) and the same mean. Moment matching
  leaves this 1/(2m) untouched.
* Moment matching (003, Alg. 1, Eq. 8), varlab's own exact law: for m >= d + 1 the projections
  t_j = c' w~_j, j = 1..m, of the moment-matched frequencies are uniform on the sphere
  {sum t = 0, sum t^2 = D s^2} (D the covariance divisor, m or m - 1), for the Cholesky and the
  symmetric square root alike and whatever d and the direction of c (the centred, whitened
  sample is sqrt(D) times a Haar-distributed m x d frame in the complement of 1; see
  ``moment_matching_derivation``). Hence, with H(L) = 0F1(; (m-1)/2; -L/4) (the characteristic
  function of that sphere at a vector whose projection on 1-perp has squared length L) and
  r^2 = D s^2:

      E[E_MM]        = H(r^2 (1 - 1/m))
      E|E_MM|^2      = 1/m + (1 - 1/m) H(2 r^2)
      E[(Re E_MM)^2] = (1 + H(4 r^2 (1 - 1/m))) / (2m) + (1 - 1/m) (H(2 r^2) + H(r^2 (2 - 4/m))) / 2

  and with random-phase features the variance is Var(Re E_MM) + 1/(2m).

  The mean differs from k: E_MM is biased, by O(1/m) (coefficients in
  ``moment_matching_derivation.mm_bias_coefficient``), and its law does not depend on d.
  These are computed Formulas: numpy calls mpmath's hyp0f1 point by point at a working
  precision that covers the cancellation in the variance (they are cheap: < 1 ms per point).
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np
import sympy
from scipy import special

from .formula import Formula, _doctests
from .parameters import parameter

__all__ = ["SCALED_DISTANCE", "MM_DOF", "DIVISORS", "FEATURE_VARIANCE",
           "kernel", "beta_optimal", "mc_variance", "rho1_squared", "rho2_squared", "cv_optimal_variance",
           "mc_cosine_variance", "cv_cosine_optimal_variance", "antithetic_variance", "mc_phase_variance",
           "cv_phase_optimal_variance", "antithetic_phase_variance",
           "mm_mean_divisor_m", "mm_mean_divisor_m_minus_1", "mm_variance_divisor_m",
           "mm_variance_divisor_m_minus_1", "mm_cosine_variance_divisor_m",
           "mm_cosine_variance_divisor_m_minus_1", "mm_phase_variance_divisor_m",
           "mm_phase_variance_divisor_m_minus_1", "mm_formula", "mm_moments", "cv_variance"]

# declared in theory/parameters.py (so that the registry is complete after ``import varlab``)
SCALED_DISTANCE, MM_DOF = (parameter(name) for name in ("scaled_distance", "mm_dof"))

_s, _m = (parameter(name).symbol for name in ("scaled_distance", "m"))
_y = _s ** 2

#: the divisors of the sample covariance that Alg. 1 leaves open
DIVISORS = ("m", "m-1")


def _y_of(s):
    return np.square(s)


kernel = Formula(
    name="moment_matching.kernel",
    parameters=("scaled_distance",),
    expr=sympy.exp(-_y / 2),
    numeric=lambda scaled_distance: np.exp(-0.5 * _y_of(scaled_distance)),
    source="003, Eq. (3) and the text after it: k = exp(-|c|^2 / (2 sigma^2))",
    description="the Gaussian kernel at s = |c| / sigma",
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.kernel(scaled_distance=1.0), 10)          # exp(-1/2)
        0.6065306597
        """,
)

beta_optimal = Formula(
    name="moment_matching.beta_optimal",
    parameters=("scaled_distance",),
    expr=sympy.exp(-_y / 2),
    numeric=lambda scaled_distance: np.exp(-0.5 * _y_of(scaled_distance)),
    source="003, Thm 1: beta1* = beta2* = exp(-c' Sigma c / 2)",
    description="optimal coefficient of both controls of Eq. (10) (complex features)",
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.beta_optimal(scaled_distance=1.0), 10)    # = k itself
        0.6065306597
        """,
)

mc_variance = Formula(
    name="moment_matching.mc_variance",
    parameters=("scaled_distance", "m"),
    expr=(1 - sympy.exp(-_y)) / _m,
    numeric=lambda scaled_distance, m: -np.expm1(-_y_of(scaled_distance)) / m,
    source="003, Cor. 1: V_MC = m^{-1} (1 - exp(-c' Sigma c))",
    description="E|E_MC - k|^2 of the complex-feature Monte Carlo estimator (Eq. 4-5)",
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.mc_variance(scaled_distance=1.0, m=10), 10)     # (1 - e^{-1}) / 10
        0.0632120559
        """,
)


def _rho1_numeric(scaled_distance):
    y = _y_of(scaled_distance)
    safe = np.where(y > 0, y, 1.0)
    with np.errstate(over="ignore"):
        return np.where(y > 0, safe / np.expm1(safe), 1.0)


def _rho2_numeric(scaled_distance):
    return _y_of(scaled_distance) * _rho1_numeric(scaled_distance)


rho1_squared = Formula(
    name="moment_matching.rho1_squared",
    parameters=("scaled_distance",),
    expr=sympy.exp(-_y) * _y / (1 - sympy.exp(-_y)),
    reference=lambda scaled_distance: (1 if scaled_distance == 0 else
                                       scaled_distance ** 2 / mpmath.expm1(scaled_distance ** 2)),
    numeric=_rho1_numeric,
    source="003, Cor. 1: rho1^2 = e^{-c'Sigma c} c'Sigma c / (1 - e^{-c'Sigma c}) (limit 1 at c = 0)",
    description="the paper's rho1^2; it is the squared correlation of e^{-it} with the first control",
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.rho1_squared(scaled_distance=1.0), 10)    # 1 / (e - 1)
        0.5819767069
        >>> moment_matching.rho1_squared(scaled_distance=0.0)               # the limit at c = 0
        1.0
        """,
)

rho2_squared = Formula(
    name="moment_matching.rho2_squared",
    parameters=("scaled_distance",),
    expr=sympy.exp(-_y) * _y ** 2 / (1 - sympy.exp(-_y)),
    reference=lambda scaled_distance: (0 if scaled_distance == 0 else
                                       scaled_distance ** 4 / mpmath.expm1(scaled_distance ** 2)),
    numeric=_rho2_numeric,
    source="003, Cor. 1: rho2^2 = e^{-c'Sigma c} (c'Sigma c)^2 / (1 - e^{-c'Sigma c}) (limit 0 at c = 0)",
    description="the paper's rho2^2: twice the squared correlation of e^{-it} with the second "
                "control (see moment_matching_derivation.squared_correlations)",
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.rho2_squared(scaled_distance=1.0), 10)    # = rho1^2 at s = 1 (y^2 = y)
        0.5819767069
        """,
)

cv_optimal_variance = Formula(
    name="moment_matching.cv_optimal_variance",
    parameters=("scaled_distance", "m"),
    expr=(1 - sympy.exp(-_y) * (1 + _y + _y ** 2 / 2)) / _m,
    numeric=lambda scaled_distance, m: special.gammainc(3.0, _y_of(scaled_distance)) / m,
    source="003, Cor. 1, Eq. (12): V_CV* = V_MC (1 - rho1^2 - rho2^2 / 2)",
    description="variance of the optimal two-control estimator (complex features); = P(3, s^2)/m",
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.cv_optimal_variance(scaled_distance=1.0, m=10), 10)   # against 0.0632 for MC
        0.0080301397
        """,
)

mc_cosine_variance = Formula(
    name="moment_matching.mc_cosine_variance",
    parameters=("scaled_distance", "m"),
    expr=(1 - sympy.exp(-_y)) ** 2 / (2 * _m),
    numeric=lambda scaled_distance, m: np.expm1(-_y_of(scaled_distance)) ** 2 / (2.0 * m),
    source="varlab (derived; the paper gives the complex case only): Var cos t = (1 - e^{-y})^2/2",
    description="variance of (1/m) sum cos(c'w_j), the real part of E_MC (cos/sin pair features)",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.mc_cosine_variance(scaled_distance=1.0, m=10), 10)
        0.01997882
        """,
)


def _two_sinh_half_minus(y):
    """2 sinh(y/2) - y without cancellation (series below y = 1)."""
    y = np.asarray(y, dtype=float)
    small = y < 1.0
    h = np.where(small, y / 2.0, 0.0)
    series = np.zeros_like(y)
    term = h ** 3 / 6.0
    for order in range(3, 30, 2):              # 2 sum_{odd k >= 3} h^k / k!  (h < 1/2: 14 terms)
        series += term
        term = term * h * h / ((order + 1) * (order + 2))
    with np.errstate(over="ignore"):
        direct = 2.0 * np.sinh(np.where(small, 1.0, y) / 2.0) - np.where(small, 1.0, y)
    return np.where(small, 2.0 * series, direct)


def _cv_cosine_numeric(scaled_distance, m):
    # (1 - e^{-y})^2 - y^2 e^{-y} = e^{-y} (2 sinh(y/2) - y) (2 sinh(y/2) + y)
    y = _y_of(scaled_distance)
    with np.errstate(over="ignore", invalid="ignore"):
        both = np.exp(-y) * _two_sinh_half_minus(y) * (2.0 * np.sinh(y / 2.0) + y)
    large = y > 60.0                           # e^{-y} sinh^2 overflows; the value is 1 - ~0
    both = np.where(large, np.expm1(-y) ** 2, both)
    return both / (2.0 * m)


cv_cosine_optimal_variance = Formula(
    name="moment_matching.cv_cosine_optimal_variance",
    parameters=("scaled_distance", "m"),
    expr=((1 - sympy.exp(-_y)) ** 2 - _y ** 2 * sympy.exp(-_y)) / (2 * _m),
    numeric=_cv_cosine_numeric,
    source="varlab (derived): real part of Eq. (10) with beta2* = e^{-y/2} (beta1* = 0 for cosines)",
    description="variance of the optimal control-variate estimator with real cosine features",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.cv_cosine_optimal_variance(scaled_distance=1.0, m=10), 10)
        0.001584848
        """,
)

antithetic_variance = Formula(
    name="moment_matching.antithetic_variance",
    parameters=("scaled_distance", "m"),
    expr=(1 - sympy.exp(-_y)) ** 2 / _m,
    numeric=lambda scaled_distance, m: np.expm1(-_y_of(scaled_distance)) ** 2 / m,
    source="varlab (derived): m/2 antithetic pairs (w, -w) give (2/m) sum cos t_p; Var cos t = "
           "(1 - e^{-y})^2 / 2 (m even)",
    description="variance of the antithetic estimator (complex and cosine features alike)",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.antithetic_variance(scaled_distance=1.0, m=10), 10)   # 5 pairs
        0.0399576401
        """,
)


#: the variance that i.i.d. random phases add to (1/m) sum cos(c'w_j), whatever the frequencies
_PHASE_NOISE = "+ 1/(2m): 2 cos(a) cos(a - t) = cos t + cos(2a - t), a = w'x + b ~ U[0, 2 pi) given w"

mc_phase_variance = Formula(
    name="moment_matching.mc_phase_variance",
    parameters=("scaled_distance", "m"),
    expr=(1 + (1 - sympy.exp(-_y)) ** 2) / (2 * _m),
    numeric=lambda scaled_distance, m: (1.0 + np.expm1(-_y_of(scaled_distance)) ** 2) / (2.0 * m),
    source="varlab (derived; the paper gives the complex case only): per feature 1 + k(2c)/2 - k(c)^2 "
           "(= 000, Thm 2, Eq. (18) at 2 gamma (1 - rho) = s^2)",
    description="variance of (1/m) sum 2 cos(w_j'x + b_j) cos(w_j'y + b_j), i.i.d. Gaussian w_j "
                "and random phases b_j (the real RFF map)",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.mc_phase_variance(scaled_distance=1.0, m=10), 10)     # cosine + 1/(2m)
        0.06997882
        """,
)

cv_phase_optimal_variance = Formula(
    name="moment_matching.cv_phase_optimal_variance",
    parameters=("scaled_distance", "m"),
    expr=((1 - sympy.exp(-_y)) ** 2 - _y ** 2 * sympy.exp(-_y) + 1) / (2 * _m),
    numeric=lambda scaled_distance, m: _cv_cosine_numeric(scaled_distance, m) + 0.5 / m,
    source=f"varlab (derived): the cosine CV* of Eq. (10) (beta1* = 0, beta2* = e^{{-y/2}}) {_PHASE_NOISE}",
    description="variance of the optimal control-variate estimator with random-phase features",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.cv_phase_optimal_variance(scaled_distance=1.0, m=10), 10)
        0.051584848
        """,
)

antithetic_phase_variance = Formula(
    name="moment_matching.antithetic_phase_variance",
    parameters=("scaled_distance", "m"),
    expr=((1 - sympy.exp(-_y)) ** 2 + sympy.Rational(1, 2)) / _m,
    numeric=lambda scaled_distance, m: (np.expm1(-_y_of(scaled_distance)) ** 2 + 0.5) / m,
    source=f"varlab (derived): antithetic pairs (w, -w), each feature its own phase, {_PHASE_NOISE}",
    description="variance of the antithetic estimator with random-phase features (m even)",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import moment_matching
        >>> round(moment_matching.antithetic_phase_variance(scaled_distance=1.0, m=10), 10)
        0.0899576401
        """,
)


# --- moment matching: the exact finite-m law (varlab's own) -------------------------------------

@lru_cache(maxsize=2 ** 16)
def _H_at(precision: int, L, m: int):
    """0F1(; (m - 1)/2; -L/4) at ``precision`` bits (memoised: the mean, the complex, cosine and
    random-phase variances share their terms, and claims ask for the same points again)."""
    with mpmath.workprec(precision):
        return mpmath.hyp0f1(mpmath.mpf(m - 1) / 2, -L / 4)


def _H(L, m):
    """0F1(; (m - 1)/2; -L/4) in mpmath at the ambient precision (L >= 0, m >= 2 an int)."""
    return _H_at(mpmath.mp.prec, L, m)


def _mm_value(s, m, divisor, what):
    """E[E_MM] or one of its variances at the ambient mpmath precision (only the 0F1 terms that
    ``what`` needs):

        E[E_MM] = H(r^2 (1 - 1/m)), E|E_MM|^2 = 1/m + (1 - 1/m) H(2 r^2),
        E[(Re E_MM)^2] = (1 + H(4 r^2 (1 - 1/m))) / (2m) + (1 - 1/m) (H(2 r^2) + H(r^2 (2 - 4/m))) / 2
    """
    s = mpmath.mpf(s)
    m = int(m)
    D = m if divisor == "m" else m - 1
    r2 = D * s * s
    one_minus = 1 - mpmath.mpf(1) / m
    mean = _H(r2 * one_minus, m)
    if what == "mean":
        return mean
    phase_noise = mpmath.mpf(1) / (2 * m) if what == "phase_variance" else 0
    if s == 0 or m == 2:          # m = 2: t_2 = -t_1 with |t_1| fixed, Re E_MM is a constant
        return phase_noise
    pair = _H(2 * r2, m)
    if what == "variance":
        second = mpmath.mpf(1) / m + one_minus * pair
    else:
        second = ((1 + _H(4 * r2 * one_minus, m)) / (2 * m)
                  + one_minus * (pair + _H(r2 * (2 - mpmath.mpf(4) / m), m)) / 2)
    return second - mean * mean + phase_noise


def _working_dps(s, m) -> int:
    """Digits that cover the cancellation: the variance is ~ s^6 / m (s^8 for cosines) against
    terms of size 1 (the mean gets the same digits, so that it shares its 0F1 term)."""
    if s == 0:
        return 30
    return 30 + int(8 * max(0.0, -math.log10(s))) + int(math.log10(m) + 1)


def _mm_numeric(divisor, what):
    def scalar(s, m):
        s, m = float(s), int(m)
        with mpmath.workdps(_working_dps(s, m)):
            return float(_mm_value(s, m, divisor, what))

    vectorized = np.vectorize(scalar, otypes=[np.float64])

    def numeric(scaled_distance, mm_dof):
        return vectorized(scaled_distance, mm_dof + 1)
    return numeric


def _mm_reference(divisor, what):
    def reference(scaled_distance, mm_dof):
        s, m = scaled_distance, int(mm_dof) + 1
        if s != 0:
            extra = _working_dps(float(s), m) - 30
            with mpmath.workdps(mpmath.mp.dps + extra):
                return _mm_value(s, m, divisor, what)
        return _mm_value(s, m, divisor, what)
    return reference


_WHAT = {"mean": "E[E_MM] (its real part; the imaginary part has mean 0)",
         "variance": "E|E_MM - E E_MM|^2 (complex features)",
         "cosine_variance": "Var(Re E_MM) (real cosine features)",
         "phase_variance": "Var(Re E_MM) + 1/(2m) (random-phase cosine features)"}
#: ``features`` of the models -> the MM variance Formula's ``what``
FEATURE_VARIANCE = {"complex": "variance", "cosine": "cosine_variance", "phase": "phase_variance"}


def _mm_formula(divisor: str, what: str, examples: str) -> Formula:
    suffix = "m" if divisor == "m" else "m_minus_1"
    return Formula(
        name=f"moment_matching.mm_{what}_divisor_{suffix}",
        parameters=("scaled_distance", "mm_dof"),
        numeric=_mm_numeric(divisor, what),
        reference=_mm_reference(divisor, what),
        tolerance=1e-12,
        source="varlab (derived): 003, Alg. 1 with covariance divisor "
               f"{divisor}; t = (c'w~_j)_j is uniform on the sphere {{sum t = 0, sum t^2 = "
               f"{divisor} s^2}} for m >= d + 1 (any d, either square root); moments by 0F1",
        description=f"{_WHAT[what]} of the moment-matched estimator with m = mm_dof + 1 "
                    f"frequencies, exact for m >= d + 1 and independent of d",
        derived_by_varlab=True,
        examples=examples,
    )


mm_mean_divisor_m = _mm_formula("m", "mean", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_mean_divisor_m(scaled_distance=1.0, mm_dof=9), 10)   # m = 10; k = 0.6065
    0.591312019
    """)
mm_mean_divisor_m_minus_1 = _mm_formula("m-1", "mean", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_mean_divisor_m_minus_1(scaled_distance=1.0, mm_dof=9), 10)   # m = 10
    0.6247921708
    """)
mm_variance_divisor_m = _mm_formula("m", "variance", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_variance_divisor_m(scaled_distance=1.0, mm_dof=9), 10)   # MC: 0.0632
    0.0056726941
    """)
mm_variance_divisor_m_minus_1 = _mm_formula("m-1", "variance", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_variance_divisor_m_minus_1(scaled_distance=1.0, mm_dof=9), 10)
    0.0043471563
    """)
mm_cosine_variance_divisor_m = _mm_formula("m", "cosine_variance", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_cosine_variance_divisor_m(scaled_distance=1.0, mm_dof=9), 10)
    0.000580046
    """)
mm_cosine_variance_divisor_m_minus_1 = _mm_formula("m-1", "cosine_variance", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_cosine_variance_divisor_m_minus_1(scaled_distance=1.0, mm_dof=9), 10)
    0.0004015667
    """)
mm_phase_variance_divisor_m = _mm_formula("m", "phase_variance", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_phase_variance_divisor_m(scaled_distance=1.0, mm_dof=9), 10)   # cosine + 1/20
    0.050580046
    """)
mm_phase_variance_divisor_m_minus_1 = _mm_formula("m-1", "phase_variance", """
    >>> from varlab.theory import moment_matching
    >>> round(moment_matching.mm_phase_variance_divisor_m_minus_1(scaled_distance=1.0, mm_dof=9), 10)
    0.0504015667
    """)

_MM = {("m", "mean"): mm_mean_divisor_m, ("m-1", "mean"): mm_mean_divisor_m_minus_1,
       ("m", "variance"): mm_variance_divisor_m, ("m-1", "variance"): mm_variance_divisor_m_minus_1,
       ("m", "cosine_variance"): mm_cosine_variance_divisor_m,
       ("m-1", "cosine_variance"): mm_cosine_variance_divisor_m_minus_1,
       ("m", "phase_variance"): mm_phase_variance_divisor_m,
       ("m-1", "phase_variance"): mm_phase_variance_divisor_m_minus_1}


def mm_formula(divisor: str, what: str) -> Formula:
    """The exact MM Formula for ``divisor`` ("m" or "m-1") and ``what`` ("mean", "variance",
    "cosine_variance", "phase_variance").

    Examples
    --------
    >>> from varlab.theory import moment_matching
    >>> f = moment_matching.mm_formula("m-1", "variance")
    >>> f.name, f.parameters
    ('moment_matching.mm_variance_divisor_m_minus_1', ('scaled_distance', 'mm_dof'))
    """
    if divisor not in DIVISORS:
        raise ValueError(f"divisor must be one of {list(DIVISORS)}, got {divisor!r}")
    if what not in _WHAT:
        raise ValueError(f"what must be one of {list(_WHAT)}, got {what!r}")
    return _MM[(divisor, what)]


def _features(features) -> str:
    if not isinstance(features, str) or features not in FEATURE_VARIANCE:
        raise ValueError(f"features must be one of {list(FEATURE_VARIANCE)}, got {features!r}")
    return features


def mm_moments(scaled_distance, m, divisor="m-1", features="complex") -> dict:
    """{"mean", "bias", "variance", "mse"} of E_MM with m >= 2 frequencies (numpy arrays; exact
    for m >= d + 1); ``features`` "complex", "cosine" or "phase" (random-phase cosines).

    Examples
    --------
    >>> from varlab.theory import moment_matching
    >>> moments = moment_matching.mm_moments(1.0, 10)          # s = 1, m = 10, divisor m - 1
    >>> {name: round(float(value), 8) for name, value in moments.items()}
    {'mean': 0.62479217, 'bias': 0.01826151, 'variance': 0.00434716, 'mse': 0.00468064}
    """
    dof = np.asarray(m) - 1
    mean = mm_formula(divisor, "mean")(scaled_distance=scaled_distance, mm_dof=dof)
    variance = mm_formula(divisor, FEATURE_VARIANCE[_features(features)])(
        scaled_distance=scaled_distance, mm_dof=dof)
    bias = mean - kernel(scaled_distance=scaled_distance)
    return {"mean": mean, "bias": bias, "variance": variance, "mse": variance + bias ** 2}


def cv_variance(scaled_distance, m, beta1, beta2, features="complex"):
    """Variance of Eq. (10) for any coefficients (varlab, from the Gaussian moments of t):
    real part (1 - e^{-y})^2/2 - beta2 y^2 k + beta2^2 y^2/2, imaginary part
    (1 - e^{-2y})/2 - 2 beta1 y k + beta1^2 y (complex = their sum; cosine = the real part;
    phase = the real part + 1/2, the random phases' share), divided by m. At beta = k this is
    Eq. (12).

    Examples
    --------
    >>> from varlab.theory import moment_matching
    >>> k = moment_matching.kernel(scaled_distance=1.0)
    >>> round(float(moment_matching.cv_variance(1.0, 10, 0.0, 0.0)), 10)     # no control: V_MC
    0.0632120559
    >>> round(float(moment_matching.cv_variance(1.0, 10, k, k)), 10)         # beta* = k: Eq. (12)
    0.0080301397
    """
    features = _features(features)
    y = np.square(np.asarray(scaled_distance, dtype=float))
    k = np.exp(-y / 2)
    real = np.expm1(-y) ** 2 / 2 - beta2 * y * y * k + beta2 ** 2 * y * y / 2
    imaginary = -np.expm1(-2 * y) / 2 - 2 * beta1 * y * k + beta1 ** 2 * y
    extra = {"complex": imaginary, "cosine": 0.0, "phase": 0.5}[features]
    return (real + extra) / np.asarray(m, dtype=float)


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
