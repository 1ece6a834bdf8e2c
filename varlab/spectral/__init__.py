"""Spectral measures of shift-invariant kernels, in the style of ``scipy.stats``.

By Bochner's theorem (Bochner 1933; 003, Thm 0 and Eq. 2-3; 002, Thm 1) a continuous,
shift-invariant, positive definite kernel with k(0) = 1 is the characteristic function of a
probability measure mu on R^d; for a symmetric mu,

    k(z) = E_{w ~ mu}[cos(<w, z>)],   z = x - y,

so that m frequencies w_1..w_m ~ mu give the random Fourier features of Rahimi and Recht (2007)
(000, Eq. 14-16; 003, Eq. 4-5). Kernels that are not positive definite are represented by a
*signed* measure mu = mu+ - mu- (Jordan decomposition; 004; 002, Thm 3) and asymmetric kernels
by a *complex* measure with four positive parts (002, Eq. 1-2 and Prop. 4); each part is a
finite positive measure, held here as its total mass times a probability measure.

Public methods validate their arguments and broadcast; a subclass implements private hooks
(``_rvs``, ``_kernel_of_distance``, ``_logdensity``, ``_norm_law``), as ``rv_continuous``
subclasses implement ``_pdf``/``_rvs``. A class registers itself by being defined with a name
(``class Gaussian(RadialMeasure, name="gaussian")``); :func:`measures` lists the registry.

>>> from varlab import spectral
>>> g = spectral.Gaussian(lengthscale=2.0)
>>> float(g.kernel([0.0, 2.0]))            # exp(-|z|^2 / (2 * 2^2))
0.606530659713
>>> g.rvs(3, 2, random_state=0).shape
(3, 2)
>>> "gaussian" in spectral.measures(kind="probability")
True
>>> s = spectral.as_signed(g)
>>> s.total_masses()
{'positive': 1.0, 'negative': 0.0}
"""
from __future__ import annotations

import functools
import math

import numpy as np
import scipy.stats

from .. import _random, _validate
from .._registry import Registry
from ..theory.parameters import parameter

__all__ = ["SpectralMeasure", "RadialMeasure", "Gaussian", "SignedMeasure", "ComplexMeasure",
           "as_signed", "as_complex", "measures", "get_measure", "kernel_measure"]

_REGISTRY = Registry("spectral measure", __name__)
_KINDS = ("probability", "signed", "complex")


def _register(cls, name):
    _REGISTRY.add(cls, name)
    cls.name = name


def measures(kind: str | None = None) -> dict[str, type]:
    """The registered measure classes by name (sorted), optionally of one ``kind``
    ("probability", "signed" or "complex"). Each registered class can be built with no arguments.

    Examples
    --------
    >>> from varlab import spectral
    >>> sorted(spectral.measures(kind="signed"))
    ['delta_gaussian', 'polynomial_sphere']
    >>> spectral.measures()["gaussian"] is spectral.Gaussian
    True
    """
    if kind is not None:
        _validate.choice(kind, "kind", _KINDS)
    return {name: cls for name, cls in _REGISTRY.by_name().items() if kind is None or cls.kind == kind}


def get_measure(name: str, **parameters):
    """An instance of the registered measure ``name`` with the given parameters.

    Examples
    --------
    >>> from varlab import spectral
    >>> spectral.get_measure("matern", nu=2.5, lengthscale=1.0)
    Matern(nu=2.5, lengthscale=1.0)
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string naming a spectral measure, got {name!r}")
    _REGISTRY.load()
    try:
        cls = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"name must be one of {sorted(_REGISTRY)}, got {name!r}") from None
    return cls(**parameters)


def kernel_measure(kernel: str, *, gamma: float | None = None, lengthscale: float = 1.0) -> SpectralMeasure:
    """The spectral measure of the registered stationary ``kernel`` (``varlab.theory.
    stationary_kernels()``) at ``lengthscale``, or at the lengthscale of ``gamma`` in the
    kernel's convention (``StationaryKernel.gamma_words``): its declared measure, or
    ``ScaleMixture`` (``varlab.spectral.stationary``) for a scale mixture declared without one.

    Examples
    --------
    >>> from varlab.spectral import kernel_measure
    >>> kernel_measure("matern32", gamma=4.0)
    Matern(nu=1.5, lengthscale=0.25)
    >>> kernel_measure("cauchy", gamma=4.0)                   # 1/(1 + gamma |z|^2): lengthscale 1/sqrt(gamma)
    CauchyKernel(lengthscale=0.5)
    >>> kernel_measure("rational_quadratic")
    ScaleMixture(kernel='rational_quadratic', lengthscale=1.0)
    """
    from ..theory import stationary_kernel

    declared = stationary_kernel(kernel)
    if gamma is not None:
        gamma = float(_validate.positive(gamma, "gamma"))
        lengthscale = declared.lengthscale(gamma)
        if not 64.0 / np.finfo(np.float64).max <= lengthscale < math.inf:
            factor, power = declared.gamma
            low = (np.finfo(np.float64).max / 64.0) ** (1.0 / power) / factor
            raise ValueError(f"gamma={gamma!r} is outside the range kernel={kernel!r} can draw finite frequencies "
                             f"for: {declared.gamma_words}, so the frequencies grow as gamma^{power:g} and overflow "
                             f"float64 beyond gamma = {low:.3g} (and the lengthscale overflows below gamma = "
                             f"{1.0 / (factor * np.finfo(np.float64).max ** (1.0 / power)):.3g})")
    name, options = declared.measure or ("scale_mixture", {"kernel": kernel})
    return get_measure(name, lengthscale=lengthscale, **options)


# -- argument checks ---------------------------------------------------------------------------
def renamed(value, old_value, old: str, new: str = "lengthscale"):
    """``value``, or ``old_value`` with a DeprecationWarning where the caller used the old keyword
    ``old`` (every measure calls its scale ``lengthscale``)."""
    if old_value is None:
        return value
    import warnings

    warnings.warn(f"{old}= is deprecated: the scale of every spectral measure is {new}=", DeprecationWarning,
                  stacklevel=3)
    return old_value


def lengthscale_of(value, name: str = "lengthscale") -> float:
    """A lengthscale: one real number, at least 64 / 1.8e308 (so that the frequencies, of order
    1/lengthscale, are finite)."""
    array = parameter("bandwidth").validate(value, name)
    if array.ndim != 0:
        raise TypeError(f"{name} must be a single real number > 0, got {value!r}")
    value = float(array)
    if not math.isfinite(64.0 / value):
        raise ValueError(f"{name} must be at least {64.0 / np.finfo(np.float64).max:.3g} "
                         f"(so that the frequencies, of order 1/{name}, are finite), got {value!r}")
    return value


def _count(value, name: str, declared: str) -> int:
    """A scalar integer validated by the declared parameter ``declared``, reported as ``name``."""
    array = parameter(declared).validate(value, name)
    if array.ndim != 0:
        raise TypeError(f"{name} must be a single integer, got an array of shape {array.shape}")
    return int(array)


def _points(z, name: str = "z") -> np.ndarray:
    """Finite real float64 array of shape (..., d) with d >= 1."""
    z = _validate.real_array(z, name)
    if z.ndim < 1 or z.shape[-1] < 1:
        raise ValueError(f"{name} must have shape (..., d) with d >= 1, got shape {z.shape}")
    return z


def _norm(z: np.ndarray) -> np.ndarray:
    """|z| over the last axis, rescaled by the largest entry so that it neither over- nor
    underflows in the squares (the result is inf only when |z| itself exceeds the float range)."""
    scale = np.max(np.abs(z), axis=-1)
    safe = np.where(scale > 0, scale, 1.0)
    with np.errstate(over="ignore"):
        return scale * np.sqrt(np.sum(np.square(z / safe[..., None]), axis=-1))


class _Registered:
    name: str | None = None
    kind = "probability"

    def __init_subclass__(cls, name: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if name is not None:
            _register(cls, name)


# ===========================================================================================
# Probability measures
# ===========================================================================================
class SpectralMeasure(_Registered):
    """A probability measure mu on R^d with k(z) = E_{w ~ mu}[cos(<w, z>)], k(0) = 1.

    Subclasses implement ``_rvs(n, d, rng)`` (an (n, d) float64 array from a numpy Generator),
    ``_kernel(z)`` (z validated, shape (..., d)) and optionally ``_logdensity(w)``; they call
    ``super().__init__(**parameters)`` with their validated parameters.

    Examples
    --------
    A measure of one's own (not registered: no ``name=``): w uniform on [-1, 1]^d, whose kernel is
    the product of sin(z_i) / z_i.

    >>> import numpy as np
    >>> from varlab.spectral import SpectralMeasure
    >>> class Uniform(SpectralMeasure):
    ...     def _rvs(self, n, d, rng):
    ...         return rng.uniform(-1.0, 1.0, (n, d))
    ...     def _kernel(self, z):
    ...         return np.prod(np.sinc(z / np.pi), axis=-1)
    >>> mu = Uniform()
    >>> round(float(mu.kernel([1.0])), 10)                       # sin(1) / 1
    0.8414709848
    >>> w = mu.rvs(20000, 1, random_state=0)
    >>> abs(float(np.mean(np.cos(w[:, 0]))) - 0.8414709848) < 0.01     # k(z) = E cos(w z), z = 1
    True
    """

    #: False for measures that are not symmetric (w and -w not equally likely); then
    #: :meth:`sine_kernel` is not identically 0 (parts of complex measures, 002 Eq. 3).
    symmetric = True

    def __init__(self, **parameters):
        self._parameters = dict(parameters)

    # -- public API: validates, then calls the hooks -------------------------------------------
    def parameters(self) -> dict:
        """The parameters of the measure, by name."""
        return dict(self._parameters)

    def kernel(self, z) -> np.ndarray:
        """k(z) = E[cos(<w, z>)] for z of shape (..., d); returns shape (...)."""
        return np.asarray(self._kernel(_points(z)), dtype=np.float64)

    def sine_kernel(self, z) -> np.ndarray:
        """E[sin(<w, z>)] for z of shape (..., d) (identically 0 for a symmetric measure)."""
        z = _points(z)
        if self.symmetric:
            return np.zeros(z.shape[:-1])
        return np.asarray(self._sine_kernel(z), dtype=np.float64)

    def rvs(self, n, d, random_state=None) -> np.ndarray:
        """n i.i.d. frequencies w ~ mu in R^d: a C-ordered (n, d) float64 array.

        ``random_state``: None, int, SeedSequence, Generator (used directly, so it advances) or
        RandomState, as in :mod:`varlab._random`.
        """
        n = _count(n, "n", "m")
        d = _count(d, "d", "dimension")
        rng = _random.generator(random_state)
        w = self._rvs(n, d, rng)
        if w.shape != (n, d) or w.dtype != np.float64:  # a subclass bug, not a user error
            raise RuntimeError(f"{type(self).__name__}._rvs returned {w.dtype} of shape {w.shape}, "
                               f"expected float64 of shape {(n, d)}")
        return w

    def logdensity(self, w) -> np.ndarray:
        """log of the density of mu at w (shape (..., d) -> (...)), where a density exists."""
        w = _points(w, "w")
        if type(self)._logdensity is SpectralMeasure._logdensity:
            raise NotImplementedError(f"{type(self).__name__} has no density")
        return np.asarray(self._logdensity(w), dtype=np.float64)

    def density(self, w) -> np.ndarray:
        """The density of mu at w (shape (..., d) -> (...)), where it exists. A density beyond
        the float64 range (e.g. Gaussian(1e308) in d = 3 at 0) is a ValueError: use logdensity."""
        log = self.logdensity(w)
        with np.errstate(over="ignore"):
            value = np.exp(log)
        if np.any(np.isinf(value)):
            raise ValueError(f"the density of {self!r} at w overflows float64 (log density up to "
                             f"{float(np.max(log)):.6g} > {math.log(np.finfo(np.float64).max):.6g}); "
                             f"use logdensity(w)")
        return value

    # -- hooks ---------------------------------------------------------------------------------
    def _rvs(self, n: int, d: int, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def _kernel(self, z: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _sine_kernel(self, z: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _logdensity(self, w: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    # -- comparison and display ----------------------------------------------------------------
    def __eq__(self, other):
        return type(other) is type(self) and other.parameters() == self.parameters()

    def __hash__(self):
        return hash((type(self), tuple(sorted(self.parameters().items()))))

    def __repr__(self):
        inside = ", ".join(f"{k}={v!r}" for k, v in self.parameters().items())
        return f"{type(self).__name__}({inside})"


class RadialMeasure(SpectralMeasure):
    """A rotation-invariant measure: w = |w| theta with theta uniform on the sphere, so that
    k(z) depends on |z| only. Subclasses implement ``_norm_law(d)`` (a frozen scipy.stats
    distribution of |w| in dimension d) and ``_kernel_of_distance(r, d)``, and declare
    ``fast_ppf``: whether the norm law's ``ppf`` is a closed form or a vectorised root finder
    (the QMC samplers map every point through it, and refuse a measure without one).

    Examples
    --------
    >>> import math
    >>> from varlab.spectral import Gaussian, RadialMeasure
    >>> g = Gaussian(1.0)
    >>> isinstance(g, RadialMeasure)
    True
    >>> float(g.kernel([3.0, 4.0])) == float(g.kernel_of_distance(5.0))     # k depends on |z| only
    True
    >>> round(float(g.norm_law(2).mean()), 10), round(math.sqrt(math.pi / 2), 10)   # |w| ~ chi(2)
    (1.2533141373, 1.2533141373)
    """

    #: whether ``norm_law(d).ppf`` is fast (closed form or vectorised); QMC needs it
    fast_ppf = True

    def norm_law(self, d):
        """The law of |w| in dimension ``d``, a frozen ``scipy.stats`` distribution."""
        return self._norm_law(_count(d, "d", "dimension"))

    def kernel_of_distance(self, r, d=None) -> np.ndarray:
        """k as a function of the distance r = |z| >= 0 (``d`` where the kernel depends on it)."""
        r = parameter("distance").validate(r, "r")
        d = None if d is None else _count(d, "d", "dimension")
        return np.asarray(self._kernel_of_distance(r, d), dtype=np.float64)

    def _kernel(self, z):
        return self._kernel_of_distance(_norm(z), z.shape[-1])

    def _norm_law(self, d: int):
        raise NotImplementedError

    def _kernel_of_distance(self, r: np.ndarray, d: int | None) -> np.ndarray:
        raise NotImplementedError


@functools.lru_cache(maxsize=256)
def _chi_law(d: int, scale: float):
    """The frozen chi(d, scale) law, built once (freezing a scipy distribution costs about 1 ms,
    which a sampler drawing small blocks pays on every block; bench_orthogonal)."""
    return scipy.stats.chi(d, scale=scale)


class Gaussian(RadialMeasure, name="gaussian"):
    """Spectral measure of the Gaussian kernel k(z) = exp(-|z|^2 / (2 lengthscale^2)):
    w ~ N(0, I / lengthscale^2) (003, Eq. 3 and the text after it, where the lengthscale is the
    bandwidth sigma; 000, Eq. 14-15 with lengthscale = 1/sqrt(gamma) on unit vectors, where
    |u - v|^2 = 2 (1 - rho)). ``bandwidth=`` is the deprecated name of ``lengthscale``.

    ``rvs(n, d, rng)`` is exactly ``rng.standard_normal((n, d)) / lengthscale`` (C order), so
    that draws are predictable; |w| ~ ``scipy.stats.chi(d, scale=1/lengthscale)``.

    Examples
    --------
    >>> from varlab.spectral import Gaussian
    >>> g = Gaussian(0.5)
    >>> float(g.kernel_of_distance(0.5))       # exp(-1/2)
    0.606530659713
    >>> round(float(g.norm_law(3).mean()), 6)  # E|w| = 2 sqrt(2/pi) / lengthscale in d = 3
    3.191538
    """

    def __init__(self, lengthscale=1.0, *, bandwidth=None):
        b = lengthscale_of(renamed(lengthscale, bandwidth, "bandwidth"))
        super().__init__(lengthscale=b)
        self.lengthscale = b

    @property
    def bandwidth(self) -> float:
        """The lengthscale (003's bandwidth sigma)."""
        return self.lengthscale

    def _rvs(self, n, d, rng):
        w = rng.standard_normal((n, d))
        w /= self.lengthscale
        return w

    def _kernel_of_distance(self, r, d):
        with np.errstate(over="ignore"):
            scaled = r / self.lengthscale
            return np.exp(-0.5 * scaled * scaled)

    def _norm_law(self, d):
        return _chi_law(d, 1.0 / self.lengthscale)

    def _logdensity(self, w):
        d = w.shape[-1]
        with np.errstate(over="ignore"):
            scaled = _norm(w) * self.lengthscale
            return d * (math.log(self.lengthscale) - 0.5 * math.log(2.0 * math.pi)) - 0.5 * scaled * scaled


# ===========================================================================================
# Signed and complex measures: finite positive parts, each a total mass times a probability
# ===========================================================================================
class _PartedMeasure(_Registered):
    """Shared machinery: named parts (each a SpectralMeasure or None) with total masses, and
    k(z) = sum over parts of sign * mass * (E cos or E sin of the part)."""

    #: part name -> (sign, "cos" or "sin")
    _PARTS: dict[str, tuple[float, str]] = {}

    def __init__(self, parts: dict, masses=None):
        masses = {} if masses is None else masses
        if not hasattr(masses, "items"):
            raise TypeError(f"masses must be a mapping from part names {list(self._PARTS)} to "
                            f"numbers >= 0, got {masses!r}")
        unknown = set(masses) - set(self._PARTS)
        if unknown:
            raise ValueError(f"masses has unknown parts {sorted(unknown)}; parts are {list(self._PARTS)}")
        self._parts, self._masses = {}, {}
        for name in self._PARTS:
            measure = parts.get(name)
            if measure is not None and not isinstance(measure, SpectralMeasure):
                raise TypeError(f"{name} must be a SpectralMeasure (a probability measure) or None, "
                                f"got {measure!r}")
            mass = masses.get(name, 0.0 if measure is None else 1.0)
            mass = _validate.real_array(mass, f"masses[{name!r}]", low=0.0)
            if mass.ndim != 0:
                raise TypeError(f"masses[{name!r}] must be a single number >= 0, got {masses[name]!r}")
            mass = float(mass)
            if measure is None and mass != 0.0:
                raise ValueError(f"masses[{name!r}] must be 0 when part {name!r} is None, got {mass!r}")
            self._parts[name], self._masses[name] = measure, mass
        if not any(self._masses.values()):
            raise ValueError(f"at least one part must have a positive mass, got masses {self._masses}")

    def parts(self) -> dict:
        """The parts by name: probability measures, or None for an empty part."""
        return dict(self._parts)

    def total_masses(self) -> dict:
        """The total mass ||mu_part|| of each part, by name."""
        return dict(self._masses)

    def total_mass(self) -> float:
        """||mu||, the sum of the parts' total masses (002, Eq. 4; 004, Jordan decomposition)."""
        return math.fsum(self._masses.values())

    def parameters(self) -> dict:
        """Each part's (name, parameters) or None, and the masses."""
        out = {part: None if m is None else (m.name, m.parameters()) for part, m in self._parts.items()}
        out["masses"] = self.total_masses()
        return out

    def kernel(self, z) -> np.ndarray:
        """k(z) for z of shape (..., d), returns shape (...)."""
        z = _points(z)
        total = np.zeros(z.shape[:-1])
        for name, (sign, kind) in self._PARTS.items():
            measure, mass = self._parts[name], self._masses[name]
            if measure is None or mass == 0.0:
                continue
            value = measure.kernel(z) if kind == "cos" else measure.sine_kernel(z)
            total += sign * mass * value
        return total

    def rvs_part(self, name, n, d, random_state=None) -> np.ndarray:
        """n frequencies from the (normalised) part ``name``: an (n, d) float64 array."""
        if not isinstance(name, str):
            raise TypeError(f"part must be one of {list(self._PARTS)}, got {name!r}")
        _validate.choice(name, "part", self._PARTS)
        measure = self._parts[name]
        if measure is None:
            raise ValueError(f"part {name!r} of this measure is empty (total mass 0); nothing to sample")
        return measure.rvs(n, d, random_state)

    def __eq__(self, other):
        return type(other) is type(self) and other._parts == self._parts and other._masses == self._masses

    def __hash__(self):
        return hash((type(self), tuple(self._parts.items()), tuple(self._masses.items())))

    def __repr__(self):
        inside = ", ".join(f"{k}={v!r}" for k, v in self._parts.items() if v is not None)
        return f"{type(self).__name__}({inside}, masses={self._masses!r})"


class SignedMeasure(_PartedMeasure):
    """A finite signed measure mu = mu+ - mu- (Jordan decomposition; 004; 002, Thm 3):
    k(z) = ||mu+|| E_{mu+}[cos <w, z>] - ||mu-|| E_{mu-}[cos <w, z>], with mu+/||mu+|| and
    mu-/||mu-|| probability measures. ``masses`` maps "positive"/"negative" to the total
    masses (default 1 for a given part, 0 for a missing one).

    Examples
    --------
    >>> from varlab.spectral import Gaussian, SignedMeasure
    >>> s = SignedMeasure(Gaussian(1.0), Gaussian(2.0), masses={"positive": 2.0, "negative": 1.0})
    >>> round(float(s.kernel([0.0])), 12)      # ||mu+|| - ||mu-||
    1.0
    """

    kind = "signed"
    _PARTS = {"positive": (1.0, "cos"), "negative": (-1.0, "cos")}

    def __init__(self, positive, negative=None, *, masses=None):
        super().__init__({"positive": positive, "negative": negative}, masses)


class ComplexMeasure(_PartedMeasure):
    """A complex measure mu = mu_R+ - mu_R- + i mu_I+ - i mu_I- with four finite positive parts
    (002, Eq. 1-2). For a real kernel (002, Prop. 4)

        k(z) = ||mu_R+|| E cos - ||mu_R-|| E cos - ||mu_I+|| E sin + ||mu_I-|| E sin,

    each expectation under the corresponding normalised part. Parts are named
    "real_positive", "real_negative", "imaginary_positive", "imaginary_negative".

    Examples
    --------
    >>> from varlab.spectral import ComplexMeasure, Gaussian
    >>> mu = ComplexMeasure(Gaussian(1.0), masses={"real_positive": 1.0})    # a probability measure
    >>> round(float(mu.kernel([1.0])), 10), mu.total_mass()                 # exp(-1/2)
    (0.6065306597, 1.0)
    """

    kind = "complex"
    _PARTS = {"real_positive": (1.0, "cos"), "real_negative": (-1.0, "cos"),
              "imaginary_positive": (-1.0, "sin"), "imaginary_negative": (1.0, "sin")}

    def __init__(self, real_positive, real_negative=None, imaginary_positive=None, imaginary_negative=None,
                 *, masses=None):
        super().__init__({"real_positive": real_positive, "real_negative": real_negative,
                          "imaginary_positive": imaginary_positive,
                          "imaginary_negative": imaginary_negative}, masses)


def as_signed(measure) -> SignedMeasure:
    """``measure`` as a SignedMeasure: a probability measure is the positive part with mass 1
    and an empty negative part; a SignedMeasure is returned as is.

    Examples
    --------
    >>> from varlab.spectral import Gaussian, as_signed
    >>> as_signed(Gaussian(2.0)).total_masses()
    {'positive': 1.0, 'negative': 0.0}
    """
    if isinstance(measure, SignedMeasure):
        return measure
    if isinstance(measure, SpectralMeasure):
        return SignedMeasure(measure, None, masses={"positive": 1.0, "negative": 0.0})
    raise TypeError(f"measure must be a SpectralMeasure or SignedMeasure, got {measure!r}")


def as_complex(measure) -> ComplexMeasure:
    """``measure`` as a ComplexMeasure: a probability measure is the real positive part (mass 1),
    a signed measure gives the two real parts; a ComplexMeasure is returned as is.

    Examples
    --------
    >>> from varlab.spectral import Gaussian, SignedMeasure, as_complex
    >>> signed = SignedMeasure(Gaussian(1.0), Gaussian(2.0), masses={"positive": 2.0, "negative": 1.0})
    >>> as_complex(signed).total_masses()
    {'real_positive': 2.0, 'real_negative': 1.0, 'imaginary_positive': 0.0, 'imaginary_negative': 0.0}
    """
    if isinstance(measure, ComplexMeasure):
        return measure
    if isinstance(measure, SignedMeasure):
        parts, masses = measure.parts(), measure.total_masses()
        return ComplexMeasure(parts["positive"], parts["negative"],
                              masses={"real_positive": masses["positive"], "real_negative": masses["negative"]})
    if isinstance(measure, SpectralMeasure):
        return ComplexMeasure(measure, masses={"real_positive": 1.0})
    raise TypeError(f"measure must be a SpectralMeasure, SignedMeasure or ComplexMeasure, got {measure!r}")
