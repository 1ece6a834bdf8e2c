"""Variance of GRFF and GORF for a signed radial measure mu = mu+ - mu- (004, "Variance
Reduction": Var(GORF) - Var(GRFF) = ||p+||^2 G+ + ||p-||^2 G- + H(z)).

Estimator with s frequencies: K = (1/s) sum_i [P a_i - N b_i], a_i = cos<w_i, z>,
b_i = cos<v_i, z>, P = ||mu+||, N = ||mu-||. For a radial part with kernel k_+ (normalised):

* V+(r) = Var a_1 = (1 + k+(2r))/2 - k+(r)^2 (varlab), likewise V-;
* C+(r) = Cov(a_i, a_j) for orthogonal rows = E phi_d(sqrt(R_1^2 + R_2^2) r) - k+(r)^2,
  R_1, R_2 i.i.d. from the part's radial law (004 "Theorem 5"'s Bessel term; varlab's
  derivation, see theory/orthogonal.py); likewise C-;
* H0(r) = Cov(a_i, b_j) for orthogonal w_i, v_j = E phi_d(sqrt(R^2 + R'^2) r) - k+(r) k-(r),
  R ~ mu+, R' ~ mu- radial laws; 004's H(z) = 2 P N [E a_1 E b_1 - E a_1 b_1] = -2 P N H0.

Then (varlab, exact, any s; h = the block size of each part's rows, c = same-block cross pairs):
Var = (P^2 V+ + N^2 V-)/s + [P^2 pairs(s, h) C+ + N^2 pairs(s, h) C- - 2 P N c(s) H0] / s^2,
with h = d, c = 0 for "separate" orthogonality, h = d//2, c = q h^2 + (s mod h)^2 (q = s // h) for
"mutual" (004's GORF: rows of one Haar block split half/half), and pairs = c = 0 for i.i.d.
For s <= h this is 004's decomposition with G = (s-1)/s C and H = -2 P N H0.

**Two Gaussian parts** (the delta-Gaussian of 004 split by sign: one bandwidth per part),
x_i = r^2 / (2 sigma_i^2), beta = d/2 (varlab's derivation): R^2 + R'^2 = 2 (x_1 T_1 + x_2 T_2)/r^2
with T_i ~ Gamma(beta), and E 0F1(; beta; -(x_1 T_1 + x_2 T_2)) is Humbert's confluent
Phi_2(beta, beta; beta; -x_1, -x_2) = sum_n (-x_2)^n / n! 1F1(beta; beta + n; -x_1). Hence

    H0 = sum_{n>=1} (-x_2)^n / n! [1F1(beta; beta + n; -x_1) - e^{-x_1}]                (series)
       = sum_{i,l>=1} (-x_1)^i (-x_2)^l / (i! l!) [(beta)_i (beta)_l / (beta)_{i+l} - 1]   (double series)
       = e^{-x_1} (1 - e^{-x_2}) - x_2 beta int_0^1 e^{-x_1 t} t^{beta-1} 1F1(beta+1; 2; -x_2 (1-t)) dt,

the last from Euler's integral for 1F1(beta; beta+n; .) summed under the integral (symmetric in
x_1, x_2; used with x_1 >= x_2). At x_1 = x_2 it is the single-part C (the closed form of
theory/orthogonal.py). ``cross_covariance`` evaluates it in float64: the double series for
x_1 <= 2 (no cancellation of the leading terms), Gauss-Jacobi quadrature of the integral (weight
t^{beta-1}) for 2 < x_1 <= 80 + 2 beta, generalised Gauss-Laguerre in v = x_1 t beyond.
The mpmath reference sums the single series at the precision its cancellation needs (x_2 <= 2d + 60)
and integrates the last form by mpmath.quad beyond (tests/theory/test_signed_theory.py checks the three
forms against each other and against the definition E_U 1F1(d; d/2; -(x_2 + (x_1 - x_2) U)),
U ~ Beta(d/2, d/2)).

**Registered Formulas** (the slides' delta-Gaussian k(r) = exp(-r^2/2) - exp(-r^2/200), i.e.
a = (1, -1), sigma = (1, 10), P = N = 1; for a_1 = -a_2 = a and sigma = (sigma_1, 10 sigma_1) multiply
by a^2 and pass r / sigma_1): ``grff_variance`` (closed form), ``gorf_variance`` (each part
orthogonal on its own) and ``gorf_variance_mutual`` (004's GORF, W and V mutually orthogonal; its
dimension is the parameter ``mutual_dimension``, declared up to 300, where the float64 forms of H0
hold).
For other measures, ``estimator_variance(measure, ...)`` takes the measure object: two single
Gaussian parts with bandwidth ratio >= 3 use the forms above, other parts the tensor Gauss
quadrature over their radial laws (``orthogonal.covariance_numeric``, about 1e-6 absolute).
"""
from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import scipy.special as sc
import sympy

from . import orthogonal
from ._blocks import block_sizes, mutual_blocks, pairs
from .formula import Formula, _doctests
from .parameters import parameter

__all__ = ["part_variance", "part_covariance", "cross_covariance", "estimator_variance", "H", "G",
           "block_sizes", "gaussian_cross_covariance", "gaussian_cross_covariance_mp",
           "grff_variance", "gorf_variance", "gorf_variance_mutual", "SLIDES_BANDWIDTH_RATIO"]

#: the slides' delta-Gaussian: a = (1, -1), sigma = (1, 10) (004, "Variance Reduction" (b), Table II)
SLIDES_BANDWIDTH_RATIO = 10.0
#: below this ratio of the two bandwidths the Gaussian forms are not used (quadrature instead)
_MIN_RATIO = 3.0
#: the float64 forms need Gauss weights up to Gamma(d/2); beyond this d they would overflow
_MAX_DIMENSION = 300
_SERIES_X1 = 2.0
_JACOBI_NODES, _LAGUERRE_NODES = 160, 120


def _kernel(part, r):
    return part.kernel_of_distance(np.asarray(r, dtype=np.float64))


def part_variance(part, r):
    """V(r) = (1 + k(2r))/2 - k(r)^2 for a normalised radial part (varlab).

    Examples
    --------
    >>> from varlab.spectral import Gaussian
    >>> from varlab.theory import signed
    >>> round(float(signed.part_variance(Gaussian(1.0), 1.0)), 10)     # (1 - e^{-1})^2 / 2
    0.1997882004
    """
    k = _kernel(part, r)
    return 0.5 * (1.0 + _kernel(part, 2.0 * np.asarray(r, dtype=np.float64))) - k * k


def _single_gaussian_bandwidth(part):
    bandwidths = getattr(part, "bandwidths", None)
    if bandwidths is not None and len(bandwidths) == 1:
        return float(bandwidths[0])
    if getattr(part, "name", None) == "gaussian":
        return part.bandwidth
    return None


def _quadrature(law, nodes):
    """The law's own quadrature rule (exact for a discrete law of shells) where it has one."""
    return law.quadrature(nodes) if hasattr(law, "quadrature") else law


def part_covariance(part, d, r, nodes=160):
    """C(r) = Cov(cos<w_i,z>, cos<w_j,z>) for two orthogonal rows of the part (varlab).

    Examples
    --------
    >>> from varlab.spectral import Gaussian
    >>> from varlab.theory import signed
    >>> round(float(signed.part_covariance(Gaussian(1.0), 16, 1.0)), 10)    # = orthogonal.pair_covariance
    -0.0112185873
    """
    r = np.asarray(r, dtype=np.float64)
    sigma = _single_gaussian_bandwidth(part)
    if sigma is not None:
        return orthogonal.pair_covariance(dimension=d, distance=r / sigma)
    law = _quadrature(part.norm_law(d), nodes)
    return orthogonal.covariance_numeric(law, law, d, r, nodes=nodes).reshape(r.shape) - _kernel(part, r) ** 2


# --- H0 for two Gaussian parts: float64 ----------------------------------------------------------

def _double_series(beta, x1, x2, terms=40):
    """sum_{i,l>=1} (-x1)^i (-x2)^l/(i! l!) [(beta)_i (beta)_l/(beta)_{i+l} - 1], x2 <= x1 <= 2
    (vectorised over points; loops over series terms only)."""
    total = np.zeros(np.broadcast(beta, x1, x2).shape)
    power_i = np.ones_like(total)
    for i in range(1, terms):
        power_i = power_i * (-x1) / i
        ratio = np.ones_like(total)                       # (beta)_l / (beta + i)_l, l = 0
        power_l = np.ones_like(total)
        for l in range(1, terms):
            power_l = power_l * (-x2) / l
            ratio = ratio * (beta + l - 1) / (beta + i + l - 1)
            total = total + power_i * power_l * (ratio - 1.0)
    return total


@functools.lru_cache(maxsize=None)
def _jacobi(beta):
    """Nodes t in [0, 1] and weights of int_0^1 g(t) t^{beta-1} dt, normalised by 1/B(beta, 1) = beta."""
    x, w = sc.roots_jacobi(_JACOBI_NODES, 0.0, beta - 1.0)
    return 0.5 * (1.0 + x), w * beta / 2.0 ** beta


@functools.lru_cache(maxsize=None)
def _laguerre(beta):
    """Nodes v >= 0 and weights of int_0^inf g(v) v^{beta-1} e^{-v} dv / Gamma(beta)."""
    v, w = sc.roots_genlaguerre(_LAGUERRE_NODES, beta - 1.0)
    return v, w / sc.gamma(beta)


def _integral_form(beta, x1, x2):
    """e^{-x1}(1 - e^{-x2}) - x2 beta int_0^1 e^{-x1 t} t^{beta-1} 1F1(beta+1; 2; -x2(1-t)) dt for
    one beta (scalar) and arrays x1 >= x2, x1 > 2."""
    out = np.empty(x1.shape)
    jacobi = x1 <= 80.0 + 2.0 * beta
    if np.any(jacobi):
        t, w = _jacobi(beta)                              # int = (1/beta) sum w g(t)
        a, b = x1[jacobi, None], x2[jacobi, None]
        g = np.exp(-a * t) * sc.hyp1f1(beta + 1.0, 2.0, -b * (1.0 - t))
        out[jacobi] = -b[:, 0] * (g @ w)
    if np.any(~jacobi):
        v, w = _laguerre(beta)
        a, b = x1[~jacobi, None], x2[~jacobi, None]
        inside = v < a                                    # the integrand is 0 for v > x1 (t > 1)
        with np.errstate(under="ignore"):
            g = np.where(inside, sc.hyp1f1(beta + 1.0, 2.0, -b * np.clip(1.0 - v / a, 0.0, None)), 0.0)
            # int = x1^{-beta} Gamma(beta) sum w g; times x2 beta: x2 Gamma(beta+1) x1^{-beta}
            scale = np.exp(sc.gammaln(beta + 1.0) - beta * np.log(a[:, 0]))
        out[~jacobi] = -b[:, 0] * scale * (g @ w)
    with np.errstate(under="ignore"):
        return out - np.exp(-x1) * np.expm1(-x2)


def _far_form(beta, x1, x2):
    """H0 for odd d and x2 >= 1e4 (d + 1)^2: E_U of the algebraic part of 1F1(d; beta; -y) ~
    Gamma(beta)/Gamma(-beta) y^{-d} (1 + d (beta + 1)/y) (DLMF 13.7.2), y = x2 + (x1 - x2) U,
    U ~ Beta(beta, beta), by 2F1(d, beta; d; -c) = (1 + c)^{-beta} and 2F1(d + 1, beta; d; -c) =
    (1 + c/2)(1 + c)^{-beta-1}, c = x1/x2 - 1 (varlab): Gamma(beta)/Gamma(-beta) (x1 x2)^{-beta}
    [1 + d (beta + 1)/2 (1/x1 + 1/x2)], relative error O((d^2/x2)^2) < 1e-8; e^{-x1-x2} and the
    exponential part of 1F1 are far below it."""
    with np.errstate(under="ignore"):
        magnitude = np.exp(sc.gammaln(beta) - sc.gammaln(-beta) - beta * (np.log(x1) + np.log(x2)))
    return sc.gammasgn(-beta) * magnitude * (1.0 + beta * (beta + 1.0) * (1.0 / x1 + 1.0 / x2))


def gaussian_cross_covariance(dimension, x1, x2):
    """H0 = Cov(cos<w, z>, cos<v, z>) for orthogonal w ~ N(0, I/sigma_1^2) (norm only; direction
    Haar), v ~ N(0, I/sigma_2^2), x_i = |z|^2/(2 sigma_i^2) (float64; see the module doc).
    Symmetric in x1, x2; accurate for bandwidth ratios >= 3 (x_2 <= x_1 / 9). For x_2 >= 1e4 (d + 1)^2
    the large-x form ``_far_form`` (0 for even d beyond x_2 = 1500, where 1F1(d; d/2; -y) <= e^{-y/2}).

    Examples
    --------
    >>> from varlab.theory import signed
    >>> round(float(signed.gaussian_cross_covariance(16, 0.5, 0.005)), 10)   # r = 1, sigma = (1, 10)
    -0.0001764933
    """
    d = np.asarray(dimension)
    if np.any(d > _MAX_DIMENSION):
        raise ValueError(f"dimension must be <= {_MAX_DIMENSION} for the Gaussian cross covariance "
                         f"(its quadrature weights overflow beyond), got {int(d.max())}")
    beta, a, b = np.broadcast_arrays(0.5 * d.astype(np.float64), np.asarray(x1, dtype=np.float64),
                                     np.asarray(x2, dtype=np.float64))
    x1, x2 = np.maximum(a, b), np.minimum(a, b)
    out = np.zeros(beta.shape)
    small = x1 <= _SERIES_X1
    if np.any(small):
        out[small] = _double_series(beta[small], x1[small], x2[small])
    even = beta % 1.0 == 0.0
    far = ~small & ((x2 >= 1e4 * np.square(2.0 * beta + 1.0)) | (even & (x2 >= 1500.0)))
    if np.any(far & ~even):
        where = far & ~even
        out[where] = _far_form(beta[where], x1[where], x2[where])
    finite = ~small & ~far & np.isfinite(x2)
    for value in np.unique(beta[finite]):                 # one quadrature rule per dimension
        where = finite & (beta == value)
        out[where] = _integral_form(float(value), np.where(np.isfinite(x1[where]), x1[where], 1e300), x2[where])
    return out


# --- H0: mpmath reference ------------------------------------------------------------------------

def _series_mp(beta, x1, x2):
    """sum_{n>=1} (-x2)^n/n! [1F1(beta; beta+n; -x1) - e^{-x1}], summed at the ambient precision
    plus the digits its cancellation costs (measured on the largest term, then redone)."""
    extra = 10
    while True:
        with mpmath.workdps(mpmath.mp.dps + extra):
            e1 = mpmath.exp(-x1)
            total, scale, largest, n = mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(0), 0
            while True:
                n += 1
                scale *= -x2 / n
                term = scale * (mpmath.hyp1f1(beta, beta + n, -x1, zeroprec=4 * mpmath.mp.prec) - e1)
                total += term
                largest = max(largest, abs(term))
                if n > x2 and abs(term) <= mpmath.eps * abs(total) * mpmath.mpf(10) ** -5:
                    break
            lost = int(mpmath.log10(largest / abs(total))) + 1
        if lost + 10 <= extra:
            return +total
        extra = lost + 20


def _integral_mp(beta, x1, x2):
    """The integral form in v = x1 t, by mpmath.quad on pieces around the peak of v^{beta-1} e^{-v}."""
    def integrand(v):
        return mpmath.exp(-v + (beta - 1) * mpmath.log(v)) * mpmath.hyp1f1(
            beta + 1, 2, -x2 * (1 - v / x1), zeroprec=4 * mpmath.mp.prec)
    cuts = sorted({c for c in (beta / 4, beta / 2, beta, 1.5 * beta, 2 * beta, 3 * beta, 5 * beta,
                               10 * beta + 50) if c < x1})
    integral = mpmath.quad(integrand, [0] + cuts + [x1])
    return mpmath.exp(-x1) * -mpmath.expm1(-x2) - x2 * beta * x1 ** (-beta) * integral


@functools.lru_cache(maxsize=4096)
def _cross_mp_cached(dimension, x1, x2, dps):
    beta = mpmath.mpf(dimension) / 2
    if x1 == 0 or x2 == 0:
        return mpmath.mpf(0)
    if x2 > dimension ** 2 * mpmath.mpf(10) ** (dps + 5):
        # the leading large-x term of E_U 1F1(d; d/2; -x2 (1 + c U)), c = x1/x2 - 1, U ~ Beta(beta, beta):
        # Gamma(beta)/Gamma(-beta) x2^{-d} 2F1(d, beta; d; -c) (0 for even d), relative error
        # O(d^2 / x2) < 10^-dps; e^{-x1-x2} and the exponential part of 1F1 are far below it
        if dimension % 2 == 0:
            return mpmath.mpf(0)
        return (mpmath.gamma(beta) / mpmath.gamma(-beta) * x2 ** (-dimension)
                * mpmath.hyp2f1(dimension, beta, dimension, 1 - x1 / x2))
    if x2 <= 2 * dimension + 60:
        return _series_mp(beta, x1, x2)
    return _integral_mp(beta, x1, x2)


def gaussian_cross_covariance_mp(dimension, x1, x2):
    """H0 at the ambient mpmath precision (reference of ``gaussian_cross_covariance``).

    Examples
    --------
    >>> import mpmath
    >>> from varlab.theory import signed
    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(signed.gaussian_cross_covariance_mp(16, 0.5, 0.005), 12))
    -0.00017649327862
    """
    x1, x2 = mpmath.mpf(x1), mpmath.mpf(x2)
    x1, x2 = max(x1, x2), min(x1, x2)
    return _cross_mp_cached(int(dimension), x1, x2, mpmath.mp.dps)


# --- generic measures ----------------------------------------------------------------------------

def cross_covariance(positive, negative, d, r, nodes=160):
    """H0(r) = Cov(cos<w,z>, cos<v,z>) for orthogonal w ~ mu+, v ~ mu- (varlab): the Gaussian forms
    for two single-Gaussian parts with bandwidth ratio >= 3, else tensor quadrature.

    Examples
    --------
    >>> from varlab.spectral.signed import DeltaGaussian
    >>> from varlab.theory import signed
    >>> parts = DeltaGaussian().parts()          # the slides' exp(-r^2/2) - exp(-r^2/200)
    >>> round(float(signed.cross_covariance(parts["positive"], parts["negative"], 16, 1.0)), 10)
    -0.0001764933
    """
    r = np.asarray(r, dtype=np.float64)
    sa, sb = _single_gaussian_bandwidth(positive), _single_gaussian_bandwidth(negative)
    if sa is not None and sb is not None and max(sa, sb) >= _MIN_RATIO * min(sa, sb) and d <= _MAX_DIMENSION:
        return gaussian_cross_covariance(d, 0.5 * np.square(r / sa), 0.5 * np.square(r / sb))
    la, lb = _quadrature(positive.norm_law(d), nodes), _quadrature(negative.norm_law(d), nodes)
    e = orthogonal.covariance_numeric(la, lb, d, r, nodes=nodes).reshape(r.shape)
    return e - _kernel(positive, r) * _kernel(negative, r)


def estimator_variance(measure, d, r, s, orthogonality="iid"):
    """Var of the s-frequency GRFF ("iid") or GORF ("separate", "mutual") estimate of k(r).

    Examples
    --------
    >>> from varlab.spectral.signed import DeltaGaussian
    >>> from varlab.theory import signed
    >>> grff, gorf = (float(signed.estimator_variance(DeltaGaussian(), 16, 1.0, 8, kind))
    ...               for kind in ("iid", "separate"))
    >>> round(gorf / grff, 3)            # orthogonal frequencies lower the variance (004)
    0.607
    """
    parts, masses = measure.parts(), measure.total_masses()
    P, N = masses["positive"], masses["negative"]
    pos, neg = parts["positive"], parts["negative"]
    s = np.asarray(s, dtype=np.float64)
    _, same, cross = block_sizes(d, s, orthogonality)
    total = P * P * (part_variance(pos, r) / s + same * part_covariance(pos, d, r) / s ** 2)
    if neg is not None and N > 0:
        total = total + N * N * (part_variance(neg, r) / s + same * part_covariance(neg, d, r) / s ** 2)
        if np.any(cross):
            total = total - 2.0 * P * N * cross * cross_covariance(pos, neg, d, r) / s ** 2
    return total


def G(part, d, r, s):
    """004's G for one part with s <= d orthogonal rows: (s-1)/s C(r) (varlab's derivation).

    Examples
    --------
    >>> from varlab.spectral import Gaussian
    >>> from varlab.theory import signed
    >>> round(float(signed.G(Gaussian(1.0), 16, 1.0, 8)), 10)       # 7/8 of part_covariance
    -0.0098162639
    """
    s = np.asarray(s, dtype=np.float64)
    return (s - 1.0) / s * part_covariance(part, d, r)


def H(measure, d, r):
    """004's cross term H(z) = 2 P N [E a_1 E b_1 - E a_1 b_1] = -2 P N H0(r).

    Examples
    --------
    >>> from varlab.spectral.signed import DeltaGaussian
    >>> from varlab.theory import signed
    >>> round(float(signed.H(DeltaGaussian(), 16, 1.0)), 10)        # -2 P N H0 with P = N = 1
    0.0003529866
    """
    parts, masses = measure.parts(), measure.total_masses()
    return -2.0 * masses["positive"] * masses["negative"] * cross_covariance(parts["positive"], parts["negative"], d, r)


# --- registered Formulas: the slides' delta-Gaussian exp(-r^2/2) - exp(-r^2/200) ------------------

_R, _K = parameter("distance").symbol, parameter("k").symbol
_REF_DIM = {"dimension": (1, 64)}


def _iid_part(r):
    return 0.5 * np.square(np.expm1(-np.square(r)))


def _grff(distance, k):
    return (_iid_part(distance) + _iid_part(distance / SLIDES_BANDWIDTH_RATIO)) / k.astype(np.float64)


grff_variance = Formula(
    name="signed.grff_variance",
    parameters=("distance", "k"),
    expr=((1 - sympy.exp(-_R ** 2)) ** 2 / 2 + (1 - sympy.exp(-_R ** 2 / 100)) ** 2 / 2) / _K,
    numeric=_grff,
    source="varlab, from 004 (GRFF psi_i, 'Unbiased Approximation'): (P^2 V+ + N^2 V-)/s, "
           "V = (1 + k(2r))/2 - k(r)^2, delta-Gaussian a = (1, -1), sigma = (1, 10)",
    description="variance of the s-frequency GRFF estimate of the slides' delta-Gaussian kernel",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import signed
        >>> round(signed.grff_variance(distance=1.0, k=8), 10)       # 8 frequencies per part
        0.0249797129
        """,
)


def _part_numeric(dimension, r, k, h):
    """V/k + pairs(k, h)/k^2 C(d, r) for one Gaussian part (bandwidth 1, r in its units)."""
    kk = k.astype(np.float64)
    return (_iid_part(r) + pairs(kk, h) / kk * orthogonal._covariance(dimension, r)) / kk


def _part_mp(dimension, r, k, h):
    covariance = orthogonal._covariance_mp(dimension, r)
    return ((1 - mpmath.exp(-r ** 2)) ** 2 / 2 + mpmath.mpf(int(pairs(k, h))) / k * covariance) / k


def _separate(dimension, distance, k):
    return (_part_numeric(dimension, distance, k, dimension)
            + _part_numeric(dimension, distance / SLIDES_BANDWIDTH_RATIO, k, dimension))


def _separate_mp(dimension, distance, k):
    return (_part_mp(dimension, distance, k, dimension)
            + _part_mp(dimension, distance / SLIDES_BANDWIDTH_RATIO, k, dimension))


gorf_variance = Formula(
    name="signed.gorf_variance",
    parameters=("dimension", "distance", "k"),
    numeric=_separate,
    reference=_separate_mp,
    tolerance=1e-8,
    reference_domain=_REF_DIM,
    source="varlab: GORF with W and V each block-orthogonal (004 'Variance Reduction', G+ and G- "
           "terms, H = 0): sum over parts of V/s + P(s, d)/s^2 C, delta-Gaussian a = (1, -1), sigma = (1, 10)",
    description="variance of GORF (each part orthogonal on its own) for the slides' delta-Gaussian",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import signed
        >>> round(signed.gorf_variance(dimension=16, distance=1.0, k=8), 10)     # below GRFF's 0.02498
        0.0151610402
        """,
)


def _mutual(mutual_dimension, distance, k):
    dimension = mutual_dimension
    h, cross = mutual_blocks(dimension, k)
    kk = k.astype(np.float64)
    x1 = 0.5 * np.square(distance)
    h0 = gaussian_cross_covariance(dimension, x1, x1 / SLIDES_BANDWIDTH_RATIO ** 2)
    return (_part_numeric(dimension, distance, k, h) + _part_numeric(dimension, distance / SLIDES_BANDWIDTH_RATIO, k, h)
            - 2.0 * cross / kk * h0 / kk)


def _mutual_mp(mutual_dimension, distance, k):
    dimension = mutual_dimension
    h = dimension // 2 if dimension >= 2 else dimension
    q, rest = divmod(k, h)
    cross = q * h * h + rest * rest if dimension >= 2 else 0
    total = _part_mp(dimension, distance, k, h) + _part_mp(dimension, distance / SLIDES_BANDWIDTH_RATIO, k, h)
    if cross:
        x1 = distance ** 2 / 2
        total -= 2 * mpmath.mpf(cross) / k ** 2 * gaussian_cross_covariance_mp(
            dimension, x1, x1 / SLIDES_BANDWIDTH_RATIO ** 2)
    return total


gorf_variance_mutual = Formula(
    name="signed.gorf_variance_mutual",
    parameters=("mutual_dimension", "distance", "k"),
    numeric=_mutual,
    reference=_mutual_mp,
    tolerance=1e-8,
    reference_domain={"mutual_dimension": (1, 64)},
    source="varlab's derivation of 004 'Variance Reduction' (GORF: W and V from one Haar block, half "
           "each; G+, G- and H(z) terms, blocks of d/2, any s), delta-Gaussian a = (1, -1), sigma = (1, 10)",
    description="variance of 004's GORF (W, V mutually orthogonal) for the slides' delta-Gaussian",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import signed
        >>> round(signed.gorf_variance_mutual(mutual_dimension=16, distance=1.0, k=8), 10)
        0.0155140268
        """,
)


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
