"""Paper 003: samplers (Sobol, scrambled Sobol, antithetic, moment matching), the theory and its
sympy re-derivations, varlab's exact law of E_MM against a direct simulation, and the models."""
from __future__ import annotations

import numpy as np
import pytest
import sympy

from varlab import spectral
from varlab.features import RFF
from varlab.features.samplers import get_sampler
from varlab.features.samplers.moment_matching import moment_match
from varlab.features.samplers.qmc import sobol_points
from varlab.mc import Z_MAX, simulate
from varlab.theory import moment_matching as mm
from varlab.theory import moment_matching_derivation as derivation


# --- samplers ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("root", ["cholesky", "symmetric"])
@pytest.mark.parametrize("divisor, scale", [("m-1", 1), ("m", 0)])
def test_moment_matching_matches_the_first_two_moments_exactly(root, divisor, scale):
    m, d, bandwidth = 40, 7, 0.5
    sampler = get_sampler("moment_matching", root=root, divisor=divisor)
    W = sampler.frequencies(spectral.Gaussian(bandwidth), m, d, random_state=3)
    np.testing.assert_allclose(W.mean(axis=0), 0.0, atol=1e-13)
    covariance = (W - W.mean(0)).T @ (W - W.mean(0)) / (m - scale)
    np.testing.assert_allclose(covariance, np.eye(d) / bandwidth ** 2, atol=1e-11)
    if root == "cholesky":      # A lower triangular: the first coordinate is only standardised
        raw = spectral.Gaussian(bandwidth).rvs(m, d, 3)
        first = (raw[:, 0] - raw[:, 0].mean()) / raw[:, 0].std(ddof=scale) / bandwidth
        np.testing.assert_allclose(W[:, 0], first, rtol=1e-10)


def test_moment_matching_singular_covariance():
    g = spectral.Gaussian(1.0)
    with pytest.raises(ValueError, match=r"m=5 .*d=5.*m >= d \+ 1"):
        get_sampler("moment_matching").frequencies(g, 5, 5, 0)
    with pytest.raises(ValueError, match="root must be one of"):
        get_sampler("moment_matching", root="qr").frequencies(g, 8, 2, 0)
    W = get_sampler("moment_matching", singular="diagonal").frequencies(g, 5, 9, 0)
    np.testing.assert_allclose(W.mean(0), 0.0, atol=1e-13)
    np.testing.assert_allclose(W.var(0, ddof=1), 1.0, rtol=1e-12)
    with pytest.raises(ValueError, match="m must be >= 2"):
        moment_match(np.zeros((1, 3)))


def test_antithetic_pairs_and_odd_m():
    W = get_sampler("antithetic").frequencies(spectral.Gaussian(2.0), 7, 3, random_state=1)
    np.testing.assert_array_equal(W[1::2], -W[0:6:2])
    W8 = get_sampler("antithetic").frequencies(spectral.Gaussian(2.0), 8, 3, random_state=1)
    np.testing.assert_array_equal(W, W8[:7])


def test_sobol_points_and_blocks():
    U = sobol_points(8, 3, scramble=False, block=1)
    # a (0, 3, 1)-net in each coordinate: one point per interval of length 1/8
    assert all(sorted(np.floor(U[:, j] * 8).astype(int)) == list(range(8)) for j in range(3))
    fixed = get_sampler("sobol", block=3)
    np.testing.assert_array_equal(fixed.frequencies(spectral.Gaussian(), 16, 2, 0),
                                  fixed.frequencies(spectral.Gaussian(), 16, 2, 99))
    with pytest.raises(ValueError, match="block must be"):
        get_sampler("sobol", block=0).frequencies(spectral.Gaussian(), 16, 2, 0)
    # m not a power of two: the first m points of the next net
    np.testing.assert_array_equal(sobol_points(5, 2, scramble=False, block=1),
                                  sobol_points(8, 2, scramble=False, block=1)[:5])


@pytest.mark.parametrize("name", ["sobol", "scrambled_sobol", "antithetic", "moment_matching"])
def test_rff_gaussian_kernel_through_each_sampler(name):
    X = np.random.default_rng(0).standard_normal((40, 6))
    from scipy.spatial.distance import cdist
    K = np.exp(-0.1 * cdist(X, X, "sqeuclidean"))
    a = RFF(512, gamma=0.1, kernel="gaussian", sampler=name, random_state=4).fit_transform(X)
    b = RFF(512, gamma=0.1, kernel="gaussian", sampler=name, random_state=4).fit_transform(X)
    np.testing.assert_array_equal(a, b)
    assert np.linalg.norm(a @ a.T - K) / np.linalg.norm(K) < 0.2


# --- theory -----------------------------------------------------------------------------------------
def test_derivations_match_the_formulas():
    b1, b2 = derivation.optimal_coefficients("complex")
    k = sympy.exp(-derivation.y / 2)
    assert sympy.simplify(b1 - k) == 0 and sympy.simplify(b2 - k) == 0          # Thm 1
    c1, c2 = derivation.optimal_coefficients("cosine")
    assert c1 == 0 and sympy.simplify(c2 - k) == 0
    m = mm.cv_optimal_variance.symbol("m")
    assert sympy.simplify(derivation.in_s(derivation.optimal_variance("complex"))
                          - mm.cv_optimal_variance.expr * m) == 0              # Cor. 1, Eq. (12)
    assert sympy.simplify(derivation.in_s(derivation.optimal_variance("cosine"))
                          - mm.cv_cosine_optimal_variance.expr * m) == 0
    corr1, corr2 = derivation.squared_correlations()
    rho1, rho2 = derivation.paper_rho_squared()
    assert sympy.simplify(corr1 - rho1) == 0 and sympy.simplify(corr2 - rho2 / 2) == 0
    assert sympy.simplify(derivation.in_s(rho1) - mm.rho1_squared.expr) == 0
    # Eq. (12) as written equals the closed form
    vmc = mm.mc_variance.expr
    assert sympy.simplify(vmc * (1 - mm.rho1_squared.expr - mm.rho2_squared.expr / 2)
                          - mm.cv_optimal_variance.expr) == 0


def test_sphere_moments_are_the_0f1_series():
    for n in (1, 2, 5, 12):
        assert sympy.simplify(derivation.sphere_moment_series(n, 5) - derivation.hyp0f1_series(n, 5)) == 0


@pytest.mark.parametrize("divisor", ["m", "m-1"])
def test_bias_is_of_order_one_over_m(divisor):
    """The sympy limit of m bias / k is the closed form claim varlab.003.mm_bias uses."""
    from paper_checks.p003.claims import BIAS_LIMIT

    coefficient = BIAS_LIMIT[divisor]
    y = derivation.y
    assert sympy.simplify(derivation.mm_bias_coefficient(divisor) - coefficient(y)) == 0
    s, m = 1.3, 10 ** 5
    bias = mm.mm_moments(s, m, divisor)["bias"] / mm.kernel(scaled_distance=s)
    assert m * bias == pytest.approx(coefficient(s * s), rel=1e-3)


def test_exact_mm_law_against_a_direct_simulation():
    """The sphere law: mean, complex and cosine variance of E_MM from whitened Gaussian draws."""
    rng = np.random.default_rng(0)
    n, s = 20_000, 1.3
    for d, m, root, divisor in [(1, 4, "cholesky", "m-1"), (6, 8, "symmetric", "m")]:
        W = moment_match(rng.standard_normal((n, m, d)), root=root, divisor=divisor)
        t = W @ (np.ones(d) / np.sqrt(d) * s)
        real, imaginary = np.cos(t).mean(1), np.sin(t).mean(1)
        exact = mm.mm_moments(s, m, divisor)
        cosine = mm.mm_moments(s, m, divisor, "cosine")["variance"]
        assert abs(real.mean() - exact["mean"]) <= Z_MAX * real.std() / np.sqrt(n)
        for sample, theory in ((real ** 2 + imaginary ** 2, exact["variance"] + exact["mean"] ** 2),
                               (real ** 2, cosine + exact["mean"] ** 2)):
            assert abs(sample.mean() - theory) <= Z_MAX * sample.std() / np.sqrt(n)


def test_mm_at_two_frequencies_is_a_constant():
    """m = 2: t = (t1, -t1) with t1^2 = D s^2 / 2, so E_MM = cos(s sqrt(D/2)) exactly."""
    assert mm.mm_variance_divisor_m(scaled_distance=2.0, mm_dof=1) == 0.0
    assert mm.mm_mean_divisor_m(scaled_distance=2.0, mm_dof=1) == pytest.approx(np.cos(2.0), rel=1e-12)
    assert mm.mm_mean_divisor_m_minus_1(scaled_distance=2.0, mm_dof=1) == pytest.approx(
        np.cos(2.0 / np.sqrt(2)), rel=1e-12)


def test_cv_variance_at_the_optimum_is_eq12():
    s = np.array([0.3, 1.0, 2.5])
    k = np.exp(-s * s / 2)
    np.testing.assert_allclose(mm.cv_variance(s, 7, k, k), mm.cv_optimal_variance(scaled_distance=s, m=7),
                               rtol=1e-12)
    np.testing.assert_allclose(mm.cv_variance(s, 7, 0.0, k, "cosine"),
                               mm.cv_cosine_optimal_variance(scaled_distance=s, m=7), rtol=1e-10)


# --- models -----------------------------------------------------------------------------------------
def test_models_agree_with_theory_and_mm_law_is_d_free():
    kw = dict(n_repetitions=4000, random_state=5, scaled_distance=[0.7, 1.5])
    for model, options in (("mm_cv1", {}), ("mm_cv2", {"features": "cosine"}), ("mm_antithetic", {})):
        r = simulate(model, k=[2, 20], dimension=1, **kw, **options)
        assert np.all(np.abs(r.variance - r.theory["variance"]) <= Z_MAX * r.se_variance)
    r = simulate("mm_moment_matching", k=[12, 40], dimension=10, root="symmetric", divisor="m", **kw)
    assert np.all(np.abs(r.variance - r.theory["variance"]) <= Z_MAX * r.se_variance)
    assert np.all(np.abs(r.mse - r.theory["mse"]) <= Z_MAX * r.se_mse)
    with pytest.raises(ValueError, match="not valid"):
        simulate("mm_moment_matching", k=[10], dimension=10, **kw)
    other = simulate("mm_moment_matching", k=[12, 40], dimension=10, root="symmetric", divisor="m",
                     n_jobs=2, backend="threading", chunk_size=1, **kw)
    assert other == r


# --- random-phase cosine features (varlab's own) ------------------------------------------------------
def test_phase_derivation_and_formulas():
    """sympy: 2 cos(a) cos(a - t) = cos t + noise with E_a noise = 0, E_a noise^2 = 1/2; the
    per-feature variance is 1 + k(2c)/2 - k(c)^2 (1/2 above a cos/sin pair's (1 + k(2c))/2 - k^2)
    and equals 000's Eq. (18) at 2 gamma (1 - rho) = y."""
    from varlab.theory import rff

    assert derivation.phase_noise_moments() == (0, sympy.Rational(1, 2))
    y = derivation.y
    per_feature = derivation.phase_feature_variance()
    k = lambda scale: sympy.exp(-scale ** 2 * y / 2)      # noqa: E731  k(scale c)
    assert sympy.simplify(per_feature - (1 + k(2) / 2 - k(1) ** 2)) == 0
    assert sympy.simplify(per_feature - ((1 + k(2)) / 2 - k(1) ** 2) - sympy.Rational(1, 2)) == 0
    m = mm.mc_phase_variance.symbol("m")
    assert sympy.simplify(derivation.in_s(per_feature) - mm.mc_phase_variance.expr * m) == 0
    rho, gamma = 0.3, 0.8
    s = np.sqrt(2 * gamma * (1 - rho))
    assert mm.mc_phase_variance(scaled_distance=s, m=1) == pytest.approx(rff.variance(rho=rho, gamma=gamma), rel=1e-13)
    s = np.array([0.05, 0.7, 2.0, 9.0])
    half = 0.5 / 6
    np.testing.assert_allclose(mm.cv_phase_optimal_variance(scaled_distance=s, m=6),
                               mm.cv_cosine_optimal_variance(scaled_distance=s, m=6) + half, rtol=1e-13)
    np.testing.assert_allclose(mm.cv_variance(s, 6, 0.3, np.exp(-s * s / 2), "phase"),
                               mm.cv_phase_optimal_variance(scaled_distance=s, m=6), rtol=1e-10)
    np.testing.assert_allclose(mm.antithetic_phase_variance(scaled_distance=s, m=6),
                               mm.antithetic_variance(scaled_distance=s, m=6) + half, rtol=1e-13)
    for divisor in ("m", "m-1"):
        np.testing.assert_allclose(mm.mm_moments(s, 6, divisor, "phase")["variance"],
                                   mm.mm_moments(s, 6, divisor, "cosine")["variance"] + half, rtol=1e-13)
    with pytest.raises(ValueError, match="features must be one of"):
        mm.mm_moments(1.0, 6, "m", "sine")


def test_phase_models_agree_with_theory():
    kw = dict(n_repetitions=4000, random_state=11, scaled_distance=[0.6, 1.8], features="phase")
    for model, k, d in (("mm_mc", [1, 10], 1), ("mm_cv2", [2, 20], 1), ("mm_antithetic", [2, 20], 1),
                        ("mm_moment_matching", [7, 30], 6)):
        r = simulate(model, k=k, dimension=d, **kw)
        assert np.all(np.abs(r.variance - r.theory["variance"]) <= Z_MAX * r.se_variance), model
        assert np.all(np.abs(r.mse - r.theory["mse"]) <= Z_MAX * r.se_mse), model


@pytest.mark.parametrize("sampler", ["iid", "moment_matching"])
def test_phase_law_is_what_rff_gives(sampler):
    """RFF(kernel="gaussian", sampler=...) with its default random phases, fitted afresh 800
    times on two points: mean and variance of z(x).z(y) are the models' random-phase law (the
    phases' 1/(2m) = 0.0625 is ~20 SE of the variance)."""
    m, d, gamma, s = 8, 3, 0.25, 1.2
    X = np.zeros((2, d))
    X[1, 0] = s / np.sqrt(2 * gamma)                  # s^2 = |c|^2 / sigma^2 = 2 gamma |c|^2
    estimates = np.array([np.prod(RFF(m, gamma=gamma, kernel="gaussian", sampler=sampler,
                                      random_state=seed).fit_transform(X), axis=0).sum()
                          for seed in range(800)])
    if sampler == "iid":
        mean, variance = mm.kernel(scaled_distance=s), mm.mc_phase_variance(scaled_distance=s, m=m)
    else:
        law = mm.mm_moments(s, m, "m-1", "phase")
        mean, variance = law["mean"], law["variance"]
    n = estimates.size
    assert abs(estimates.mean() - mean) <= Z_MAX * estimates.std() / np.sqrt(n)
    squared = (estimates - mean) ** 2
    assert abs(squared.mean() - variance) <= Z_MAX * squared.std() / np.sqrt(n)


@pytest.mark.parametrize("root, divisor, singular, m", [("cholesky", "m-1", "error", 9),
                                                        ("symmetric", "m", "error", 12),
                                                        ("cholesky", "m", "diagonal", 4)])
def test_whitened_projections_are_the_samplers_whitening(root, divisor, singular, m):
    from varlab.mc.models.moment_matching import whitened_projections

    rng = np.random.default_rng(2)
    W = rng.standard_normal((5, m, 6))
    c = rng.standard_normal((5, 6))
    expected = np.matmul(moment_match(W, root=root, divisor=divisor, singular=singular), c[:, :, None])[:, :, 0]
    np.testing.assert_allclose(whitened_projections(W.copy(), c, root=root, divisor=divisor, singular=singular),
                               expected, rtol=1e-10, atol=1e-12)
    if singular == "diagonal":
        with pytest.raises(ValueError, match="singular"):
            whitened_projections(W.copy(), c, root=root, divisor=divisor)


# --- experiments (Figs. 1-3, Table 1) ---------------------------------------------------------------
def test_gram_parts_spectral_norm_and_pcr_against_direct_forms():
    from scipy.spatial.distance import cdist

    from paper_checks.p003 import experiments as E

    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 4))
    sigma = 1.5
    K = np.exp(-cdist(X, X, "sqeuclidean") / (2 * sigma ** 2))
    for name in E.SAMPLERS:
        W = E.frequencies(name, 32, 4, sigma, rng)
        Z = np.exp(-1j * (X @ W.T)) / np.sqrt(32)
        direct = Z @ Z.conj().T
        if name in ("CV1", "CV2"):                    # Eq. (11) entrywise, beta* = K
            C = X[:, None, :] - X[None, :, :]
            direct = direct + K * 1j * (C @ W.mean(0))
            if name == "CV2":
                quadratic = np.einsum("lhd,md->lhm", C, W) ** 2
                direct = direct + 0.5 * K * (quadratic.mean(-1) - (C ** 2).sum(-1) / sigma ** 2)
        estimate = E.gram_estimate(name, X, W, sigma, K)
        np.testing.assert_allclose(estimate, direct, atol=1e-12)
        E_ = K - estimate
        assert E.spectral_norm(E_) == pytest.approx(np.max(np.abs(np.linalg.eigvalsh(E_))), rel=1e-10)
    y = X @ rng.standard_normal(4) + 0.1 * rng.standard_normal(60)
    for m in (8, 64):                                 # 2m < n and 2m > n
        P = X @ E.frequencies("MC", m, 4, sigma, rng).T
        F = np.hstack([np.cos(P), np.sin(P)])
        A, r = F[:40] - F[:40].mean(0), y[:40] - y[:40].mean()
        U, S, Vt = np.linalg.svd(A, full_matrices=False)
        rank = int(np.sum(S ** 2 > S[0] ** 2 * max(A.shape) * np.finfo(float).eps))
        for j, p in enumerate((3, 10 ** 4)):
            q = min(p, rank)
            svd = (F[40:] - F[:40].mean(0)) @ (Vt[:q].T @ ((U[:, :q].T @ r) / S[:q])) + y[:40].mean()
            np.testing.assert_allclose(E.pcr_predictions(F[:40], y[:40], F[40:], (3, 10 ** 4))[j], svd,
                                       rtol=1e-6, atol=1e-8)


def test_lr500_recipe_is_reproducible_and_cached():
    from paper_checks.p003 import experiments as E

    X, y = E.lr500(n=50, d=20, random_state=4)
    X2, y2 = E.lr500(n=50, d=20, random_state=4)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    R = E._correlation(20, 4)[0]
    np.testing.assert_allclose(np.diag(R), 1.0, rtol=1e-12)
    assert not R.flags.writeable
    assert E._correlation(20, 4) is E._correlation(20, 4)


def test_experiment_pieces_are_kept_in_the_budget_store(tmp_path, monkeypatch):
    """A piece is computed once per store and read back exactly (JSON keeps floats), from the
    store file by a fresh Store, as the full run resumes."""
    from paper_checks.p003 import experiments as E
    from varlab.claims import Budget, Store

    budget = Budget("unit", 10).stored_in(tmp_path)
    calls = []

    def run(unit):
        calls.append(unit)
        return {"values": {"MC": [[0.1, 1 / 3]], "MM": [[np.pi, 2.0]]}}

    monkeypatch.setattr(E, "run_piece", run)
    units = [E._pcr_unit(budget, "lr500", 0)]
    first, = E._run(budget, units)
    again, = E._run(budget, units)
    assert len(calls) == 1
    stored = Store(tmp_path / f"{E.STORE_NAME}.jsonl").get(E.pcr_key(budget, "lr500", 0))
    for name in ("MC", "MM"):
        np.testing.assert_array_equal(first[name], again[name])
        np.testing.assert_array_equal(np.asarray(stored["values"][name]), first[name])
    assert first["MC"][0, 1] == 1 / 3 and "seconds" in stored


def test_full_budget_pieces_keep_their_stored_names():
    """The full run resumes from its store simulations/p003/experiments.jsonl (the budget's
    ``stored_in`` directory): the names the experiments look up are the stored ones, every piece of
    the full definition is there, and Fig. 3's sigma_10NN piece is Figs. 1-2's piece at that m."""
    from pathlib import Path

    from paper_checks.p003 import experiments as E
    from varlab.claims import BUDGETS, store_for

    directory = Path(__file__).resolve().parents[2] / "simulations" / "p003"
    full = BUDGETS["full"].stored_in(directory)
    pieces = E.pieces(full)
    store = store_for(full, E.STORE_NAME)
    assert store.path == directory / "experiments.jsonl"
    for keys in pieces.values():
        for key in keys:
            record = store.get(key)
            assert record["seconds"] > 0 and set(record["values"]) <= set(E.SAMPLERS)
    assert pieces[("Figs. 1-2", "lr500")] == [f"full-20161122-gram-lr500-m{m}-n1000-r100" for m in (512, 1024, 2048)]
    assert len(pieces[("Figs. 1-2", "texture")]) == 7
    for name in E.sizes(full)["sets3"]:
        assert pieces[("Fig. 3", name)][E.BANDWIDTH_FACTORS.index(1.0)] == pieces[("Figs. 1-2", name)][-1]
    assert E.pcr_key(full, "lr500", 4) == "full-20161122-pcr-lr500-n8000-m4096-trial4"


# --- fuzz findings (issue 12) ---------------------------------------------------------------------
def test_moment_matching_at_extreme_scales():
    """RFF(gamma=5e-324, sampler="moment_matching") raised OverflowError: the covariance scale
    was 1/bandwidth**2 with bandwidth = 4.5e161. And draws of scale 2^-600 gave a sample
    covariance that underflowed to 0 (Cholesky failed): moment_match now divides each slice by
    a power of two, exactly, so the result does not depend on the scale, bit for bit."""
    W = np.random.default_rng(0).standard_normal((2, 9, 3))
    for power in (-600, 600, -1070 + 60):
        np.testing.assert_array_equal(moment_match(np.ldexp(W, power)), moment_match(W))
    rff = RFF(8, gamma=5e-324, sampler="moment_matching", random_state=0).fit(np.ones((3, 2)))
    assert np.all(np.isfinite(rff.frequencies_)) and np.all(rff.frequencies_ != 0)
    W = get_sampler("moment_matching").frequencies(spectral.Gaussian(1e200), 9, 3, random_state=1)
    np.testing.assert_allclose(np.cov(np.ldexp(W, 664), rowvar=False) * (1e200 * 2.0 ** -664) ** 2, np.eye(3),
                               atol=1e-12)
