"""The built-in stationary kernels, declared once each (``StationaryKernel``, module
``stationary_registry``), and the variance of paired and random-phase random Fourier features of
any registered kernel.

Kernels (distance r in units of the lengthscale; ``varlab.spectral`` holds their spectral
measures): the Gaussian exp(-r^2/2); the exponential / Matern-1/2 exp(-r), whose profile the
Laplacian exp(-gamma ||z||_1) shares with r = gamma ||z||_1; Matern 3/2 (1 + a) e^{-a}, a =
sqrt(3) r; Matern 5/2 (1 + a + a^2/3) e^{-a}, a = sqrt(5) r (Rasmussen and Williams 2006, Eq.
4.17); the Cauchy kernel 1 / (1 + r^2); the rational quadratic (1 + r^2/4)^-2 (their Eq. 4.19,
alpha = 2).

Two unbiased estimators of k(z) from a frequency w of the spectral measure (Sutherland and
Schneider 2015, "On the error of random Fourier features", Sec. 2):

* paired: [cos <w, x>, sin <w, x>] . [cos <w, y>, sin <w, y>] = cos <w, z>, whose variance is
  E cos^2 - k^2 = (1 + k(2z)) / 2 - k(z)^2 (cos^2 t = (1 + cos 2t) / 2);
* random phase: 2 cos(<w, x> + b) cos(<w, y> + b) = cos <w, z> + cos(<w, x + y> + 2b), variance
  (1 + k(2z)) / 2 - k(z)^2 + 1/2: exactly 1/2 more, for every kernel.

At an equal output width D the paired map averages D/2 frequencies and the random-phase map D,
so the variances are (1 + k(2z) - 2 k(z)^2) / D and (1 + k(2z)/2 - k(z)^2) / D (Sutherland and
Schneider's two expressions); :func:`equal_width_ratio` is their ratio 4V / (2V + 1), below 1
exactly where k(2z) < 2 k(z)^2. That holds for the Gaussian, exponential and Matern kernels at
every z, but the Cauchy kernel has k(2z) = k/(4 - 3k) and random phase wins once k(z) < (4 -
sqrt(10)) / 6 = 0.1396, i.e. r > 2.4824 (varlab's observation, checked with sympy in tests/theory/test_stationary.py).

The closed forms per kernel are varlab's (from the two general expressions), written without
cancellation through the regularised incomplete gamma function P(s, x) = ``scipy.special.gammainc``:

* exponential (and Laplacian): V = (1 - e^{-2r}) / 2 = P(1, 2r) / 2;
* Matern 3/2: V = P(3, 2a) / 2; Matern 5/2: V = (P(4, 2a) - e^{-2a} (2a)^4 / 72) / 2;
* Cauchy: V = u^2 (5 + 2u) / ((1 + 4u) (1 + u)^2), u = r^2;
* rational quadratic: V = u^2 (8u^4 + 36u^3 + 65u^2 + 60u + 14) / ((1 + u)^4 (1 + 4u)^2), u = r^2/4
  (sympy's factorisation: positive coefficients, no cancellation; in 1/u beyond u = 1).

Orthogonal frequencies (rows of S Q with norms from the radial law; 004 "Theorem 5", varlab's
derivation in ``orthogonal``): two rows of a block have covariance C = E Omega_d(sqrt(R1^2 + R2^2)
r) - k(r)^2. :func:`radial_pair_covariance` computes C for every registered radial kernel (a
Gaussian scale mixture w = sqrt(A) g, g ~ N(0, I)): R_i^2 = A_i T^2 B_i with T ~ chi_{2d},
(B, 1 - B) ~ Beta(d/2, d/2), so (varlab) C = E_{A1, A2, B}[c(r^2 Q / 2) + e^{-r^2 (A1 + A2)/2} 2
sinh^2(r^2 (A1 - A2)(B - 1/2) / 2)] with Q = A1 B + A2 (1 - B) and c(x) = 1F1(d; d/2; -x) - e^{-2x}
(the Gaussian covariance, ``orthogonal._confluent``), by the mixing law's rule
(``StationaryKernel.mixing.nodes``: an exp-sinh trapezoid rule in G for the Matern kernels' A =
nu / G, G ~ Gamma(nu); generalised Gauss-Laguerre for the gamma-distributed A of the Cauchy and
rational quadratic kernels) and Gauss's rule for Beta(d/2, d/2) (Golub-Welsch).
:func:`radial_pair_covariance_mp` is an independent mpmath reference: the double integral over the
two norms R1, R2 of Omega_d, with the norms' densities from the spectral densities (no mixing law,
no Beta variable, no 1F1).

>>> round(exponential_paired_variance(distance=1.0), 12)
0.432332358382
>>> round(cauchy_paired_variance(distance=3.0), 6) > 0.5        # random phase wins here
True
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy.special as sc
import sympy

from ._blocks import pairs
from .formula import _doctests
from .orthogonal import _R_COEFFICIENTS, _confluent, iid_variance, iid_variance_phase
from .parameters import parameter
from .stationary_registry import (GammaMixing, InverseGammaMixing, PointMixing, StationaryKernel, paired_variance_of,
                                  phase_variance_of, stationary_kernel, stationary_kernels)

__all__ = ["exponential_kernel", "matern32_kernel", "matern52_kernel", "cauchy_kernel",
           "exponential_paired_variance", "exponential_phase_variance", "matern32_paired_variance",
           "matern32_phase_variance", "matern52_paired_variance", "matern52_phase_variance",
           "cauchy_paired_variance", "cauchy_phase_variance",
           "equal_width_ratio", "kernel_value", "paired_variance", "radial_pair_covariance",
           "radial_pair_covariance_mp", "orf_variance"]

_R = parameter("distance").symbol
#: beyond this exponent e^{-x} x^n is 0 in float64 for the powers used here
_UNDERFLOW = 800.0


def equal_width_ratio(paired):
    """Var(paired) / Var(random phase) at an equal output width, 4V / (2V + 1), from the paired
    single-frequency variance V (varlab). Below 1 exactly where V < 1/2, i.e. k(2z) < 2 k(z)^2.

    Examples
    --------
    >>> from varlab.theory.stationary import equal_width_ratio
    >>> equal_width_ratio(0.25)
    0.666666666667
    """
    paired = np.asarray(paired, dtype=np.float64)
    if np.any(~(paired >= 0)):
        raise ValueError(f"paired must hold variances >= 0, got {paired!r}")
    with np.errstate(invalid="ignore"):
        ratio = np.where(np.isinf(paired), 2.0, 4.0 * paired / (2.0 * paired + 1.0))   # the limit at inf
    return float(ratio) if ratio.ndim == 0 else ratio


# -- stable numpy forms of the profiles k(r) and of the paired variances V(r) ------------------------
def _gaussian(distance):
    with np.errstate(over="ignore"):
        return np.exp(-0.5 * np.square(distance))


def _exponential(distance):
    return np.exp(-distance)


def _matern32(distance):
    a = math.sqrt(3.0) * distance
    small = np.minimum(a, _UNDERFLOW)
    return np.where(a < _UNDERFLOW, (1.0 + small) * np.exp(-small), 0.0)


def _matern52(distance):
    a = math.sqrt(5.0) * distance
    small = np.minimum(a, _UNDERFLOW)
    return np.where(a < _UNDERFLOW, (1.0 + small * (1.0 + small / 3.0)) * np.exp(-small), 0.0)


def _cauchy(distance):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.square(distance))


def _rational_quadratic(distance):
    with np.errstate(over="ignore"):
        return 1.0 / np.square(1.0 + 0.25 * np.square(distance))


def _paired_exponential(distance):
    return -0.5 * np.expm1(-2.0 * distance)


def _paired_matern32(distance):
    return 0.5 * sc.gammainc(3.0, 2.0 * math.sqrt(3.0) * distance)


def _paired_matern52(distance):
    x = 2.0 * math.sqrt(5.0) * distance
    small = np.minimum(x, _UNDERFLOW)
    tail = np.where(x < _UNDERFLOW, np.exp(-small) * np.square(np.square(small)) / 72.0, 0.0)
    return 0.5 * (sc.gammainc(4.0, x) - tail)


def _near_far(u, near, far):
    """near(w) for u <= 1, far(1/u) beyond (a rational form with positive coefficients in each
    variable: no cancellation, no overflow)."""
    with np.errstate(over="ignore", under="ignore"):
        v = 1.0 / np.where(u > 1.0, u, 1.0)
        w = np.minimum(u, 1.0)
        return np.where(u > 1.0, far(v), near(w))


def _paired_cauchy(distance):
    return _near_far(np.square(distance),
                     lambda w: w * w * (5.0 + 2.0 * w) / ((1.0 + 4.0 * w) * np.square(1.0 + w)),
                     lambda v: (5.0 * v + 2.0) / ((v + 4.0) * np.square(v + 1.0)))


def _paired_rational_quadratic(distance):
    return _near_far(0.25 * np.square(distance),
                     lambda w: (w * w * np.polyval((8.0, 36.0, 65.0, 60.0, 14.0), w)
                                / (np.square(np.square(1.0 + w)) * np.square(1.0 + 4.0 * w))),
                     lambda v: (np.polyval((14.0, 60.0, 65.0, 36.0, 8.0), v)
                                / (np.square(np.square(v + 1.0)) * np.square(v + 4.0))))


def _matern_density(nu):
    """|w|'s density at lengthscale 1, up to a constant: t^(d-1) (2 nu + t^2)^-(nu + d/2)
    (Rasmussen and Williams 2006, Eq. 4.15)."""
    return lambda t, half: t ** (2 * half - 1) * (2 * nu + t * t) ** (-(nu + half))


def _gamma_mixture_density(shape, scale):
    """|w|'s density for w = sqrt(A) g, A = scale Gamma(shape), up to a constant (varlab: the
    Gaussian density integrated over A): t^(d-1) (t / c)^(shape - d/2) K_(shape - d/2)(2 t / c), c
    = sqrt(2 scale)."""
    c = mpmath.sqrt(2 * mpmath.mpf(scale))
    return lambda t, half: t ** (2 * half - 1) * (t / c) ** (shape - half) * mpmath.besselk(shape - half, 2 * t / c)


# -- the declarations ------------------------------------------------------------------------------
_RW = "Rasmussen and Williams 2006"
_A3, _A5 = sympy.sqrt(3) * _R, sympy.sqrt(5) * _R
_LENGTHSCALE_GAMMA = (1.0, 1.0)
_LENGTHSCALE_ROOT_GAMMA = (1.0, 0.5)

GAUSSIAN = StationaryKernel(
    "gaussian", label="Gaussian", words="Gaussian exp(-r^2/2)", source=f"{_RW}, Eq. (4.9) (squared exponential)",
    expr=sympy.exp(-_R ** 2 / 2), numeric=_gaussian, paired=iid_variance, phase=iid_variance_phase,
    check=(0.6065306597, 0.1997882004), gamma=(2.0, 0.5),
    gamma_words="exp(-gamma |z|^2) (lengthscale 1/sqrt(2 gamma))",
    mixing=PointMixing(), norm_density_mp=lambda t, half: t ** (2 * half - 1) * mpmath.exp(-t * t / 2),
    measure=("gaussian", {}))
EXPONENTIAL = StationaryKernel(
    "exponential", label="exponential", words="exponential / Matern-1/2 exp(-r)", source=f"{_RW}, Eq. (4.14) with nu = 1/2",
    expr=sympy.exp(-_R), numeric=_exponential, paired=_paired_exponential,
    paired_form="P(1, 2r)/2 = (1 - e^{-2r})/2", check=(0.3678794412, 0.4323323584),
    gamma=_LENGTHSCALE_GAMMA, gamma_words="exp(-gamma |z|) (lengthscale 1/gamma)",
    mixing=InverseGammaMixing(0.5), norm_density_mp=_matern_density(mpmath.mpf(1) / 2),
    measure=("exponential", {}))
LAPLACIAN = StationaryKernel(
    "laplacian", label="Laplacian", words="Laplacian exp(-gamma ||z||_1), the exponential profile in r = gamma ||z||_1",
    source="scikit-learn's laplacian_kernel; Rahimi and Recht 2007 (Cauchy frequencies)",
    same_profile_as="exponential", metric="cityblock", gamma=_LENGTHSCALE_GAMMA,
    gamma_words="exp(-gamma ||z||_1) (lengthscale 1/gamma)", measure=("laplacian", {}))
MATERN32 = StationaryKernel(
    "matern32", label="Matern 3/2", words="Matern 3/2 (1 + sqrt3 r) exp(-sqrt3 r)", source=f"{_RW}, Eq. (4.17), nu = 3/2",
    expr=(1 + _A3) * sympy.exp(-_A3), numeric=_matern32, paired=_paired_matern32,
    paired_form="P(3, 2 sqrt3 r)/2", check=(0.4833577246, 0.3362309852),
    gamma=_LENGTHSCALE_GAMMA, gamma_words="Matern 3/2 of lengthscale 1/gamma",
    mixing=InverseGammaMixing(1.5), norm_density_mp=_matern_density(mpmath.mpf(3) / 2),
    measure=("matern", {"nu": 1.5}))
MATERN52 = StationaryKernel(
    "matern52", label="Matern 5/2", words="Matern 5/2 (1 + sqrt5 r + 5 r^2/3) exp(-sqrt5 r)", source=f"{_RW}, Eq. (4.17), nu = 5/2",
    expr=(1 + _A5 + _A5 ** 2 / 3) * sympy.exp(-_A5), numeric=_matern52, paired=_paired_matern52,
    paired_form="(P(4, x) - e^{-x} x^4/72)/2, x = 2 sqrt5 r", check=(0.5239941088, 0.2947602835),
    gamma=_LENGTHSCALE_GAMMA, gamma_words="Matern 5/2 of lengthscale 1/gamma",
    mixing=InverseGammaMixing(2.5), norm_density_mp=_matern_density(mpmath.mpf(5) / 2),
    measure=("matern", {"nu": 2.5}))
CAUCHY = StationaryKernel(
    "cauchy", label="Cauchy", words="Cauchy kernel 1/(1 + r^2)",
    source=f"the Cauchy kernel ({_RW}, rational quadratic with alpha = 1)",
    expr=1 / (1 + _R ** 2), numeric=_cauchy, paired=_paired_cauchy,
    paired_form="u^2 (5 + 2u)/((1 + 4u)(1 + u)^2), u = r^2", check=(0.5, 0.35),
    gamma=_LENGTHSCALE_ROOT_GAMMA, gamma_words="1/(1 + gamma |z|^2) (lengthscale 1/sqrt(gamma))",
    mixing=GammaMixing(1.0, 2.0), norm_density_mp=lambda t, half: t ** half * mpmath.besselk(half - 1, t),
    measure=("cauchy", {}))
RATIONAL_QUADRATIC = StationaryKernel(
    "rational_quadratic", label="rational quadratic", words="rational quadratic (1 + r^2/4)^-2 (alpha = 2)",
    source=f"{_RW}, Eq. (4.19) with alpha = 2",
    expr=(1 + _R ** 2 / 4) ** -2, numeric=_rational_quadratic, paired=_paired_rational_quadratic,
    paired_form="u^2 (8u^4 + 36u^3 + 65u^2 + 60u + 14)/((1 + u)^4 (1 + 4u)^2), u = r^2/4",
    check=(0.64, 0.2154), gamma=_LENGTHSCALE_ROOT_GAMMA,
    gamma_words="(1 + gamma |z|^2/4)^-2 (lengthscale 1/sqrt(gamma))",
    mixing=GammaMixing(2.0, 0.5), norm_density_mp=_gamma_mixture_density(2, mpmath.mpf(1) / 2))

exponential_kernel, exponential_paired_variance, exponential_phase_variance = EXPONENTIAL.formulas.values()
matern32_kernel, matern32_paired_variance, matern32_phase_variance = MATERN32.formulas.values()
matern52_kernel, matern52_paired_variance, matern52_phase_variance = MATERN52.formulas.values()
cauchy_kernel, cauchy_paired_variance, cauchy_phase_variance = CAUCHY.formulas.values()


def kernel_value(kernel: str, distance):
    """k(r) of the registered ``kernel`` (``stationary_kernels()``; "gaussian": exp(-r^2/2); the
    Laplacian is the exponential profile in r = ||z||_1 / lengthscale).

    Examples
    --------
    >>> from varlab.theory import stationary
    >>> stationary.kernel_value("matern32", [0.0, 1.0]).round(8)
    array([1.        , 0.48335772])
    >>> round(float(stationary.kernel_value("gaussian", 1.0)), 10)    # exp(-1/2)
    0.6065306597
    """
    return stationary_kernel(kernel).kernel(distance=distance)


def paired_variance(kernel: str, distance):
    """Var cos <w, z> of one i.i.d. paired frequency for the registered ``kernel`` (the Gaussian's
    is ``orthogonal.iid_variance``).

    Examples
    --------
    >>> from varlab.theory import stationary
    >>> round(float(stationary.paired_variance("cauchy", 3.0)), 8)    # > 1/2: random phase wins here
    0.50351351
    """
    return stationary_kernel(kernel).paired_variance(distance=distance)


# -- orthogonal frequencies: the pair covariance of a radial kernel --------------------------------
#: beyond this dimension a scale mixture's pair covariance takes c(x) = 1F1(d; d/2; -x) - e^{-2x}
#: from its expansion in 1/n (n = d/2) to n^-7 (``_large_dimension_covariance``), not scipy's
#: hyp1f1 (which takes ~100 us an evaluation for x > 5 at d ~ 1e4); measured against the hyp1f1
#: quadrature over r = 0.5 to 3: within 2e-11 relative from d = 100 (1.4e-13 from d = 200)
_EXPANSION_DIMENSION = 100


def _beta_nodes(beta: float, n: int):
    """(B, weights) of the n-point Gauss rule for Beta(beta, beta) on [0, 1], by Golub-Welsch
    on the Jacobi matrix of the Gegenbauer weight (1 - x^2)^(beta - 1) (monic recurrence
    coefficients k (k + 2 lam - 1) / (4 (k + lam) (k + lam - 1)), lam = beta - 1/2): no gamma
    function, so finite for any beta >= 1/2 (scipy's roots_jacobi is NaN from beta ~ 1e6)."""
    import scipy.linalg

    lam = beta - 0.5
    k = np.arange(1.0, n)
    squared = np.empty(n - 1)
    squared[0] = 0.5 / (1.0 + lam)                  # k = 1, the 0/0 of the formula at lam = 0 removed
    k = k[1:]
    squared[1:] = k * (k + 2.0 * lam - 1.0) / (4.0 * (k + lam) * (k + lam - 1.0))
    off = np.sqrt(squared)
    x, vectors = scipy.linalg.eigh_tridiagonal(np.zeros(n), off)
    weights = np.square(vectors[0])
    return 0.5 * (1.0 + x), weights / weights.sum()


def _large_dimension_covariance(d: float, x):
    """c(x) = 1F1(d; d/2; -x) - e^{-2x} = e^{-2x} (e^R - 1), R = sum_p R_p(x) / n^p
    (``orthogonal._log_ratio_series``, n = d/2), with e^R - 1 = sum_{m=1}^{7} E_m(x) / n^m by the
    power-series exponential (m E_m = sum_p p R_p E_{m-p}): each term a polynomial times e^{-2x},
    bounded for every x >= 0 (R's polynomials alone blow up where x ~ n, but there e^{-2x} is 0).
    The first term omitted is about (8/e)^16 / n^8 of e^{-2x} at its largest (varlab; checked
    against the hyp1f1 quadrature in tests/theory/test_stationary.py)."""
    h = 2.0 / d
    powers = [np.zeros_like(x)]
    for coefficients, divisor in _R_COEFFICIENTS:
        powers.append(-np.square(x) * np.polyval(np.asarray(coefficients, dtype=np.float64), x) / divisor)
    series = [np.ones_like(x)]                       # E_0 = 1
    total = np.zeros_like(x)
    for m in range(1, len(powers)):
        term = sum(p * powers[p] * series[m - p] for p in range(1, m + 1)) / m
        series.append(term)
        total = total + term * h ** m
    with np.errstate(under="ignore", invalid="ignore"):
        return np.where(x < 400.0, np.exp(-2.0 * x) * total, 0.0)


def _radial(kernel: str):
    """The registered radial kernel ``kernel`` (the Laplacian, an l1 kernel, is refused)."""
    declared = stationary_kernel(kernel)
    if not declared.radial:
        radial = sorted(stationary_kernels(radial=True))
        raise ValueError(f"kernel must be one of the radial kernels {radial}, got {kernel!r}")
    return declared


def radial_pair_covariance(kernel: str, dimension: int, distance, nodes: int = 96):
    """C = Cov(cos<w_i, z>, cos<w_j, z>) for two rows of one orthogonal block (ORF, rows of S Q,
    norms from the radial law) of ``kernel`` in R^``dimension``, at r = ``distance`` (lengthscale
    1): varlab's three-dimensional Gauss quadrature (module docstring). The Gaussian gives
    ``orthogonal.pair_covariance``. Convergence (96 against 200 nodes per mixing
    variable, r <= 3, d <= 64): about 2e-9 absolute for the exponential kernel, 1e-12 for Matern
    3/2, 5/2, the Cauchy and rational quadratic kernels; checked against :func:`radial_pair_covariance_mp` and the
    engine in tests/theory/test_stationary.py. Beyond d = 100 a mixture's confluent function comes from
    its expansion in 1/d (``_large_dimension_covariance``; the Gaussian's one point keeps
    ``orthogonal._confluent``), so every dimension up to 1e12 and beyond takes well under a
    second (C ~ -r^2 k'(r)^2 / (2d) as d grows, varlab).

    Examples
    --------
    >>> from varlab.theory.stationary import radial_pair_covariance
    >>> round(float(radial_pair_covariance("exponential", 4, 1.0)), 6) < 0   # orthogonality helps
    True
    >>> c = radial_pair_covariance("matern32", 10**9, 1.0)                     # -r^2 k'(r)^2 / (2d)
    >>> round(c * 2e9 / (3 * math.exp(-math.sqrt(3))) ** 2, 6)
    -1.0
    """
    mixing = _radial(kernel).mixing
    d = int(parameter("dimension").validate(dimension))
    r = np.asarray(parameter("distance").validate(distance), dtype=np.float64)
    b, wb = _beta_nodes(0.5 * d, max(2, min(nodes, 64)))
    a, wa = mixing.nodes(nodes)
    a1, a2, bb = a[:, None, None], a[None, :, None], b[None, None, :]
    weights = wa[:, None, None] * wa[None, :, None] * wb[None, None, :]
    q = a1 * bb + a2 * (1.0 - bb)
    out = np.empty(r.shape)
    for index, value in np.ndenumerate(r):          # a few distances; each a vectorised cube
        s = value * value
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            c = (_confluent(d, 0.5 * s * q)[1] if d <= _EXPANSION_DIMENSION or a.size == 1
                 else _large_dimension_covariance(float(d), 0.5 * s * q))
            t = np.abs(s * (a1 - a2) * (bb - 0.5))
            spread = 0.5 * np.exp(-0.5 * s * (a1 + a2) + t) * np.square(np.expm1(-t))
        out[index] = np.sum(weights * (c + np.nan_to_num(spread)))
    return float(out) if out.ndim == 0 else out


def radial_pair_covariance_mp(kernel: str, dimension: int, distance: float, dps: int = 15):
    """mpmath reference for :func:`radial_pair_covariance`, from another representation: two
    orthogonal rows R_1 q_1, R_2 q_2 give E cos<w_1, z> cos<w_2, z> = E Omega_d(sqrt(R_1^2 +
    R_2^2) r), Omega_d(t) = Gamma(d/2) (2/t)^(d/2 - 1) J_(d/2 - 1)(t), so C = E Omega_d(rho r) -
    k(r)^2, a double integral over the norms (in polar coordinates) with their densities from the
    spectral densities (varlab): Gaussian chi_d; Matern nu r^(d-1) (2 nu + r^2)^-(nu + d/2)
    (Rasmussen and Williams 2006, Eq. 4.15; the exponential kernel is nu = 1/2); Cauchy
    r^(d/2) K_(d/2 - 1)(r) (the Fourier transform of 1/(1 + |z|^2)). No mixing law, no Beta
    variable and no 1F1, unlike the quadrature. Slow: half a minute to a minute and a half per
    point at ``dps`` = 10.

    Examples
    --------
    >>> from varlab.theory import stationary
    >>> round(float(stationary.radial_pair_covariance_mp("gaussian", 4, 1.0, dps=8)), 8)   # = orthogonal.pair_covariance
    -0.039342
    """
    declared = _radial(kernel)
    with mpmath.workdps(dps + 10):
        r, half = mpmath.mpf(distance), mpmath.mpf(int(dimension)) / 2
        density = lambda t: declared.norm_density_mp(t, half)                   # noqa: E731
        k = declared.kernel.mp(dps=dps + 10, distance=distance)
        norm = mpmath.quad(density, [0, 1, mpmath.inf])

        def omega(t):
            return mpmath.gamma(half) * (2 / t) ** (half - 1) * mpmath.besselj(half - 1, t) if t else mpmath.mpf(1)

        def polar(rho, theta):
            return density(rho * mpmath.cos(theta)) * density(rho * mpmath.sin(theta)) * omega(rho * r) * rho

        value = mpmath.quad(polar, [0, 1, 2, 4, 8, 16, 32, mpmath.inf], [0, mpmath.pi / 4, mpmath.pi / 2])
        return +(value / norm ** 2 - k * k)


def orf_variance(kernel: str, dimension: int, distance, k):
    """Var of the ORF estimator (1/k) sum_i cos<w_i, z> with k block-orthogonal rows (blocks of d,
    last partial) of a radial ``kernel``: V_1 / k + P(k, d) / k^2 C (varlab; as
    ``orthogonal.orf_variance`` for the Gaussian), V_1 the paired variance.

    Examples
    --------
    >>> from varlab.theory import stationary
    >>> round(float(stationary.orf_variance("matern32", 4, 1.0, 4)), 8)   # i.i.d.: 0.33623099 / 4 = 0.08405775
    0.05532795
    """
    kk = np.asarray(parameter("k").validate(k), dtype=np.float64)
    d = int(parameter("dimension").validate(dimension))
    covariance = radial_pair_covariance(kernel, d, distance)
    return (paired_variance(kernel, distance) + pairs(kk, d) / kk * covariance) / kk


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
