"""Spectral measures of the Laplacian, exponential, Matern and Cauchy kernels.

* ``Laplacian(gamma)``: k(z) = exp(-gamma ||z||_1) (scikit-learn's ``laplacian_kernel``) is a
  product over coordinates of exp(-gamma |z_i|), the characteristic function of Cauchy(0, gamma):
  w has independent Cauchy coordinates. The law is not rotation invariant (not a RadialMeasure), so
  the orthogonal, structured and Fastfood samplers refuse it.
* ``Matern(nu, lengthscale)``: k(r) = 2^{1-nu}/Gamma(nu) a^nu K_nu(a), a = sqrt(2 nu) r / l
  (Rasmussen and Williams 2006, Eq. 4.14), whose spectral density is proportional to
  (2 nu / l^2 + |w|^2)^{-(nu + d/2)} (their Eq. 4.15): the multivariate t law with 2 nu degrees of
  freedom and scale 1/l, w = g sqrt(2 nu / u) / l with g ~ N(0, I), u ~ chi^2_{2 nu}. Radial:
  |w|^2 l^2 / (2 nu) ~ betaprime(d/2, nu) (:class:`RadialT`). ``Exponential(lengthscale)`` is
  nu = 1/2, k = exp(-r/l) (w multivariate Cauchy).
* ``CauchyKernel(lengthscale)``: k(r) = 1/(1 + r^2/l^2) = E_tau exp(-tau r^2/l^2), tau ~ Exp(1)
  (varlab's derivation): w = sqrt(2 tau) g / l, the multivariate symmetric Laplace law (in d = 1
  the Laplace density e^{-l|w|} l/2, the Fourier pair of the exponential kernel). Radial:
  P(|w| > r) = 2 (s/2)^{d/2} K_{d/2}(s) / Gamma(d/2), s = r l (:class:`RadialLaplace`).

>>> from varlab import spectral
>>> m = spectral.get_measure("matern", nu=1.5, lengthscale=2.0)
>>> round(float(m.kernel_of_distance(2.0)), 12)            # (1 + sqrt3) e^{-sqrt3}
0.483357724597
>>> round(float(spectral.get_measure("cauchy").kernel([1.0, 1.0])), 12)
0.333333333333
"""
from __future__ import annotations

import math

import numpy as np
import scipy.special as sc
import scipy.stats
from scipy.optimize import elementwise

from .. import _validate
from ..theory import stationary as theory
from ..theory.parameters import parameter
from . import RadialMeasure, SpectralMeasure, _norm

__all__ = ["Laplacian", "Matern", "Exponential", "CauchyKernel", "RadialT", "RadialLaplace"]


def _positive_scalar(value, name: str) -> float:
    array = parameter("bandwidth").validate(value, name)
    if array.ndim != 0:
        raise TypeError(f"{name} must be a single real number > 0, got {value!r}")
    value = float(array)
    if not math.isfinite(64.0 / value) or not math.isfinite(64.0 * value):
        raise ValueError(f"{name} must be in [{64.0 / np.finfo(np.float64).max:.3g}, "
                         f"{np.finfo(np.float64).max / 64.0:.3g}] so that the frequencies are finite, got {value!r}")
    return value


class Laplacian(SpectralMeasure, name="laplacian"):
    """Spectral measure of the Laplacian kernel exp(-gamma ||z||_1): independent Cauchy(0, gamma)
    coordinates (a product measure, not radial: orthogonal samplers do not apply).

    Examples
    --------
    >>> from varlab.spectral.stationary import Laplacian
    >>> round(float(Laplacian(0.5).kernel([1.0, -1.0])), 12)       # exp(-0.5 * 2)
    0.367879441171
    >>> Laplacian(0.5).rvs(2, 3, random_state=0).shape
    (2, 3)
    """

    #: why samplers that need a RadialMeasure refuse this measure
    not_radial = ("the Laplacian's spectral measure is a product of Cauchy laws, not rotation invariant, "
                  "so orthogonal rows with radial norms would not have its law; use sampler='iid' (or "
                  "'antithetic')")

    def __init__(self, gamma=1.0):
        gamma = _positive_scalar(gamma, "gamma")
        super().__init__(gamma=gamma)
        self.gamma = gamma

    def _rvs(self, n, d, rng):
        w = rng.standard_cauchy((n, d))
        w *= self.gamma
        return w

    def _kernel(self, z):
        with np.errstate(over="ignore"):
            return np.exp(-self.gamma * np.sum(np.abs(z), axis=-1))

    def _logdensity(self, w):
        g = self.gamma
        return np.sum(math.log(g / math.pi) - np.log(g * g + np.square(w)), axis=-1)


class RadialT(scipy.stats.rv_continuous):
    """|w| of the multivariate t law with ``dof`` degrees of freedom and scale 1 in R^``d``:
    |w|^2 / dof ~ betaprime(d/2, dof/2) (so |w|^2 / d ~ F(d, dof)); cdf, sf and their inverses by
    scipy's regularised incomplete beta function.

    Examples
    --------
    >>> from varlab.spectral.stationary import RadialT
    >>> radial_t = RadialT(a=0.0, name="radial_t")          # an rv_continuous, frozen with (d, dof)
    >>> round(float(radial_t.cdf(1.0, 3, 3.0)), 10)           # P(|w| <= 1), w multivariate t_3 in R^3
    0.1955011095
    >>> round(float(radial_t(3, 3.0).mean()), 10)
    2.2053155817
    """

    def _argcheck(self, d, dof):
        return (d > 0) & (dof > 0)

    def _ratio(self, x, dof):
        y = np.square(x) / dof
        return y / (1.0 + y)                                   # betaprime -> beta

    def _pdf(self, x, d, dof):
        return np.exp(self._logpdf(x, d, dof))

    def _logpdf(self, x, d, dof):
        y = np.square(x) / dof
        return (math.log(2.0) + (d - 1.0) * np.log(x) - 0.5 * d * np.log(dof) - sc.betaln(0.5 * d, 0.5 * dof)
                - 0.5 * (d + dof) * np.log1p(y))

    def _cdf(self, x, d, dof):
        return sc.betainc(0.5 * d, 0.5 * dof, self._ratio(x, dof))

    def _sf(self, x, d, dof):
        return sc.betaincc(0.5 * d, 0.5 * dof, self._ratio(x, dof))

    def _ppf(self, q, d, dof):
        b = sc.betaincinv(0.5 * d, 0.5 * dof, q)
        return np.sqrt(dof * b / (1.0 - b))

    def _isf(self, q, d, dof):
        b = sc.betainccinv(0.5 * d, 0.5 * dof, q)
        return np.sqrt(dof * b / (1.0 - b))

    def _munp(self, n, d, dof):
        if n >= dof:
            return np.inf
        return dof ** (0.5 * n) * np.exp(sc.gammaln(0.5 * (d + n)) + sc.gammaln(0.5 * (dof - n))
                                         - sc.gammaln(0.5 * d) - sc.gammaln(0.5 * dof))

    def _rvs(self, d, dof, size=None, random_state=None):
        chi2 = random_state.chisquare(d, size=size)
        u = random_state.chisquare(dof, size=size)
        return np.sqrt(chi2 * dof / u)


class RadialLaplace(scipy.stats.rv_continuous):
    """|w| of the multivariate symmetric Laplace law w = sqrt(2 tau) g, tau ~ Exp(1), g ~ N(0, I_d)
    (the Cauchy kernel's measure, lengthscale 1): sf(s) = 2 (s/2)^{d/2} K_{d/2}(s) / Gamma(d/2)
    (varlab: P(2 tau chi^2_d > s^2) = E exp(-s^2 / (2 chi^2_d))); inverses by scipy's vectorised
    root finder.

    Examples
    --------
    >>> import math
    >>> from varlab.spectral.stationary import RadialLaplace
    >>> radial_laplace = RadialLaplace(a=0.0, name="radial_laplace")
    >>> round(float(radial_laplace.sf(1.0, 1)), 10), round(math.exp(-1.0), 10)     # d = 1: the Laplace law
    (0.3678794412, 0.3678794412)
    >>> round(float(radial_laplace.ppf(0.5, 1)), 10), round(math.log(2.0), 10)
    (0.6931471806, 0.6931471806)
    """

    def _argcheck(self, d):
        return d > 0

    def _log_tail(self, x, nu):
        """log(2 (x/2)^nu K_nu(x) / Gamma(nu)) for x > 0, from the scaled Bessel function."""
        return (math.log(2.0) + nu * np.log(0.5 * x) + np.log(sc.kve(nu, x)) - x - sc.gammaln(nu))

    def _sf(self, x, d):
        x, d = np.broadcast_arrays(np.asarray(x, dtype=np.float64), d)
        out = np.ones(x.shape)
        positive = x > 0
        out[positive] = np.exp(self._log_tail(x[positive], 0.5 * d[positive]))
        return out

    def _cdf(self, x, d):
        return -np.expm1(np.log(self._sf(x, d)))

    def _pdf(self, x, d):
        # -d/dx of x^nu K_nu(x) is x^nu K_{nu-1}(x)
        nu = 0.5 * d
        with np.errstate(divide="ignore"):
            return np.exp(math.log(2.0) + nu * np.log(0.5 * x) + np.log(sc.kve(nu - 1.0, x)) - x - sc.gammaln(nu))

    def _invert(self, target, d, upper):
        """x with sf(x) = target (upper) or cdf(x) = target, vectorised (scipy.optimize.elementwise)."""
        tail = self._sf if upper else self._cdf
        f = lambda x, log_target, d: np.log(tail(x, d)) - log_target      # noqa: E731
        args = (np.log(target), d)
        bracket = elementwise.bracket_root(f, np.ones(np.shape(target)), xmin=0.0, args=args)
        return elementwise.find_root(f, bracket.bracket, args=args).x

    def _ppf(self, q, d):
        return self._invert(q, d, upper=False)

    def _isf(self, q, d):
        return self._invert(q, d, upper=True)

    def _munp(self, n, d):
        # E (2 tau chi^2_d)^{n/2} = 2^{n/2} Gamma(1 + n/2) 2^{n/2} Gamma(d/2 + n/2) / Gamma(d/2)
        return 2.0 ** n * np.exp(sc.gammaln(1.0 + 0.5 * n) + sc.gammaln(0.5 * (d + n)) - sc.gammaln(0.5 * d))

    def _rvs(self, d, size=None, random_state=None):
        return np.sqrt(2.0 * random_state.standard_exponential(size=size) * random_state.chisquare(d, size=size))


_RADIAL_T = RadialT(a=0.0, name="radial_t")
_RADIAL_LAPLACE = RadialLaplace(a=0.0, name="radial_laplace")
_NU_FORMULAS = {0.5: theory.exponential_kernel, 1.5: theory.matern32_kernel, 2.5: theory.matern52_kernel}


class Matern(RadialMeasure, name="matern"):
    """Spectral measure of the Matern kernel of smoothness ``nu`` > 0 and ``lengthscale`` l: the
    multivariate t law with 2 nu degrees of freedom and scale 1/l (module docstring). nu = 1/2,
    3/2, 5/2 use the closed forms of ``varlab.theory.stationary``; other nu scipy's K_nu.
    E|w|^2 is finite only for nu > 1 (moment matching needs it).

    Examples
    --------
    >>> from varlab.spectral.stationary import Matern
    >>> m = Matern(nu=1.5, lengthscale=2.0)
    >>> round(float(m.kernel_of_distance(2.0)), 12)          # (1 + sqrt3) e^{-sqrt3}
    0.483357724597
    >>> round(float(m.kernel([1.2, 1.6])), 12)               # |z| = 2
    0.483357724597
    >>> m.rvs(4, 3, random_state=0).shape
    (4, 3)
    """

    def __init__(self, nu=1.5, lengthscale=1.0):
        nu = _validate.positive(nu, "nu")
        if np.ndim(nu) != 0:
            raise TypeError(f"nu must be a single real number > 0, got {nu!r}")
        lengthscale = _positive_scalar(lengthscale, "lengthscale")
        super().__init__(nu=float(nu), lengthscale=lengthscale)
        self.nu, self.lengthscale = float(nu), lengthscale

    def _rvs(self, n, d, rng):
        g = rng.standard_normal((n, d))
        u = rng.chisquare(2.0 * self.nu, size=(n, 1))
        g *= np.sqrt(2.0 * self.nu / u) / self.lengthscale
        return g

    def _kernel_of_distance(self, r, d):
        s = np.minimum(r / self.lengthscale, np.finfo(np.float64).max)
        formula = _NU_FORMULAS.get(self.nu)
        if formula is not None:
            return formula(distance=s)
        a = math.sqrt(2.0 * self.nu) * s
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            value = np.exp((1.0 - self.nu) * math.log(2.0) - sc.gammaln(self.nu) + self.nu * np.log(a)
                           + np.log(sc.kve(self.nu, a)) - a)
        return np.where(a == 0, 1.0, np.nan_to_num(value, nan=0.0))

    def _norm_law(self, d):
        return _RADIAL_T(d, 2.0 * self.nu, scale=1.0 / self.lengthscale)

    def _logdensity(self, w):
        d = w.shape[-1]
        dof, scale = 2.0 * self.nu, 1.0 / self.lengthscale
        y = np.square(_norm(w) / scale) / dof
        return (sc.gammaln(0.5 * (dof + d)) - sc.gammaln(0.5 * dof) - 0.5 * d * math.log(dof * math.pi)
                - d * math.log(scale) - 0.5 * (dof + d) * np.log1p(y))


class Exponential(Matern, name="exponential"):
    """Spectral measure of the exponential (Matern-1/2) kernel exp(-|z|/l): the multivariate Cauchy
    law (t with one degree of freedom) of scale 1/l. E|w|^2 is infinite.

    Examples
    --------
    >>> from varlab.spectral.stationary import Exponential
    >>> e = Exponential(2.0)
    >>> e, round(float(e.kernel_of_distance(2.0)), 12)      # exp(-2/2)
    (Exponential(lengthscale=2.0), 0.367879441171)
    """

    def __init__(self, lengthscale=1.0):
        super().__init__(nu=0.5, lengthscale=lengthscale)
        self._parameters = {"lengthscale": self.lengthscale}


class CauchyKernel(RadialMeasure, name="cauchy"):
    """Spectral measure of the Cauchy kernel 1/(1 + |z|^2/l^2): w = sqrt(2 tau) g / l, tau ~ Exp(1),
    the multivariate symmetric Laplace law (module docstring).

    Examples
    --------
    >>> from varlab.spectral.stationary import CauchyKernel
    >>> c = CauchyKernel(2.0)
    >>> float(c.kernel_of_distance(2.0))                    # 1 / (1 + 1)
    0.5
    >>> round(float(c.norm_law(1).sf(1.0)), 10)             # d = 1: P(|w| > 1) = e^{-l}
    0.1353352832
    """

    def __init__(self, lengthscale=1.0):
        lengthscale = _positive_scalar(lengthscale, "lengthscale")
        super().__init__(lengthscale=lengthscale)
        self.lengthscale = lengthscale

    def _rvs(self, n, d, rng):
        g = rng.standard_normal((n, d))
        tau = rng.standard_exponential(size=(n, 1))
        g *= np.sqrt(2.0 * tau) / self.lengthscale
        return g

    def _kernel_of_distance(self, r, d):
        return theory.cauchy_kernel(distance=np.minimum(r / self.lengthscale, np.finfo(np.float64).max))

    def _norm_law(self, d):
        return _RADIAL_LAPLACE(d, scale=1.0 / self.lengthscale)
