"""Complex spectral measures of the asymmetric kernels of paper 002 (Eq. 9-11), with their four
Jordan parts (Eq. 2) as probability measures and exact total masses.

Each part is p(w) h(<c, w>) up to its total mass, p the N(0, I/sigma^2) density (see
:mod:`varlab.theory.asymmetric`). Frequencies of a normalised part are drawn two ways:

* ``method="exact"`` (varlab's): the component along c is the only non-Gaussian one. Its phase
  X = <c, w> has the 1-D density h(x) phi_s(x) / E h(X); the orthogonal components are plain
  N(0, 1/sigma^2). For s < 2, X is drawn by inverse CDF: an interval where h has one sign is
  chosen with its probability, then X solves F(X) = U on it by vectorised safeguarded Newton steps (the CDF in
  closed form, complex erfc). For s >= 2, X is drawn from N(0, s^2) restricted to {h > 0}
  (a truncated normal on a chosen interval) and accepted with probability h(X) <= 1
  (acceptance E h / P(h > 0), about 2/pi or more). Every draw is exact.
* ``method="rejection"``: the paper's acceptance-rejection (002 §4, steps 1-4) with the
  Gaussian proposal g = tilt p, c = 1: accept w with probability h(<c, w>); the acceptance rate
  is E h(X) = ||part|| / tilt (``acceptance_rate``).

>>> from varlab import spectral
>>> mu = spectral.get_measure("shift_gaussian", lengthscale=2.0, shift=[1.0, 0.0])
>>> sorted(mu.total_masses())
['imaginary_negative', 'imaginary_positive', 'real_negative', 'real_positive']
>>> round(float(mu.kernel([[-1.0, 0.0]])[0]), 12)      # k1(-r) = 1
1.0
"""
from __future__ import annotations

import math

import numpy as np
import scipy.special
import scipy.stats

from .. import _random, _validate
from ..theory import asymmetric as theory
from ..theory import asymmetric_integrals as integrals
from . import ComplexMeasure, SpectralMeasure, _count, _norm, _points, renamed

__all__ = ["ProjectedPart", "ShiftGaussian", "SinhGaussian", "CoshGaussian", "kernel_value"]

_SQRT2 = math.sqrt(2.0)
#: at most this many safeguarded Newton steps of the inverse CDF (bisection when a step leaves
#: the bracket): bisection alone resolves the bracket [a, a + pi] to a float's last bit in 60
_NEWTON_STEPS = 100
#: a draw has converged when its Newton step is below this fraction of max(|x|, s)
_CONVERGED = 4 * float(np.finfo(np.float64).eps)
#: the paper's rejection sampler refuses parts it would accept less often than this
MIN_ACCEPTANCE = 1e-6
#: smallest positive spread s: below it the masses of the imaginary parts (~ s / sqrt(2 pi))
#: would be subnormal floats (< 2.2e-308) and lose their precision (s = 0 exactly is allowed)
MIN_SPREAD = 1e-307
_FMAX = float(np.finfo(np.float64).max)
_TINY = float(np.finfo(np.float64).tiny)


def _vector(value, name):
    v = _validate.real_array(value, name)
    if v.ndim != 1 or v.size < 1:
        raise ValueError(f"{name} must be a 1-D vector with at least one entry, got shape {v.shape}")
    return v


def _sigma(value):
    s = _validate.real_array(value, "sigma", low=0.0, low_open=True)
    if s.ndim != 0:
        raise TypeError(f"sigma must be a single real number > 0, got {value!r}")
    if not math.isfinite(64.0 / float(s)):
        raise ValueError(f"sigma must be at least {64.0 / _FMAX:.3g} (so that the frequencies "
                         f"N(0, I/sigma^2) are finite), got {value!r}")
    return float(s)


def _check_spread(spread, names):
    """s in {0} u [MIN_SPREAD, SPREAD.high]; ``names`` says which parameters gave it."""
    if spread > theory.SPREAD.high:
        raise ValueError(f"{names} give the spread s = {spread:.4g} > {theory.SPREAD.high:g}; the "
                         f"masses are computed for s <= {theory.SPREAD.high:g}")
    if 0.0 < spread < MIN_SPREAD:
        raise ValueError(f"{names} give the spread s = {spread:.4g}, in (0, {MIN_SPREAD:g}): the "
                         f"masses of the imaginary parts (~ s/sqrt(2 pi)) would lose their precision "
                         f"in float64; s must be 0 or in [{MIN_SPREAD:g}, {theory.SPREAD.high:g}]")


# -- the sign intervals of h ------------------------------------------------------------------------
def _intervals(h, s):
    """(starts, signs) of the length-pi intervals [a, a + pi] where h = sign * (cos or sin) > 0,
    covering |x| <= 13 s + 2 pi; ``trig`` is "cos" or "sin"."""
    reach = 13.0 * s + 2.0 * math.pi
    n = np.arange(-int(reach / math.pi) - 2, int(reach / math.pi) + 3)
    if h in ("cos+", "cos-"):
        starts = -math.pi / 2 + n * math.pi                 # cos has sign (-1)^n there
        sign = np.where(n % 2 == 0, 1.0, -1.0)
        want = 1.0 if h == "cos+" else -1.0
    else:
        starts = n * math.pi                                 # sin has sign (-1)^n there
        sign = np.where(n % 2 == 0, 1.0, -1.0)
        want = 1.0 if h == "sin+" else -1.0
    keep = sign == want
    return starts[keep], sign[keep]


def _trig(h, x):
    return np.cos(x) if h in ("cos+", "cos-") else np.sin(x)


def _h(h, x):
    sign = 1.0 if h in ("cos+", "sin+") else -1.0
    return np.maximum(sign * _trig(h, x), 0.0)


def _signed_segment(s, a, b):
    """int_a^b e^{ix} phi_s(x) dx for any real a < b (arrays), complex (split at 0, conj symmetry)."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    out = np.zeros(a.shape, dtype=complex)
    pos = a >= 0
    neg = b <= 0
    mid = ~(pos | neg)
    seg = integrals._segment
    out[pos] = seg(1.0, s, a[pos], b[pos])
    out[neg] = np.conj(seg(1.0, s, -b[neg], -a[neg]))
    out[mid] = seg(1.0, s, 0.0, b[mid]) + np.conj(seg(1.0, s, 0.0, -a[mid]))
    return out


def _partial(h, s, a, x, sign):
    """int_a^x h(t) phi_s(t) dt on an interval [a, a + pi] where h = sign * trig > 0."""
    value = _signed_segment(s, a, x)
    return sign * (value.real if h in ("cos+", "cos-") else value.imag)


def _phase_exact(h, s, n, rng):
    """n draws of X with density h(x) phi_s(x) / E h(X) (see the module docstring)."""
    if s == 0.0:
        raise ValueError("a part with spread 0 is a point mass at X = 0 or empty; nothing to sample")
    starts, sign = _intervals(h, s)
    if s < integrals._SWITCH:
        masses = np.maximum(_partial(h, s, starts, starts + math.pi, sign), 0.0)
        choice = rng.choice(starts.size, size=n, p=masses / masses.sum())
        a, sg, total = starts[choice], sign[choice], masses[choice]
        target = rng.random(n) * total
        # X lies within 40 s of 0 (the Gaussian factor beyond is e^{-800}): bracket there, so
        # that the bisection steps resolve a small s
        lo, hi = np.maximum(a, -40.0 * s), np.minimum(a + math.pi, 40.0 * s)
        x = 0.5 * (lo + hi)
        todo = np.arange(n)                     # the draws whose x still moves
        for _ in range(_NEWTON_STEPS):          # safeguarded Newton, vectorised over the n draws
            xt, lot, hit, at, sgt = x[todo], lo[todo], hi[todo], a[todo], sg[todo]
            gap = _partial(h, s, at, xt, sgt) - target[todo]
            below = gap < 0
            lot = np.where(below, xt, lot)
            hit = np.where(below, hit, xt)
            slope = _h(h, xt) * np.exp(-0.5 * (xt / s) ** 2) / (s * math.sqrt(2 * math.pi))
            with np.errstate(divide="ignore", invalid="ignore"):
                step = xt - gap / slope
            new = np.where((step > lot) & (step < hit), step, 0.5 * (lot + hit))
            x[todo], lo[todo], hi[todo] = new, lot, hit
            # converged: the step is below a few units in the last place of the scale s
            todo = todo[np.abs(new - xt) > _CONVERGED * np.maximum(np.abs(xt), s)]
            if not todo.size:
                break
        return x
    # s >= 2: restricted Gaussian proposal, accept with probability h(X)
    norm = scipy.stats.norm(scale=s)
    weights = norm.cdf(starts + math.pi) - norm.cdf(starts)
    weights = np.where(starts >= 0, norm.sf(starts) - norm.sf(starts + math.pi), weights)
    out = np.empty(n)
    todo = np.arange(n)
    while todo.size:
        choice = rng.choice(starts.size, size=todo.size, p=weights / weights.sum())
        lo, hi = starts[choice] / s, (starts[choice] + math.pi) / s
        x = s * scipy.stats.truncnorm.rvs(lo, hi, random_state=rng)
        x = np.atleast_1d(x)
        accept = rng.random(todo.size) < _h(h, x)
        out[todo[accept]] = x[accept]
        todo = todo[~accept]
    return out


class ProjectedPart(SpectralMeasure):
    """The probability measure p(w) h(<c, w>) / E h(X) in R^d, d = len(c) (a Jordan part of an
    002 kernel, normalised). ``h`` is "cos+", "cos-", "sin+", "sin-" or "one" (p itself).

    ``kernel(z)`` = E cos <w, z> and ``sine_kernel(z)`` = E sin <w, z> in closed form
    (varlab's own, via :func:`varlab.theory.asymmetric.h_transform`).

    Examples
    --------
    >>> from varlab.spectral.asymmetric import ProjectedPart
    >>> part = ProjectedPart(lengthscale=1.0, c=[1.0, 0.0], h="cos+")      # p(w) max(cos w_1, 0), normalised
    >>> round(part.mass, 10)                                        # E cos+(X), X ~ N(0, 1)
    0.6502800179
    >>> part.rvs(3, 2, random_state=0).shape                        # exact sampling
    (3, 2)
    >>> w, proposals = part.rejection_rvs(1000, random_state=0)     # the paper's sampler
    >>> w.shape, proposals                                          # acceptance about 0.65
    ((1000, 2), 1589)
    """

    def __init__(self, lengthscale=1.0, c=(1.0,), h="cos+", method="exact", *, sigma=None):
        sigma = _sigma(renamed(lengthscale, sigma, "sigma"))
        c = _vector(c, "c")
        _validate.choice(h, "h", ("cos+", "cos-", "sin+", "sin-", "one"))
        _validate.choice(method, "method", ("exact", "rejection"))
        norm_c = float(_norm(c))
        if h != "one":
            if not _TINY <= norm_c < math.inf:
                raise ValueError(f"c must have a norm in [{_TINY:.3g}, {_FMAX:.3g}] for a part with "
                                 f"h != 'one' (with c = 0 the phase is 0), got |c| = {norm_c:.3g}")
            _check_spread(norm_c / sigma, "c and sigma")
        super().__init__(lengthscale=sigma, c=tuple(float(v) for v in c), h=h, method=method)
        self.sigma = self.lengthscale = sigma               # 002's sigma is the lengthscale
        self.c, self.h, self.method = c, h, method
        self.spread = norm_c / sigma if h != "one" else 0.0
        self.symmetric = h in ("cos+", "cos-", "one")
        self._norm_c = norm_c
        self._unit = c / norm_c if h != "one" else c
        self.mass = float(np.real(theory.h_transform(0.0, self.spread, h))) if h != "one" else 1.0
        if not self.mass >= _TINY:
            raise ValueError(f"c and sigma give a part h={h!r} of total mass {self.mass:.3g} at spread "
                             f"{self.spread:g}: empty (or below the smallest normal float {_TINY:.3g})")

    @property
    def acceptance_rate(self) -> float:
        """The paper's rejection sampler's acceptance rate, E h(X) (002 §4 step 4 with c = tilt)."""
        return 1.0 if self.h == "one" else self.mass

    def _check_d(self, d):
        if d != self.c.size:
            raise ValueError(f"d must equal the dimension of the part's direction c ({self.c.size}), got {d}")

    def _transform(self, z):
        """E[e^{i <w, z>}] = h_transform(alpha) e^{-tau^2/2} / mass, alpha = <z, c>/|c|^2 and
        tau = |z - <z, u> u| / sigma (u = c/|c|), both computed on z scaled by its largest entry
        (no overflow or underflow in between; an alpha or tau beyond float64 gives the limit 0)."""
        scale = np.max(np.abs(z), axis=-1)
        scaled = z / np.where(scale > 0, scale, 1.0)[..., None]
        with np.errstate(over="ignore", invalid="ignore"):
            if self.h == "one":
                tau = scale * _norm(scaled) / self.sigma
                return np.exp(-0.5 * tau * tau) + 0j
            along = scaled @ self._unit
            tau = scale * (_norm(scaled - along[..., None] * self._unit) / self.sigma)
            alpha = scale * (along / self._norm_c)
            alpha = np.where(np.isnan(alpha), 0.0, alpha)          # 0 * inf: z = 0 along c
            return theory.h_transform(alpha, self.spread, self.h) * np.exp(-0.5 * tau * tau) / self.mass

    def _kernel(self, z):
        self._check_d(z.shape[-1])
        return np.real(self._transform(z))

    def _sine_kernel(self, z):
        self._check_d(z.shape[-1])
        return np.imag(self._transform(z))

    def _rvs(self, n, d, rng):
        self._check_d(d)
        if self.method == "rejection" or self.h == "one":
            return self.rejection_rvs(n, d, rng)[0]
        w = rng.standard_normal((n, d)) / self.sigma
        unit = self._unit
        x = _phase_exact(self.h, self.spread, n, rng)
        along = (x / self.spread) / self.sigma              # <unit, w> = X / |c|, |c| = s sigma
        w += (along - w @ unit)[:, None] * unit[None, :]
        return w

    def rejection_rvs(self, n, d=None, random_state=None):
        """The paper's acceptance-rejection (002 §4): propose w ~ N(0, I/sigma^2), accept with
        probability h(<c, w>). Returns (w (n, d), number of proposals)."""
        n = _count(n, "n", "m")
        d = self.c.size if d is None else _count(d, "d", "dimension")
        self._check_d(d)
        rng = _random.generator(random_state)
        if self.acceptance_rate < MIN_ACCEPTANCE:
            raise ValueError(f"the paper's rejection sampler would accept a proposal with probability "
                             f"{self.acceptance_rate:.3g} < {MIN_ACCEPTANCE:g} for part h={self.h!r} at "
                             f"spread {self.spread:.3g}; use method='exact'")
        out = np.empty((n, d))
        filled, proposals = 0, 0
        while filled < n:
            # proposals in blocks of at most 2^22 numbers, so memory stays bounded at low acceptance
            batch = min(max(16, int(1.2 * (n - filled) / self.acceptance_rate)), max(16, 2 ** 22 // d))
            w = rng.standard_normal((batch, d)) / self.sigma
            accepted = (np.arange(batch) if self.h == "one"
                        else np.flatnonzero(rng.random(batch) < _h(self.h, w @ self.c)))
            take = min(n - filled, accepted.size)
            out[filled:filled + take] = w[accepted[:take]]
            filled += take
            # proposals after the n-th acceptance were not needed: they do not count
            proposals += int(accepted[take - 1]) + 1 if (filled == n and take) else batch
        return out, proposals


class _AsymmetricGaussian(ComplexMeasure):
    """Shared constructor: the four parts of an 002 kernel with exact total masses."""

    kernel_name = ""

    def __init__(self, sigma, vector, vector_name, method):
        sigma = _sigma(sigma)
        vector = _vector(vector, vector_name)
        names = f"sigma and {vector_name}"
        with np.errstate(over="ignore", under="ignore"):
            if self.kernel_name == "shift_gaussian":       # s = |r|/sigma, c = r
                spread, c = float(_norm(vector)) / sigma, vector
            else:                                           # s = sigma |beta|, c = sigma^2 beta
                spread, c = sigma * float(_norm(vector)), sigma * (sigma * vector)
        _check_spread(spread, names)
        norm_c = float(_norm(c))
        if spread > 0 and not _TINY <= norm_c < math.inf:
            raise ValueError(f"{names} give the direction c = sigma^2 {vector_name} of norm {norm_c:.3g}, "
                             f"outside the normal float64 range [{_TINY:.3g}, {_FMAX:.3g}]")
        masses = theory.kernel_masses(self.kernel_name, spread)
        parts = {}
        for part in theory.PARTS:
            h = theory.part_h(self.kernel_name, part)
            if h is not None and spread == 0.0 and masses[part] > 0.0:
                h = "one"                                   # s = 0: cos+(X) = 1, the part is p itself
            # a mass below the smallest normal float (cos- for s < 0.042) is an empty part: it
            # adds less than 2.2e-308 to k and its phase law has no precision
            empty = h is None or masses[part] < _TINY
            parts[part] = None if empty else ProjectedPart(sigma, c, h, method)
            if parts[part] is None:
                masses[part] = 0.0
        self.sigma = self.lengthscale = sigma               # 002's sigma is the lengthscale
        self.spread, self.direction, self.method = spread, c, method
        setattr(self, vector_name, vector)
        super().__init__(parts["real_positive"], parts["real_negative"], parts["imaginary_positive"],
                         parts["imaginary_negative"], masses=masses)

    def exact_kernel(self, z) -> np.ndarray:
        """k(z) from the kernel's formula (002, Eq. 9-11), z of shape (..., d)."""
        return kernel_value(self.kernel_name, _points(z), self.sigma, getattr(self, self._vector_name))

    def fourier_transform(self, w) -> np.ndarray:
        """mu(w) as printed in 002 (Eq. 9-11), complex, w of shape (..., d)."""
        w = _points(w, "w")
        sigma = self.sigma
        d = w.shape[-1]
        v = getattr(self, self._vector_name)
        gauss = (sigma / math.sqrt(2 * math.pi)) ** d * np.exp(-0.5 * sigma ** 2 * np.sum(w * w, axis=-1))
        if self.kernel_name == "shift_gaussian":
            return gauss * np.exp(1j * (w @ v))
        tilt = math.exp(0.5 * sigma ** 2 * float(v @ v))
        if self.kernel_name == "sinh_gaussian":
            return gauss * (1 - 1j * tilt * np.sin(sigma ** 2 * (w @ v)))
        return gauss * tilt * np.exp(-1j * sigma ** 2 * (w @ v))


def kernel_value(kernel, z, sigma, vector) -> np.ndarray:
    """k(z) of 002's Eq. (9) (vector = r), (10) or (11) (vector = beta); z of shape (..., d).

    Evaluated in log space with t = |z|/sigma and <z, beta> = t s cos(z, beta), s = sigma |beta|:
    k3 = exp(t (s cos - t/2)), k2 = exp(-t^2/2) + (exp(t (s cos - t/2)) - exp(-t (s cos + t/2)))/2,
    so a huge z gives 0, never inf - inf or 0 * inf.

    Examples
    --------
    >>> from varlab.spectral.asymmetric import kernel_value
    >>> kernel_value("shift_gaussian", [[-1.0, 0.0], [0.0, 0.0]], 2.0, [1.0, 0.0]).round(8)   # k1(-r) = 1
    array([1.       , 0.8824969])
    >>> kernel_value("cosh_gaussian", [[0.7]], 1.0, [0.5]).round(8)     # exp(-0.7^2/2 + 0.5 * 0.7)
    array([1.11071061])
    """
    if kernel not in theory.KERNELS:
        raise ValueError(f"kernel must be one of {list(theory.KERNELS)}, got {kernel!r}")
    z = np.asarray(z, dtype=float)
    vector = np.asarray(vector, dtype=float)
    sigma = float(sigma)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if kernel == "shift_gaussian":
            t = _norm(z + vector) / sigma
            return np.exp(-0.5 * t * t)
        norm_z, norm_v = _norm(z), float(_norm(vector))
        t = norm_z / sigma
        half = -0.5 * t * t
        if norm_v == 0.0:
            return np.exp(half)
        unit_z = z / np.where(norm_z > 0, norm_z, 1.0)[..., None]
        slope = (sigma * norm_v) * (unit_z @ (vector / norm_v))          # s cos(z, beta); 0 at z = 0
        up = np.exp(t * (slope - 0.5 * t))                                 # exp(-t^2/2 + <z, beta>)
        if kernel == "cosh_gaussian":
            return up
        down = np.exp(-t * (slope + 0.5 * t))                              # exp(-t^2/2 - <z, beta>)
        return np.exp(half) + 0.5 * (up - down)


class ShiftGaussian(_AsymmetricGaussian, name="shift_gaussian"):
    """k1(D) = exp(-|D + r|^2/(2 sigma^2)), mu1 = p(w) e^{i <r, w>} (002, Eq. 9).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.spectral.asymmetric import ShiftGaussian
    >>> mu = ShiftGaussian(lengthscale=1.0, shift=[0.5, 0.0])
    >>> [round(mass, 6) for mass in mu.total_masses().values()]     # R+, R-, I+, I-
    [0.882723, 0.000226, 0.183651, 0.183651]
    >>> z = np.array([[0.3, -0.2]])
    >>> mu.kernel(z).round(8), mu.exact_kernel(z).round(8)      # the four parts give k1 exactly
    (array([0.71177032]), array([0.71177032]))
    >>> mu.rvs_part("real_positive", 4, 2, random_state=0).shape
    (4, 2)
    """

    kernel_name, _vector_name = "shift_gaussian", "shift"

    def __init__(self, lengthscale=1.0, shift=(0.5,), method="exact", *, sigma=None):
        super().__init__(renamed(lengthscale, sigma, "sigma"), shift, "shift", method)


class SinhGaussian(_AsymmetricGaussian, name="sinh_gaussian"):
    """k2(D) = exp(-|D|^2/(2 sigma^2)) (1 + sinh <beta, D>), mu2 = p(w) [1 - i A sin(sigma^2
    <beta, w>)], A = exp(sigma^2 |beta|^2/2) (002, Eq. 10).

    Examples
    --------
    >>> from varlab.spectral.asymmetric import SinhGaussian
    >>> mu = SinhGaussian(lengthscale=1.0, beta=[0.5])
    >>> [round(mass, 6) for mass in mu.total_masses().values()]     # R+, R-, I+, I-
    [1.0, 0.0, 0.208104, 0.208104]
    >>> mu.kernel([[0.7]]).round(8), mu.exact_kernel([[0.7]]).round(8)
    (array([1.06227856]), array([1.06227856]))
    """

    kernel_name, _vector_name = "sinh_gaussian", "beta"

    def __init__(self, lengthscale=1.0, beta=(0.5,), method="exact", *, sigma=None):
        super().__init__(renamed(lengthscale, sigma, "sigma"), beta, "beta", method)


class CoshGaussian(_AsymmetricGaussian, name="cosh_gaussian"):
    """k3(D) = exp(-|D|^2/(2 sigma^2)) exp(<beta, D>), mu3 = A p(w) e^{-i sigma^2 <beta, w>}
    (002, Eq. 11; the paper calls it cosh-Gaussian though no cosh appears).

    Examples
    --------
    >>> from varlab.spectral.asymmetric import CoshGaussian
    >>> mu = CoshGaussian(lengthscale=1.0, beta=[0.5])
    >>> round(mu.total_mass(), 6)                  # A (E cos+ + E cos- + 2 E sin+), A = e^{1/8}
    1.41672
    >>> mu.kernel([[0.7]]).round(8), mu.exact_kernel([[0.7]]).round(8)
    (array([1.11071061]), array([1.11071061]))
    """

    kernel_name, _vector_name = "cosh_gaussian", "beta"

    def __init__(self, lengthscale=1.0, beta=(0.5,), method="exact", *, sigma=None):
        super().__init__(renamed(lengthscale, sigma, "sigma"), beta, "beta", method)
