"""Tests of varlab.theory.gcws and varlab.theory.gcws_derivation (paper 000, Sec. 1.3 and 3)."""
from __future__ import annotations

import warnings
from functools import lru_cache

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings, strategies as st

from varlab.theory import gcws, gcws_limit
from varlab.theory import gcws_derivation as D
from varlab.theory import nrff
from varlab.theory.parameters import parameter

g, gamma, k, rho = (parameter(name).symbol for name in ("g", "gamma", "k", "rho"))

RHOS = [-1.0, -1.0 + 1e-12, -0.999999, -0.999, -0.9, -0.5, -0.2, 0.0, 0.1715728752538099,
        0.3, 0.5, 0.9, 0.999, 1.0 - 1e-6, 1.0 - 1e-9, 1.0]
GAMMAS = [1e-2, 0.1, 1.0, 10.0, 100.0]
KS = [1, 2, 10, 100, 1000]
S = D.s


def _rel(a, b):
    """Relative error of float a against mpf b; where b is below the float64 normal range,
    0 if a underflowed with it (|a| < 1e-290) and 1 otherwise."""
    a, b = mpmath.mpf(float(a)), mpmath.mpf(b)
    if abs(b) < 1e-300:
        return mpmath.mpf(0) if abs(a) < 1e-290 else mpmath.mpf(1)
    return abs(a - b) / abs(b)


@lru_cache(maxsize=None)
def _mp_moments(r, gm, kk):
    return gcws.exact_moments_mp(r, gm, kk)


# ---------------------------------------------------------------------------------------------
# symbolic: Theorem 4 by the delta method, the bias, the stable forms
# ---------------------------------------------------------------------------------------------

def test_binomial_central_moments_match_direct_sums():
    moments = D.sample_mean_central_moments(6)
    for kk in (1, 3, 7):
        for n in range(7):
            direct = sum(sympy.binomial(kk, j) * g ** j * (1 - g) ** (kk - j)
                         * (sympy.Rational(j, kk) - g) ** n for j in range(kk + 1))
            assert sympy.expand(direct - moments[n].subs(k, kk)) == 0, (kk, n)
    assert sympy.simplify(moments[2] - g * (1 - g) / k) == 0          # Eq. (12) / k


def test_delta_method_variance_equals_eq26():
    v1 = D.delta_method_variance()
    x = D.x
    assert sympy.simplify(v1 - sympy.diff(D.h(), x).subs(x, g) ** 2 * g * (1 - g)) == 0
    assert sympy.simplify(v1 - D.eq26_in_g()) == 0
    # after g = g(rho): Eq. (26) as printed, and the Formula
    assert D.in_s(D.in_rho(v1) - D.eq26()) == 0
    assert D.in_s(D.in_rho(v1) - gcws.asymptotic_variance.expr) == 0


def test_delta_method_bias_is_the_formula():
    b1 = D.delta_method_bias()
    x = D.x
    assert sympy.simplify(b1 - sympy.diff(D.h(), x, 2).subs(x, g) * g * (1 - g) / 2) == 0
    assert D.in_s(D.in_rho(b1) - gcws.asymptotic_bias.expr) == 0
    assert gcws.asymptotic_bias.derived_by_varlab and gcws.asymptotic_bias.asymptotic
    assert "varlab" in gcws.asymptotic_bias.source


def test_stable_numeric_forms_equal_expressions():
    gg = (1 + rho) / (2 * (1 + S) ** 2)
    assert D.in_s(gcws.g_of_rho.expr - gg) == 0
    assert D.in_s((1 - gcws.g_of_rho.expr) - 2 * S / (1 + S)) == 0
    vg = 4 * gamma ** 2 * (1 + rho) * (1 + S) * S ** 3 * sympy.exp(-2 * gamma * (1 - rho))
    assert D.in_s(gcws.asymptotic_variance.expr - vg) == 0
    b1 = (gamma / 2 * sympy.exp(-gamma * (1 - rho)) * S * (1 + rho) * (1 + S)
          * (2 * gamma * (1 - rho) - (2 - gg)))
    assert D.in_s(gcws.asymptotic_bias.expr - b1) == 0
    y = gamma * (1 - rho)
    ratio = S * (5 - (1 - sympy.exp(-2 * y))) * (sympy.sinh(y) / y) ** 2 / ((1 + rho) * (1 + S))
    assert D.in_s((gcws.variance_ratio.expr - ratio).rewrite(sympy.exp)) == 0
    a, b = 3 - 2 * sympy.sqrt(2), 3 + 2 * sympy.sqrt(2)
    factored = sympy.expand((g - a) * (b - g))
    assert sympy.simplify(sympy.cancel(gcws.rho_of_g.expr * (1 + g) ** 2) - factored) == 0


def test_g_and_rho_are_inverse_and_rbf_in_g():
    assert D.in_s(gcws.rho_of_g.expr.subs(g, gcws.g_of_rho.expr) - rho) == 0
    rbf = sympy.exp(-gamma * (1 - rho))
    assert D.in_s(gcws.rbf_of_g.expr.subs(g, gcws.g_of_rho.expr) - rbf) == 0
    assert sympy.simplify(gcws.rbf_of_g.expr - D.h(g)) == 0


def test_variance_ratio_limits():
    gp = sympy.Symbol("gamma_p", positive=True)
    ratio_s = D.in_s(gcws.variance_ratio.expr).subs(gamma, gp)
    assert sympy.limit(ratio_s, S, 0, "+") == 0                                   # rho -> 1
    assert sympy.limit(ratio_s / S, S, 0, "+") == sympy.Rational(5, 2)           # ~ (5/2) s
    # rho -> -1 (s -> 1): the numerator of ratio_s at s = 1 is -(u - 1)^2 (4u + 1) exp(-8 gamma),
    # u = exp(4 gamma) > 1, and the denominator -> 0-, so the ratio -> +oo
    u = sympy.Symbol("u", positive=True)
    numerator = -4 * u ** 3 + 7 * u ** 2 - 2 * u - 1
    assert sympy.expand(numerator + (u - 1) ** 2 * (4 * u + 1)) == 0
    for value in (sympy.Rational(1, 10), 1, 7):
        assert sympy.limit(ratio_s.subs(gp, value), S, 1, "-") == sympy.oo
    assert sympy.limit(gcws.variance_ratio.expr, rho, 1, "-") == 0
    assert gcws.variance_ratio(rho=1.0, gamma=3.0) == 0.0
    assert gcws.variance_ratio(rho=-1.0, gamma=3.0) == np.inf
    near = 1.0 - 1e-12
    s = np.sqrt(0.5 * (1 - near))
    assert abs(gcws.variance_ratio(rho=near, gamma=2.0) / (2.5 * s) - 1) < 1e-5
    assert sympy.simplify(nrff.asymptotic_variance.expr / gcws.asymptotic_variance.expr
                          - gcws.variance_ratio.expr) == 0


def test_second_order_terms_have_the_right_structure():
    # V2 and b2 (varlab's own) vanish where Xbar is constant: g = 0, 1
    for expr in (D.second_order_variance(), D.second_order_bias()):
        assert sympy.simplify(expr.subs(g, 0)) == 0
        assert sympy.simplify(expr.subs(g, 1)) == 0


# the paper's own proof (normal model for Z = (1 - Xbar)/(1 + Xbar))

def test_paper_proof_gaussian_integral():
    assert sympy.simplify(D.gaussian_mgf_integral() - D.paper_mgf()) == 0


def test_paper_proof_expansions_and_result():
    lam, t = D.lam, D.t
    factors = D.paper_expansion_factors()
    assert sympy.expand(factors["prefactor_2t"] - (1 + 2 * lam ** 2 * t / k)) == 0
    assert sympy.expand(factors["prefactor_t_squared"] - (1 + 2 * lam ** 2 * t / k)) == 0
    assert sympy.expand(factors["exponent_2t"] - (1 + 4 * lam ** 2 * t / k)) == 0
    assert sympy.expand(factors["exponent_t_squared"] - (1 + 2 * lam ** 2 * t / k)) == 0
    coefficient = D.paper_variance_coefficient()
    assert sympy.simplify(coefficient - 4 * D.mu ** 2 * lam ** 2 * t ** 2 * sympy.exp(2 * D.mu ** 2 * t)) == 0
    assert sympy.simplify(coefficient.subs(D.paper_substitutions()) - D.eq26_in_g()) == 0
    # the proof's sigma^2 is the delta-method variance of Z
    z = (1 - D.x) / (1 + D.x)
    assert sympy.simplify(sympy.diff(z, D.x).subs(D.x, g) ** 2 * g * (1 - g)
                          - (lam ** 2).subs(D.paper_substitutions())) == 0


def test_paper_normal_model_gets_the_bias_wrong():
    """Finding: E Z != mu at O(1/k), so the normal model's O(1/k) bias is not b1."""
    assert sympy.simplify(D.z_mean_correction() - 2 * g * (1 - g) / (1 + g) ** 3) == 0
    model = D.paper_model_bias_coefficient().subs(D.paper_substitutions())
    missing = -8 * gamma * g * (1 - g) ** 2 * D.h(g) / (1 + g) ** 4
    assert sympy.simplify(D.delta_method_bias() - (model + missing)) == 0
    g0 = float(gcws.g_of_rho(rho=0.0))
    model_value = float(model.subs({g: g0, gamma: 1}))
    b1 = gcws.asymptotic_bias(rho=0.0, gamma=1.0)
    assert abs(model_value - 0.2220) < 1e-3 and abs(b1 - 0.0381) < 1e-3
    assert abs(1e4 * gcws.exact_bias(0.0, 1.0, 10 ** 4) - b1) < 1e-4   # b1 is right, the model is not


# ---------------------------------------------------------------------------------------------
# numeric Formulas against mpmath (50 digits)
# ---------------------------------------------------------------------------------------------

def test_collision_formulas():
    gm = np.array([0.0, 1e-9, 0.25, 0.5, 0.999, 1.0])
    np.testing.assert_array_equal(gcws.collision_mean(gmm=gm), gm)
    np.testing.assert_allclose(gcws.collision_variance(gmm=gm), gm * (1 - gm), rtol=1e-15)
    kk = np.array([[1], [7], [1000]])
    np.testing.assert_allclose(gcws.estimator_variance(gmm=gm, k=kk), gm * (1 - gm) / kk, rtol=1e-15)
    assert gcws.estimator_mean(gmm=gm, k=kk).shape == (3, 6)
    assert gcws.estimator_variance(gmm=0.3, k=10) == pytest.approx(0.021, rel=1e-14)
    assert gcws.relative_variance_of_mean(E=1.0) == 0.0
    for value in (1e-6, 0.2, 0.7):
        assert _rel(gcws.relative_variance_of_mean(E=value),
                    gcws.relative_variance_of_mean.mp(E=value)) < 1e-14
        assert _rel(gcws.estimator_variance(gmm=value, k=13),
                    gcws.estimator_variance.mp(gmm=value, k=13)) < 1e-14
    # the relative variance is Var/E^2 of one sample
    assert gcws.relative_variance_of_mean(E=0.3) == pytest.approx(
        gcws.collision_variance(gmm=0.3) / 0.3 ** 2, rel=1e-14)
    # exact binomial check of Eq. (11)-(12) for k samples
    p, kk = 0.37, 9
    j = np.arange(kk + 1)
    from scipy.stats import binom
    w = binom.pmf(j, kk, p)
    assert np.sum(w * j / kk) == pytest.approx(gcws.estimator_mean(gmm=p, k=kk), rel=1e-13)
    assert np.sum(w * (j / kk - p) ** 2) == pytest.approx(gcws.estimator_variance(gmm=p, k=kk), rel=1e-12)


@pytest.mark.parametrize("r", RHOS)
def test_g_of_rho_vs_mpmath(r):
    assert _rel(gcws.g_of_rho(rho=r), gcws.g_of_rho.mp(rho=r)) < 1e-14
    with mpmath.workdps(50):
        one_minus = 1 - gcws.g_of_rho.mp(rho=r)
    assert _rel(gcws_limit._g_pair(np.float64(r))[2], one_minus) < 1e-14


@pytest.mark.parametrize("gv", [0.0, 1e-300, 1e-12, 1e-3, 0.1, float(gcws_limit._A_HI), np.nextafter(gcws_limit._A_HI, 1),
                                0.17157287525381, 0.2, 0.5, 0.9, 1 - 1e-9, 1.0])
def test_rho_of_g_vs_mpmath(gv):
    assert _rel(gcws.rho_of_g(g=gv), gcws.rho_of_g.mp(g=gv)) < 1e-13
    for gm in GAMMAS:
        assert _rel(gcws.rbf_of_g(g=gv, gamma=gm), gcws.rbf_of_g.mp(g=gv, gamma=gm)) < 1e-12


@pytest.mark.parametrize("r", RHOS)
def test_asymptotic_variance_and_bias_vs_mpmath(r):
    for gm in GAMMAS + [1e3]:
        vg = gcws.asymptotic_variance(rho=r, gamma=gm)
        assert _rel(vg, gcws.asymptotic_variance.mp(rho=r, gamma=gm)) < 1e-12, (r, gm)
        b1 = gcws.asymptotic_bias(rho=r, gamma=gm)
        exact = gcws.asymptotic_bias.mp(rho=r, gamma=gm)
        # b1 changes sign where 2 gamma (1 - rho) = 2 - g: allow the bracket's rounding there
        s, gv, _ = gcws_limit._g_pair(np.float64(r))
        scale = 0.5 * gm * np.exp(-gm * (1 - r)) * s * (1 + r) * (1 + s) * (2 * gm * (1 - r) + 2)
        assert abs(b1 - float(exact)) <= 1e-12 * abs(float(exact)) + 1e-15 * scale + 1e-300, (r, gm)
    if r in (-1.0, 1.0):
        assert gcws.asymptotic_variance(rho=r, gamma=2.0) == 0.0
        assert gcws.asymptotic_bias(rho=r, gamma=2.0) == 0.0


@pytest.mark.parametrize("r", [x for x in RHOS if -1.0 < x < 1.0])
def test_variance_ratio_vs_mpmath(r):
    for gm in GAMMAS:
        assert _rel(gcws.variance_ratio(rho=r, gamma=gm), gcws.variance_ratio.mp(rho=r, gamma=gm)) < 1e-12


def test_variance_ratio_figure4_shape():
    """000, Fig. 4: the ratio exceeds 1 except at high similarity, where it goes to 0.

    The crossing of 1 depends on gamma: rho ~ 0.53-0.57 for gamma <= 1, ~0.75 at gamma = 5,
    ~0.85 at gamma = 10, ~0.976 at gamma = 100.
    """
    rhos = np.linspace(-0.999, 0.5, 300)
    for gm in (0.01, 0.1, 1.0, 10.0, 100.0):
        assert np.all(gcws.variance_ratio(rho=rhos, gamma=gm) > 1.0)
        assert gcws.variance_ratio(rho=1 - 1e-8, gamma=gm) < 1.0
    for gm, crossing in ((0.1, 0.5649), (1.0, 0.5353), (10.0, 0.8455), (100.0, 0.9763)):
        assert gcws.variance_ratio(rho=crossing - 1e-3, gamma=gm) > 1.0 > gcws.variance_ratio(
            rho=crossing + 1e-3, gamma=gm)
    assert not np.any(np.isnan(gcws.variance_ratio(rho=np.array([-1.0, 1.0, 0.0]), gamma=1e4)))


def test_formula_metadata():
    assert gcws.asymptotic_variance.asymptotic and not gcws.asymptotic_variance.derived_by_varlab
    assert "Thm 4" in gcws.asymptotic_variance.source and "(26)" in gcws.asymptotic_variance.source
    assert gcws.variance_ratio.asymptotic and "Fig. 4" in gcws.variance_ratio.source
    assert "(22)" in gcws.g_of_rho.source and "(23)" in gcws.rho_of_g.source
    assert gcws.estimator_variance.parameters == ("gmm", "k")


# ---------------------------------------------------------------------------------------------
# exact finite-k moments
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kk", KS)
def test_exact_moments_vs_mpmath(kk):
    grid_r, grid_g = np.meshgrid(RHOS, GAMMAS, indexing="ij")
    mean, variance = gcws.exact_moments(grid_r, grid_g, kk)
    for i, r in enumerate(RHOS):
        for j, gm in enumerate(GAMMAS):
            m_ref, v_ref = _mp_moments(r, gm, kk)
            assert _rel(mean[i, j], m_ref) < 1e-12, (r, gm, kk)
            assert _rel(variance[i, j], v_ref) < 1e-10, (r, gm, kk)
            if v_ref == 0:
                assert variance[i, j] == 0.0
            assert variance[i, j] >= 0.0


def test_exact_moments_edges_and_scalars():
    for gm in (0.5, 50.0):
        assert gcws.exact_moments(1.0, gm, 7) == (1.0, 0.0)
        m, v = gcws.exact_moments(-1.0, gm, 7)
        assert m == np.exp(-2 * gm) and v == 0.0
        assert gcws.exact_bias(1.0, gm, 7) == 0.0 and gcws.exact_bias(-1.0, gm, 7) == 0.0
    assert isinstance(gcws.exact_mean(0.3, 1.0, 5), float)
    assert isinstance(gcws.exact_variance(0.3, 1.0, 5), float)


def test_exact_moments_tilted_regime_vs_mpmath():
    """Large gamma with g tiny: the mass of pmf * h sits in a far tail."""
    for kk in (1, 3, 50):
        for r in (-1.0 + 1e-12, -0.99, 0.0):
            for gm in (300.0, 1e3):
                m, v = gcws.exact_moments(r, gm, kk)
                m_ref, v_ref = _mp_moments(r, gm, kk)
                for value, ref in ((m, m_ref), (v, v_ref)):
                    assert value >= 0.0
                    assert _rel(value, ref) < 1e-11, (r, gm, kk)


def test_exact_moments_broadcast_k_and_mean_bias_consistency():
    rhos = np.array([-0.4, 0.2, 0.95])
    ks = np.array([[1], [10], [300]])
    mean, variance = gcws.exact_moments(rhos, 2.0, ks)
    assert mean.shape == variance.shape == (3, 3)
    for i, kk in enumerate((1, 10, 300)):
        m, v = gcws.exact_moments(rhos, 2.0, kk)
        np.testing.assert_array_equal(mean[i], m)
        np.testing.assert_array_equal(variance[i], v)
    bias = gcws.exact_bias(rhos, 2.0, ks)
    np.testing.assert_allclose(bias, mean - np.exp(-2.0 * (1 - rhos)), rtol=1e-10, atol=1e-15)


def test_large_k_against_asymptotics():
    kk = 10 ** 6
    rhos = np.array([-0.999, -0.9, -0.5, 0.0, 0.5, 0.9, 0.99, 0.999])
    gammas = np.array([1e-2, 1.0, 10.0, 100.0])
    grid_r, grid_g = np.meshgrid(rhos, gammas, indexing="ij")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mean, variance = gcws.exact_moments(grid_r, grid_g, kk)
        bias = gcws.exact_bias(grid_r, grid_g, kk)
    vg = gcws.asymptotic_variance(rho=grid_r, gamma=grid_g)
    b1 = gcws.asymptotic_bias(rho=grid_r, gamma=grid_g)
    first = np.abs(variance * kk / vg - 1)
    assert np.all(first[:, :3] < 1e-2)          # gamma <= 10: within 1%
    assert np.all(first < 5e-2)                 # gamma = 100: the 1/k^2 term is ~4% here
    assert np.all(np.abs(bias * kk / b1 - 1) < 1e-2)
    # and to second order (varlab's V2, b2): far tighter, checking the exact sums themselves
    gv = gcws.g_of_rho(rho=grid_r)
    v1 = sympy.lambdify((g, gamma), D.delta_method_variance(), "numpy")(gv, grid_g)
    v2 = sympy.lambdify((g, gamma), D.second_order_variance(), "numpy")(gv, grid_g)
    bb1 = sympy.lambdify((g, gamma), D.delta_method_bias(), "numpy")(gv, grid_g)
    bb2 = sympy.lambdify((g, gamma), D.second_order_bias(), "numpy")(gv, grid_g)
    np.testing.assert_allclose(v1, vg, rtol=1e-12)
    np.testing.assert_allclose(bb1, b1, rtol=1e-8, atol=1e-300)
    assert np.all(np.abs(variance / (v1 / kk + v2 / kk ** 2) - 1)[:, :3] < 1e-6)
    assert np.all(np.abs(variance / (v1 / kk + v2 / kk ** 2) - 1) < 2e-3)
    assert np.all(np.abs(bias / (bb1 / kk + bb2 / kk ** 2) - 1) < 1e-4)
    np.testing.assert_allclose(mean, np.exp(-grid_g * (1 - grid_r)) + bias, rtol=1e-12)


def test_large_k_edges_and_extreme_gamma_are_finite():
    rhos = np.array([-1.0, -1.0 + 1e-12, -0.5, 0.0, 0.5, 1 - 1e-9, 1.0])
    gammas = np.array([1e-2, 1.0, 1e2, 1e4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mean, variance = gcws.exact_moments(rhos[:, None], gammas[None, :], 10 ** 6)
        accuracy = gcws.asymptotic_accuracy(rhos[:, None], gammas[None, :], 10 ** 6)
    for array in (mean, variance):
        assert np.all(np.isfinite(array)) and np.all(array >= 0)
    assert np.all(mean <= 1.0)
    np.testing.assert_array_equal(variance[[0, -1]], 0.0)
    np.testing.assert_array_equal(accuracy[[0, -1]], 0.0)
    assert not np.any(np.isnan(accuracy))


def test_asymptotic_accuracy():
    rhos = np.array([-0.5, 0.0, 0.7])
    for kk in (10, 1000):
        expected = np.abs(gcws.asymptotic_variance(rho=rhos, gamma=1.0) / kk
                          - gcws.exact_variance(rhos, 1.0, kk)) / gcws.exact_variance(rhos, 1.0, kk)
        np.testing.assert_allclose(gcws.asymptotic_accuracy(rhos, 1.0, kk), expected, rtol=1e-12)
    assert gcws.asymptotic_accuracy(1.0, 1.0, 5) == 0.0
    assert gcws.asymptotic_accuracy(-1.0, 1.0, 5) == 0.0
    assert gcws.asymptotic_accuracy(0.0, 1.0, 10 ** 5) < 1e-3
    assert gcws.asymptotic_accuracy(0.0, 100.0, 100) > 0.05


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: gcws.g_of_rho(rho=1.5), "rho"),
    (lambda: gcws.asymptotic_variance(rho=-1.01, gamma=1.0), "rho"),
    (lambda: gcws.asymptotic_variance(rho=0.5, gamma=0.0), "gamma"),
    (lambda: gcws.variance_ratio(rho=0.5, gamma=-1.0), "gamma"),
    (lambda: gcws.asymptotic_bias(rho=np.nan, gamma=1.0), "rho"),
    (lambda: gcws.rho_of_g(g=1.2), "g"),
    (lambda: gcws.rho_of_g(g=-1e-3), "g"),
    (lambda: gcws.rbf_of_g(g=0.5, gamma=0.0), "gamma"),
    (lambda: gcws.collision_variance(gmm=1.5), "gmm"),
    (lambda: gcws.estimator_variance(gmm=0.5, k=0), "k"),
    (lambda: gcws.estimator_variance(gmm=0.5, k=np.array([3, 0])), "k"),
    (lambda: gcws.relative_variance_of_mean(E=0.0), "E"),
    (lambda: gcws.exact_moments(2.0, 1.0, 10), "rho"),
    (lambda: gcws.exact_mean(0.5, 0.0, 10), "gamma"),
    (lambda: gcws.exact_variance(0.5, 1.0, 0), "k"),
    (lambda: gcws.exact_bias(0.5, 1.0, -3), "k"),
    (lambda: gcws.asymptotic_accuracy(0.5, -2.0, 3), "gamma"),
    (lambda: gcws.exact_moments_mp(1.1, 1.0, 3), "rho"),
    (lambda: gcws.exact_moments_mp(0.1, 1.0, 10 ** 6), "k"),
])
def test_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()


@pytest.mark.parametrize("bad", [2.5, 3.0, True, np.array([1.5, 2.0]), "7"])
def test_k_must_be_integer(bad):
    with pytest.raises(TypeError, match=r"\bk\b"):
        gcws.exact_variance(0.5, 1.0, bad)


# ---------------------------------------------------------------------------------------------
# properties (each proven: see the comments)
# ---------------------------------------------------------------------------------------------

rho_values = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
gamma_values = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False)


@given(rho_values, rho_values)
@settings(max_examples=200, deadline=None)
def test_g_is_monotone_and_in_unit_interval(r1, r2):
    # g = (1 + rho)/(2 (1 + s)^2) is increasing; each rounded operation is monotone
    lo, hi = min(r1, r2), max(r1, r2)
    g_lo, g_hi = gcws.g_of_rho(rho=lo), gcws.g_of_rho(rho=hi)
    assert 0.0 <= g_lo <= g_hi <= 1.0
    if hi - lo > 1e-9:
        assert g_lo < g_hi


@given(rho_values)
@settings(max_examples=200, deadline=None)
def test_rho_of_g_inverts_g_of_rho(r):
    assert abs(gcws.rho_of_g(g=gcws.g_of_rho(rho=r)) - r) <= 1e-14


@given(st.floats(min_value=0.0, max_value=1.0), gamma_values)
@settings(max_examples=100, deadline=None)
def test_rbf_of_g_matches_rbf_of_rho(gv, gm):
    r = gcws.rho_of_g(g=gv)
    assert gcws.rbf_of_g(g=gv, gamma=gm) == pytest.approx(np.exp(-gm * (1 - r)), rel=1e-11, abs=1e-300)


@given(rho_values, gamma_values, st.integers(min_value=1, max_value=3000))
@settings(max_examples=60, deadline=None)
def test_exact_moments_bounds(r, gm, kk):
    # h takes values in [exp(-2 gamma), 1], so the mean lies there and (Popoviciu) the
    # variance is at most (1 - exp(-2 gamma))^2 / 4; variances are >= 0.
    mean, variance = gcws.exact_moments(r, gm, kk)
    assert np.exp(-2 * gm) * (1 - 1e-12) <= mean <= 1.0
    assert 0.0 <= variance <= np.expm1(-2 * gm) ** 2 / 4 * (1 + 1e-12)
    assert gcws.asymptotic_variance(rho=r, gamma=gm) >= 0.0
    assert gcws.variance_ratio(rho=r, gamma=gm) >= 0.0


@pytest.mark.parametrize("r", [-1.0, 1.0, -1.0 + 1e-12, 1.0 - 1e-12])
@pytest.mark.parametrize("gm", [1e308, 1.7e308, np.finfo(np.float64).max])
def test_edges_with_gamma_near_the_float64_maximum(r, gm):
    # issue 7: rho = +-1 with gamma near the float64 maximum (-inf * 0 = NaN elsewhere); no NaN,
    # no warning, and the right limit values
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = [f(rho=r, gamma=gm) for f in (gcws.asymptotic_variance, gcws.asymptotic_bias,
                                               gcws.variance_ratio)]
        values += list(gcws.exact_moments(r, gm, 5)) + [gcws.exact_bias(r, gm, 5), gcws.exact_mean(r, gm, 5),
                                                        gcws.asymptotic_accuracy(r, gm, 5)]
        gv = gcws.g_of_rho(rho=r)
        values += [gv, gcws.rho_of_g(g=gv), gcws.rbf_of_g(g=gv, gamma=gm)]
    assert not any(np.isnan(values))
    if r == 1.0:
        assert gcws.exact_moments(r, gm, 5) == (1.0, 0.0) and gcws.rbf_of_g(g=1.0, gamma=gm) == 1.0
    if r == -1.0:
        assert gcws.exact_moments(r, gm, 5) == (0.0, 0.0) and gcws.variance_ratio(rho=r, gamma=gm) == np.inf


def test_exact_moments_shape_mismatch_names_the_parameters():
    with pytest.raises(ValueError, match=r"rho.*gamma.*k"):
        gcws.exact_moments(np.zeros(2), np.ones(3), 4)
    with pytest.raises(ValueError, match=r"rho.*gamma.*k"):
        gcws.exact_variance(rho=np.zeros(2), gamma=np.ones(3), k=4)


@pytest.mark.parametrize("bad", [2.0, True, [True, 2], np.array([2 ** 63], np.uint64)])
def test_one_k_rule_in_the_exact_moments(bad):
    error = ValueError if isinstance(bad, np.ndarray) else TypeError
    for call in (gcws.exact_moments, gcws.exact_bias, gcws.asymptotic_accuracy):
        with pytest.raises(error, match=r"\bk\b"):
            call(0.5, 1.0, bad)
