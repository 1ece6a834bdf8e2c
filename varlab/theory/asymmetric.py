"""Total masses and per-part moments of the complex spectral measures of paper 002 (AsK-RFF).

Paper 002 (Eq. 9-11) gives three asymmetric kernels whose Fourier transforms (k(D) = int
e^{i <w, D>} mu(dw)) are a Gaussian N(0, I / sigma^2) density p(w) times a function of ONE
projection X = <c, w>:

* shift-Gaussian  k1(D) = exp(-|D + r|^2 / (2 sigma^2)):   mu1 = p(w) e^{i X},  c = r;
* sinh-Gaussian   k2(D) = exp(-|D|^2/(2 sigma^2)) (1 + sinh <beta, D>):
                                             mu2 = p(w) [1 - i A sin X],  c = sigma^2 beta;
* "cosh"-Gaussian k3(D) = exp(-|D|^2/(2 sigma^2)) exp(<beta, D>):
                                             mu3 = A p(w) e^{-i X},       c = sigma^2 beta,

with A = exp(sigma^2 |beta|^2 / 2). Under p, X ~ N(0, s^2) with the *spread* s = |c| / sigma
(s = |r|/sigma, resp. sigma |beta|), independent of the components of w orthogonal to c. So each
Jordan part (002, Eq. 2) is p(w) h(X) with h one of cos+, cos-, sin+, sin- (x+ = max(x, 0)),
and its total mass, which the paper computes by d-dimensional numerical integration (002 §4),
is the ONE-dimensional Gaussian expectation E[h(X)] (times A for k3, k2's imaginary parts):

    ||mu_R+|| = E cos+(X),  ||mu_R-|| = E cos-(X),  ||mu_I+|| = ||mu_I-|| = E sin+(X)

for k1 (the same times A for k3; k2: ||mu_R+|| = 1, ||mu_R-|| = 0, ||mu_I+-|| = A E sin+(X)),
in any dimension d (varlab's own reduction; ``asymmetric_derivation`` has the algebra). Each
expectation is evaluated in closed form:

* for s < 2 on the intervals where h has one sign, int_a^b e^{i l x} phi_s(x) dx =
  e^{-l^2 s^2/2}/2 [erfc((a - i l s^2)/(s sqrt2)) - erfc((b - i l s^2)/(s sqrt2))] (complex
  erfc, scipy's Faddeeva), plus E cos X = e^{-s^2/2} and int_0^inf sin(x) phi_s = D(s/sqrt2)/sqrt(pi)
  (Dawson's function) for the parts that are a full expectation plus a small remainder;
* for s >= 2 by the Fourier series of h (cos+(x) = 1/pi + cos(x)/2 + (2/pi) sum_k (-1)^(k+1)
  cos(2kx)/(4k^2-1), |sin x| = 2/pi - (4/pi) sum_k cos(2kx)/(4k^2-1)) with E cos(nX) = e^{-n^2 s^2/2}.

The same machinery gives each part's characteristic function (``h_transform``,
``part_transform``), from which ``varlab.theory.asymmetric_variance`` forms the variance of the
AsK-RFF estimator s(D) of Eq. (7) at a point (varlab's own; the paper gives only the uniform
bound of Prop. 6, also there); its names are importable from here too.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy.special

from .formula import Formula, _doctests
from .parameters import parameter

__all__ = ["SPREAD", "KERNELS", "PARTS", "cos_positive_mass", "cos_negative_mass",
           "sin_positive_mass", "part_transform", "kernel_masses", "spread_of", "direction_of",
           "part_h", "h_transform",
           # the estimator's variance and Prop. 6, defined in asymmetric_variance (imported at the end)
           "part_second_moment", "estimator_variance", "prop6_features", "beta_d",
           "shift_variance", "sinh_variance", "cosh_variance"]

SOURCE = "002, Eq. (2), (9)-(11) and §4 (total masses); 1-D reduction derived by varlab"

# declared in theory/parameters.py (so that the registry is complete after ``import varlab``)
SPREAD, PHASE_RATIO, TRANSVERSE = (parameter(name) for name in ("spread", "phase_ratio", "transverse"))

KERNELS = ("shift_gaussian", "sinh_gaussian", "cosh_gaussian")
PARTS = ("real_positive", "real_negative", "imaginary_positive", "imaginary_negative")

#: below this spread the interval (erfc) forms are used, above it the Fourier series
_SWITCH = 2.0
#: intervals of length pi on each side of 0 used by the erfc forms (x up to 15 pi > 23 s for s < 2)
_INTERVALS = 15
#: below this spread e^{-(pi/2)^2 / (2 s^2)} underflows: the interval forms reduce to exact
#: half-line integrals at 0 (so they serve any lam; the Fourier series would need ~13/s terms)
_TINY = 0.04
_SQRT2 = math.sqrt(2.0)


# --- the one-dimensional Gaussian integrals ------------------------------------------------------
def _segment(lam, s, a, b):
    """int_a^b e^{i lam x} phi_s(x) dx for 0 <= a < b (arrays broadcast; s > 0), complex."""
    return 0.5 * (_edge(lam, s, a) - _edge(lam, s, b))


def _edge(lam, s, x):
    """e^{-(lam s)^2/2} erfc((x - i lam s^2)/(s sqrt2)) for x >= 0, evaluated as
    e^{-t^2 + i lam x} w(y + i t), t = x/(s sqrt2), y = lam s/sqrt2 (w the Faddeeva function,
    |w| <= 1 in the upper half plane): neither the huge erfc nor a complex division by a tiny s.
    A term whose factor e^{-t^2} or w underflows to 0 is 0, also where lam x overflows (then
    |w| < 1/(sqrt(pi) |y|) < 1e-305)."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        t = (x / _SQRT2) / s
        y = (lam / _SQRT2) * s
        angle = np.where(x == 0, 0.0, lam * x)
        live = (t * t < 746.0) & np.isfinite(y) & np.isfinite(angle)
        value = (np.exp(-t * t + 1j * np.where(live, angle, 0.0))
                 * scipy.special.wofz(np.where(live, y, 0.0) + 1j * np.where(live, t, 0.0)))
        return np.where(live, value, 0.0)


def _half_line_sum(lam, s, starts, sign_pattern):
    """sum over j of sign_j int_{starts_j}^{starts_j + pi} e^{i lam x} phi_s(x) dx (x >= 0)."""
    lam = np.asarray(lam, dtype=float)[..., None]
    s = np.asarray(s, dtype=float)[..., None]
    return np.sum(sign_pattern * _segment(lam, s, starts, starts + math.pi), axis=-1)


_J = np.arange(_INTERVALS)
#: [pi/2 + j pi, 3 pi/2 + j pi]: cos has sign (-1)^(j+1) there
_COS_STARTS = math.pi / 2 + math.pi * _J
_COS_NEG_SIGNS = np.where(_J % 2 == 0, 1.0, 0.0)            # intervals where cos < 0, x >= 0
#: [pi + 2 j pi, 2 pi + 2 j pi]: sin < 0 there
_SIN_STARTS = math.pi + 2 * math.pi * _J


def _cos_negative_small(s):
    """E cos-(X), X ~ N(0, s^2), s in (0, 2): twice the x >= 0 integrals of -cos on its
    negative intervals (each a difference of complex erfc)."""
    return -2.0 * np.real(_half_line_sum(1.0, s, _COS_STARTS, _COS_NEG_SIGNS))


def _sin_negative_tail(s):
    """sum_j int over [(2j+1) pi, (2j+2) pi] of -sin(x) phi_s(x) dx, s in (0, 2)."""
    return -np.imag(_half_line_sum(1.0, s, _SIN_STARTS, np.ones(_INTERVALS)))


def _series(s, kind):
    """Fourier-series forms of E cos+(X), E cos-(X), E sin+(X) for s >= 2 (terms to k = 6)."""
    k = np.arange(1, 7)
    decay = np.exp(-2.0 * (k * k) * (np.asarray(s, dtype=float)[..., None] ** 2)) / (4.0 * k * k - 1.0)
    half = 0.5 * np.exp(-0.5 * np.asarray(s, dtype=float) ** 2)
    alternating = (2.0 / math.pi) * np.sum(np.where(k % 2 == 1, 1.0, -1.0) * decay, axis=-1)
    if kind == "cos+":
        return 1.0 / math.pi + half + alternating
    if kind == "cos-":
        return 1.0 / math.pi - half + alternating
    return 1.0 / math.pi - (2.0 / math.pi) * np.sum(decay, axis=-1)


def _mass(s, kind):
    s = np.asarray(s, dtype=float)
    out = np.empty(s.shape)
    zero, small = s == 0.0, (s > 0.0) & (s < _SWITCH)
    large = ~(zero | small)
    out[zero] = 1.0 if kind == "cos+" else 0.0
    if np.any(small):
        ss = s[small]
        if kind == "sin+":
            out[small] = scipy.special.dawsn(ss / _SQRT2) / math.sqrt(math.pi) + 2.0 * _sin_negative_tail(ss)
        else:
            negative = np.maximum(_cos_negative_small(ss), 0.0)
            out[small] = negative if kind == "cos-" else np.exp(-0.5 * ss * ss) + negative
    if np.any(large):
        out[large] = _series(s[large], kind)
    return out


# --- mpmath references: the interval forms at any precision --------------------------------------
def _mp_segment(lam, s, a, b):
    shift = 1j * lam * s * s
    return mpmath.exp(-(lam * s) ** 2 / 2) / 2 * (mpmath.erfc((a - shift) / (s * mpmath.sqrt(2)))
                                                  - mpmath.erfc((b - shift) / (s * mpmath.sqrt(2))))


def _mp_coefficient(n, kind):
    """a_n of h(x) = sum a_n e^{i n x} (cos+-: 1/pi, +-1/4 at |n| = 1, (-1)^(k+1)/(pi(4k^2-1))
    at n = +-2k; sin+-: 1/pi, -+i/4 at n = 1, +-i/4 at n = -1, -1/(pi(4k^2-1)) at n = +-2k)."""
    if n == 0:
        return 1 / mpmath.pi
    if abs(n) == 1:
        if kind in ("cos+", "cos-"):
            return mpmath.mpf(1) / 4 if kind == "cos+" else -mpmath.mpf(1) / 4
        sign = 1 if kind == "sin+" else -1
        return -sign * n * mpmath.mpc(0, 1) / 4
    if n % 2:
        return 0
    k = abs(n) // 2
    if kind in ("cos+", "cos-"):
        return (1 if k % 2 else -1) / (mpmath.pi * (4 * k * k - 1))
    return -1 / (mpmath.pi * (4 * k * k - 1))


def _mp_h_integral(lam, s, kind):
    """int e^{i lam x} h(x) phi_s(x) dx over R at the ambient precision: by the Fourier series of h
    for s >= 1/10 (terms e^{-(lam + n)^2 s^2 / 2}), by intervals where h is one sine/cosine branch
    (complex erfc) for s < 1/10."""
    if s >= mpmath.mpf(1) / 10:
        reach = int(mpmath.ceil(mpmath.sqrt(2 * (mpmath.mp.dps + 20) * mpmath.log(10)) / s)) + 2
        centre = int(mpmath.nint(-lam))
        return mpmath.fsum(_mp_coefficient(n, kind) * mpmath.exp(-((lam + n) * s) ** 2 / 2)
                           for n in range(centre - reach, centre + reach + 1))
    return _mp_h_intervals(lam, s, kind)


def _mp_h_intervals(lam, s, kind):
    """The interval (complex erfc) form of ``_mp_h_integral``, x up to s sqrt(2 (dps+20) ln 10)."""
    pi = mpmath.pi
    top = s * mpmath.sqrt(2 * (mpmath.mp.dps + 20) * mpmath.log(10)) + 2 * pi
    total = mpmath.mpc(0)
    if kind in ("cos+", "cos-"):
        # intervals [-pi/2 + n pi, pi/2 + n pi], where cos has the sign (-1)^n
        n0 = int(mpmath.floor((-top + pi / 2) / pi))
        for n in range(n0, -n0 + 1):
            lo, hi = -pi / 2 + n * pi, pi / 2 + n * pi
            cos_sign = 1 if n % 2 == 0 else -1
            if (kind == "cos+") != (cos_sign == 1):
                continue
            # e^{i lam x} cos x = (e^{i(lam+1)x} + e^{i(lam-1)x})/2 over [lo, hi]
            part = (_mp_full(lam + 1, s, lo, hi) + _mp_full(lam - 1, s, lo, hi)) / 2
            total += cos_sign * part
        return total
    n0 = int(mpmath.floor(-top / pi)) - 1
    for n in range(n0, -n0 + 1):
        lo, hi = n * pi, (n + 1) * pi
        sin_sign = 1 if n % 2 == 0 else -1
        if (kind == "sin+") != (sin_sign == 1):
            continue
        # e^{i lam x} sin x = (e^{i(lam+1)x} - e^{i(lam-1)x})/(2i)
        part = (_mp_full(lam + 1, s, lo, hi) - _mp_full(lam - 1, s, lo, hi)) / (2j)
        total += sin_sign * part
    return total


def _mp_full(lam, s, lo, hi):
    """int_lo^hi e^{i lam x} phi_s(x) dx for any real lo < hi (split at 0 by symmetry)."""
    if lo >= 0:
        return _mp_segment(lam, s, lo, hi)
    if hi <= 0:
        return mpmath.conj(_mp_segment(lam, s, -hi, -lo))
    return _mp_segment(lam, s, 0, hi) + mpmath.conj(_mp_segment(lam, s, 0, -lo))


def _mp_mass(kind):
    def reference(spread):
        if spread == 0:
            return mpmath.mpf(1 if kind == "cos+" else 0)
        return mpmath.re(_mp_h_integral(0, spread, kind))
    return reference


_COMMON = dict(parameters=("spread",), source=SOURCE, tolerance=1e-10, derived_by_varlab=True)

cos_positive_mass = Formula(
    "asymmetric.cos_positive_mass", numeric=lambda spread: _mass(spread, "cos+"),
    reference=_mp_mass("cos+"),
    description="E max(cos X, 0), X ~ N(0, s^2): ||mu_R+|| of the shift-Gaussian kernel (times A "
                "for the cosh-Gaussian); a 1-D form of 002's d-dimensional integral",
    examples="""
        >>> from varlab.theory import asymmetric
        >>> round(asymmetric.cos_positive_mass(spread=1.0), 10)
        0.6502800179
        >>> asymmetric.cos_positive_mass(spread=0.0)          # X = 0: cos+(X) = 1
        1.0
        """, **_COMMON)
cos_negative_mass = Formula(
    "asymmetric.cos_negative_mass", numeric=lambda spread: _mass(spread, "cos-"),
    reference=_mp_mass("cos-"),
    description="E max(-cos X, 0), X ~ N(0, s^2): ||mu_R-|| of the shift-Gaussian kernel (times A "
                "for the cosh-Gaussian)",
    examples="""
        >>> from varlab.theory import asymmetric
        >>> round(asymmetric.cos_negative_mass(spread=1.0), 10)    # E cos+ - E cos- = E cos X = exp(-1/2)
        0.0437493582
        """, **_COMMON)
sin_positive_mass = Formula(
    "asymmetric.sin_positive_mass", numeric=lambda spread: _mass(spread, "sin+"),
    reference=_mp_mass("sin+"),
    description="E max(sin X, 0) = E|sin X|/2, X ~ N(0, s^2): ||mu_I+|| = ||mu_I-|| of the "
                "shift-Gaussian kernel (times A for sinh/cosh)",
    examples="""
        >>> from varlab.theory import asymmetric
        >>> round(asymmetric.sin_positive_mass(spread=1.0), 10)
        0.2895766094
        """, **_COMMON)


# --- kernels: spread, direction, masses --------------------------------------------------------
def _kernel_name(kernel):
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {list(KERNELS)}, got {kernel!r}")
    return kernel


def direction_of(kernel, sigma, vector):
    """c: the direction of the kernel's phase X = <c, w> (r for the shift, sigma^2 beta otherwise).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> asymmetric.direction_of("cosh_gaussian", 2.0, [0.5, 0.0])     # sigma^2 beta
    array([2., 0.])
    """
    vector = np.asarray(vector, dtype=float)
    return vector if _kernel_name(kernel) == "shift_gaussian" else sigma * sigma * vector


def spread_of(kernel, sigma, vector):
    """s = |c| / sigma (= |r|/sigma or sigma |beta|).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> asymmetric.spread_of("shift_gaussian", 2.0, [3.0, 4.0])       # |r| / sigma
    2.5
    """
    return float(np.linalg.norm(direction_of(kernel, sigma, vector))) / float(sigma)


def _tilt(kernel, s):
    """A = exp(s^2/2) for the sinh/cosh kernels (1 for the shift)."""
    return 1.0 if kernel == "shift_gaussian" else math.exp(0.5 * s * s)


#: which h(X) each part is, per kernel ("one" = the Gaussian itself)
_PART_H = {
    "shift_gaussian": {"real_positive": "cos+", "real_negative": "cos-",
                       "imaginary_positive": "sin+", "imaginary_negative": "sin-"},
    "sinh_gaussian": {"real_positive": "one", "real_negative": None,
                      "imaginary_positive": "sin-", "imaginary_negative": "sin+"},
    "cosh_gaussian": {"real_positive": "cos+", "real_negative": "cos-",
                      "imaginary_positive": "sin-", "imaginary_negative": "sin+"},
}


def part_h(kernel, part):
    """The function h of X with part = (scale) p(w) h(<c, w>): "cos+", "cos-", "sin+", "sin-",
    "one" or None (empty part).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> asymmetric.part_h("shift_gaussian", "imaginary_negative")
    'sin-'
    >>> asymmetric.part_h("sinh_gaussian", "real_positive")         # the Gaussian p itself
    'one'
    >>> print(asymmetric.part_h("sinh_gaussian", "real_negative"))     # k2 has no negative real part
    None
    """
    return _PART_H[_kernel_name(kernel)][part]


def kernel_masses(kernel, spread) -> dict:
    """The four total masses of the kernel's complex measure at spread s (scalar), by part name
    (002, Eq. 2 and Def. 2; 1-D forms derived by varlab).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> masses = asymmetric.kernel_masses("shift_gaussian", 1.0)
    >>> sorted(masses)
    ['imaginary_negative', 'imaginary_positive', 'real_negative', 'real_positive']
    """
    kernel = _kernel_name(kernel)
    s = float(SPREAD.validate(spread, "spread"))
    tilt = _tilt(kernel, s)
    masses = {}
    for part in PARTS:
        h = part_h(kernel, part)
        if h is None:
            masses[part] = 0.0
        elif h == "one":
            masses[part] = 1.0
        else:
            formula = {"cos+": cos_positive_mass, "cos-": cos_negative_mass}.get(h, sin_positive_mass)
            masses[part] = tilt * float(formula(spread=s))
    return masses


# --- characteristic functions of the parts ------------------------------------------------------
def _even_coefficients(n):
    k = np.abs(n) // 2
    even = (n % 2 == 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        value = np.where(k % 2 == 1, 1.0, -1.0) / (math.pi * (4.0 * k * k - 1.0))
    return np.where(even, np.where(n == 0, 1.0 / math.pi, value), 0.0)


def _abs_sin_half_coefficients(n):
    k = np.abs(n) // 2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        value = -1.0 / (math.pi * (4.0 * k * k - 1.0))
    return np.where(n % 2 == 0, np.where(n == 0, 1.0 / math.pi, value), 0.0)


def _coefficients(h, n):
    """Fourier coefficients a_n of h, h(x) = sum_n a_n e^{i n x}."""
    if h in ("cos+", "cos-"):
        sign = 1.0 if h == "cos+" else -1.0
        return (_even_coefficients(n) + sign * np.where(np.abs(n) == 1, 0.25, 0.0)).astype(complex)
    sign = 1.0 if h == "sin+" else -1.0
    odd = np.where(n == 1, -0.25j, np.where(n == -1, 0.25j, 0.0))
    return _abs_sin_half_coefficients(n) + sign * odd


def _h_transform_small(lam, s, h):
    """E[e^{i lam X} h(X)] by intervals (s < 2, |lam| s moderate)."""
    lam = np.asarray(lam, dtype=float)
    s = np.asarray(s, dtype=float)
    # both half lines: int_{-inf}^0 e^{i lam x} g(x) phi = conj(int_0^inf e^{i lam x} g(-x) phi)
    starts = math.pi * np.arange(2 * _INTERVALS)
    seg_plus = _segment(lam[..., None] + 1.0, s[..., None], starts, starts + math.pi)
    seg_minus = _segment(lam[..., None] - 1.0, s[..., None], starts, starts + math.pi)
    # on [j pi, (j+1) pi]: e^{i lam x} cos x = (seg_plus + seg_minus)/2, sin x = (seg_plus - seg_minus)/(2i)
    cos_int = 0.5 * (seg_plus + seg_minus)
    sin_int = (seg_plus - seg_minus) / 2j
    j = np.arange(2 * _INTERVALS)
    sin_sign = np.where(j % 2 == 0, 1.0, -1.0)              # sign of sin on [j pi, (j+1) pi]
    if h in ("sin+", "sin-"):
        # x >= 0: sin+ on even j; x <= 0 (x = -y): sin(-y) = -sin y > 0 where sin y < 0 (odd j)
        want = 1.0 if h == "sin+" else -1.0
        right = np.sum(np.where(sin_sign == want, want * sin_int, 0.0), axis=-1)
        # int_{-inf}^0 e^{i lam x} h(x) phi dx = int_0^inf e^{-i lam y} h(-y) phi dy
        #   = conj(int_0^inf e^{i lam y} h(-y) phi dy), h(-y) = want*(-sin y) where -want sin y > 0
        left = np.conj(np.sum(np.where(sin_sign == -want, -want * sin_int, 0.0), axis=-1))
        return right + left
    # cos: on [j pi, (j+1) pi] cos changes sign at (j + 1/2) pi: use the half-shifted intervals
    starts2 = math.pi / 2 + math.pi * np.arange(2 * _INTERVALS)
    seg_plus2 = _segment(lam[..., None] + 1.0, s[..., None], starts2, starts2 + math.pi)
    seg_minus2 = _segment(lam[..., None] - 1.0, s[..., None], starts2, starts2 + math.pi)
    cos_int2 = 0.5 * (seg_plus2 + seg_minus2)
    cos_sign2 = np.where(j % 2 == 0, -1.0, 1.0)             # sign of cos on [pi/2 + j pi, 3pi/2 + j pi]
    first = 0.5 * (_segment(lam + 1.0, s, 0.0, math.pi / 2) + _segment(lam - 1.0, s, 0.0, math.pi / 2))
    want = 1.0 if h == "cos+" else -1.0
    right = np.sum(np.where(cos_sign2 == want, want * cos_int2, 0.0), axis=-1)
    if h == "cos+":
        right = right + first
    # cos is even: int_{-inf}^0 e^{i lam x} h(cos x) phi = conj(int_0^inf e^{i lam y} h(cos y) phi)
    return right + np.conj(right)


def h_transform(lam, spread, h):
    """E[e^{i lam X} h(X)], X ~ N(0, s^2) (complex; arrays broadcast): the characteristic
    function of a part p(w) h(<c, w>) along c, unnormalised (varlab's own).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory import asymmetric
    >>> complex(np.round(asymmetric.h_transform(0.0, 1.0, "cos+"), 8))     # lam = 0: the mass E cos+(X)
    (0.65028002+0j)
    >>> np.round(asymmetric.h_transform([0.5, 1.0], 1.0, "sin+"), 6)
    array([0.241752+0.139461j, 0.127295+0.216166j])
    """
    lam, s = np.broadcast_arrays(np.asarray(lam, dtype=float), np.asarray(spread, dtype=float))
    if h == "one":
        return np.exp(-0.5 * (lam * s) ** 2) + 0j
    out = np.zeros(lam.shape, dtype=complex)              # |lam| = inf: the limit 0 (Riemann-Lebesgue)
    zero = s == 0.0
    if np.any(zero):
        out[zero] = {"cos+": 1.0, "cos-": 0.0, "sin+": 0.0, "sin-": 0.0}[h]
    # intervals for s < 2 at moderate |lam| s, and for s < _TINY at any lam (there only the
    # intervals at 0 count: e^{-(pi/2)^2/(2 s^2)} underflows); Fourier series otherwise
    small = (~zero) & (s < _SWITCH) & (((np.abs(lam) + 1.0) * s <= 5.0) | (s < _TINY)) & np.isfinite(lam)
    if np.any(small):
        out[small] = _h_transform_small(lam[small], s[small], h)
    large = ~(zero | small) & np.isfinite(lam)
    if np.any(large):
        ls, ss = lam[large], s[large]
        width = int(math.ceil(13.0 / float(np.min(ss)))) + 2
        # n = round(-lam) + offset as floats (exact below 2^53; beyond, |a_n| < 1e-32), and
        # lam + n = (lam + round(-lam)) + offset without rounding
        base = np.rint(-ls)[:, None]
        offsets = np.arange(-width, width + 1.0)
        terms = _coefficients(h, base + offsets) * np.exp(-0.5 * (((ls[:, None] + base) + offsets) * ss[:, None]) ** 2)
        out[large] = np.sum(terms, axis=-1)
    return out


def part_transform(kernel, part, spread, phase_ratio, transverse):
    """U_part(D) = ||part|| E_part[e^{i <w, D>}] for D = phase_ratio c + D_perp, |D_perp| =
    transverse sigma: tilt * E[e^{i alpha |c| ... }] = tilt e^{-tau^2/2} E[e^{i alpha X} h(X)].

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory import asymmetric
    >>> complex(np.round(asymmetric.part_transform("shift_gaussian", "real_positive", 1.0, 0.0, 0.0), 8))
    (0.65028002+0j)
    >>> complex(np.round(asymmetric.part_transform("shift_gaussian", "real_positive", 1.0, 0.5, 1.0), 6))
    (0.377114+0j)
    """
    h = part_h(kernel, part)
    if h is None:
        return np.zeros(np.broadcast(np.asarray(spread), np.asarray(phase_ratio),
                                     np.asarray(transverse)).shape, dtype=complex)
    s = np.asarray(spread, dtype=float)
    tilt = np.exp(0.5 * s * s) if (kernel != "shift_gaussian" and h != "one") else 1.0
    transverse = np.asarray(transverse, dtype=float)
    with np.errstate(over="ignore"):
        damping = np.exp(-0.5 * transverse * transverse)
    return tilt * damping * h_transform(phase_ratio, s, h)


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)

# The estimator's variance and Prop. 6 live in asymmetric_variance, which builds on the parts'
# transforms above; importing them last keeps ``varlab.theory.asymmetric.estimator_variance`` etc.
# working (``import varlab`` imports this module, through spectral.asymmetric, first).
from .asymmetric_variance import (beta_d, cosh_variance, estimator_variance,  # noqa: E402
                                  part_second_moment, prop6_features, shift_variance, sinh_variance)
