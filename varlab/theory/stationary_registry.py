"""A shift-invariant kernel as one registered object, and the mixing laws of the radial ones.

A :class:`StationaryKernel` is declared once (``varlab.theory.stationary`` declares the built-in
ones) and holds everything the layers above read from it:

* the profile k(r), r = |z| / lengthscale (``metric="euclidean"``) or ||z||_1 / lengthscale
  (``"cityblock"``), as a sympy expression and a stable numpy form;
* the paired single-frequency variance V(r) = (1 + k(2r))/2 - k(r)^2 in a form without
  cancellation (Sutherland and Schneider 2015, Sec. 2), and the random-phase one V + 1/2;
* the mixing law of A for a Gaussian scale mixture w = sqrt(A) g / lengthscale, g ~ N(0, I)
  (:class:`PointMixing`, :class:`GammaMixing`, :class:`InverseGammaMixing`): its draws and the
  Gauss rule that the ORF pair covariance integrates with (None: not radial);
* the norm density of |w| for the independent mpmath reference of that covariance;
* the spectral measure, by its registered name in ``varlab.spectral`` and options (the spectral
  layer builds it; None: the generic ``scale_mixture`` measure of the mixing law);
* the scale convention of a ``gamma`` keyword (``RFF(kernel=, gamma=)``, ``varlab.kernels``):
  lengthscale = (factor gamma)^(-power);
* its source and a check value at r = 1 (the generated doctests).

The built-in kernels are declared in ``varlab.theory.stationary``, which ``varlab.theory``
imports. On definition the kernel registers under its name and generates its three Formulas
("stationary.<name>_kernel", "_paired_variance", "_phase_variance"), so the Formula contract tests
cover it; :func:`stationary_kernels` lists the registry, :func:`stationary_kernel` looks one up.

>>> from varlab.theory import stationary_kernel, stationary_kernels
>>> sorted(stationary_kernels())[:3]
['cauchy', 'exponential', 'gaussian']
>>> k = stationary_kernel("matern32")
>>> k.metric, k.radial, k.measure
('euclidean', True, ('matern', {'nu': 1.5}))
>>> round(float(k.kernel(distance=1.0)), 10)
0.4833577246
>>> k.lengthscale(4.0)                  # lengthscale 1/gamma
0.25
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import scipy.special as sc
import sympy

from .formula import Formula
from .parameters import parameter

__all__ = ["StationaryKernel", "stationary_kernel", "stationary_kernels", "PointMixing", "GammaMixing",
           "InverseGammaMixing", "paired_variance_of", "phase_variance_of", "SUTHERLAND_SCHNEIDER"]

SUTHERLAND_SCHNEIDER = "Sutherland and Schneider 2015, 'On the error of random Fourier features', Sec. 2"

_REGISTRY: dict[str, "StationaryKernel"] = {}


def paired_variance_of(k, k2):
    """(1 + k(2z)) / 2 - k(z)^2: Var cos <w, z> for any shift-invariant kernel (Sutherland and
    Schneider 2015, Sec. 2), from the kernel values k = k(z) and k2 = k(2z). Works on numbers,
    arrays and sympy expressions.

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import stationary
    >>> stationary.paired_variance_of(0.5, 0.25)                 # k(z) = 1/2, k(2z) = 1/4
    0.375
    >>> r = sympy.Symbol("r", positive=True)
    >>> stationary.paired_variance_of(sympy.exp(-r), sympy.exp(-2 * r))     # the exponential kernel
    1/2 - exp(-2*r)/2
    """
    return (1 + k2) / 2 - k * k


def phase_variance_of(k, k2):
    """1 + k(2z)/2 - k(z)^2: Var of one random-phase sample 2 cos(<w, x> + b) cos(<w, y> + b)
    (Sutherland and Schneider 2015, Sec. 2); always ``paired_variance_of(k, k2) + 1/2``.

    Examples
    --------
    >>> from varlab.theory import stationary
    >>> stationary.phase_variance_of(0.5, 0.25)                  # 0.375 + 1/2
    0.875
    """
    return 1 + k2 / 2 - k * k


# -- mixing laws of A in w = sqrt(A) g / lengthscale --------------------------------------------------
class PointMixing:
    """A = 1: the Gaussian kernel exp(-r^2/2) itself.

    Examples
    --------
    >>> from varlab.theory.stationary_registry import PointMixing
    >>> PointMixing().nodes(8)
    (array([1.]), array([1.]))
    """

    def nodes(self, n: int):
        """(A, weights) of an n-point rule for E f(A) (here one point)."""
        return np.ones(1), np.ones(1)

    def rvs(self, size, rng: np.random.Generator) -> np.ndarray:
        """Draws of A."""
        return np.ones(size)

    def moment(self, p: float) -> float:
        """E A^p."""
        return 1.0

    def ppf(self, q):
        """The quantile function of A."""
        return np.ones(np.shape(q))


@dataclass(frozen=True)
class GammaMixing:
    """A = scale G, G ~ Gamma(shape): k(r) = E e^{-A r^2/2} = (1 + scale r^2/2)^(-shape) (the
    Laplace transform of the gamma law): the rational-quadratic family, the Cauchy kernel at shape
    1, scale 2. Gauss rule: generalised Gauss-Laguerre with alpha = shape - 1 (exact for
    polynomials in A times the law's density).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory.stationary_registry import GammaMixing
    >>> a, w = GammaMixing(1.0, 2.0).nodes(64)
    >>> round(float(np.sum(w * np.exp(-a * 0.5))), 12)         # 1 / (1 + 1): the Cauchy kernel at r = 1
    0.5
    """

    shape: float
    scale: float

    def nodes(self, n: int):
        x, w = sc.roots_genlaguerre(n, self.shape - 1.0)
        return self.scale * x, w / w.sum()

    def rvs(self, size, rng: np.random.Generator) -> np.ndarray:
        return self.scale * rng.standard_gamma(self.shape, size=size)

    def moment(self, p: float) -> float:
        return float(self.scale ** p * np.exp(sc.gammaln(self.shape + p) - sc.gammaln(self.shape)))

    def ppf(self, q):
        return self.scale * sc.gammaincinv(self.shape, q)


#: the exp-sinh rule's range in t, G = exp(pi/2 sinh t): from exp(-pi/2 sinh 5) = 2e-51 (below it
#: Gamma(nu) has mass 5e-26 at nu = 1/2; the old symmetric range from 1e-8 left 1.1e-4 out and put
#: the exponential kernel 1.3e-7 off at r = 1) to exp(pi/2 sinh 3) = 7e6 (e^{-G} is 0 beyond)
_EXP_SINH_LOW, _EXP_SINH_HIGH = 5.0, 3.0


@dataclass(frozen=True)
class InverseGammaMixing:
    """A = nu / G, G ~ Gamma(nu): w is multivariate t with 2 nu degrees of freedom, the Matern
    kernel of smoothness nu (Rasmussen and Williams 2006, Eq. 4.15). Rule: the exp-sinh
    substitution G = exp(pi/2 sinh t), trapezoid in t (exponentially convergent despite the
    algebraic end behaviour G^{d/2} of the integrand; at 96 nodes k(1) to 1e-12 for nu = 1/2,
    whose A has the heaviest tail).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory.stationary_registry import InverseGammaMixing
    >>> a, w = InverseGammaMixing(0.5).nodes(96)
    >>> round(float(np.sum(w * np.exp(-a * 0.5))), 12)         # exp(-1): the exponential kernel at r = 1
    0.367879441171
    """

    nu: float

    def nodes(self, n: int):
        t = np.linspace(-_EXP_SINH_LOW, _EXP_SINH_HIGH, n)
        g = np.exp(0.5 * math.pi * np.sinh(t))
        w = (np.exp((self.nu - 1.0) * np.log(g) - g - sc.gammaln(self.nu)) * g * 0.5 * math.pi * np.cosh(t)
             * (t[1] - t[0]))
        return self.nu / g, w / w.sum()

    def rvs(self, size, rng: np.random.Generator) -> np.ndarray:
        return 2.0 * self.nu / rng.chisquare(2.0 * self.nu, size=size)

    def moment(self, p: float) -> float:
        if p >= self.nu:
            return math.inf
        return float(self.nu ** p * np.exp(sc.gammaln(self.nu - p) - sc.gammaln(self.nu)))

    def ppf(self, q):
        with np.errstate(divide="ignore"):
            return self.nu / sc.gammainccinv(self.nu, q)


# -- the registered kernel ----------------------------------------------------------------------------
_R = parameter("distance").symbol


def _example(module_name: str, value: float, comment: str) -> str:
    return (f"\n        >>> from varlab.theory import stationary_kernel\n"
            f"        >>> round(float(stationary_kernel({module_name!r}).{comment}(distance=1.0)), 10)\n"
            f"        {value!r}\n        ")


@dataclass(frozen=True)
class StationaryKernel:
    """A shift-invariant kernel k(z) = profile(r) with r = |z|/lengthscale (or ||z||_1/lengthscale),
    declared once and registered on definition (module docstring).

    Parameters: ``name`` (the one name every layer uses), ``label`` (its short name in prose:
    "Matern 3/2"), ``words`` (the kernel in words, for docstrings), ``source``, ``gamma`` ((factor, power): lengthscale = (factor
    gamma)^-power) and ``gamma_words``, ``metric``; the profile: ``expr`` (sympy, in the declared
    parameter ``distance``), ``numeric`` (stable numpy form of k(r)), ``paired`` (stable numpy form
    of the paired variance V(r), or an existing Formula of it), ``paired_form`` (that form in
    words), ``phase`` (an existing Formula of V + 1/2, else generated), ``check`` ((k(1), V(1)) to
    10 decimals: the generated doctests compare with them), or ``same_profile_as`` (another
    kernel's name: its Formulas are reused); ``mixing`` (the law of A for a Gaussian scale
    mixture; None for a kernel that is not one), ``norm_density_mp`` ((t, half) -> the
    unnormalised mpmath density of |w| at lengthscale 1 in dimension 2 half; radial kernels),
    ``measure`` ((registered spectral measure, options); None: ``scale_mixture``).

    Examples
    --------
    >>> from varlab.theory import stationary_kernel
    >>> g = stationary_kernel("gaussian")
    >>> g.lengthscale(0.5), g.gamma_words                      # exp(-gamma |z|^2) = exp(-r^2/2)
    (1.0, 'exp(-gamma |z|^2) (lengthscale 1/sqrt(2 gamma))')
    >>> stationary_kernel("rbf")
    Traceback (most recent call last):
    ...
    ValueError: kernel must be one of ['cauchy', 'exponential', 'gaussian', 'laplacian', 'matern32', 'matern52', 'rational_quadratic'], got 'rbf'
    """

    name: str
    label: str
    words: str
    source: str
    gamma: tuple
    gamma_words: str
    metric: str = "euclidean"
    expr: sympy.Expr | None = None
    numeric: Callable | None = None
    paired: Callable | Formula | None = None
    paired_form: str = ""
    phase: Formula | None = None
    check: tuple | None = None
    same_profile_as: str | None = None
    mixing: object | None = None
    norm_density_mp: Callable | None = None
    measure: tuple | None = None
    formulas: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        if self.name in _REGISTRY:
            raise ValueError(f"a stationary kernel named {self.name!r} is already registered")
        if self.metric not in ("euclidean", "cityblock"):
            raise ValueError(f"metric must be 'euclidean' or 'cityblock', got {self.metric!r}")
        if self.metric == "euclidean" and (self.mixing is None or self.norm_density_mp is None):
            raise ValueError(f"kernel {self.name!r}: a radial kernel declares its mixing law and norm density")
        if self.same_profile_as is not None:
            self.formulas.update(stationary_kernel(self.same_profile_as).formulas)
        else:
            self.formulas.update(self._formulas())
        _REGISTRY[self.name] = self

    def _formulas(self) -> dict:
        double = self.expr.subs(_R, 2 * _R)
        kernel_value, paired_value = self.check
        kernel = Formula(
            name=f"stationary.{self.name}_kernel", parameters=("distance",), expr=self.expr, numeric=self.numeric,
            source=self.source, description=f"the {self.words}, r = |z| / lengthscale",
            examples=_example(self.name, kernel_value, "kernel"))
        if self.expr is None or self.numeric is None or self.paired is None or self.check is None:
            raise ValueError(f"kernel {self.name!r} declares expr, numeric, paired and check (or same_profile_as)")
        if isinstance(self.paired, Formula):
            paired = self.paired
        else:
            paired = Formula(
                name=f"stationary.{self.name}_paired_variance", parameters=("distance",),
                expr=paired_variance_of(self.expr, double), numeric=self.paired,
                source=f"varlab, from {SUTHERLAND_SCHNEIDER}: (1 + k(2z))/2 - k(z)^2 = {self.paired_form}",
                description=f"Var cos<w, z> of one paired cos/sin frequency, {self.words}",
                derived_by_varlab=True, examples=_example(self.name, paired_value, "paired_variance"))
        paired_numeric = paired.numeric
        phase = self.phase or Formula(
            name=f"stationary.{self.name}_phase_variance", parameters=("distance",),
            expr=phase_variance_of(self.expr, double),
            numeric=lambda distance: paired_numeric(distance) + 0.5,
            source=f"varlab, from {SUTHERLAND_SCHNEIDER}: 1 + k(2z)/2 - k(z)^2 = the paired variance + 1/2",
            description=f"Var of one random-phase sample 2 cos(<w,x>+b) cos(<w,y>+b), {self.words}",
            derived_by_varlab=True, examples=_example(self.name, round(paired_value + 0.5, 10), "phase_variance"))
        return {"kernel": kernel, "paired_variance": paired, "phase_variance": phase}

    @property
    def kernel(self) -> Formula:
        """The Formula of k(r)."""
        return self.formulas["kernel"]

    @property
    def paired_variance(self) -> Formula:
        """The Formula of V(r), one paired cos/sin frequency."""
        return self.formulas["paired_variance"]

    @property
    def phase_variance(self) -> Formula:
        """The Formula of V(r) + 1/2, one random-phase frequency."""
        return self.formulas["phase_variance"]

    @property
    def radial(self) -> bool:
        """Whether k depends on |z| only (rotation invariant; orthogonal samplers apply)."""
        return self.metric == "euclidean"

    def lengthscale(self, gamma: float) -> float:
        """The lengthscale of the ``gamma`` convention, (factor gamma)^(-power), formed without
        overflow for every gamma in (0, 1.8e308) (inf where it exceeds the float64 range)."""
        factor, power = self.gamma
        with np.errstate(over="ignore", divide="ignore"):
            if power == 1:
                return float(1.0 / (np.float64(factor) * gamma))
            if power == 0.5:
                return float(1.0 / (math.sqrt(factor) * math.sqrt(gamma)))
            return float(np.exp(-power * (math.log(factor) + math.log(gamma))))

    def frequency_scale(self, gamma: float) -> float:
        """1 / lengthscale = (factor gamma)^power, formed without overflow where it is finite
        (``varlab.kernels`` multiplies distances by it)."""
        factor, power = self.gamma
        with np.errstate(over="ignore"):
            if power == 1:
                return float(np.float64(factor) * gamma)
            if power == 0.5:
                return float(math.sqrt(factor) * math.sqrt(gamma))
            return float(np.exp(power * (math.log(factor) + math.log(gamma))))

    def __repr__(self) -> str:
        return f"StationaryKernel({self.name!r})"


def stationary_kernel(name: str) -> StationaryKernel:
    """The registered stationary kernel ``name`` (ValueError naming the registered ones).

    Examples
    --------
    >>> from varlab.theory import stationary_kernel
    >>> stationary_kernel("cauchy").gamma_words
    '1/(1 + gamma |z|^2) (lengthscale 1/sqrt(gamma))'
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"kernel must be one of {sorted(_REGISTRY)}, got {name!r}")
    return _REGISTRY[name]


def stationary_kernels(*, radial: bool | None = None) -> dict[str, StationaryKernel]:
    """The registered stationary kernels by name (declaration order); ``radial=True`` only the
    rotation-invariant ones, ``False`` only the others.

    Examples
    --------
    >>> from varlab.theory import stationary_kernels
    >>> list(stationary_kernels(radial=False))
    ['laplacian']
    """
    return {name: k for name, k in _REGISTRY.items() if radial is None or k.radial == radial}
