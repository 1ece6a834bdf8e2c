"""Sympy re-derivations for paper 003 (Thm 1, Cor. 1) and varlab's own results on moment matching.

t = c'w ~ N(0, y), y = s^2 (003, Eq. 3); f = exp(-i t) (Eq. 5); controls g1 = -i t and
g2 = -(t^2 - y)/2 (Eq. 10). Every expectation is one Gaussian integral done by sympy
(``gaussian_mean``). For complex f and real coefficients the variance of f - b1 g1 - b2 g2 is
E[(Re)^2] + E[(Im)^2] of the centred parts; minimising it over (b1, b2) re-derives Thm 1.

* ``optimal_coefficients(features)``: (beta1*, beta2*) -- complex: Thm 1 (both e^{-y/2});
  cosine (the real part only): beta1* = 0, beta2* = e^{-y/2} (varlab's own).
* ``optimal_variance(features)``: the per-sample variance at the optimum: Cor. 1, Eq. (12) for
  complex features; its real-cosine analogue.
* ``squared_correlations()``: |Cov(f, g_i)|^2 / (Var f Var g_i) for i = 1, 2, to compare with the
  paper's rho1^2 and rho2^2 (the first equals rho1^2; the second is rho2^2 / 2).
* ``sphere_moment_series(n, order)``: E[cos(a u)] for u the first coordinate of a uniform point
  of S^{n-1}, as a series in a, against the 0F1 series used by varlab's exact MM law.
* ``mm_bias_coefficient(divisor)``: lim m (E[E_MM] - k) / k (varlab's own): -y^2/4 for divisor
  m, y/2 - y^2/4 for divisor m - 1; E_MM is biased at order 1/m.
* Random-phase features sqrt2 cos(w'x + b), b ~ U[0, 2 pi) (varlab's own): with a = w'x + b,
  uniform mod 2 pi and independent of w, one product is ``phase_product()`` = 2 cos(a) cos(a - t).
  ``phase_noise_moments()``: its part beyond cos t has conditional mean 0 and second moment 1/2
  given w (so i.i.d. phases add 1/(2m) to the variance of any frequency sampler);
  ``phase_feature_variance()``: 1 - e^{-y} + e^{-2y}/2 = 1 + k(2c)/2 - k(c)^2 per feature.
"""
from __future__ import annotations

from functools import lru_cache

import sympy

from .parameters import parameter

__all__ = ["y", "t", "gaussian_mean", "variance_of_controlled", "optimal_coefficients",
           "optimal_variance", "squared_correlations", "paper_rho_squared",
           "sphere_moment_series", "hyp0f1_series", "mm_bias_coefficient", "in_s", "a",
           "uniform_phase_mean", "phase_product", "phase_noise_moments", "phase_feature_variance"]

s = parameter("scaled_distance").symbol
y = sympy.Symbol("y", positive=True)            # y = s^2 = c' Sigma c
t = sympy.Symbol("t", real=True)
a = sympy.Symbol("a", real=True)                # a = w'x + b, the phase of one random-phase feature
_b1, _b2 = sympy.symbols("beta1 beta2", real=True)


def in_s(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with y = s^2 (the symbol of the declared ``scaled_distance``), to compare with
    ``Formula.expr``.

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.in_s(1 - mmd.y)
    1 - scaled_distance**2
    """
    return expr.subs(y, s ** 2)


@lru_cache(maxsize=None)
def gaussian_mean(expr: sympy.Expr) -> sympy.Expr:
    """E[expr(t)] for t ~ N(0, y) (one sympy integral).

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.gaussian_mean(mmd.t ** 2), mmd.gaussian_mean(sympy.cos(mmd.t))     # E t^2 = y, E cos t = k
    (y, exp(-y/2))
    """
    density = sympy.exp(-t ** 2 / (2 * y)) / sympy.sqrt(2 * sympy.pi * y)
    return sympy.simplify(sympy.integrate(expr * density, (t, -sympy.oo, sympy.oo)))


def variance_of_controlled(features: str = "complex") -> sympy.Expr:
    """Var of f - beta1 g1 - beta2 g2 (complex) or of its real part (cosine), per sample.

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.variance_of_controlled("cosine")                 # a quadratic in beta2 (~5 s of integrals, once)
    beta2**2*y**2/2 - beta2*y**2*exp(-y/2) + 1/2 - exp(-y) + exp(-2*y)/2
    """
    real = sympy.cos(t) + _b2 * (t ** 2 - y) / 2            # Re(f - b1 g1 - b2 g2)
    imaginary = -sympy.sin(t) + _b1 * t                      # Im(...)
    k = gaussian_mean(sympy.cos(t))
    value = gaussian_mean(sympy.expand((real - k) ** 2))
    if features == "complex":
        value += gaussian_mean(sympy.expand(imaginary ** 2))
    return sympy.expand(value)


def optimal_coefficients(features: str = "complex") -> tuple:
    """(beta1*, beta2*) minimising ``variance_of_controlled`` (003, Thm 1 for complex).

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.optimal_coefficients("complex")                 # Thm 1: both e^{-y/2}
    (exp(-y/2), exp(-y/2))
    >>> mmd.optimal_coefficients("cosine")
    (0, exp(-y/2))
    """
    V = variance_of_controlled(features)
    if features == "complex":
        solution = sympy.solve([sympy.diff(V, _b1), sympy.diff(V, _b2)], [_b1, _b2], dict=True)[0]
        return sympy.simplify(solution[_b1]), sympy.simplify(solution[_b2])
    return sympy.Integer(0), sympy.simplify(sympy.solve(sympy.diff(V, _b2), _b2)[0])


def optimal_variance(features: str = "complex") -> sympy.Expr:
    """The per-sample variance at the optimal coefficients (Eq. 12 times m, for complex).

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import moment_matching, parameter, moment_matching_derivation as mmd
    >>> per_sample = moment_matching.cv_optimal_variance.expr.subs(parameter("m").symbol, 1)   # m = 1
    >>> sympy.simplify(mmd.in_s(mmd.optimal_variance("complex")) - per_sample)
    0
    """
    b1, b2 = optimal_coefficients(features)
    return sympy.simplify(variance_of_controlled(features).subs({_b1: b1, _b2: b2}))


def squared_correlations() -> tuple:
    """(|corr(f, g1)|^2, |corr(f, g2)|^2) for complex f = e^{-it} (Cov(f, g) = E[(f - Ef) conj g]).

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.squared_correlations()                         # rho1^2 and rho2^2 / 2 of Cor. 1
    (y/(exp(y) - 1), y**2/(2*exp(y) - 2))
    """
    k = gaussian_mean(sympy.cos(t))
    var_f = 1 - k ** 2
    cov1 = gaussian_mean(sympy.sin(t) * t)                 # E[e^{-it} conj(-i t)] = E[t sin t] (real)
    cov2 = gaussian_mean(sympy.cos(t) * (-(t ** 2 - y) / 2))
    var1, var2 = gaussian_mean(t ** 2), gaussian_mean((t ** 2 - y) ** 2 / 4)
    return sympy.simplify(cov1 ** 2 / (var_f * var1)), sympy.simplify(cov2 ** 2 / (var_f * var2))


def paper_rho_squared() -> tuple:
    """The paper's (rho1^2, rho2^2) of Cor. 1, in y.

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> rho1, rho2 = mmd.paper_rho_squared()
    >>> rho1
    y*exp(-y)/(1 - exp(-y))
    >>> sympy.simplify(rho2 / rho1)
    y
    """
    e = sympy.exp(-y)
    return e * y / (1 - e), e * y ** 2 / (1 - e)


def sphere_moment_series(n: int, order: int, a=sympy.Symbol("a", positive=True)) -> sympy.Expr:
    """E[cos(a u)] to a^(2 order), u = first coordinate of a uniform point of S^{n-1} (n >= 2),
    from E[u^(2j)] = (1/2)_j / (n/2)_j (the Dirichlet moments of u^2 ~ Beta(1/2, (n-1)/2)).

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.sphere_moment_series(3, 2)                     # sin(a)/a to a^4
    a**4/120 - a**2/6 + 1
    >>> mmd.sphere_moment_series(3, 2) == mmd.hyp0f1_series(3, 2)
    True
    """
    half = sympy.Rational(1, 2)
    terms = [(-1) ** j * a ** (2 * j) / sympy.factorial(2 * j)
             * sympy.rf(half, j) / sympy.rf(sympy.Rational(n, 2), j) for j in range(order + 1)]
    return sympy.expand(sum(terms))


def hyp0f1_series(n: int, order: int, a=sympy.Symbol("a", positive=True)) -> sympy.Expr:
    """0F1(; n/2; -a^2/4) to a^(2 order): the form of the exact MM law.

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.hyp0f1_series(3, 2)
    a**4/120 - a**2/6 + 1
    """
    return sympy.expand(sum((-a ** 2 / 4) ** j / (sympy.rf(sympy.Rational(n, 2), j) * sympy.factorial(j))
                            for j in range(order + 1)))


def mm_bias_coefficient(divisor: str = "m-1") -> sympy.Expr:
    """lim_{m -> inf} m (E[E_MM] / k - 1) in y (varlab's own).

    E[E_MM] = sum_j (-z)^j / j! prod_{i<j} (1 + i/b)^{-1} with b = (m - 1)/2 and z = x/b, x the
    0F1 argument; to first order in 1/b the product is 1 - j(j - 1)/(2b), and
    sum_j j(j-1)(-z)^j/j! = z^2 e^{-z}. With z = y D (1 - 1/m) ... (see module docstring):
    divisor m gives z = y/2, divisor m - 1 gives z = y/2 - y/(2m).

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.mm_bias_coefficient("m")                       # a sympy summation and series: ~5-10 s
    -y**2/4
    """
    j = sympy.Symbol("j", integer=True, nonnegative=True)
    eps = sympy.Symbol("epsilon", positive=True)             # 1/m
    z = y / 2 if divisor == "m" else y / 2 - eps * y / 2
    # first order in eps: e^{-z} - (1/b) (1/2) z^2 e^{-z}, 1/b = 2/(m - 1) = 2 eps + O(eps^2)
    curvature = sympy.summation(j * (j - 1) * (-z) ** j / sympy.factorial(j), (j, 0, sympy.oo))
    mean = sympy.exp(-z) - eps * curvature
    k = sympy.exp(-y / 2)
    return sympy.simplify(sympy.series(mean / k - 1, eps, 0, 2).removeO().coeff(eps, 1))


def uniform_phase_mean(expr: sympy.Expr) -> sympy.Expr:
    """E[expr(a)] for a ~ U[0, 2 pi) (one sympy integral; t is held fixed).

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.uniform_phase_mean(sympy.cos(mmd.a) ** 2)
    1/2
    """
    integrand = sympy.expand(sympy.expand_trig(expr))
    return sympy.simplify(sympy.integrate(integrand, (a, 0, 2 * sympy.pi)) / (2 * sympy.pi))


def phase_product() -> sympy.Expr:
    """sqrt2 cos(w'x + b) sqrt2 cos(w'y + b) = 2 cos(a) cos(a - t), a = w'x + b, t = w'(x - y).

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.phase_product()
    2*cos(a)*cos(a - t)
    """
    return 2 * sympy.cos(a) * sympy.cos(a - t)


def phase_noise_moments() -> tuple:
    """(E_a[n], E_a[n^2]) of n = phase_product() - cos t given w (i.e. given t and every other
    function of the frequencies): (0, 1/2). With independent phases the cross terms vanish, so
    (1/m) sum_j products has the variance of (1/m) sum_j cos t_j plus 1/(2m), for any sampler.

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.phase_noise_moments()
    (0, 1/2)
    """
    noise = phase_product() - sympy.cos(t)
    return uniform_phase_mean(noise), uniform_phase_mean(noise ** 2)


@lru_cache(maxsize=None)
def phase_feature_variance() -> sympy.Expr:
    """Var of one random-phase product for i.i.d. Gaussian w (varlab's own), in y.

    Examples
    --------
    >>> from varlab.theory import moment_matching_derivation as mmd
    >>> mmd.phase_feature_variance()                       # 1 + k(2c)/2 - k(c)^2
    1 - exp(-y) + exp(-2*y)/2
    """
    second = gaussian_mean(sympy.expand(uniform_phase_mean(phase_product() ** 2)))
    return sympy.simplify(second - gaussian_mean(sympy.cos(t)) ** 2)
