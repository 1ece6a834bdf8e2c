"""Sympy re-derivation of Theorem 4 of paper 000 (the GCWS-based RBF estimator, Sec. 3).

Setting (000, Sec. 3): g = g(rho) = (1 - s)/(1 + s), s = sqrt((1 - rho)/2) (Eq. 22);
Xbar = Binomial(k, g)/k, the fraction of the k GCWS samples that collide; the estimator of the
RBF kernel exp(-gamma (1 - rho)) is h(Xbar) with h(x) = exp(-2 gamma ((1 - x)/(1 + x))^2)
(Eq. 23-24).

Two routes are derived here, both with sympy doing the algebra:

1. **Delta method (varlab's route).** Expand h(Xbar) in Taylor series about g and take
   expectations with the exact central moments of Xbar, built from the cumulants of one
   Bernoulli(g) draw (kappa_n(Xbar) = kappa_n(Bernoulli) / k^(n-1)). This gives
   E h(Xbar) = h(g) + b1/k + b2/k^2 + ... and Var h(Xbar) = V1/k + V2/k^2 + ... to any order:
   V1 = h'(g)^2 g(1 - g) is Eq. (26) (tested); b1 = h''(g) g(1 - g)/2 is the O(1/k) bias of
   Eq. (24), which the paper does not give (varlab's own; ``varlab.theory.gcws.asymptotic_bias``);
   V2 and b2 are varlab's too and are used by the tests to check the exact finite-k sums of
   ``varlab.theory.gcws`` at large k.

2. **The paper's route** (proof of Theorem 4). Treat Z = (1 - Xbar)/(1 + Xbar) as exactly
   normal with mean mu = (1 - g)/(1 + g) and variance sigma^2 = lambda^2/k,
   lambda^2 = 4 g (1 - g)/(1 + g)^4, compute E exp(t Z^2) by a Gaussian integral and expand
   Var exp(t Z^2) = E exp(2 t Z^2) - (E exp(t Z^2))^2 in 1/k; then t = -2 gamma.
   Each displayed step is reproduced (``paper_mgf``, ``paper_expansion_factors``,
   ``paper_variance_coefficient``) so a test can check it. Findings: every displayed step is
   right and the result equals Eq. (26). The model is only first-order right, though: the
   true mean of Z is mu + 2 g (1 - g)/((1 + g)^3 k) + O(1/k^2), not mu, so the same normal
   model would give a wrong O(1/k) bias (``paper_model_bias_coefficient``; it lacks the term
   -8 gamma mu g (1 - g) h(g)/(1 + g)^3). Eq. (24) states only O(1/k), so no stated result is
   affected; varlab's b1 comes from route 1.
"""
from __future__ import annotations

from functools import lru_cache

import sympy

from .parameters import parameter

g, gamma, k, rho = (parameter(name).symbol for name in ("g", "gamma", "k", "rho"))

__all__ = [
    "x", "t", "mu", "lam", "sigma", "s",
    "h", "g_of_rho", "in_rho", "in_s",
    "bernoulli_cumulants", "sample_mean_central_moments",
    "moment_expansion", "delta_method_variance", "delta_method_bias",
    "second_order_variance", "second_order_bias",
    "eq26_in_g", "eq26",
    "paper_mgf", "gaussian_mgf_integral", "paper_expansion_factors",
    "paper_variance_coefficient", "paper_model_bias_coefficient", "z_mean_correction",
    "paper_substitutions",
]

#: the argument of h, the Gaussian variable of the paper's proof, its parameter t
x = sympy.Symbol("x", real=True)
t = sympy.Symbol("t", negative=True)
#: mean, lambda (sigma^2 = lambda^2 / k) and sigma of the paper's normal model
mu = sympy.Symbol("mu", positive=True)
lam = sympy.Symbol("lambda", positive=True)
sigma = sympy.Symbol("sigma", positive=True)
#: s = sqrt((1 - rho)/2) in (0, 1): rho = 1 - 2 s^2, g = (1 - s)/(1 + s)
s = sympy.Symbol("s", positive=True)

_eps = sympy.Symbol("epsilon", positive=True)   # 1/k in series expansions
_u = sympy.Symbol("u", real=True)                # a generic variable (cumulant generating fn)
_z = sympy.Symbol("z", real=True)                # integration variable


def h(argument=x) -> sympy.Expr:
    """h(x) = exp(-2 gamma ((1 - x)/(1 + x))^2), the map from the GMM estimate to the RBF kernel.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.h()
    exp(-2*gamma*(1 - x)**2/(x + 1)**2)
    >>> gcws_derivation.h(1)                     # GMM = 1: the kernel is 1
    1
    """
    return sympy.exp(-2 * gamma * ((1 - argument) / (1 + argument)) ** 2)


def g_of_rho() -> sympy.Expr:
    """Eq. (22): g = (1 - sqrt((1 - rho)/2)) / (1 + sqrt((1 - rho)/2)).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.g_of_rho()
    (1 - sqrt(1/2 - rho/2))/(sqrt(1/2 - rho/2) + 1)
    >>> [gcws_derivation.g_of_rho().subs(gcws_derivation.rho, value) for value in (-1, 1)]
    [0, 1]
    """
    root = sympy.sqrt((1 - rho) / 2)
    return (1 - root) / (1 + root)


def in_rho(expr: sympy.Expr) -> sympy.Expr:
    """Substitute g = g(rho) (Eq. 22).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> g, rho = gcws_derivation.g, gcws_derivation.rho
    >>> gcws_derivation.in_rho(g).subs(rho, 1)
    1
    """
    return expr.subs(g, g_of_rho())


def in_s(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite an expression in (g or rho, gamma) with s = sqrt((1 - rho)/2) > 0:
    g = (1 - s)/(1 + s), rho = 1 - 2 s^2 (sqrt(s^2) = s as s > 0). Simplifies to rational
    functions of s times exponentials, which sympy compares reliably.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.in_s(gcws_derivation.g_of_rho())
    (1 - s)/(s + 1)
    >>> gcws_derivation.in_s(1 - gcws_derivation.rho)
    2*s**2
    """
    return sympy.simplify(expr.subs(g, (1 - s) / (1 + s)).subs(rho, 1 - 2 * s ** 2))


# ---------------------------------------------------------------------------------------------
# Route 1: moments of Xbar and the delta method
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def bernoulli_cumulants(order: int) -> tuple:
    """Cumulants kappa_1..kappa_order of Bernoulli(g), from log(1 - g + g e^u) by sympy.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.bernoulli_cumulants(3)           # mean, variance, third cumulant
    (g, -g*(g - 1), g*(g - 1)*(2*g - 1))
    """
    cgf = sympy.log(1 - g + g * sympy.exp(_u))
    series = sympy.series(cgf, _u, 0, order + 1).removeO()
    return tuple(sympy.factor(sympy.expand(series.coeff(_u, n) * sympy.factorial(n)))
                 for n in range(1, order + 1))


@lru_cache(maxsize=None)
def sample_mean_central_moments(order: int) -> tuple:
    """E (Xbar - g)^n for n = 0..order, exact, as polynomials in 1/k.

    kappa_n(Xbar) = kappa_n(Bernoulli)/k^(n-1); central moments follow from the cumulant
    generating function with the first cumulant removed: m(u) = exp(sum_{n>=2} kappa_n u^n/n!).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.sample_mean_central_moments(2)   # 1, 0, Var Xbar = g (1 - g) / k
    (1, 0, -g**2/k + g/k)
    """
    kappas = bernoulli_cumulants(order)
    cgf = sum(kappas[n - 1] / k ** (n - 1) * _u ** n / sympy.factorial(n) for n in range(2, order + 1))
    mgf = sympy.series(sympy.exp(cgf), _u, 0, order + 1).removeO()
    return tuple(sympy.expand(mgf.coeff(_u, n) * sympy.factorial(n)) for n in range(order + 1))


def _log_derivative_ratios(power: int, degree: int) -> list:
    """r_n(x) = (d^n/dx^n h(x)^power) / h(x)^power for n = 0..degree, rational in x (and gamma).

    h^power = exp(power phi) with phi = -2 gamma ((1 - x)/(1 + x))^2, so each derivative is
    h^power times a rational function: r_{n+1} = r_n' + power phi' r_n.
    """
    phi = -2 * gamma * ((1 - x) / (1 + x)) ** 2
    step = sympy.cancel(power * sympy.diff(phi, x))
    ratios = [sympy.Integer(1)]
    for _ in range(degree):
        ratios.append(sympy.cancel(sympy.diff(ratios[-1], x) + step * ratios[-1]))
    return ratios


@lru_cache(maxsize=None)
def moment_expansion(order: int = 1) -> dict:
    """E h(Xbar) and Var h(Xbar) as series in 1/k up to 1/k^order (in g and gamma).

    Taylor expansion of h and h^2 about g to degree 2 order (the central moments of degree
    > 2 order are O(1/k^(order+1))), with the derivatives written as h(g) (resp. h(g)^2) times
    rational functions of g. Returns {"mean": [c0, c1, ...], "variance": [0, v1, ...]} with
    E h(Xbar) = sum c_n / k^n + O(1/k^(order+1)), likewise for the variance.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> expansion = gcws_derivation.moment_expansion(1)
    >>> expansion["mean"][0]                             # E h(Xbar) -> h(g)
    exp(-2*gamma*(1 - g)**2/(g + 1)**2)
    >>> expansion["variance"][1] == gcws_derivation.delta_method_variance()
    True
    """
    degree = 2 * order
    # [1/k^p] E (Xbar - g)^n, for p = 0..order
    moment_coefficients = [sympy.Poly(sympy.expand(m.subs(k, 1 / _eps)), _eps)
                           for m in sample_mean_central_moments(degree)]

    def coefficient(n, p):
        return moment_coefficients[n].coeff_monomial(_eps ** p)

    def expectation(power):
        # E h(Xbar)^power / h(g)^power = sum_p c_p / k^p
        ratios = [r.subs(x, g) for r in _log_derivative_ratios(power, degree)]
        return [sympy.cancel(sympy.together(sum(ratios[n] * coefficient(n, p) / sympy.factorial(n)
                                                for n in range(degree + 1))))
                for p in range(order + 1)]

    mean = expectation(1)
    second = expectation(2)
    variance = [sympy.factor(sympy.cancel(sympy.together(
        second[p] - sum(mean[i] * mean[p - i] for i in range(p + 1))))) for p in range(order + 1)]
    h_g = h(g)
    return {"mean": [sympy.factor(c) * h_g for c in mean], "variance": [v * h_g ** 2 for v in variance]}


def delta_method_variance() -> sympy.Expr:
    """V1 = h'(g)^2 g (1 - g): k Var h(Xbar) -> V1 (in g, gamma).

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import gcws_derivation
    >>> v1 = gcws_derivation.delta_method_variance()
    >>> sympy.simplify(v1 - gcws_derivation.eq26_in_g())          # Eq. (26) of 000
    0
    """
    return moment_expansion(1)["variance"][1]


def delta_method_bias() -> sympy.Expr:
    """b1 = h''(g) g (1 - g)/2: k (E h(Xbar) - h(g)) -> b1 (in g, gamma); varlab's own.

    Examples
    --------
    >>> from varlab.theory import gcws, gcws_derivation
    >>> b1 = gcws_derivation.in_rho(gcws_derivation.delta_method_bias())
    >>> round(float(b1.subs({gcws_derivation.rho: 0.5, gcws_derivation.gamma: 1})), 10)
    -0.2274489974
    >>> round(gcws.asymptotic_bias(rho=0.5, gamma=1.0), 10)      # the closed form varlab evaluates
    -0.2274489974
    """
    return moment_expansion(1)["mean"][1]


def second_order_variance() -> sympy.Expr:
    """V2: Var h(Xbar) = V1/k + V2/k^2 + O(1/k^3) (in g, gamma); varlab's own.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> v2 = gcws_derivation.second_order_variance()             # a second-order expansion: ~5-8 s, once
    >>> round(float(v2.subs({gcws_derivation.g: 0.5, gcws_derivation.gamma: 1})), 10)
    0.2520317748
    """
    return moment_expansion(2)["variance"][2]


def second_order_bias() -> sympy.Expr:
    """b2: E h(Xbar) - h(g) = b1/k + b2/k^2 + O(1/k^3) (in g, gamma); varlab's own.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> b2 = gcws_derivation.second_order_bias()                 # shares second_order_variance's expansion (cached)
    >>> round(float(b2.subs({gcws_derivation.g: 0.5, gcws_derivation.gamma: 1})), 10)
    0.283771255
    """
    return moment_expansion(2)["mean"][2]


def eq26_in_g() -> sympy.Expr:
    """Eq. (26) with e^{-2 gamma (1 - rho)} written through g (Eq. 23).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.eq26_in_g()
    64*g*gamma**2*(1 - g)**3*exp(-4*gamma*(1 - g)**2/(g + 1)**2)/(g + 1)**6
    """
    return (64 * gamma ** 2 * g * (1 - g) ** 3 / (1 + g) ** 6
            * sympy.exp(-4 * gamma * ((1 - g) / (1 + g)) ** 2))


def eq26() -> sympy.Expr:
    """Eq. (26) as printed: e^{-2 gamma (1 - rho)} g (1 - g)^3/(1 + g)^6 64 gamma^2, g = g(rho).

    Examples
    --------
    >>> from varlab.theory import gcws, gcws_derivation
    >>> v_g = gcws_derivation.eq26().subs({gcws_derivation.rho: 0.5, gcws_derivation.gamma: 1})
    >>> round(float(v_g), 10), round(gcws.asymptotic_variance(rho=0.5, gamma=1.0), 10)
    (0.4138643713, 0.4138643713)
    """
    return in_rho(sympy.exp(-2 * gamma * (1 - rho)) * g * (1 - g) ** 3 / (1 + g) ** 6 * 64 * gamma ** 2)


# ---------------------------------------------------------------------------------------------
# Route 2: the paper's normal model
# ---------------------------------------------------------------------------------------------

def paper_mgf(tt=t) -> sympy.Expr:
    """The paper's closed form E exp(t X^2) = exp(mu^2 t/(1 - 2 sigma^2 t)) / sqrt(1 - 2 sigma^2 t)
    for X ~ N(mu, sigma^2).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.paper_mgf()
    exp(mu**2*t/(-2*sigma**2*t + 1))/sqrt(-2*sigma**2*t + 1)
    """
    return sympy.exp(mu ** 2 * tt / (1 - 2 * sigma ** 2 * tt)) / sympy.sqrt(1 - 2 * sigma ** 2 * tt)


def gaussian_mgf_integral() -> sympy.Expr:
    """E exp(t X^2), X ~ N(mu, sigma^2), t < 0, integrated by sympy (the proof's first display).

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import gcws_derivation
    >>> integral = gcws_derivation.gaussian_mgf_integral()      # sympy's Gaussian integral: ~5 s
    >>> sympy.simplify(integral - gcws_derivation.paper_mgf())  # the paper's closed form is right
    0
    """
    density = sympy.exp(-(_z - mu) ** 2 / (2 * sigma ** 2)) / (sympy.sqrt(2 * sympy.pi) * sigma)
    return sympy.simplify(sympy.integrate(sympy.exp(t * _z ** 2) * density, (_z, -sympy.oo, sympy.oo)))


def paper_expansion_factors() -> dict:
    """The four 1/k expansions of the proof's second display, derived (to O(1/k)):
    1/sqrt(1 - 4 sigma^2 t), 1/(1 - 2 sigma^2 t) (prefactors) and 1/(1 - 4 sigma^2 t),
    1/(1 - 2 sigma^2 t) (inside the exponents), with sigma^2 = lambda^2/k.
    The paper writes 1 + 2 lambda^2 t/k, 1 + 2 lambda^2 t/k, 1 + 4 lambda^2 t/k, 1 + 2 lambda^2 t/k.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> factors = gcws_derivation.paper_expansion_factors()
    >>> factors["prefactor_2t"], factors["exponent_2t"]
    (1 + 2*lambda**2*t/k, 1 + 4*lambda**2*t/k)
    """
    sig2 = lam ** 2 * _eps

    def first_order(expr):
        return sympy.series(expr, _eps, 0, 2).removeO().subs(_eps, 1 / k)

    return {
        "prefactor_2t": first_order(1 / sympy.sqrt(1 - 2 * sig2 * 2 * t)),
        "prefactor_t_squared": first_order(1 / (1 - 2 * sig2 * t)),
        "exponent_2t": first_order(1 / (1 - 2 * sig2 * 2 * t)),
        "exponent_t_squared": first_order(1 / (1 - 2 * sig2 * t)),
    }


def paper_variance_coefficient() -> sympy.Expr:
    """k Var exp(t Z^2) -> this, Z ~ N(mu, lambda^2/k) exactly: series of
    E exp(2 t Z^2) - (E exp(t Z^2))^2 in 1/k. The paper gets 4 mu^2 lambda^2 t^2 exp(2 mu^2 t).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.paper_variance_coefficient()
    4*lambda**2*mu**2*t**2*exp(2*mu**2*t)
    """
    model = paper_mgf().subs(sigma, lam * sympy.sqrt(_eps))
    variance = model.subs(t, 2 * t) - model ** 2
    return sympy.simplify(sympy.series(variance, _eps, 0, 2).removeO().coeff(_eps, 1))


def paper_model_bias_coefficient() -> sympy.Expr:
    """k (E exp(t Z^2) - exp(t mu^2)) -> this under the paper's normal model (mean of Z = mu):
    lambda^2 t (1 + 2 mu^2 t) exp(mu^2 t).

    With ``paper_substitutions`` this is NOT the true b1 (``delta_method_bias``): the model
    leaves out the shift of E Z (``z_mean_correction``), i.e. the term
    2 t mu h(g) * 2 g (1 - g)/(1 + g)^3 = -8 gamma g (1 - g)^2 h(g)/(1 + g)^4 of b1.
    (At rho = 0, gamma = 1 the model gives 0.2220 against b1 = 0.0381; the exact k * bias at
    k = 1e4 is 0.0381.) Theorem 4 states only O(1/k) for the bias, so no stated result is wrong.

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.paper_model_bias_coefficient()
    lambda**2*t*(2*mu**2*t + 1)*exp(mu**2*t)
    """
    model = paper_mgf().subs(sigma, lam * sympy.sqrt(_eps))
    return sympy.simplify(sympy.series(model - sympy.exp(t * mu ** 2), _eps, 0, 2).removeO().coeff(_eps, 1))


def z_mean_correction() -> sympy.Expr:
    """k (E Z - mu) -> this, for Z = (1 - Xbar)/(1 + Xbar): 2 g (1 - g)/(1 + g)^3 (not 0).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> gcws_derivation.z_mean_correction()
    -2*g*(g - 1)/(g + 1)**3
    """
    z_of_x = (1 - x) / (1 + x)
    return sympy.factor(sympy.diff(z_of_x, x, 2).subs(x, g) * g * (1 - g) / 2)


def paper_substitutions() -> dict:
    """t = -2 gamma, mu = (1 - g)/(1 + g), lambda = 2 sqrt(g (1 - g))/(1 + g)^2 (the proof's last step).

    Examples
    --------
    >>> from varlab.theory import gcws_derivation
    >>> substitutions = gcws_derivation.paper_substitutions()
    >>> substitutions[gcws_derivation.t], substitutions[gcws_derivation.mu]
    (-2*gamma, (1 - g)/(g + 1))
    """
    return {t: -2 * gamma, mu: (1 - g) / (1 + g), lam: 2 * sympy.sqrt(g * (1 - g)) / (1 + g) ** 2}
