"""Each sympy derivation in varlab.theory.derivations equals the closed form varlab evaluates.

Paper 000, Sec. 2: Theorem 2 (Eq. 16, 17, 18) from Gaussian integrals, Theorem 3 (Eq. 20) by the
delta method; varlab's own: the no-phase variance, and the finite-k bias b1 and MSE term c2 of
NRFF (second-order delta method).
"""
import numpy as np
import pytest
import sympy

from varlab.theory import derivations as D
from varlab.theory import nrff, rff
from varlab.theory.parameters import parameter

gamma, k, rho = (parameter(name).symbol for name in ("gamma", "k", "rho"))

t = D.T


def _same(derived, closed_form):
    assert sympy.simplify(sympy.expand(derived - closed_form)) == 0, (derived, closed_form)


# --- the elementary integrals and the identity every moment is built from ---------------------

def test_gaussian_integral_of_cosine_is_computed_by_sympy():
    a, phi = sympy.symbols("a phi", real=True)
    value = D._normal_cos_mean().subs({D._a: a, D._phi: phi})
    _same(value, sympy.exp(-a ** 2 / 2) * sympy.cos(phi))


def test_general_integral_of_the_proof_of_theorem_2():
    # E cos(c1 x + b w) cos(c2 y + b w) = exp(-(c1^2 + c2^2 - 2 c1 c2 rho)/2) / 2 for b = 1, 2, 3
    c1, c2 = sympy.symbols("c1 c2", positive=True)
    expected = sympy.exp(-(c1 ** 2 + c2 ** 2 - 2 * c1 * c2 * rho) / 2) / 2
    for b in (1, 2, 3):
        _same(D.cos_product_mean(c1, c2, b, b), expected)
    for b1, b2 in ((1, 2), (2, 1), (1, 3), (3, 2)):
        assert sympy.simplify(D.cos_product_mean(c1, c2, b1, b2)) == 0


def test_phase_characteristic_identity():
    # E exp(i(p theta1 + q theta2)) = [p + q = 0] exp(-p^2 gamma (1 - rho)), derived once
    generic = D.phase_characteristic_function()
    assert generic.has(sympy.Piecewise)
    on_diagonal = sympy.piecewise_fold(generic.subs(D._q, -D._p))
    _same(on_diagonal, sympy.exp(-D._p ** 2 * gamma * (1 - rho)))
    for p in range(-4, 5):
        for q in range(-4, 5):
            expected = sympy.exp(-p ** 2 * gamma * (1 - rho)) if p + q == 0 else 0
            _same(D.phase_characteristic_function(p, q), expected)


# --- Theorem 2 and the no-phase variance --------------------------------------------------------

def test_eq16_rff_mean():
    _same(D.rff_mean(), rff.mean.expr)
    _same(D.rff_mean_from_moments(), rff.mean.expr)


def test_eq17_no_phase_mean():
    _same(D.no_phase_mean(), rff.no_phase_mean.expr)


def test_eq18_rff_variance():
    _same(D.rff_variance(), rff.variance.expr)


def test_no_phase_variance_varlab():
    assert rff.no_phase_variance.derived_by_varlab
    _same(D.no_phase_variance(), rff.no_phase_variance.expr)


def test_moments_quoted_in_the_proof_of_theorem_3():
    # E[cos^3(cx+w) cos(cy+w)] = 3/8 e^{-c^2(1-rho)}, E[cos(cx+w) cos(cy+w)]^2 = e^{-4c^2(1-rho)}/8 + 1/4,
    # E cos^4 = 3/8; X = sqrt2 cos multiplies a 4th moment by 4.
    e = sympy.exp(-gamma * (1 - rho))
    _same(D.rff_moment(3, 1), 4 * sympy.Rational(3, 8) * e)
    _same(D.rff_moment(1, 3), 4 * sympy.Rational(3, 8) * e)
    _same(D.rff_moment(2, 2), 4 * (e ** 4 / 8 + sympy.Rational(1, 4)))
    assert D.rff_moment(4, 0) == D.rff_moment(0, 4) == sympy.Rational(3, 2)
    assert D.rff_moment(2, 0) == 1 and D.rff_moment(1, 0) == 0 and D.rff_moment(3, 0) == 0
    sigma = D.feature_covariance()
    assert sigma == sympy.Matrix([[1 - t ** 2 + t ** 4 / 2, t / 2, t / 2],
                                  [t / 2, sympy.Rational(1, 2), t ** 4 / 2],
                                  [t / 2, t ** 4 / 2, sympy.Rational(1, 2)]])


# --- Theorem 3 and the finite-k terms -----------------------------------------------------------

def test_eq20_nrff_asymptotic_variance():
    _same(D.nrff_asymptotic_variance(), nrff.asymptotic_variance.expr)
    # the stable form used by the numerics: V_n = s^2 (5 - s) / 4, s = 1 - t^2
    s = 1 - t ** 2
    _same(D.nrff_asymptotic_variance(in_t=True), s ** 2 * (5 - s) / 4)


def test_bias_coefficient_b1():
    b1 = D.nrff_bias_coefficient(in_t=True)
    _same(b1, t * (t ** 4 - 1) / 8)
    _same(D.nrff_bias_coefficient(), nrff.bias_coefficient.expr)
    assert b1.subs(t, 1) == 0                       # NRFF = 1 exactly at rho = 1
    # b1 <= 0 on t in (0, 1]: NRFF underestimates the kernel to first order
    assert all(b1.subs(t, sympy.Rational(j, 16)) < 0 for j in range(1, 16))
    # the stable form of the numerics: b1 = -t s (2 - s) / 8, s = 1 - t^2
    s = 1 - t ** 2
    _same(b1, -t * s * (2 - s) / 8)


def test_mse_second_order_coefficient_c2():
    c2 = D.nrff_mse_second_order_coefficient(in_t=True)
    _same(c2, t ** 2 * (1 - t ** 2) ** 2 * (47 * t ** 4 + 110 * t ** 2 + 55) / 64)
    _same(D.nrff_mse_second_order_coefficient(), nrff.mse_second_order_coefficient.expr)
    assert c2.subs(t, 1) == 0
    assert sympy.diff(c2, t).subs(t, 1) == 0         # double zero at t = 1 (like V_n)
    assert all(c2.subs(t, sympy.Rational(j, 16)) > 0 for j in range(1, 16))
    # stable form of the numerics: u s^2 (47 u^2 + 110 u + 55) / 64 with u = t^2, s = 1 - u
    u = t ** 2
    _same(c2, u * (1 - u) ** 2 * (47 * u ** 2 + 110 * u + 55) / 64)


def test_expansion_formulas_are_built_from_the_coefficients():
    _same(nrff.mse_expansion.expr,
          D.nrff_asymptotic_variance() / k + D.nrff_mse_second_order_coefficient() / k ** 2)
    _same(nrff.bias_expansion.expr, D.nrff_bias_coefficient() / k)
    for formula in (nrff.bias_coefficient, nrff.mse_second_order_coefficient,
                    nrff.bias_expansion, nrff.mse_expansion):
        assert formula.derived_by_varlab and formula.asymptotic
        assert "varlab (derived)" in formula.source


def test_delta_method_machinery_reproduces_hotelling_for_gaussian_data():
    # uncentered sample correlation of k normal pairs = Pearson r with n = N - 1 = k (Hotelling 1953)
    coefficients = D.uncentered_correlation_coefficients()
    _same(coefficients["V"], (1 - rho ** 2) ** 2)
    _same(coefficients["b1"], -rho * (1 - rho ** 2) / 2)
    _same(coefficients["c2"], sympy.Rational(11, 2) * rho ** 2 * (1 - rho ** 2) ** 2
          + (rho * (1 - rho ** 2) / 2) ** 2)


def test_delta_method_matches_paper_linearization():
    # V_n = E(XY - t (X^2 + Y^2)/2)^2, the expectation the proof of Theorem 3 evaluates
    X, Y = D._X, D._Y
    paper = D._expectation_with(D._rff_moment_in_t, (X * Y - t * (X ** 2 + Y ** 2) / 2) ** 2)
    _same(paper, D.nrff_asymptotic_variance(in_t=True))


@pytest.mark.parametrize("rho_value, gamma_value", [(0.5, 1.0), (-0.3, 0.2), (0.9, 5.0)])
def test_numeric_formulas_agree_with_derivations(rho_value, gamma_value):
    point = {rho: rho_value, gamma: gamma_value}
    for derived, formula in ((D.nrff_bias_coefficient(), nrff.bias_coefficient),
                             (D.nrff_mse_second_order_coefficient(), nrff.mse_second_order_coefficient),
                             (D.nrff_asymptotic_variance(), nrff.asymptotic_variance)):
        exact = float(derived.subs(point).evalf(30))
        assert formula(rho=rho_value, gamma=gamma_value) == pytest.approx(exact, rel=1e-13)


def test_finite_k_terms_against_simulation():
    """Monte Carlo check of b1 and c2 at (rho, gamma) = (0.5, 1), k = 40 (fixed seed).

    Control variate: L = g.d (the linear term of the delta method) has mean exactly 0 and
    E L^2 = V_n / k exactly, so k (NRFF - t - L) estimates b1 + O(1/k) and
    k^2 ((NRFF - t)^2 - L^2) estimates c2 + O(1/k), both with O(1) per-sample spread.
    The O(1/k) remainder at k = 40, estimated from 8e6-repetition runs at k = 20..160, is
    about -0.001 for b1 and +0.004 for c2, well under the tolerance (4.5 SE of this run).
    """
    rho_value, gamma_value, k_value, repetitions = 0.5, 1.0, 40, 200_000
    rng = np.random.default_rng(20240611)
    t_value = np.exp(-gamma_value * (1 - rho_value))
    bias_samples, mse_samples = [], []
    for _ in range(repetitions // 50_000):
        x = rng.standard_normal((50_000, k_value))
        y = rho_value * x + np.sqrt(1 - rho_value ** 2) * rng.standard_normal((50_000, k_value))
        w = rng.uniform(0.0, 2 * np.pi, (50_000, k_value))
        X = np.sqrt(2) * np.cos(np.sqrt(gamma_value) * x + w)
        Y = np.sqrt(2) * np.cos(np.sqrt(gamma_value) * y + w)
        a, b, c = (X * Y).mean(1), (X * X).mean(1), (Y * Y).mean(1)
        error = a / np.sqrt(b * c) - t_value
        linear = (a - t_value) - t_value / 2 * (b - 1) - t_value / 2 * (c - 1)
        bias_samples.append(k_value * (error - linear))
        mse_samples.append(k_value ** 2 * (error ** 2 - linear ** 2))
    for samples, theory in ((np.concatenate(bias_samples), nrff.bias_coefficient(rho=rho_value, gamma=gamma_value)),
                            (np.concatenate(mse_samples),
                             nrff.mse_second_order_coefficient(rho=rho_value, gamma=gamma_value))):
        standard_error = samples.std(ddof=1) / np.sqrt(samples.size)
        assert abs(samples.mean() - theory) <= 4.5 * standard_error, (samples.mean(), theory, standard_error)
