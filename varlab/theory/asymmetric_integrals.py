"""One-dimensional Gaussian integrals of the Jordan parts' functions h (paper 002, AsK-RFF).

Each Jordan part of 002's complex spectral measures is p(w) h(X), X = <c, w> ~ N(0, s^2) under
the Gaussian p, with h one of cos+, cos-, sin+, sin- (x+ = max(x, 0)) (``varlab.theory.asymmetric``).
This module evaluates, for X ~ N(0, s^2) (s the *spread*), the expectations E h(X) (the parts'
total masses: ``cos_positive_mass``, ``cos_negative_mass``, ``sin_positive_mass``) and the
unnormalised characteristic functions E[e^{i lam X} h(X)] (``h_transform``), each in closed form:

* for s < 2 on the intervals where h has one sign, int_a^b e^{i l x} phi_s(x) dx =
  e^{-l^2 s^2/2}/2 [erfc((a - i l s^2)/(s sqrt2)) - erfc((b - i l s^2)/(s sqrt2))] (complex
  erfc, scipy's Faddeeva), plus E cos X = e^{-s^2/2} and int_0^inf sin(x) phi_s = D(s/sqrt2)/sqrt(pi)
  (Dawson's function) for the parts that are a full expectation plus a small remainder;
* for s >= 2 by the Fourier series of h (cos+(x) = 1/pi + cos(x)/2 + (2/pi) sum_k (-1)^(k+1)
  cos(2kx)/(4k^2-1), |sin x| = 2/pi - (4/pi) sum_k cos(2kx)/(4k^2-1)) with E cos(nX) = e^{-n^2 s^2/2};

with mpmath references (the interval forms at any precision). Kernel-agnostic: the kernels, their
parts and the estimator's variance are in ``varlab.theory.asymmetric``, which imports these names
and runs the Formulas' examples.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy.special

from .formula import Formula

__all__ = ["cos_positive_mass", "cos_negative_mass", "sin_positive_mass", "h_transform"]

SOURCE = "002, Eq. (2), (9)-(11) and §4 (total masses); 1-D reduction derived by varlab"

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
    # on [j pi, (j+1) pi]: e^{i lam x} sin x = (seg_plus - seg_minus)/(2i)
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
