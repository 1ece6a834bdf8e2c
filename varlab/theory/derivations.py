"""Sympy re-derivations of the closed forms in ``theory.rff`` and ``theory.nrff``.

Paper 000 (Sec. 2, proofs of Theorems 2 and 3) derives the moments of random Fourier features
from Gaussian integrals and the variance of normalized RFF by the delta method. This module
redoes those steps with sympy, so that a test can assert that each derivation equals the closed
form that varlab evaluates; it also derives what the paper leaves out (the no-phase variance and
the finite-k terms of NRFF), labelled as varlab's own.

Setting: x, y standard bivariate normal with E(xy) = rho, w ~ U(0, 2 pi) independent,
theta1 = sqrt(gamma) x + w, theta2 = sqrt(gamma) y + w, X = sqrt2 cos(theta1),
Y = sqrt2 cos(theta2). NRFF with k samples is f(mean XY, mean X^2, mean Y^2) with
f(a, b, c) = a / sqrt(b c).

Only sympy does the calculus: the 1-d Gaussian integral of cos(a x + phi) against the N(0, 1)
density and the integral of cos(n w + phi) over [0, 2 pi] are computed once by
``sympy.integrate`` (``_normal_cos_mean``, ``_uniform_cos_mean``) and every expectation below is
built from them by substitution. Each derivation takes well under a second.

Results are sympy expressions in the symbols ``rho`` (real) and ``gamma`` (positive) of
``varlab.theory.parameters`` (so they compare directly with ``Formula.expr``), or, where stated,
in ``t = exp(-gamma (1 - rho))`` (the symbol ``T`` below, positive).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import comb

import sympy

from .parameters import parameter

rho, gamma = parameter("rho").symbol, parameter("gamma").symbol

__all__ = [
    "T", "to_t", "from_t",
    "gaussian_uniform_cos_mean", "cos_product_mean", "phase_characteristic_function",
    "rff_moment", "expectation",
    "rff_mean", "rff_mean_from_moments", "no_phase_mean", "rff_variance", "no_phase_variance",
    "feature_covariance", "feature_third_cumulant", "normalizer_derivatives", "gaussian_moment",
    "delta_method_coefficients", "uncentered_correlation_coefficients",
    "nrff_asymptotic_variance", "nrff_bias_coefficient", "nrff_mse_second_order_coefficient",
]

#: t = exp(-gamma (1 - rho)), the RBF kernel value; every NRFF moment is a polynomial in t.
T = sympy.Symbol("t", positive=True)

# integration variables and generic parameters (private)
_x = sympy.Symbol("x", real=True)
_w = sympy.Symbol("w", real=True)
_a = sympy.Symbol("a", real=True)
_phi = sympy.Symbol("phi", real=True)
_n = sympy.Symbol("n", integer=True)
_p = sympy.Symbol("p", integer=True)
_q = sympy.Symbol("q", integer=True)

#: the sample vector U = (XY, X^2, Y^2) whose mean NRFF is a function of
_X, _Y = sympy.symbols("X Y", real=True)
_U = (_X * _Y, _X ** 2, _Y ** 2)


def to_t(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite an expression in (rho, gamma) in terms of t = exp(-gamma (1 - rho)) where possible.

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import derivations
    >>> derivations.to_t(sympy.exp(-2 * derivations.gamma * (1 - derivations.rho)))
    t**2
    """
    return sympy.expand(sympy.expand(expr).subs(rho, 1 + sympy.log(T) / gamma))


def from_t(expr: sympy.Expr) -> sympy.Expr:
    """Substitute t = exp(-gamma (1 - rho)).

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.from_t(derivations.T ** 2)
    exp(-2*gamma*(1 - rho))
    """
    return expr.subs(T, sympy.exp(-gamma * (1 - rho)))


# ---------------------------------------------------------------------------------------------
# The two elementary integrals (computed by sympy once)
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _normal_cos_mean() -> sympy.Expr:
    """E cos(a x + phi) for x ~ N(0, 1): sympy's integral against exp(-x^2/2)/sqrt(2 pi).

    This is the first of the three integrals listed at the start of the proof of Theorem 2
    (there with phi = 0); sympy returns exp(-a^2/2) cos(phi).
    """
    density = sympy.exp(-_x ** 2 / 2) / sympy.sqrt(2 * sympy.pi)
    return sympy.simplify(sympy.integrate(sympy.cos(_a * _x + _phi) * density, (_x, -sympy.oo, sympy.oo)))


@lru_cache(maxsize=None)
def _uniform_cos_mean() -> sympy.Expr:
    """E cos(n w + phi) for w ~ U(0, 2 pi) and integer n: a Piecewise, cos(phi) if n = 0 else 0."""
    return sympy.integrate(sympy.cos(_n * _w + _phi), (_w, 0, 2 * sympy.pi)) / (2 * sympy.pi)


def _tidy(expr: sympy.Expr) -> sympy.Expr:
    """Expand and merge products of exponentials (keeps exp form; no cosh from simplify)."""
    return sympy.powsimp(sympy.expand(expr), combine="exp")


def _normal_cos(coefficient, phase) -> sympy.Expr:
    return _normal_cos_mean().subs({_a: coefficient, _phi: phase}, simultaneous=True)


def _uniform_cos(frequency, phase) -> sympy.Expr:
    return _uniform_cos_mean().subs({_n: frequency, _phi: phase}, simultaneous=True)


def gaussian_uniform_cos_mean(alpha, beta, n, phase=0) -> sympy.Expr:
    """E cos(alpha x + beta y + n w + phase), integrating z, x and w in turn.

    Step 1 (proof of Theorem 2, "complete the square"): y = rho x + sqrt(1 - rho^2) z with
    z ~ N(0, 1) independent of x, so the argument is
    sqrt(1 - rho^2) beta z + [(alpha + rho beta) x + n w + phase];
    step 2: the z integral; step 3: the x integral; step 4: the w integral. ``n`` must be an
    integer (a Python int or an integer sympy symbol, giving a Piecewise in n).
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.gaussian_uniform_cos_mean(1, 0, 0)      # E cos(x) = e^{-1/2} (a sympy integral: ~4 s once)
    exp(-1/2)
    >>> derivations.gaussian_uniform_cos_mean(1, 0, 1)      # a uniform phase averages it out
    0
    """
    rest_after_z = (alpha + rho * beta) * _x + _n * _w + _phi          # the bracket above
    after_z = _normal_cos(sympy.sqrt(1 - rho ** 2) * beta, rest_after_z)
    # after_z = exp(-(1-rho^2) beta^2 / 2) cos(rest_after_z); integrate x out of the cosine factor
    factor, cosine = after_z.as_independent(_x)
    assert cosine.func is sympy.cos, after_z
    after_x = factor * _normal_cos(alpha + rho * beta, _n * _w + _phi)
    factor, cosine = after_x.as_independent(_w)
    assert cosine.func is sympy.cos, after_x
    after_w = factor * _uniform_cos(_n, _phi)
    return after_w.subs({_n: n, _phi: phase}, simultaneous=True)


def cos_product_mean(c1, c2, b1, b2) -> sympy.Expr:
    """E[cos(c1 x + b1 w) cos(c2 y + b2 w)] (the "general integral" of the proof of Theorem 2).

    cos A cos B = [cos(A + B) + cos(A - B)] / 2, each term by ``gaussian_uniform_cos_mean``.
    For integers b1 = b2 >= 1 this is exp(-(c1^2 + c2^2 - 2 c1 c2 rho) / 2) / 2, for
    b1 != b2 (both >= 1) it is 0, and for b1 = b2 = 0 both terms survive.
    

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import derivations
    >>> root = sympy.sqrt(derivations.gamma)
    >>> derivations.cos_product_mean(root, root, 1, 1)      # half of Eq. (16)
    exp(gamma*rho - gamma)/2
    >>> derivations.cos_product_mean(root, root, 1, 2)
    0
    """
    plus = gaussian_uniform_cos_mean(c1, c2, b1 + b2)
    minus = gaussian_uniform_cos_mean(c1, -c2, b1 - b2)
    return _tidy((plus + minus) / 2)


@lru_cache(maxsize=None)
def _phase_characteristic_generic() -> sympy.Expr:
    """E exp(i (p theta1 + q theta2)) for integer symbols p, q, from the Gaussian-integral route.

    p theta1 + q theta2 = sqrt(gamma) p x + sqrt(gamma) q y + (p + q) w, and
    exp(i u) = cos u + i cos(u - pi/2).
    """
    alpha, beta = sympy.sqrt(gamma) * _p, sympy.sqrt(gamma) * _q
    real = gaussian_uniform_cos_mean(alpha, beta, _p + _q)
    imaginary = gaussian_uniform_cos_mean(alpha, beta, _p + _q, -sympy.pi / 2)
    return real + sympy.I * imaginary


def phase_characteristic_function(p=None, q=None) -> sympy.Expr:
    """E exp(i (p theta1 + q theta2)) = [p + q = 0] exp(-p^2 gamma (1 - rho)).

    With no arguments: the Piecewise in integer symbols p, q as derived. With integers: its value,
    which is what every moment below is built from.
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.phase_characteristic_function(1, -1), derivations.phase_characteristic_function(1, 1)
    (exp(gamma*rho - gamma), 0)
    """
    generic = _phase_characteristic_generic()
    if p is None and q is None:
        return generic
    value = generic.subs({_p: p, _q: q}, simultaneous=True)
    return _tidy(value)


@lru_cache(maxsize=None)
def rff_moment(a: int, b: int) -> sympy.Expr:
    """E[X^a Y^b] for X = sqrt2 cos(theta1), Y = sqrt2 cos(theta2) (any integers a, b >= 0).

    X = (e^{i theta1} + e^{-i theta1}) / sqrt2, so by the binomial theorem
    E[X^a Y^b] = 2^{-(a+b)/2} sum_{j,l} C(a,j) C(b,l) E exp(i((2j-a) theta1 + (2l-b) theta2)).
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.rff_moment(1, 1)                        # E[XY], Eq. (16)
    exp(gamma*rho - gamma)
    >>> derivations.rff_moment(2, 0)                        # E[X^2]
    1
    """
    total = sympy.Integer(0)
    for j in range(a + 1):
        for l in range(b + 1):
            total += comb(a, j) * comb(b, l) * phase_characteristic_function(2 * j - a, 2 * l - b)
    result = _tidy(total / sympy.sqrt(2) ** (a + b))
    assert sympy.im(result) == 0, result
    return result


def expectation(polynomial: sympy.Expr) -> sympy.Expr:
    """E of a polynomial in the private symbols X, Y (monomial by monomial via ``rff_moment``).

    Examples
    --------
    >>> import sympy
    >>> from varlab.theory import derivations
    >>> X, Y = sympy.symbols("X Y", real=True)              # equal to the module's X, Y
    >>> derivations.expectation(X ** 2 + Y ** 2)
    2
    >>> derivations.expectation(X * Y)
    exp(-gamma)*exp(gamma*rho)
    """
    return _expectation_with(rff_moment, polynomial)


# ---------------------------------------------------------------------------------------------
# Theorem 2 and the no-phase variance
# ---------------------------------------------------------------------------------------------

def rff_mean() -> sympy.Expr:
    """Eq. (16): E[sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)] = 2 x general integral.

    Examples
    --------
    >>> from varlab.theory import derivations, rff
    >>> derivations.rff_mean()
    exp(gamma*rho - gamma)
    >>> (derivations.rff_mean() - rff.mean.expr).simplify()          # the closed form varlab evaluates
    0
    """
    return _tidy(2 * cos_product_mean(sympy.sqrt(gamma), sympy.sqrt(gamma), 1, 1))


def rff_mean_from_moments() -> sympy.Expr:
    """Eq. (16) again, as E[XY] from the phase characteristic function.

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.rff_mean_from_moments()
    exp(gamma*rho - gamma)
    """
    return rff_moment(1, 1)


def no_phase_mean() -> sympy.Expr:
    """Eq. (17): E[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] (general integral with b1 = b2 = 0).

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.no_phase_mean()
    exp(-gamma*rho - gamma)/2 + exp(gamma*rho - gamma)/2
    """
    return _tidy(cos_product_mean(sympy.sqrt(gamma), sympy.sqrt(gamma), 0, 0))


def rff_variance() -> sympy.Expr:
    """Eq. (18): Var[XY] = E[X^2 Y^2] - E[XY]^2 (proof of Theorem 2, "second moment").

    Examples
    --------
    >>> from varlab.theory import derivations, rff
    >>> derivations.rff_variance()
    -exp(2*gamma*rho - 2*gamma) + exp(4*gamma*rho - 4*gamma)/2 + 1
    >>> (derivations.rff_variance() - rff.variance.expr).simplify()
    0
    """
    return _tidy(rff_moment(2, 2) - rff_moment(1, 1) ** 2)


def no_phase_variance() -> sympy.Expr:
    """varlab's own: Var[cos(sqrt(gamma) x) cos(sqrt(gamma) y)].

    cos^2 A cos^2 B = [1 + cos 2A + cos 2B + cos 2A cos 2B] / 4; E cos 2A = E cos 2B =
    exp(-2 gamma) and E cos 2A cos 2B is the general integral with c = 2 sqrt(gamma), b = 0.
    Equals [(1 - e^{-2 gamma (1 - rho)})^2 + (1 - e^{-2 gamma (1 + rho)})^2] / 8.
    

    Examples
    --------
    >>> from varlab.theory import derivations, rff
    >>> (derivations.no_phase_variance() - rff.no_phase_variance.expr).simplify()
    0
    """
    c = 2 * sympy.sqrt(gamma)
    second = (1 + gaussian_uniform_cos_mean(c, 0, 0) + gaussian_uniform_cos_mean(0, c, 0)
              + cos_product_mean(c, c, 0, 0)) / 4
    return _tidy(second - no_phase_mean() ** 2)


# ---------------------------------------------------------------------------------------------
# Theorem 3 and the finite-k terms of NRFF (delta method)
# ---------------------------------------------------------------------------------------------

def _expectation_with(moment, polynomial: sympy.Expr) -> sympy.Expr:
    poly = sympy.Poly(sympy.expand(polynomial), _X, _Y)
    return sympy.expand(sum(c * moment(int(i), int(j)) for (i, j), c in poly.terms()))


@lru_cache(maxsize=None)
def _rff_moment_in_t(a: int, b: int) -> sympy.Expr:
    return to_t(rff_moment(a, b))


def gaussian_moment(a: int, b: int) -> sympy.Expr:
    """E[x^a y^b] for standard bivariate normal x, y with E(xy) = rho (Isserlis, via y = rho x +
    sqrt(1 - rho^2) z and E z^{2m} = (2m - 1)!!). Used to check the delta-method machinery.

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.gaussian_moment(2, 2), derivations.gaussian_moment(1, 3)     # E x^2 y^2, E x y^3
    (2*rho**2 + 1, 3*rho)
    """
    zz = sympy.Symbol("z", real=True)

    def normal(m):
        return 0 if m % 2 else sympy.factorial2(m - 1)

    poly = sympy.Poly(sympy.expand(_x ** a * (rho * _x + sympy.sqrt(1 - rho ** 2) * zz) ** b), _x, zz)
    return sympy.expand(sum(c * normal(i) * normal(j) for (i, j), c in poly.terms()))


def feature_covariance(moment=_rff_moment_in_t) -> sympy.Matrix:
    """Sigma: the covariance of one sample U = (XY, X^2, Y^2) from the moments E[X^a Y^b].

    For RFF (the default; entries in t) it uses E[X^2 Y^2], E[X^4], E[X^3 Y], E[X Y^3], as in
    the proof of Theorem 3.
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.feature_covariance(derivations.gaussian_moment)    # U = (xy, x^2, y^2) on Gaussian data
    Matrix([
    [rho**2 + 1,    2*rho,    2*rho],
    [     2*rho,        2, 2*rho**2],
    [     2*rho, 2*rho**2,        2]])
    """
    mean = [_expectation_with(moment, u) for u in _U]
    return sympy.Matrix(3, 3, lambda i, j: sympy.expand(
        _expectation_with(moment, _U[i] * _U[j]) - mean[i] * mean[j]))


def feature_third_cumulant(moment=_rff_moment_in_t) -> dict:
    """kappa3[i, j, l] = E[(U_i - mu_i)(U_j - mu_j)(U_l - mu_l)] (moments up to order 6).

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> kappa3 = derivations.feature_third_cumulant(derivations.gaussian_moment)    # Gaussian data: < 1 s
    >>> kappa3[0, 0, 0], kappa3[1, 1, 1]                  # third central moments of xy and x^2
    (2*rho**3 + 6*rho, 8)
    """
    mean = [_expectation_with(moment, u) for u in _U]
    centred = [_U[i] - mean[i] for i in range(3)]
    return {(i, j, l): _expectation_with(moment, centred[i] * centred[j] * centred[l])
            for i, j, l in product(range(3), repeat=3)}


def normalizer_derivatives(mean_xy=T):
    """Gradient, Hessian and third-derivative tensor of f(a, b, c) = a / sqrt(b c) at (mean_xy, 1, 1).

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> gradient, hessian, third = derivations.normalizer_derivatives()
    >>> gradient, hessian[1, 1], third[1, 1, 1]
    ([1, -t/2, -t/2], 3*t/4, -15*t/8)
    """
    a, b, c = sympy.symbols("a b c", positive=True)
    f = a / sympy.sqrt(b * c)
    variables = (a, b, c)
    point = {a: mean_xy, b: 1, c: 1}
    gradient = [sympy.diff(f, v).subs(point) for v in variables]
    hessian = sympy.Matrix(3, 3, lambda i, j: sympy.diff(f, variables[i], variables[j]).subs(point))
    third = {(i, j, l): sympy.diff(f, variables[i], variables[j], variables[l]).subs(point)
             for i, j, l in product(range(3), repeat=3)}
    return gradient, hessian, third


def delta_method_coefficients(moment=_rff_moment_in_t, mean_xy=T) -> dict:
    """The 1/k expansion of f(sample mean of U), f(a, b, c) = a / sqrt(b c), E X^2 = E Y^2 = 1.

    Returns {"V": ..., "b1": ..., "c2": ...} with
        E f = f(mu) + b1 / k + O(1/k^2),   E (f - f(mu))^2 = V / k + c2 / k^2 + O(1/k^3).
    With d the deviation of the sample mean of U from mu = (mean_xy, 1, 1),
    f(mu + d) - f(mu) = g.d + d'Hd/2 + T[d]/6 + ..., E[d_i d_j] = Sigma_ij / k,
    E[d_i d_j d_l] = kappa3_ijl / k^2 and
    E[d_i d_j d_l d_m] = (Sigma_ij Sigma_lm + Sigma_il Sigma_jm + Sigma_im Sigma_jl) / k^2 + O(1/k^3):
      V  = g' Sigma g                                        ((g.d)^2 contributes only 1/k)
      b1 = tr(H Sigma) / 2
      c2 = g_i H_jl kappa3_ijl                               (2 E[(g.d)(d'Hd/2)])
         + [tr(H Sigma)^2 + 2 tr(H Sigma H Sigma)] / 4        (E[(d'Hd/2)^2]; includes b1^2)
         + g_i Sigma_ij T_jlm Sigma_lm                        (2 E[(g.d) T[d]/6], 3 equal pairings)
    Every other term of the squared expansion is a moment of order >= 5 of d, O(1/k^3).
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.delta_method_coefficients(derivations.gaussian_moment, derivations.rho)["b1"]
    rho*(rho - 1)*(rho + 1)/2
    """
    gradient, hessian, third = normalizer_derivatives(mean_xy)
    sigma = feature_covariance(moment)
    kappa3 = feature_third_cumulant(moment)
    r3 = range(3)
    grad = sympy.Matrix(gradient)
    variance = (grad.T * sigma * grad)[0, 0]
    hs = hessian * sigma
    bias = hs.trace() / 2
    skew_term = sum(gradient[i] * hessian[j, l] * kappa3[i, j, l] for i in r3 for j in r3 for l in r3)
    quadratic_term = (hs.trace() ** 2 + 2 * (hs * hs).trace()) / 4
    cubic_term = sum(gradient[i] * sigma[i, j] * third[j, l, m] * sigma[l, m]
                     for i in r3 for j in r3 for l in r3 for m in r3)
    return {name: sympy.factor(sympy.expand(value)) for name, value in
            (("V", variance), ("b1", bias), ("c2", skew_term + quadratic_term + cubic_term))}


@lru_cache(maxsize=None)
def _nrff_coefficients() -> dict:
    return delta_method_coefficients(_rff_moment_in_t, T)


def nrff_asymptotic_variance(in_t: bool = False) -> sympy.Expr:
    """Eq. (20) by the delta method: V_n = grad f' Sigma grad f (proof of Theorem 3).

    grad f at (t, 1, 1) is (1, -t/2, -t/2), so V_n = E(XY - t (X^2 + Y^2) / 2)^2 as in the paper;
    in t: V_n = (1 - t^2)^2 (4 + t^2) / 4.
    

    Examples
    --------
    >>> from varlab.theory import derivations, nrff
    >>> derivations.nrff_asymptotic_variance(in_t=True)      # the delta method in sympy: ~8 s, once
    (t - 1)**2*(t + 1)**2*(t**2 + 4)/4
    >>> (derivations.nrff_asymptotic_variance() - nrff.asymptotic_variance.expr).simplify()
    0
    """
    value = _nrff_coefficients()["V"]
    return value if in_t else from_t(value)


def nrff_bias_coefficient(in_t: bool = False) -> sympy.Expr:
    """varlab's own: b1 in E[NRFF] = t + b1 / k + O(1/k^2); b1 = tr(H Sigma) / 2 = t (t^4 - 1) / 8.

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.nrff_bias_coefficient(in_t=True)
    t*(t - 1)*(t + 1)*(t**2 + 1)/8
    """
    value = _nrff_coefficients()["b1"]
    return value if in_t else from_t(value)


def nrff_mse_second_order_coefficient(in_t: bool = False) -> sympy.Expr:
    """varlab's own: c2 in E[(NRFF - t)^2] = V_n / k + c2 / k^2 + O(1/k^3).

    c2 = t^2 (1 - t^2)^2 (47 t^4 + 110 t^2 + 55) / 64 (see ``delta_method_coefficients``).
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.nrff_mse_second_order_coefficient(in_t=True)
    t**2*(t - 1)**2*(t + 1)**2*(47*t**4 + 110*t**2 + 55)/64
    """
    value = _nrff_coefficients()["c2"]
    return value if in_t else from_t(value)


def uncentered_correlation_coefficients() -> dict:
    """The same machinery on Gaussian data: r = sum x y / sqrt(sum x^2 sum y^2), k samples.

    A check of ``delta_method_coefficients`` against a classical result: the uncentered r of k
    zero-mean normal pairs has the law of Pearson's r from k + 1 pairs, whose expansion
    (Hotelling 1953, n = N - 1 = k) is E r = rho - rho (1 - rho^2) / (2k) + O(1/k^2),
    Var r = (1 - rho^2)^2 / k [1 + 11 rho^2 / (2k)] + O(1/k^3); hence
    V = (1 - rho^2)^2, b1 = -rho (1 - rho^2) / 2, c2 = 11/2 rho^2 (1 - rho^2)^2 + b1^2
      = 23/4 rho^2 (1 - rho^2)^2.
    

    Examples
    --------
    >>> from varlab.theory import derivations
    >>> derivations.uncentered_correlation_coefficients()["c2"]
    23*rho**2*(rho - 1)**2*(rho + 1)**2/4
    """
    return delta_method_coefficients(gaussian_moment, rho)
