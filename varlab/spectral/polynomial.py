"""Signed spectral measures of the polynomial kernel on the unit sphere (004, "Setup":
k(x, y) = alpha (q + <x, y>)^m = (1 - |x - y|^2/a^2)^m, q = a^2/2 - 1, alpha = (2/a^2)^m).

Data on the sphere only see r = |x - y| in [0, 2], so a stationary representation is a signed
radial measure mu on R^d whose kernel equals (1 - r^2/a^2)^m for r <= 2; what it does beyond r = 2
never enters a Gram matrix. Theory, sources and the growth rates: :mod:`varlab.theory.polynomial`.

* ``PolynomialSphere`` (registered "polynomial_sphere"; varlab's own construction): the radial
  part nu of mu is a finite sum of shells, nu = sum_j c_j delta(rho - rho_j), chosen by a linear
  program to have the least total variation sum_j |c_j| among shells on a grid
  rho_j in [0, 10 sqrt(d + 2)] (800 shells) whose kernel sum_j c_j phi_d(rho_j r) is within
  ``tolerance`` of (1 - r^2/a^2)^m on 200 points of [0, 2] (scipy.optimize.linprog, HiGHS). The
  kernel of the measure, ``kernel_of_distance``, is that sum exactly, and ``max_error`` is its
  largest distance from the polynomial on 4001 points of [0, 2] (about 1.1 x tolerance): GRFF and
  GORF on this measure are exactly unbiased for it, so their bias for the polynomial kernel is at
  most ``max_error`` (default tolerance 1e-6, far below any Monte Carlo resolution). Jordan parts:
  the shells with c_j > 0 and c_j < 0, masses the sums of |c_j|; each part samples |w| from its
  shells (a discrete law) and a uniform direction: exact sampling. The LP solution is sparse
  (about 14 shells for a = 3, m = 1). Masses (a = 3, m = 1, tolerance 1e-6): d = 2: 1.031/0.031,
  d = 16: 2.37/1.37, d = 64: 3.13/2.13. Why not a smooth compactly supported extension: a C^inf
  taper beyond r = 2 has finite masses in every d but they grow fast with d (theory.polynomial.
  taper_masses: 1.51/0.51 in d = 2, 3.92/2.92 in d = 4, 90.6/89.7 in d = 8, against
  1.03/0.03, 1.13/0.13, 1.61/0.61 for the shells) because no exact extension can have an
  exponentially decaying transform; the GRFF variance scales with the squared masses.
* ``PrintedPolynomialTransform`` (not registered: not a finite measure where the slides need it):
  the transform as printed in the cited literature, truncated at r = a (Bochner-Riesz) or at
  r = 2 (Pennington et al. 2015). ``total_masses()`` raises ValueError where the variation is
  infinite (every d for the r = 2 truncation with a != 2; d >= 2m + 1 for r = a) and
  ``truncated(cutoff)`` is the finite measure restricted to |w| <= cutoff, tabulated
  (piecewise-uniform |nu| on cells, inverse-CDF sampling): what a frequency cutoff samples, with
  its own (biased) kernel.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import scipy.optimize

from .. import _validate
from ..theory import polynomial as theory
from ..theory.parameters import parameter
from . import SignedMeasure, _count
from .signed import RadialPart, phi_sum

__all__ = ["PolynomialSphere", "PrintedPolynomialTransform", "ShellLaw", "CellLaw", "polynomial_kernel"]

#: largest dimension accepted (the linear program's shells and phi_d stay accurate below it)
MAX_DIMENSION = 1024
_SHELLS, _CONSTRAINTS, _CHECK = 800, 200, 4001
_DIAMETER = 2.0


def polynomial_kernel(r, a=3.0, degree=1):
    """(1 - r^2/a^2)^m for distances r in [0, 2] (004, Setup).

    Examples
    --------
    >>> from varlab.spectral.polynomial import polynomial_kernel
    >>> polynomial_kernel([0.0, 1.0, 2.0])                  # a = 3, m = 1: 1 - r^2 / 9
    array([1.        , 0.88888889, 0.55555556])
    >>> round(float(polynomial_kernel(1.0, a=3.0, degree=2)), 10)
    0.7901234568
    """
    r = _validate.real_array(r, "r", low=0.0, high=_DIAMETER)
    a, m = _scale(a), _degree(degree)
    return (1.0 - np.square(r) / (a * a)) ** m


def _scale(a):
    value = parameter("a").validate(a, "a")
    if value.ndim != 0:
        raise TypeError(f"a must be a single real number > 0, got {a!r}")
    return float(value)


def _degree(degree):
    value = parameter("degree").validate(degree, "degree")
    if value.ndim != 0:
        raise TypeError(f"degree must be a single integer >= 1, got {degree!r}")
    if int(value) > 64:
        raise ValueError(f"degree must be an integer in [1, 64], got {degree!r}")
    return int(value)


def _dimension(dimension):
    d = _count(dimension, "dimension", "dimension")
    if d > MAX_DIMENSION:
        raise ValueError(f"dimension must be an integer in [1, {MAX_DIMENSION}], got {dimension!r}")
    return d


# -- radial laws -----------------------------------------------------------------------------------
class ShellLaw:
    """A discrete law of |w| on ``atoms`` with ``probabilities`` (scipy.stats-like: rvs, cdf, ppf,
    mean, moment; ``quadrature`` gives the atoms and probabilities, an exact rule).

    Examples
    --------
    >>> from varlab.spectral.polynomial import ShellLaw
    >>> law = ShellLaw([1.0, 2.0], [1.0, 3.0])          # |w| = 1 or 2 with probabilities 1/4, 3/4
    >>> law.mean(), law.moment(2)
    (1.75, 3.25)
    >>> law.cdf([0.5, 1.0, 2.0])
    array([0.  , 0.25, 1.  ])
    >>> law.rvs(5, random_state=0)
    array([2., 2., 1., 1., 2.])
    """

    def __init__(self, atoms, probabilities):
        order = np.argsort(atoms)
        self.atoms = np.asarray(atoms, dtype=np.float64)[order]
        self.probabilities = np.asarray(probabilities, dtype=np.float64)[order]
        self.probabilities = self.probabilities / math.fsum(self.probabilities)
        self._cumulative = np.cumsum(self.probabilities)
        self._cumulative[-1] = 1.0

    def rvs(self, size=None, random_state=None):
        rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
        u = rng.random(size)
        return self.atoms[np.minimum(np.searchsorted(self._cumulative, u, side="right"), self.atoms.size - 1)]

    def cdf(self, x):
        x = np.asarray(x, dtype=np.float64)
        index = np.searchsorted(self.atoms, x, side="right")
        return np.where(index > 0, self._cumulative[np.maximum(index - 1, 0)], 0.0)

    def sf(self, x):
        return 1.0 - self.cdf(x)

    def ppf(self, q):
        q = np.asarray(q, dtype=np.float64)
        return self.atoms[np.minimum(np.searchsorted(self._cumulative, q, side="left"), self.atoms.size - 1)]

    def moment(self, n):
        return float(np.sum(self.probabilities * self.atoms ** n))

    def mean(self):
        return self.moment(1)

    def quadrature(self, n=None):
        return self.atoms, self.probabilities


class CellLaw:
    """A law of |w| with constant density on each cell [edges[i], edges[i+1]] of mass
    ``masses[i]`` (normalised): rvs and ppf by inverting the piecewise-linear CDF; ``quadrature(n)``
    is n-point Gauss-Legendre in every cell (exact for polynomials of degree < 2n).

    Examples
    --------
    >>> from varlab.spectral.polynomial import CellLaw
    >>> law = CellLaw([0.0, 1.0, 2.0], [1.0, 1.0])     # uniform on [0, 2] in two cells
    >>> law.cdf([0.5, 1.5]), law.ppf([0.25, 0.75])
    (array([0.25, 0.75]), array([0.5, 1.5]))
    >>> round(law.mean(), 12), round(law.moment(2), 12)     # E|w|^2 = 4/3
    (1.0, 1.33333333333)
    """

    def __init__(self, edges, masses):
        self.edges = np.asarray(edges, dtype=np.float64)
        masses = np.asarray(masses, dtype=np.float64)
        self.masses = masses / math.fsum(masses)
        self._cumulative = np.concatenate([[0.0], np.cumsum(self.masses)])
        self._cumulative[-1] = 1.0

    def rvs(self, size=None, random_state=None):
        rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
        return self.ppf(rng.random(size))

    def ppf(self, q):
        return np.interp(q, self._cumulative, self.edges)

    def cdf(self, x):
        return np.interp(x, self.edges, self._cumulative)

    def sf(self, x):
        return 1.0 - self.cdf(x)

    def pdf(self, x):
        x = np.asarray(x, dtype=np.float64)
        index = np.clip(np.searchsorted(self.edges, x, side="right") - 1, 0, self.masses.size - 1)
        inside = (x >= self.edges[0]) & (x <= self.edges[-1])
        return np.where(inside, self.masses[index] / np.diff(self.edges)[index], 0.0)

    def quadrature(self, n=4):
        x, w = np.polynomial.legendre.leggauss(n)
        lo, hi = self.edges[:-1, None], self.edges[1:, None]
        nodes = lo + 0.5 * (hi - lo) * (x + 1.0)
        weights = self.masses[:, None] * 0.5 * w[None, :]
        return nodes.ravel(), weights.ravel()

    def moment(self, n):
        nodes, weights = self.quadrature(8)
        return float(np.sum(weights * nodes ** n))

    def mean(self):
        return self.moment(1)


# -- the minimal-variation shell measure -------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _shells(a, m, d, tolerance):
    """(radii, signed weights, max_error): the least-variation shells (see the module doc)."""
    rho = np.linspace(0.0, 10.0 * math.sqrt(d + 2.0), _SHELLS)
    r = np.linspace(0.0, _DIAMETER, _CONSTRAINTS)
    basis = theory.phi(r[:, None] * rho[None, :], d)
    target = (1.0 - np.square(r) / (a * a)) ** m
    both = np.hstack([basis, -basis])
    result = scipy.optimize.linprog(np.ones(2 * rho.size), A_ub=np.vstack([both, -both]),
                                    b_ub=np.concatenate([target + tolerance, tolerance - target]),
                                    bounds=(0, None), method="highs")
    if result.status != 0:
        raise ValueError(f"no shell measure within tolerance={tolerance:g} of (1 - r^2/a^2)^m (a={a:g}, "
                         f"degree={m}, dimension={d}): {result.message} (try a larger tolerance)")
    weights = result.x[:rho.size] - result.x[rho.size:]
    keep = np.abs(weights) > 1e-12 * np.abs(weights).max()
    radii, weights = rho[keep], weights[keep]
    check = np.linspace(0.0, _DIAMETER, _CHECK)
    error = float(np.max(np.abs(phi_sum(radii, weights, check, d) - (1.0 - np.square(check) / (a * a)) ** m)))
    return radii, weights, error


class PolynomialSphere(SignedMeasure, name="polynomial_sphere"):
    """The polynomial kernel on the unit sphere (1 - r^2/a^2)^m, r = |x - y| <= 2, as a finite
    signed radial measure in R^dimension: varlab's least-variation shells (module doc). Defaults:
    the slides' a = 3, m = 1 on letter (d = 16).

    Examples
    --------
    >>> from varlab.spectral.polynomial import PolynomialSphere
    >>> mu = PolynomialSphere(a=3.0, degree=1, dimension=16)
    >>> bool(mu.max_error < 2e-6)
    True
    >>> {k: round(v, 2) for k, v in mu.total_masses().items()}
    {'positive': 2.37, 'negative': 1.37}
    """

    def __init__(self, a=3.0, degree=1, dimension=16, tolerance=1e-6):
        self.a, self.degree = _scale(a), _degree(degree)
        self.dimension = _dimension(dimension)
        tol = _validate.real_array(tolerance, "tolerance", low=1e-9, high=0.1)
        if tol.ndim != 0:
            raise TypeError(f"tolerance must be a single number in [1e-09, 0.1], got {tolerance!r}")
        self.tolerance = float(tol)
        radii, weights, self.max_error = _shells(self.a, self.degree, self.dimension, self.tolerance)
        self.radii, self.weights = radii, weights
        parts, masses = {}, {}
        for part, sign in (("positive", 1.0), ("negative", -1.0)):
            keep = weights * sign > 0
            masses[part] = math.fsum(np.abs(weights[keep]))
            parts[part] = RadialPart(ShellLaw(radii[keep], np.abs(weights[keep])), self.dimension, sign, nodes=None) \
                if keep.any() else None
        super().__init__(parts["positive"], parts["negative"], masses=masses)

    def parameters(self) -> dict:
        return {"a": self.a, "degree": self.degree, "dimension": self.dimension, "tolerance": self.tolerance}

    def kernel_of_distance(self, r) -> np.ndarray:
        """The kernel of this measure, sum_j c_j phi_d(rho_j r) (within ``max_error`` of the
        polynomial kernel on [0, 2]; any r >= 0)."""
        r = parameter("distance").validate(r, "r")
        return phi_sum(self.radii, self.weights, r, self.dimension)

    def polynomial(self, r) -> np.ndarray:
        """The polynomial kernel (1 - r^2/a^2)^m itself, r in [0, 2]."""
        return polynomial_kernel(r, self.a, self.degree)

    def __repr__(self):
        return (f"PolynomialSphere(a={self.a!r}, degree={self.degree!r}, dimension={self.dimension!r}, "
                f"tolerance={self.tolerance!r})")


# -- the printed transform -----------------------------------------------------------------------------
class PrintedPolynomialTransform:
    """The polynomial kernel's transform as printed in the literature 004 cites, in R^dimension:
    truncation "a" (the extension (1 - r^2/a^2)_+^m, Bochner-Riesz) or "sphere" (truncated at
    r = 2, Pennington et al. 2015). |w| = rho; ``radial_density(rho)`` is nu(rho) with
    k(r) = int phi_d(rho r) nu(rho) drho (theory.polynomial).

    Examples
    --------
    >>> from varlab.spectral.polynomial import PrintedPolynomialTransform
    >>> printed = PrintedPolynomialTransform(a=3.0, degree=1, dimension=2, truncation="a")
    >>> printed.finite(), PrintedPolynomialTransform(dimension=16).finite()     # d <= 2m only
    (True, False)
    >>> {part: round(mass, 4) for part, mass in printed.total_masses().items()}
    {'positive': 1.5149, 'negative': 0.5149}
    >>> cut = printed.truncated(5.0)                 # what sampling |w| <= 5 draws: a finite SignedMeasure
    >>> {part: round(mass, 6) for part, mass in cut.total_masses().items()}
    {'positive': 1.237341, 'negative': 0.264689}
    """

    def __init__(self, a=3.0, degree=1, dimension=16, truncation="sphere"):
        self.a, self.degree = _scale(a), _degree(degree)
        self.dimension = _dimension(dimension)
        _validate.choice(truncation, "truncation", ("a", "sphere"))
        self.truncation = truncation
        self.radius = self.a if truncation == "a" else _DIAMETER

    def radial_density(self, rho) -> np.ndarray:
        """nu(rho) = radius * nu_u(radius * rho) (theory.polynomial.radial_density[_sphere])."""
        rho = _validate.real_array(rho, "rho", low=0.0)
        u = self.radius * rho
        if self.truncation == "a" or self.a == _DIAMETER:
            return self.radius * theory.bochner_riesz(self.dimension, self.degree, u)
        return self.radius * theory.radial_density_sphere.numeric(
            dimension=np.asarray(self.dimension), degree=np.asarray(self.degree), a=np.asarray(self.a), frequency=u)

    def finite(self) -> bool:
        """Whether the transform is a finite signed measure (theory.polynomial.finite_total_variation)."""
        return theory.finite_total_variation(self.dimension, self.degree, a=self.a, truncation=self.truncation)

    def total_masses(self) -> dict:
        """The Jordan masses where finite; ValueError explaining the infinite variation otherwise."""
        return theory.total_masses(self.dimension, self.degree, a=self.a, truncation=self.truncation)

    def truncated_masses(self, cutoff) -> dict:
        """Jordan masses of the transform restricted to |w| <= cutoff (they grow without bound
        where the variation is infinite; theory.polynomial.variation_growth)."""
        cutoff = _validate.positive(cutoff, "cutoff")
        return theory.truncated_masses(self.dimension, self.degree, self.radius * float(cutoff), a=self.a,
                                       truncation=self.truncation)

    def truncated(self, cutoff, cells_per_unit=40) -> SignedMeasure:
        """The finite signed measure nu restricted to |w| <= cutoff, each Jordan part tabulated as
        a piecewise-uniform radial law (cells of width 1/cells_per_unit in u, masses by 4-point
        Gauss-Legendre of |nu|): what sampling with a frequency cutoff draws. Its kernel (the
        parts' quadrature, exact for the tabulated law) is not the polynomial kernel."""
        cutoff = float(_validate.positive(cutoff, "cutoff"))
        cells = _validate.positive_int(cells_per_unit, "cells_per_unit")
        upper = self.radius * cutoff
        n_cells = max(1, int(math.ceil(upper * cells)))
        if n_cells > 10 ** 7:
            raise ValueError(f"cutoff * cells_per_unit is too large ({n_cells} cells); lower cutoff or cells_per_unit")
        edges = np.linspace(0.0, cutoff, n_cells + 1)
        x, w = np.polynomial.legendre.leggauss(4)
        lo, hi = edges[:-1, None], edges[1:, None]
        nodes = lo + 0.5 * (hi - lo) * (x + 1.0)
        density = self.radial_density(nodes)
        parts, masses = {}, {}
        for part, sign in (("positive", 1.0), ("negative", -1.0)):
            cell = (np.clip(sign * density, 0.0, None) * 0.5 * (hi - lo) * w).sum(axis=1)
            masses[part] = math.fsum(cell)
            parts[part] = RadialPart(CellLaw(edges, cell), self.dimension, sign, nodes=4) if masses[part] > 0 else None
        return SignedMeasure(parts["positive"], parts["negative"], masses=masses)

    def __repr__(self):
        return (f"PrintedPolynomialTransform(a={self.a!r}, degree={self.degree!r}, dimension={self.dimension!r}, "
                f"truncation={self.truncation!r})")
