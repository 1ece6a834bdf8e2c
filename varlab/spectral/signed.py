"""Signed spectral measures of indefinite radial kernels (004, "Signed Measure", "Jordan
Decomposition"; Liu et al. 2021): the delta-Gaussian kernel and the polynomial kernel on the
sphere.

* ``GaussianMixture``: the probability measure sum_i c_i N(0, I / sigma_i^2) (c_i >= 0, sum 1),
  kernel sum_i c_i exp(-r^2 / (2 sigma_i^2)); |w| is the chi(d, scale 1/sigma_i) mixture.
* ``DeltaGaussian``: k(r) = sum_i a_i exp(-r^2 / (2 sigma_i^2)) (004, "Delta-Gaussian kernel"),
  density f(w) = sum_i a_i N(w; 0, I / sigma_i^2). Two decompositions:
  ``"sign"`` groups the terms by the sign of a_i (mu+ = sum_{a_i>0} a_i N_i, mu- likewise;
  masses sum of |a_i| per sign; any d); ``"jordan"`` is the minimal one, mu+ = max(f, 0) dw,
  mu- = max(-f, 0) dw in R^d (needs ``dimension``): the radial sign changes of f are found by
  root finding, the masses are exact sums of chi CDFs between them, and each part's norm is
  sampled exactly by rejection from the "sign" part (max(f, 0) <= the positive terms).
  ||mu+|| - ||mu-|| = k(0) for both, and the Jordan masses are the smallest possible.
* The polynomial kernel on the sphere (1 - r^2/a^2)^m (004, "Setup") has, as a radial function
  on R^d truncated to r <= a, the Bochner-Riesz transform
  p(w) = (2 pi)^{-d} a^d Gamma(m+1) 2^{d/2+m} pi^{d/2} (a|w|)^{-(d/2+m)} J_{d/2+m}(a|w|),
  whose total variation is finite only for d < 2m + 1 (|p| ~ |w|^{-(d+2m+1)/2});
  :func:`polynomial_total_variation_finite` states it. For the slides' settings (m = 1,
  d = 16, 64) the Jordan parts have infinite mass, so varlab does not sample them.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.optimize
import scipy.special as sc
import scipy.stats

from .. import _validate
from ..theory.parameters import parameter
from ..theory.polynomial import phi
from . import RadialMeasure, SignedMeasure, _count, _norm, renamed

__all__ = ["GaussianMixture", "DeltaGaussian", "polynomial_total_variation_finite"]


def _vector(values, name, *, positive=False):
    array = _validate.real_array(values, name, low=0.0 if positive else None, low_open=positive)
    array = np.atleast_1d(array).astype(np.float64)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d sequence of numbers, got {values!r}")
    return array


#: the smallest bandwidth whose frequencies N(0, I/sigma^2) stay finite (as for spectral.Gaussian)
_MIN_BANDWIDTH = 64.0 / float(np.finfo(np.float64).max)
#: the Jordan decomposition refuses parts it would sample with a lower acceptance rate
MIN_ACCEPTANCE = 1e-6


def _bandwidths(values):
    b = _vector(values, "bandwidths", positive=True)
    if np.any(b < _MIN_BANDWIDTH):
        raise ValueError(f"bandwidths must be at least {_MIN_BANDWIDTH:.3g} (so that the frequencies "
                         f"N(0, I/sigma^2) are finite), got {values!r}")
    return b


def _check_jordan_range(bandwidths, d, name):
    """The Jordan decomposition evaluates f = sum_i a_i N(w; 0, I/sigma_i^2) in float64: each
    term's peak (sigma_i^2 / 2 pi)^{d/2} must be a normal float (|log| <= 700) and the radial grid,
    up to 1e3 / min sigma_i, finite."""
    log_peaks = d * (np.log(bandwidths) - 0.5 * math.log(2.0 * math.pi))
    if np.any(np.abs(log_peaks) > 700.0) or not math.isfinite(1e3 / float(bandwidths.min())):
        raise ValueError(f"{name}={d} with bandwidths {bandwidths.tolist()} is outside the float64 range of "
                         f"the Jordan decomposition: it needs {name} |log(sigma_i / sqrt(2 pi))| <= 700 for "
                         f"every bandwidth and min sigma_i >= 5.6e-306; use decomposition='sign'")


class _MixtureLaw:
    """|w| for a Gaussian mixture: mixture of chi(d, scale=1/sigma_i); rvs, pdf, cdf, and
    quadrature nodes (Gauss-Legendre in each component's quantiles)."""

    def __init__(self, weights, bandwidths, d):
        self.weights, self.bandwidths, self.d = weights, bandwidths, d
        self._parts = [scipy.stats.chi(d, scale=1.0 / b) for b in bandwidths]

    def rvs(self, size=None, random_state=None):
        rng = np.random.default_rng(random_state) if not isinstance(random_state, np.random.Generator) else random_state
        n = int(np.prod(size)) if size is not None else 1
        component = rng.choice(self.weights.size, size=n, p=self.weights) if self.weights.size > 1 else np.zeros(n, int)
        chi = np.sqrt(rng.chisquare(self.d, size=n))
        return (chi / self.bandwidths[component]).reshape(size if size is not None else ())

    def pdf(self, x):
        return sum(c * p.pdf(x) for c, p in zip(self.weights, self._parts))

    def cdf(self, x):
        return sum(c * p.cdf(x) for c, p in zip(self.weights, self._parts))

    def moment(self, n):
        return math.fsum(c * p.moment(n) for c, p in zip(self.weights, self._parts))

    def mean(self):
        return self.moment(1)

    def sf(self, x):
        return sum(c * p.sf(x) for c, p in zip(self.weights, self._parts))

    def _invert(self, q, below):
        """Vectorised bisection for a monotone function: x with F(x) = q, to 1e-14 relative."""
        q = np.asarray(q, dtype=np.float64)
        lo = np.zeros(q.shape)
        hi = np.full(q.shape, float(np.max(self.bandwidths ** -1.0)) * (math.sqrt(self.d) + 40.0))
        for _ in range(200):                      # bisection steps, vectorised over q
            mid = 0.5 * (lo + hi)
            go_up = below(mid, q)
            lo = np.where(go_up, mid, lo)
            hi = np.where(go_up, hi, mid)
            if np.all(hi - lo <= 1e-14 * hi):
                break
        return 0.5 * (lo + hi)

    def ppf(self, q):
        """Inverse CDF (scipy's for one component, else bisection)."""
        if len(self._parts) == 1:
            return self._parts[0].ppf(q)
        return self._invert(q, lambda x, q: self.cdf(x) < q)

    def isf(self, q):
        """Inverse survival function (bisection on sf, accurate in the upper tail)."""
        if len(self._parts) == 1:
            return self._parts[0].isf(q)
        return self._invert(q, lambda x, q: self.sf(x) > q)

    def quadrature(self, n):
        u, w = np.polynomial.legendre.leggauss(n)
        u = 0.5 * (u + 1.0)
        nodes = np.concatenate([p.ppf(u) for p in self._parts])
        weights = np.concatenate([c * 0.5 * w for c in self.weights])
        return nodes, weights


class GaussianMixture(RadialMeasure, name="gaussian_mixture"):
    """sum_i c_i N(0, I / sigma_i^2), c_i = weights / sum(weights) (the parts of 004's
    delta-Gaussian decomposed by sign).

    Examples
    --------
    >>> import math
    >>> from varlab.spectral.signed import GaussianMixture
    >>> mu = GaussianMixture(weights=(1.0, 1.0), lengthscales=(1.0, 2.0))
    >>> mu
    GaussianMixture(weights=(0.5, 0.5), lengthscales=(1.0, 2.0))
    >>> round(float(mu.kernel_of_distance(1.0)), 10), round((math.exp(-1 / 2) + math.exp(-1 / 8)) / 2, 10)
    (0.7445137811, 0.7445137811)
    >>> mu.rvs(3, 2, random_state=0).shape
    (3, 2)
    """

    def __init__(self, weights=(1.0,), lengthscales=(1.0,), *, bandwidths=None):
        c = _vector(weights, "weights", positive=True)
        b = _bandwidths(renamed(lengthscales, bandwidths, "bandwidths", "lengthscales"))
        if c.shape != b.shape:
            raise ValueError(f"weights and lengthscales must have the same length, got {c.size} and {b.size}")
        c = c / math.fsum(c)
        super().__init__(weights=tuple(c.tolist()), lengthscales=tuple(b.tolist()))
        self.weights, self.bandwidths = c, b

    @property
    def lengthscales(self) -> np.ndarray:
        """The components' lengthscales (004's sigma_i; ``bandwidths`` is the old name)."""
        return self.bandwidths

    def _norm_law(self, d):
        cache = self.__dict__.setdefault("_laws", {})
        if d not in cache:
            cache[d] = _MixtureLaw(self.weights, self.bandwidths, d)
        return cache[d]

    def _rvs(self, n, d, rng):
        w = rng.standard_normal((n, d))
        if self.weights.size > 1:
            component = rng.choice(self.weights.size, size=n, p=self.weights)
            w /= self.bandwidths[component][:, None]
        else:
            w /= self.bandwidths[0]
        return w

    def _kernel_of_distance(self, r, d):
        r = np.asarray(r, dtype=np.float64)[..., None]
        with np.errstate(over="ignore"):
            return np.sum(self.weights * np.exp(-0.5 * np.square(r / self.bandwidths)), axis=-1)

    def _logdensity(self, w):
        """log sum_i c_i N(w; 0, I/sigma_i^2), by logsumexp over the components (a term whose
        (|w| sigma_i)^2 overflows is -inf, i.e. 0)."""
        d = w.shape[-1]
        with np.errstate(over="ignore"):
            scaled = _norm(w)[..., None] * self.bandwidths
            terms = (np.log(self.weights) + d * (np.log(self.bandwidths) - 0.5 * math.log(2.0 * math.pi))
                     - 0.5 * scaled * scaled)
        return sc.logsumexp(terms, axis=-1)


class _JordanLaw(_MixtureLaw):
    """|w| for a Jordan part: density proportional to max(s f(rho), 0) rho^{d-1}; rvs by rejection
    from the sign part's chi mixture (exact), pdf/cdf/quadrature on the sign changes."""

    def __init__(self, owner, sign, d):
        self.owner, self.sign, self.d = owner, sign, d
        keep = owner.weights * sign > 0
        proposal = np.abs(owner.weights[keep])
        super().__init__(proposal / proposal.sum(), owner.bandwidths[keep], d)
        self._proposal_mass = float(proposal.sum())
        self.mass = owner.jordan_masses(d)["positive" if sign > 0 else "negative"]

    def _ratio(self, rho):
        f = self.owner.radial_density(rho, self.d) * self.sign
        g = self._proposal_mass * np.sum(self.weights * _gauss(rho[..., None], self.bandwidths, self.d), axis=-1)
        return np.where(g > 0, np.clip(f, 0.0, None) / np.where(g > 0, g, 1.0), 0.0)

    def rvs(self, size=None, random_state=None):
        rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
        n = int(np.prod(size)) if size is not None else 1
        if self.mass / self._proposal_mass < MIN_ACCEPTANCE:
            raise ValueError(f"the Jordan part ({'positive' if self.sign > 0 else 'negative'}) has mass "
                             f"{self.mass:.3g}, {self.mass / self._proposal_mass:.3g} of its proposal's: its "
                             f"rejection sampler would accept less than {MIN_ACCEPTANCE:g} of the proposals")
        out = np.empty(n)
        filled = 0
        while filled < n:                         # rounds of rejection, each vectorised
            need = n - filled
            batch = max(64, int(1.2 * need / max(self.mass / self._proposal_mass, 1e-3)))
            rho = super().rvs(size=batch, random_state=rng)
            accept = rng.random(batch) < self._ratio(rho)
            got = rho[accept][:need]
            out[filled:filled + got.size] = got
            filled += got.size
        return out.reshape(size if size is not None else ())

    def pdf(self, x):
        x = np.asarray(x, dtype=np.float64)
        return self._ratio(x) * self._proposal_mass * super().pdf(x) / self.mass

    def cdf(self, x):
        x = np.asarray(x, dtype=np.float64)
        nodes, weights = self.quadrature(400)
        return np.sum(weights * (nodes <= x[..., None]), axis=-1)

    def moment(self, n):
        nodes, weights = self.quadrature(400)
        return float(np.sum(weights * nodes ** n))

    def ppf(self, q):
        return self._invert(q, lambda x, q: self.cdf(x) < q)

    def isf(self, q):
        return self._invert(q, lambda x, q: self.sf(x) > q)

    def sf(self, x):
        return 1.0 - self.cdf(x)

    def quadrature(self, n):
        nodes, weights = super().quadrature(n)
        return nodes, weights * self._ratio(nodes) * self._proposal_mass / self.mass


def _gauss(rho, bandwidths, d):
    """N(w; 0, I/sigma^2) at |w| = rho in R^d."""
    return (bandwidths ** 2 / (2 * math.pi)) ** (d / 2) * np.exp(-0.5 * np.square(rho * bandwidths))


class RadialPart(RadialMeasure):
    """A normalised Jordan part in a fixed dimension (not registered): |w| from ``law`` (any object
    with ``rvs`` and ``quadrature(n)``), direction uniform; its kernel is E phi_d(|w| r) by the
    law's quadrature with ``nodes`` nodes (exact for discrete laws). ``identity`` names the measure
    it belongs to."""

    def __init__(self, law, dimension, sign, *, nodes, **identity):
        super().__init__(dimension=dimension, sign=sign, **identity)
        self._law, self._d, self._nodes = law, dimension, nodes

    def _norm_law(self, d):
        if d != self._d:
            raise ValueError(f"d must be {self._d} (this part was built for dimension {self._d}), got {d}")
        return self._law

    def _rvs(self, n, d, rng):
        rho = self._norm_law(d).rvs(size=n, random_state=rng)
        g = rng.standard_normal((n, d))
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        return g * rho[:, None]

    def _kernel_of_distance(self, r, d):
        if d is not None:
            self._norm_law(d)
        nodes, weights = self._law.quadrature(self._nodes)
        return phi_sum(nodes, weights, r, self._d)


def phi_sum(nodes, weights, r, d):
    """sum_j weights_j phi_d(nodes_j r) over arrays r (any shape), phi_d(x) = E cos(w . z) for
    |w| |z| = x (``theory.polynomial.phi``: finite in every d, unlike scipy's hyp0f1 from d ~ 256)."""
    r = np.asarray(r, dtype=np.float64)
    flat = r.reshape(-1)
    out = np.empty(flat.size)
    step = max(1, 2 ** 20 // max(nodes.size, 1))
    for start in range(0, flat.size, step):               # slabs of points bound the memory
        chunk = flat[start:start + step]
        out[start:start + step] = phi(chunk[:, None] * nodes[None, :], d) @ weights
    return out.reshape(r.shape)


class DeltaGaussian(SignedMeasure, name="delta_gaussian"):
    """k(r) = sum_i a_i exp(-r^2/(2 sigma_i^2)) as a signed measure (004; defaults: the slides'
    a = (1, -1), sigma = (1, 10)). ``decomposition="sign"`` (any d) or ``"jordan"`` (minimal, in
    R^dimension).

    Examples
    --------
    >>> import math
    >>> from varlab.spectral.signed import DeltaGaussian
    >>> mu = DeltaGaussian()                         # exp(-r^2/2) - exp(-r^2/200)
    >>> round(float(mu.kernel_of_distance(1.0)), 10), round(math.exp(-0.5) - math.exp(-0.005), 10)
    (-0.3884818195, -0.3884818195)
    >>> mu.total_masses()
    {'positive': 1.0, 'negative': 1.0}
    >>> jordan = DeltaGaussian(decomposition="jordan", dimension=2)     # the minimal decomposition
    >>> {part: round(mass, 6) for part, mass in jordan.total_masses().items()}
    {'positive': 0.945003, 'negative': 0.945003}
    """

    def __init__(self, weights=(1.0, -1.0), lengthscales=(1.0, 10.0), decomposition="sign", dimension=None, *,
                 bandwidths=None):
        a = _vector(weights, "weights")
        b = _bandwidths(renamed(lengthscales, bandwidths, "bandwidths", "lengthscales"))
        if a.shape != b.shape:
            raise ValueError(f"weights and lengthscales must have the same length, got {a.size} and {b.size}")
        if np.any(a == 0):
            raise ValueError(f"weights must be non-zero, got {weights!r}")
        _validate.choice(decomposition, "decomposition", ("sign", "jordan"))
        self.weights, self.bandwidths, self.decomposition = a, b, decomposition
        self.dimension = None if dimension is None else _count(dimension, "dimension", "dimension")
        if decomposition == "sign":
            parts, masses = {}, {}
            for part, sign in (("positive", 1.0), ("negative", -1.0)):
                keep = a * sign > 0
                masses[part] = float(np.abs(a[keep]).sum())
                parts[part] = GaussianMixture(np.abs(a[keep]), b[keep]) if keep.any() else None
        else:
            if self.dimension is None:
                raise ValueError("dimension must be given for decomposition='jordan' (the Jordan parts "
                                 "of a density in R^d depend on d)")
            _check_jordan_range(b, self.dimension, "dimension")
            masses = self.jordan_masses(self.dimension)
            parts = {part: RadialPart(_JordanLaw(self, sign, self.dimension), self.dimension, sign, nodes=200,
                                     weights=tuple(self.weights.tolist()),
                                     lengthscales=tuple(self.bandwidths.tolist()))
                     if masses[part] > 0 else None
                     for part, sign in (("positive", 1.0), ("negative", -1.0))}
        super().__init__(parts["positive"], parts["negative"], masses=masses)

    def kernel_of_distance(self, r) -> np.ndarray:
        """k(r) = sum_i a_i exp(-r^2 / (2 sigma_i^2)), r >= 0 (the declared ``distance``)."""
        r = parameter("distance").validate(r, "r")[..., None]
        with np.errstate(over="ignore"):
            return np.sum(self.weights * np.exp(-0.5 * np.square(r / self.bandwidths)), axis=-1)

    def radial_density(self, rho, d):
        """f(w) at |w| = rho in R^d: sum_i a_i N(w; 0, I / sigma_i^2)."""
        rho = np.asarray(rho, dtype=np.float64)
        return np.sum(self.weights * _gauss(rho[..., None], self.bandwidths, d), axis=-1)

    def sign_changes(self, d) -> np.ndarray:
        """The radii where f changes sign in R^d (root finding on a log grid)."""
        d = _count(d, "d", "dimension")
        _check_jordan_range(self.bandwidths, d, "d")
        grid = np.concatenate([[0.0], np.geomspace(1e-6, 1e3, 4000) / self.bandwidths.min()])
        # compare terms in log space to avoid underflow: sign of f is that of the dominant terms
        f = self.radial_density(grid, d)
        roots = []
        for i in np.flatnonzero(np.sign(f[:-1]) * np.sign(f[1:]) < 0):
            roots.append(scipy.optimize.brentq(lambda x: float(self.radial_density(x, d)), grid[i], grid[i + 1],
                                               xtol=1e-300, rtol=1e-15))
        return np.array(roots)

    def jordan_masses(self, d) -> dict:
        """||mu+||, ||mu-|| of the minimal decomposition in R^d: sums of chi(d) CDF differences of
        the terms between consecutive sign changes of f."""
        edges = np.concatenate([[0.0], self.sign_changes(d), [np.inf]])
        laws = [scipy.stats.chi(d, scale=1.0 / b) for b in self.bandwidths]
        masses = {"positive": 0.0, "negative": 0.0}
        for lo, hi in zip(edges[:-1], edges[1:]):
            piece = math.fsum(a * (law.cdf(hi) - law.cdf(lo)) for a, law in zip(self.weights, laws))
            masses["positive" if piece > 0 else "negative"] += abs(piece)
        return masses


def polynomial_total_variation_finite(dimension, m) -> bool:
    """Whether the truncated polynomial kernel (1 - r^2/a^2)_+^m has a finite signed spectral
    measure in R^d: |p(w)| ~ |w|^{-(d + 2m + 1)/2}, so the radial mass integral converges iff
    d < 2m + 1 (varlab; Bochner-Riesz transform, Stein and Weiss IV.4).

    Examples
    --------
    >>> from varlab.spectral.signed import polynomial_total_variation_finite
    >>> polynomial_total_variation_finite(2, 1), polynomial_total_variation_finite(16, 1)   # the slides: d = 16
    (True, False)
    """
    d = _count(dimension, "dimension", "dimension")
    m = _count(m, "m", "m")
    return d < 2 * m + 1
