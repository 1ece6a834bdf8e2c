"""Spectral measures of the Laplacian, exponential, Matern and Cauchy kernels.

* ``Laplacian(lengthscale)``: k(z) = exp(-||z||_1 / l) (scikit-learn's ``laplacian_kernel`` with
  gamma = 1/l) is a product over coordinates of exp(-|z_i| / l), the characteristic function of
  Cauchy(0, 1/l): w has independent Cauchy coordinates. The law is not rotation invariant (not a RadialMeasure), so
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
* ``ScaleMixture(kernel, lengthscale)``: any registered Gaussian scale mixture
  (``varlab.theory.stationary_kernels``) without a measure of its own, w = sqrt(A) g / l with A
  from the kernel's mixing law (e.g. the rational quadratic); its norm law has no fast ppf, so
  the QMC samplers refuse it.

Every measure calls its scale ``lengthscale`` (the old ``gamma=`` of the Laplacian and
``bandwidth=`` of the Gaussian are deprecated aliases); :func:`kernel_measure` builds the measure of
a registered kernel from the kernel's ``gamma`` convention (``varlab.spectral.kernel_measure``).

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
from scipy import integrate
from scipy.optimize import elementwise

from .. import _validate
from ..theory import stationary_kernel, stationary_kernels
from . import RadialMeasure, SpectralMeasure, _norm, lengthscale_of, renamed

__all__ = ["Laplacian", "Matern", "Exponential", "CauchyKernel", "ScaleMixture", "RadialT", "RadialLaplace",
           "RadialScaleMixture"]


class Laplacian(SpectralMeasure, name="laplacian"):
    """Spectral measure of the Laplacian kernel exp(-||z||_1 / lengthscale): independent
    Cauchy(0, 1/lengthscale) coordinates (a product measure, not radial: orthogonal samplers do
    not apply). ``gamma=`` (= 1/lengthscale) is deprecated.

    Examples
    --------
    >>> from varlab.spectral.stationary import Laplacian
    >>> round(float(Laplacian(2.0).kernel([1.0, -1.0])), 12)       # exp(-2 / 2)
    0.367879441171
    >>> Laplacian(2.0).rvs(2, 3, random_state=0).shape
    (2, 3)
    """

    #: why samplers that need a RadialMeasure refuse this measure
    not_radial = ("the Laplacian's spectral measure is a product of Cauchy laws, not rotation invariant, "
                  "so orthogonal rows with radial norms would not have its law; use sampler='iid' (or "
                  "'antithetic')")

    def __init__(self, lengthscale=1.0, *, gamma=None):
        if gamma is not None:
            gamma = 1.0 / lengthscale_of(1.0 / _validate.positive(gamma, "gamma"), "1/gamma")
        lengthscale = lengthscale_of(renamed(lengthscale, None if gamma is None else 1.0 / gamma, "gamma"))
        super().__init__(lengthscale=lengthscale)
        self.lengthscale = lengthscale

    def _rvs(self, n, d, rng):
        w = rng.standard_cauchy((n, d))
        w /= self.lengthscale
        return w

    def _kernel(self, z):
        with np.errstate(over="ignore"):
            return np.exp(-np.sum(np.abs(z), axis=-1) / self.lengthscale)

    def _logdensity(self, w):
        g = 1.0 / self.lengthscale
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


def _matern_profile(nu: float):
    """The registered profile of the Matern kernel of smoothness nu, or None (scipy's K_nu)."""
    for declared in stationary_kernels(radial=True).values():
        if declared.measure == ("matern", {"nu": nu}):
            return declared.kernel
    return None


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
        lengthscale = lengthscale_of(lengthscale)
        super().__init__(nu=float(nu), lengthscale=lengthscale)
        self.nu, self.lengthscale = float(nu), lengthscale

    def _rvs(self, n, d, rng):
        g = rng.standard_normal((n, d))
        u = rng.chisquare(2.0 * self.nu, size=(n, 1))
        g *= np.sqrt(2.0 * self.nu / u) / self.lengthscale
        return g

    def _kernel_of_distance(self, r, d):
        s = np.minimum(r / self.lengthscale, np.finfo(np.float64).max)
        formula = _matern_profile(self.nu)
        if formula is not None:
            return formula(distance=s)
        a = math.sqrt(2.0 * self.nu) * s
        with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
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
        lengthscale = lengthscale_of(lengthscale)
        super().__init__(lengthscale=lengthscale)
        self.lengthscale = lengthscale

    def _rvs(self, n, d, rng):
        g = rng.standard_normal((n, d))
        tau = rng.standard_exponential(size=(n, 1))
        g *= np.sqrt(2.0 * tau) / self.lengthscale
        return g

    def _kernel_of_distance(self, r, d):
        return stationary_kernel("cauchy").kernel(distance=np.minimum(r / self.lengthscale, np.finfo(np.float64).max))

    def _norm_law(self, d):
        return _RADIAL_LAPLACE(d, scale=1.0 / self.lengthscale)

    def _logdensity(self, w):
        # l^d p(l w), p(v) = (2 pi)^{-d/2} |v|^{1 - d/2} K_{d/2 - 1}(|v|) (varlab: the Gaussian
        # density integrated over A = 2 tau); +inf at v = 0 for d >= 2
        d = w.shape[-1]
        t = _norm(w) * self.lengthscale
        nu = 0.5 * d - 1.0
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            log = (d * math.log(self.lengthscale) - 0.5 * d * math.log(2.0 * math.pi) - nu * np.log(t)
                   + np.log(sc.kve(nu, t)) - t)
        at_zero = math.inf if d >= 2 else math.log(self.lengthscale / 2.0)      # d = 1: e^{-|v|}/2
        return np.where(t == 0, at_zero, log)


class RadialScaleMixture(scipy.stats.rv_continuous):
    """|w| of w = sqrt(A) g, g ~ N(0, I_d), A from a mixing law (``varlab.theory``'s
    ``GammaMixing``, ...; lengthscale 1): |w|^2 = A chi^2_d. cdf, sf and pdf are E_A of the chi
    ones, integrated over the quantile u of A (A = ppf(u), a bounded integrand on (0, 1)) by
    ``scipy.integrate.quad_vec`` to 1e-12; draws are exact; the ppf is scipy's generic root
    finder (slow: measures built on it declare ``fast_ppf = False``).

    Examples
    --------
    >>> from varlab.spectral.stationary import RadialScaleMixture
    >>> from varlab.theory.stationary_registry import GammaMixing
    >>> law = RadialScaleMixture(GammaMixing(1.0, 2.0), a=0.0, name="radial_scale_mixture")
    >>> round(float(law.sf(1.0, 1)), 10)                     # d = 1, A = 2 Exp(1): the Laplace law, e^{-1}
    0.3678794412
    """

    def __init__(self, mixing, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mixing = mixing

    def _updated_ctor_param(self):
        return {**super()._updated_ctor_param(), "mixing": self.mixing}      # freezing re-creates the law

    def _argcheck(self, d):
        return d > 0

    def _over_mixing(self, function, x, d):
        """E_A function(x / sqrt(A), d) / sqrt(A)^power, as an integral over A's quantile."""
        x, d = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(d, dtype=np.float64))
        flat_x, flat_d = x.ravel(), d.ravel()

        def integrand(u):
            a = self.mixing.ppf(u)
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                return np.nan_to_num(function(flat_x / math.sqrt(a), flat_d, a))

        value, _ = integrate.quad_vec(integrand, 0.0, 1.0, epsabs=1e-13, epsrel=1e-12)
        return value.reshape(x.shape)

    def _cdf(self, x, d):
        return self._over_mixing(lambda s, d, a: scipy.stats.chi.cdf(s, d), x, d)

    def _sf(self, x, d):
        return self._over_mixing(lambda s, d, a: scipy.stats.chi.sf(s, d), x, d)

    def _pdf(self, x, d):
        return self._over_mixing(lambda s, d, a: scipy.stats.chi.pdf(s, d) / math.sqrt(a), x, d)

    def _munp(self, n, d):
        return self.mixing.moment(0.5 * n) * 2.0 ** (0.5 * n) * np.exp(sc.gammaln(0.5 * (d + n)) - sc.gammaln(0.5 * d))

    def _rvs(self, d, size=None, random_state=None):
        return np.sqrt(self.mixing.rvs(size, random_state) * random_state.chisquare(d, size=size))


class ScaleMixture(RadialMeasure, name="scale_mixture"):
    """Spectral measure of a registered Gaussian scale-mixture kernel (``kernel``, a name of
    ``varlab.theory.stationary_kernels(radial=True)``) that has no measure class of its own: w =
    sqrt(A) g / lengthscale, A from the kernel's mixing law, so that E cos <w, z> = E_A
    exp(-A |z|^2 / (2 l^2)) = k(|z| / l). The norm law (:class:`RadialScaleMixture`) has no fast
    ppf: ``fast_ppf = False``, and the QMC samplers refuse this measure.

    Examples
    --------
    >>> from varlab.spectral.stationary import ScaleMixture
    >>> m = ScaleMixture("rational_quadratic", lengthscale=2.0)
    >>> round(float(m.kernel_of_distance(2.0)), 12)          # (1 + 1/4)^-2
    0.64
    >>> m.rvs(4, 3, random_state=0).shape
    (4, 3)
    """

    fast_ppf = False

    def __init__(self, kernel="rational_quadratic", lengthscale=1.0):
        declared = stationary_kernel(kernel)
        if not declared.radial:
            raise ValueError(f"kernel {kernel!r} is not a radial kernel (a Gaussian scale mixture)")
        lengthscale = lengthscale_of(lengthscale)
        super().__init__(kernel=kernel, lengthscale=lengthscale)
        self.kernel_name, self.lengthscale = kernel, lengthscale
        self._declared = declared
        self._law = RadialScaleMixture(declared.mixing, a=0.0, name=f"radial_{kernel}")

    def _rvs(self, n, d, rng):
        g = rng.standard_normal((n, d))
        g *= np.sqrt(self._declared.mixing.rvs((n, 1), rng)) / self.lengthscale
        return g

    def _kernel_of_distance(self, r, d):
        return self._declared.kernel(distance=np.minimum(r / self.lengthscale, np.finfo(np.float64).max))

    def _norm_law(self, d):
        return self._law(d, scale=1.0 / self.lengthscale)

    def _logdensity(self, w):
        # l^d E_A N(l w; 0, A I), integrated over A's quantile as the norm law's cdf
        d = w.shape[-1]
        squared = np.square(_norm(w) * self.lengthscale).ravel()
        mixing = self._declared.mixing

        def integrand(u):
            a = mixing.ppf(u)
            with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
                return np.nan_to_num(np.exp(-0.5 * d * np.log(2.0 * math.pi * a) - 0.5 * squared / a),
                                     posinf=np.finfo(np.float64).max)

        value, _ = integrate.quad_vec(integrand, 0.0, 1.0, epsabs=0.0, epsrel=1e-10)
        with np.errstate(divide="ignore"):
            return (d * math.log(self.lengthscale) + np.log(value)).reshape(w.shape[:-1])

