"""Paper 004, the polynomial kernel on the unit sphere: the printed transforms (infinite
variation, growth rates), varlab's least-variation shell measure, GRFF/GORF on it (feature map
and engine) and the biased frequency-cutoff sampler."""
import mpmath
import numpy as np
import pytest
import sympy
from scipy.spatial.distance import cdist

from varlab import mc, spectral
from varlab.features import GRFF
from varlab.mc import Z_MAX
from varlab.spectral.polynomial import PolynomialSphere, PrintedPolynomialTransform, polynomial_kernel
from varlab.theory import polynomial as theory


def _sphere_points(n, d, seed):
    X = np.random.default_rng(seed).standard_normal((n, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


# --- theory --------------------------------------------------------------------------------------
def test_binomial_identity_behind_the_sphere_truncation():
    r, a = sympy.symbols("r a", positive=True)
    for m in (1, 2, 3):
        expansion = sum(sympy.binomial(m, i) * (1 - 4 / a ** 2) ** (m - i) * (4 / a ** 2) ** i * (1 - r ** 2 / 4) ** i
                        for i in range(m + 1))
        assert sympy.simplify(expansion - (1 - r ** 2 / a ** 2) ** m) == 0


def test_the_printed_density_integrates_to_k0():
    """Weber-Schafheitlin: int_0^inf BR_{d,m}(u) du = 1 (d = 2, m = 1 symbolically; d = 1, 2 by the
    masses' difference, which converges there)."""
    d, m, u = theory.radial_density.symbols
    expr = theory.RADIAL_DENSITY_EXPR.subs({d: 2, m: 1})
    assert sympy.simplify(sympy.integrate(expr, (u, 0, sympy.oo))) == 1
    closed = sympy.lambdify((d, m, u), theory.RADIAL_DENSITY_EXPR, modules="mpmath")
    for point in ((16, 1, 3.0), (5, 2, 40.0), (64, 3, 0.7)):
        with mpmath.workdps(40):
            assert abs(closed(*point) - theory.radial_density.mp(dps=40, **dict(zip(("dimension", "degree", "frequency"), point)))) <= 1e-35 * abs(closed(*point))
    for d in (1, 2):
        masses = theory.total_masses(d, 1)
        assert masses["positive"] - masses["negative"] == pytest.approx(1.0, abs=1e-4)


def test_truncated_masses_grow_at_the_derived_rate_and_match_mpmath():
    for truncation in ("a", "sphere"):
        t = {U: sum(theory.truncated_masses(16, 1, U, truncation=truncation).values()) for U in (300.0, 1000.0)}
        for U, total in t.items():
            assert total == pytest.approx(theory.variation_growth(16, 1, U, truncation=truncation), rel=0.01)
        exponent = np.log(t[1000.0] / t[300.0]) / np.log(1000.0 / 300.0)
        assert exponent == pytest.approx(6.5 if truncation == "a" else 7.5, abs=0.05)
    reference = theory.truncated_masses_mp(16, 1, 20.0)
    numeric = theory.truncated_masses(16, 1, 20.0)
    for part in ("positive", "negative"):
        assert numeric[part] == pytest.approx(float(reference[part]), rel=1e-10)


def test_total_masses_raise_where_the_variation_is_infinite():
    with pytest.raises(ValueError, match=r"infinite total variation in dimension=16.*U\^6.5"):
        theory.total_masses(16, 1)
    with pytest.raises(ValueError, match=r"jumps by .* U\^0.5"):
        PrintedPolynomialTransform(dimension=2, truncation="sphere").total_masses()
    assert PrintedPolynomialTransform(dimension=2, truncation="a").finite()
    assert not PrintedPolynomialTransform(dimension=3, truncation="a").finite()
    masses = PrintedPolynomialTransform(a=2.0, degree=2, dimension=4, truncation="sphere").total_masses()
    assert masses["positive"] - masses["negative"] == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(ValueError, match="truncation"):
        theory.total_masses(2, 1, truncation="b")


def test_phi_beyond_scipys_hyp0f1():
    """scipy's hyp0f1(b, -x) is NaN at small x from b ~ 128 (d ~ 256) on; phi must not be."""
    t = np.array([0.05, 1.0, 10.0, 40.0])
    for d in (256, 300, 1024):
        values = theory.phi(t, d)
        exact = [float(mpmath.hyp0f1(mpmath.mpf(d) / 2, -mpmath.mpf(x) ** 2 / 4)) for x in t]
        np.testing.assert_allclose(values, exact, rtol=1e-10)


# --- varlab's shell measure ----------------------------------------------------------------------
def test_shell_measure_matches_the_polynomial_on_the_sphere():
    mu = PolynomialSphere(a=3.0, degree=1, dimension=16)
    assert mu.max_error <= 1.2e-6
    r = np.linspace(0.0, 2.0, 57)
    assert np.max(np.abs(mu.kernel_of_distance(r) - polynomial_kernel(r, 3.0, 1))) <= mu.max_error
    masses = mu.total_masses()
    assert masses["positive"] - masses["negative"] == pytest.approx(float(mu.kernel_of_distance(0.0)), abs=1e-12)
    assert 1.0 < masses["positive"] < 3.0                  # the least variation: 2.37 / 1.37
    z = np.zeros((2, 16))
    z[1, :2] = [1.2, 0.9]
    np.testing.assert_allclose(mu.kernel(z), mu.kernel_of_distance([0.0, 1.5]), rtol=1e-13)
    W = mu.rvs_part("negative", 50, 16, random_state=0)
    assert np.all(np.isin(np.round(np.linalg.norm(W, axis=1), 10), np.round(mu.radii, 10)))
    assert spectral.measures()["polynomial_sphere"] is PolynomialSphere


def test_shell_measure_arguments():
    with pytest.raises(ValueError, match="dimension"):
        PolynomialSphere(dimension=0)
    with pytest.raises(ValueError, match="dimension"):
        PolynomialSphere(dimension=5000)
    with pytest.raises(ValueError, match="tolerance"):
        PolynomialSphere(tolerance=0.0)
    with pytest.raises(TypeError, match="degree"):
        PolynomialSphere(degree=1.5)
    with pytest.raises(ValueError, match=r"\ba\b"):
        PolynomialSphere(a=-1.0)
    with pytest.raises(ValueError, match="d must be 16"):
        PolynomialSphere(dimension=16).rvs_part("positive", 3, 8)
    with pytest.raises(ValueError, match="r must be"):
        polynomial_kernel(2.5)


@pytest.mark.parametrize("sampler, orthogonality", [("iid", "separate"), ("orthogonal", "mutual"),
                                                    ("orthogonal", "separate")])
def test_grff_by_name_is_unbiased_on_the_sphere(sampler, orthogonality):
    X, Y = _sphere_points(5, 16, 0), _sphere_points(4, 16, 1)
    K = polynomial_kernel(cdist(X, Y), 3.0, 1)
    estimates = []
    for seed in range(300):
        f = GRFF(kernel="polynomial_sphere", kernel_params={"a": 3.0, "degree": 1}, n_components=8,
                 sampler=sampler, orthogonality=orthogonality, random_state=seed).fit(X)
        estimates.append(f.transform(X) @ f.right(Y).T)
    estimates = np.array(estimates)
    se = estimates.std(axis=0, ddof=1) / np.sqrt(len(estimates))
    assert np.all(np.abs(estimates.mean(axis=0) - K) <= Z_MAX * se + 1.2e-6)
    assert f.measure_.parameters()["dimension"] == 16
    with pytest.raises(ValueError, match="kernel_params is only used"):
        GRFF(kernel=PolynomialSphere(), kernel_params={"a": 3.0}).fit(X)


def test_engine_unbiased_and_exact_variances():
    for name in ("grff_polynomial", "gorf_polynomial", "gorf_separate_polynomial"):
        result = mc.simulate(name, k=[2, 8, 32], dimension=16, distance=[0.5, 1.5, 2.0], n_repetitions=3000,
                             random_state=3)
        assert np.all(np.abs(result.mean - result.target) <= Z_MAX * result.se_mean), name
        z = (result.variance - result.theory["variance"]) / result.se_variance
        assert np.all(np.abs(z) <= Z_MAX), (name, z)
    with pytest.raises(ValueError, match="distance must be in"):
        mc.simulate("grff_polynomial", k=[2], dimension=4, distance=[2.5], n_repetitions=10, random_state=0)


# --- the printed transform with a frequency cutoff --------------------------------------------------
def test_cutoff_sampler_draws_its_own_kernel_which_is_biased():
    printed = PrintedPolynomialTransform(a=3.0, degree=1, dimension=4, truncation="sphere")
    cut = printed.truncated(6.0)
    r = np.array([0.0, 1.0, 2.0])
    bias = cut.kernel(r[:, None] * np.eye(4)[0]) - polynomial_kernel(r)
    assert np.max(np.abs(bias)) > 0.01
    n = 40000
    masses = cut.total_masses()
    W = cut.rvs_part("positive", n, 4, random_state=0)
    V = cut.rvs_part("negative", n, 4, random_state=1)
    z = np.array([1.0, 0.0, 0.0, 0.0])
    a, b = np.cos(W @ z), np.cos(V @ z)
    estimate = masses["positive"] * a.mean() - masses["negative"] * b.mean()
    se = np.hypot(masses["positive"] * a.std() / np.sqrt(n), masses["negative"] * b.std() / np.sqrt(n))
    assert abs(estimate - (polynomial_kernel(1.0) + bias[1])) <= Z_MAX * se
    assert abs(estimate - polynomial_kernel(1.0)) > Z_MAX * se


def test_phi_and_the_sphere_density_at_extreme_arguments():
    # fuzz regressions: t^2 overflowed beyond t ~ 1e154 (NaN); binom(m, i) overflowed at m ~ 2^18 (inf * 0)
    t = np.array([1e160, 1e200, 1e300])
    np.testing.assert_allclose(theory.phi(t, 1), np.cos(t), rtol=1e-12)
    for d in (2, 3, 5):
        reference = [float(mpmath.gamma(mpmath.mpf(d) / 2) * (mpmath.mpf(x) / 2) ** (1 - mpmath.mpf(d) / 2)
                           * mpmath.besselj(mpmath.mpf(d) / 2 - 1, mpmath.mpf(x))) for x in t]
        np.testing.assert_allclose(theory.phi(t, d), reference, rtol=1e-10)
    big = theory.radial_density_sphere.numeric(dimension=np.asarray(1), degree=np.asarray(262145),
                                              a=np.asarray(423.0), frequency=np.asarray(20.0))
    assert np.isfinite(big)
    small = theory.radial_density_sphere.numeric(dimension=np.asarray(5), degree=np.asarray(7),
                                                a=np.asarray(2.5), frequency=np.asarray(10.0))
    assert small == pytest.approx(float(theory._sphere_mp(5, 7, mpmath.mpf(2.5), mpmath.mpf(10))), rel=1e-10)
