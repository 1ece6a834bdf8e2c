"""Variance of i.i.d. and orthogonal random features for the Gaussian kernel (004, "Theorem 5").

Kernel k(r) = exp(-r^2 / 2), r = |z| in units of the bandwidth, frequencies w = R theta with
R ~ chi(d) (the radial law) and theta uniform on the sphere. Write x = r^2 / 2 and
phi_d(t) = Gamma(d/2) J_{d/2-1}(t) / (t/2)^{d/2-1} = 0F1(; d/2; -t^2/4) = E_theta cos(t theta_1).

* i.i.d., paired cos/sin features (004's psi_i): one frequency gives cos(<w, z>), variance
  (1 + k(2r)) / 2 - k(r)^2 = (1 - e^{-r^2})^2 / 2 (varlab's derivation for any radial kernel:
  E cos^2 = (1 + E cos 2<w,z>)/2).
* i.i.d., random-phase cosine 2 cos(<w,x> + b) cos(<w,y> + b): 1 + k(2r)/2 - k(r)^2 =
  1/2 + (1 - e^{-r^2})^2 / 2 (varlab's derivation; 000 Eq. 18 with r^2 = 2 gamma (1 - rho)).
* Orthogonal rows w_i = R_i q_i, w_j = R_j q_j (q_i ⊥ q_j): R_i q_i +- R_j q_j has norm
  sqrt(R_i^2 + R_j^2) and a uniform direction, so Cov(cos<w_i,z>, cos<w_j,z>) =
  C = E phi_d(sqrt(R_1^2 + R_2^2) r) - k(r)^2. For the Gaussian, R_1^2 + R_2^2 ~ chi^2(2d) and
  the series of phi_d sums to C = 1F1(d; d/2; -x) - e^{-2x} = e^{-x} [1F1(-d/2; d/2; x) - e^{-x}]
  (varlab's closed form; orthogonal_derivation.py checks it symbolically). With s frequencies in
  blocks of d (q = s // d full blocks, a partial block of s mod d rows) there are
  P(s, d) = q d (d - 1) + (s mod d)(s mod d - 1) correlated ordered pairs, so
  Var_ORF(s) - Var_RFF(s) = P(s, d) / s^2 * C  (= (s - 1)/s C for s <= d).
* "Theorem 5" as printed on the slides: G = (s-1)/s E[phi_d(R_1 r)]^2 - (s-1)/s
  E[phi_d(sqrt(R_1^2 + R_2^2) r)]^2 = (s-1)/s [e^{-2x} - 1F1(d; d/2; -x)^2], evaluated literally
  for every s. It differs from the derivation in sign and in squaring the second expectation; the
  Monte Carlo engine decides (paper_checks/p004).

Forms used for 1F1(d; d/2; -x) (``_confluent``): scipy's hyp1f1 for d <= 1e5 (series at x < 1/2;
0 for even d at x >= 1500 by Szego's bound), and for d > 1e5, where scipy is NaN or slow, the
1/n series of log(1F1(d; d/2; -x) e^{2x}) (seven orders, derived by
``orthogonal_derivation.large_dimension_series``), 0 beyond x = 400 (underflow).
"""
from __future__ import annotations

import mpmath
import numpy as np
import scipy.special as sc
import sympy

from ._blocks import pairs
from ._special import phi
from .formula import Formula, _doctests
from .parameters import parameter


__all__ = ["iid_variance", "iid_variance_phase", "pair_covariance", "variance_gap",
           "variance_gap_printed", "orf_variance", "pairs", "phi", "covariance_numeric"]

_R = parameter("distance").symbol
_REF_DIM = {"dimension": (1, 256)}


def _series_d(x, n, terms=40):
    """D(x) = 1F1(-n; n; x) - e^{-x} = sum_{j>=2} x^j/j! (-1)^j [prod_{i<j} (n-i)/(n+i) - 1],
    summed for small x (no cancellation between the two leading terms)."""
    total = np.zeros(np.broadcast(x, n).shape)
    prod = np.ones_like(total)
    power = np.ones_like(total)
    for j in range(1, terms):                      # loop over series terms, vectorised over points
        prod = prod * (n - (j - 1)) / (n + (j - 1))
        power = power * x / j
        if j >= 2:
            total = total + power * (-1.0) ** j * (prod - 1.0)
    return total


def _one_minus_f_series(x, n, terms=40):
    """1 - 1F1(-n; n; x) = -sum_{j>=1} x^j/j! (-1)^j prod_{i<j} (n-i)/(n+i), for small x."""
    total = np.zeros(np.broadcast(x, n).shape)
    prod = np.ones_like(total)
    power = np.ones_like(total)
    for j in range(1, terms):                      # series terms, vectorised over points
        prod = prod * (n - (j - 1)) / (n + (j - 1))
        power = power * x / j
        total = total - power * (-1.0) ** j * prod
    return total


#: above this dimension scipy's hyp1f1(d, d/2, -x) is NaN or slow: the 1/n series of R below
_SERIES_DIMENSION = 1e5
#: the coefficients of R_p(x) = -x^2 r_p(x) / q_p, p = 1..7 (r_p highest power first)
_R_COEFFICIENTS = (
    ((1,), 1), ((2, -1), 1), ((11, -12, 2), 2), ((18, -32, 14, -1), 1),
    ((394, -1008, 783, -180, 6), 6), ((774, -2653, 3114, -1389, 186, -3), 3),
    ((12837, -56232, 91232, -64656, 18402, -1512, 12), 12))


def _log_ratio_series(x, n):
    """R = log(1F1(2n; n; -x) e^{2x}) = sum_{p=1}^{7} R_p(x) / n^p (varlab): 1F1(-n; n; x) =
    sum_j (-x)^j/j! P_j with log P_j = -2 sum_{i<j} atanh(i/n), expanded in 1/n and summed over j
    (``orthogonal_derivation.large_dimension_series``). R_p has degree p + 1: the truncation error
    is about 10^4 x^9 / n^8, below 1e-10 for n > 5 10^4, x < 400."""
    total = np.zeros(np.broadcast(x, n).shape)
    scale = np.ones_like(total)
    for coefficients, divisor in _R_COEFFICIENTS:
        scale = scale / n
        total = total - np.square(x) * np.polyval(np.asarray(coefficients, dtype=np.float64), x) / divisor * scale
    return total


def _confluent(dimension, x):
    """(f, f - e^{-2x}, e^{-x} - f) for f = 1F1(d; d/2; -x) = e^{-x} 1F1(-d/2; d/2; x), x >= 0,
    each without cancellation, finite for every d >= 1 and x in [0, inf]:

    * d > 1e5: f = e^{-2x + R}, R by ``_log_ratio_series`` (x < 400); for x >= 400, f < e^{-2x}
      underflows (R <= 0) and all three are 0 (e^{-x} too, to 1e-174 of f's scale: returned 0);
    * even d, x >= 1500: f = e^{-x} L(x) with L a Laguerre polynomial, |L| <= e^{x/2} (Szego's
      bound, DLMF 18.14.8): f underflows to 0;
    * x < 1/2: the series of 1F1(-n; n; x) - e^{-x} and 1 - 1F1(-n; n; x) (no cancellation);
    * otherwise scipy's hyp1f1 (x = inf: 0)."""
    d = np.asarray(dimension, dtype=np.float64)
    d, x = np.broadcast_arrays(d, np.asarray(x, dtype=np.float64))
    n = 0.5 * d
    f, c, g = np.zeros(d.shape), np.zeros(d.shape), np.zeros(d.shape)
    large = d > _SERIES_DIMENSION
    series = large & (x < 400.0)
    small = ~large & (x < 0.5)
    direct = ~large & ~small & np.isfinite(x) & ~((d % 2 == 0) & (x >= 1500.0))
    with np.errstate(under="ignore", over="ignore"):
        if np.any(series):
            xs, r = x[series], _log_ratio_series(x[series], n[series])
            f[series] = np.exp(r - 2.0 * xs)
            c[series] = np.exp(-2.0 * xs) * np.expm1(r)
            g[series] = -np.exp(-xs) * np.expm1(r - xs)
        if np.any(small):
            xs, ns = x[small], n[small]
            c[small] = np.exp(-xs) * _series_d(xs, ns)
            f[small] = c[small] + np.exp(-2.0 * xs)
            g[small] = np.exp(-xs) * _one_minus_f_series(xs, ns)
        if np.any(direct):
            xs = x[direct]
            f[direct] = sc.hyp1f1(d[direct], n[direct], -xs)
            c[direct] = f[direct] - np.exp(-2.0 * xs)
            g[direct] = np.exp(-xs) - f[direct]
        rest = ~(series | small | direct) & ~large
        c[rest] = -np.exp(-2.0 * x[rest])
        g[rest] = np.exp(-x[rest])
    return f, c, g


def _covariance(dimension, distance):
    """C = 1F1(d; d/2; -|z|^2/2) - e^{-|z|^2} (``_confluent``)."""
    return _confluent(dimension, 0.5 * np.square(np.asarray(distance, dtype=np.float64)))[1]


def _covariance_mp(dimension, distance):
    x = distance * distance / 2
    zp = 4 * mpmath.mp.prec
    return mpmath.hyp1f1(dimension, mpmath.mpf(dimension) / 2, -x, zeroprec=zp) - mpmath.exp(-2 * x)


iid_variance = Formula(
    name="orthogonal.iid_variance",
    parameters=("distance",),
    expr=(1 - sympy.exp(-_R ** 2)) ** 2 / 2,
    numeric=lambda distance: 0.5 * np.square(np.expm1(-np.square(distance))),
    source="varlab, from 004 (GRFF psi_i, paired cos/sin): Var cos<w,z> = (1 + k(2z))/2 - k(z)^2",
    description="single-frequency variance of the paired cos/sin RFF estimator, Gaussian kernel",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import orthogonal
        >>> round(orthogonal.iid_variance(distance=1.0), 10)          # (1 - e^{-1})^2 / 2
        0.1997882004
        """,
)

iid_variance_phase = Formula(
    name="orthogonal.iid_variance_phase",
    parameters=("distance",),
    expr=sympy.Rational(1, 2) + (1 - sympy.exp(-_R ** 2)) ** 2 / 2,
    numeric=lambda distance: 0.5 + 0.5 * np.square(np.expm1(-np.square(distance))),
    source="varlab (random-phase cosine 2cos(<w,x>+b)cos(<w,y>+b)); 000 Eq. (18) with r^2 = 2 gamma (1 - rho)",
    description="single-frequency variance of the random-phase cosine RFF estimator, Gaussian kernel",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import orthogonal
        >>> round(orthogonal.iid_variance_phase(distance=1.0), 10)    # the paired variance + 1/2
        0.6997882004
        """,
)

pair_covariance = Formula(
    name="orthogonal.pair_covariance",
    parameters=("dimension", "distance"),
    numeric=_covariance,
    reference=_covariance_mp,
    tolerance=1e-8,
    reference_domain=_REF_DIM,
    source="varlab: C = E phi_d(sqrt(R1^2+R2^2)|z|) - k(z)^2 (004, Theorem 5's Bessel terms) "
           "= 1F1(d; d/2; -|z|^2/2) - exp(-|z|^2) for the Gaussian kernel",
    description="covariance of cos<w_i,z>, cos<w_j,z> for two orthogonal rows, Gaussian kernel",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import orthogonal
        >>> round(orthogonal.pair_covariance(dimension=4, distance=1.0), 10)     # < 0: orthogonality helps
        -0.0393420005
        """,
)

variance_gap = Formula(
    name="orthogonal.variance_gap",
    parameters=("dimension", "distance", "k"),
    numeric=lambda dimension, distance, k: pairs(k, dimension) / np.square(k.astype(np.float64))
    * _covariance(dimension, distance),
    reference=lambda dimension, distance, k: mpmath.mpf(int(pairs(k, dimension))) / k ** 2
    * _covariance_mp(dimension, distance),
    tolerance=1e-8,
    reference_domain=_REF_DIM,
    source="varlab's derivation of 004 'Theorem 5' (G_k = Var ORF - Var RFF), blocks of d, partial last block",
    description="Var(ORF) - Var(RFF) with s = k frequencies, paired cos/sin, Gaussian kernel",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import orthogonal
        >>> round(orthogonal.variance_gap(dimension=4, distance=1.0, k=4), 10)   # (k - 1)/k C for k <= d
        -0.0295065004
        """,
)


def _printed(dimension, distance, k):
    """(k-1)/k [e^{-2x} - f^2] with f = 1F1(d; d/2; -x), written as (k-1)/k (e^{-x} - f)(e^{-x} + f),
    each factor without cancellation (``_confluent``)."""
    x = 0.5 * np.square(distance)
    kk = k.astype(np.float64)
    f, _, g = _confluent(dimension, x)
    with np.errstate(under="ignore"):
        return (kk - 1.0) / kk * g * (np.exp(-x) + f)


def _printed_mp(dimension, distance, k):
    x = distance * distance / 2
    f = mpmath.hyp1f1(dimension, mpmath.mpf(dimension) / 2, -x, zeroprec=4 * mpmath.mp.prec)
    return mpmath.mpf(k - 1) / k * (mpmath.exp(-2 * x) - f * f)


variance_gap_printed = Formula(
    name="orthogonal.variance_gap_printed",
    parameters=("dimension", "distance", "k"),
    numeric=_printed,
    reference=_printed_mp,
    tolerance=1e-8,
    reference_domain=_REF_DIM,
    source="004, 'Theorem 5' as printed: (s-1)/s E[phi_d(R1|z|)]^2 - (s-1)/s E[phi_d(sqrt(R1^2+R2^2)|z|)]^2",
    description="the slides' G_k(z) for the Gaussian kernel, taken literally for every s",
    examples="""
        >>> from varlab.theory import orthogonal
        >>> round(orthogonal.variance_gap_printed(dimension=4, distance=1.0, k=4), 10)   # opposite sign
        0.1949569434
        """,
)

orf_variance = Formula(
    name="orthogonal.orf_variance",
    parameters=("dimension", "distance", "k"),
    numeric=lambda dimension, distance, k: (0.5 * np.square(np.expm1(-np.square(distance)))
                                            + pairs(k, dimension) / k * _covariance(dimension, distance))
    / k.astype(np.float64),
    reference=lambda dimension, distance, k: ((1 - mpmath.exp(-distance ** 2)) ** 2 / 2
                                              + mpmath.mpf(int(pairs(k, dimension))) / k
                                              * _covariance_mp(dimension, distance)) / k,
    tolerance=1e-8,
    reference_domain=_REF_DIM,
    source="varlab: Var(1/s sum cos<w_i,z>) for block-orthogonal rows = V_1/s + P(s,d)/s^2 C",
    description="variance of the ORF estimator (paired cos/sin) of the Gaussian kernel",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import orthogonal
        >>> round(orthogonal.orf_variance(dimension=4, distance=1.0, k=4), 10)   # i.i.d.: 0.1997882 / 4
        0.0204405497
        """,
)


def covariance_numeric(law_a, law_b, d, r, nodes=160):
    """E phi_d(sqrt(R_a^2 + R_b^2) r) for independent radial laws (frozen scipy.stats, or arrays
    (nodes, weights)), by tensor Gauss quadrature in the laws' quantiles (varlab; the Bessel term
    of 004's H(z) and G for non-Gaussian parts). Returns an array over r. Accuracy: about 1e-6
    absolute at 160 nodes, 2e-7 at 400 (the quantile map is singular at the ends), checked against
    the closed form in tests/features/test_orthogonal.py; phi_d itself is right to 1e-10 in every
    dimension up to 1e5 (``_special.phi``: at d = 4096, r = 10 the chi law gives C = -2.69e-44).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.stats
    >>> from varlab.theory import orthogonal
    >>> chi = scipy.stats.chi(4)                        # the Gaussian kernel's radial law in d = 4
    >>> covariance = orthogonal.covariance_numeric(chi, chi, 4, [1.0]) - np.exp(-1.0)    # minus k(r)^2
    >>> round(float(covariance[0]), 5), round(orthogonal.pair_covariance(dimension=4, distance=1.0), 5)
    (-0.03934, -0.03934)
    """
    ra, wa = _nodes(law_a, nodes)
    rb, wb = _nodes(law_b, nodes)
    t = np.sqrt(ra[:, None] ** 2 + rb[None, :] ** 2)
    r = np.atleast_1d(np.asarray(r, dtype=np.float64))
    w = wa[:, None] * wb[None, :]
    return np.array([np.sum(w * phi(t * value, d)) for value in r])


def _nodes(law, n):
    if isinstance(law, tuple):
        return law
    u, w = np.polynomial.legendre.leggauss(n)
    u = 0.5 * (u + 1.0)
    return law.ppf(u), 0.5 * w


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
