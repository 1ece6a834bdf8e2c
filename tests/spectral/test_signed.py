"""Paper 004, signed measures and GRFF/GORF: decompositions, masses, samplers, the feature map
and the variance theory against the engine."""
import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.exceptions import NotFittedError

from varlab import mc
from varlab.features import GRFF
from varlab.mc import Z_MAX
from varlab.mc.models.signed import GORFModel, GRFFModel
from varlab.spectral.signed import DeltaGaussian, GaussianMixture, polynomial_total_variation_finite
from varlab.theory import orthogonal
from varlab.theory import signed as theory


def test_sign_and_jordan_decompositions():
    sign = DeltaGaussian((1.0, -0.5), (1.0, 1.5))
    jordan = DeltaGaussian((1.0, -0.5), (1.0, 1.5), decomposition="jordan", dimension=3)
    for m in (sign, jordan):
        masses = m.total_masses()
        assert masses["positive"] - masses["negative"] == pytest.approx(0.5, abs=1e-10)
    assert jordan.total_mass() < sign.total_mass()        # the minimal decomposition
    z = np.array([[0.3, 0.0, 0.0], [1.0, 1.0, 0.0]])
    np.testing.assert_allclose(sign.kernel(z), sign.kernel_of_distance(np.linalg.norm(z, axis=1)), rtol=1e-12)
    np.testing.assert_allclose(jordan.kernel(z), sign.kernel(z), atol=1e-4)   # 200-node quadrature


def test_jordan_rejection_sampler_reproduces_the_kernel():
    m = DeltaGaussian((1.0, -0.5), (1.0, 1.5), decomposition="jordan", dimension=3)
    n = 40000
    W = m.rvs_part("positive", n, 3, random_state=0)
    V = m.rvs_part("negative", n, 3, random_state=1)
    z = np.array([0.8, 0.0, 0.0])
    masses = m.total_masses()
    a, b = np.cos(W @ z), np.cos(V @ z)
    estimate = masses["positive"] * a.mean() - masses["negative"] * b.mean()
    se = np.sqrt(masses["positive"] ** 2 * a.var() / n + masses["negative"] ** 2 * b.var() / n)
    assert abs(estimate - m.kernel_of_distance(0.8)) <= Z_MAX * se


def test_bad_arguments():
    with pytest.raises(ValueError, match="dimension"):
        DeltaGaussian(decomposition="jordan")
    with pytest.raises(ValueError, match="decomposition"):
        DeltaGaussian(decomposition="best")
    with pytest.raises(ValueError, match="same length"):
        GaussianMixture((1.0, 2.0), (1.0,))
    with pytest.raises(ValueError, match="'orthogonality' parameter of GRFF must be a str among"):
        GRFF(n_components=4, sampler="orthogonal", orthogonality="some").fit(np.ones((2, 4)))
    with pytest.raises(ValueError, match="'n_components' parameter of GRFF must be an int in the range"):
        GRFF(n_components=0).fit(np.ones((2, 4)))
    for method in ("transform", "right", "kernel_estimate"):
        with pytest.raises(NotFittedError, match="not fitted"):
            getattr(GRFF(), method)(np.ones((2, 4)))
    assert not hasattr(GRFF(), "left")                    # the left map is transform


def test_polynomial_kernel_total_variation():
    assert polynomial_total_variation_finite(2, 1) and not polynomial_total_variation_finite(16, 1)


@pytest.mark.parametrize("sampler, orthogonality", [("iid", "separate"), ("orthogonal", "mutual"),
                                                    ("orthogonal", "separate")])
def test_grff_left_right_estimate_the_kernel(sampler, orthogonality):
    X = np.random.default_rng(0).standard_normal((6, 8)) * 0.4
    Y = np.random.default_rng(1).standard_normal((5, 8)) * 0.4
    K = DeltaGaussian().kernel_of_distance(cdist(X, Y))
    def estimate(seed):              # left(X) right(Y)' of one map (a second fit draws the same map)
        grff = GRFF(n_components=8, sampler=sampler, orthogonality=orthogonality, random_state=seed).fit(X)
        return grff.transform(X) @ grff.right(Y).T

    estimates = np.array([estimate(seed) for seed in range(600)])
    f = GRFF(n_components=8, sampler=sampler, orthogonality=orthogonality, random_state=0).fit(X)
    np.testing.assert_array_equal(f.kernel_estimate(X, Y), estimates[0])
    assert estimates.shape[1:] == (6, 5)
    se = estimates.std(axis=0, ddof=1) / np.sqrt(len(estimates))
    assert np.all(np.abs(estimates.mean(axis=0) - K) <= Z_MAX * se + 1e-12)


def test_mutual_rows_are_orthogonal():
    f = GRFF(n_components=4, sampler="orthogonal", orthogonality="mutual", random_state=0).fit(np.ones((1, 8)))
    rows = np.vstack([f.positive_frequencies_, f.negative_frequencies_])
    gram = rows @ rows.T
    np.testing.assert_allclose(gram - np.diag(np.diag(gram)), 0.0, atol=1e-12)


def test_variance_theory_single_gaussian_part_uses_the_closed_form():
    part = GaussianMixture((1.0,), (2.0,))
    np.testing.assert_allclose(theory.part_covariance(part, 6, np.array([1.0, 3.0])),
                               orthogonal.pair_covariance(dimension=6, distance=np.array([0.5, 1.5])))
    two = GaussianMixture((0.5, 0.5), (2.0, 2.0))                        # same law, quadrature path
    law = two.norm_law(6)
    numeric = orthogonal.covariance_numeric(law.quadrature(160), law.quadrature(160), 6, [1.0, 3.0])
    np.testing.assert_allclose(numeric - two.kernel_of_distance(np.array([1.0, 3.0])) ** 2,
                               orthogonal.pair_covariance(dimension=6, distance=np.array([0.5, 1.5])), atol=2e-6)


def test_engine_agrees_with_the_variances_and_the_sampler_path():
    grid = dict(k=[2, 4, 12], dimension=8, distance=[1.0], n_repetitions=4000, random_state=4)
    for model in (GRFFModel(), GORFModel(), GORFModel(through_sampler=True)):
        result = mc.simulate(model, **grid)
        assert np.all(np.abs(result.mean - result.target) <= Z_MAX * result.se_mean)
        z = (result.variance - result.theory["variance"]) / result.se_variance
        assert np.all(np.abs(z) <= Z_MAX), (model, z)


# --- fuzz findings (issue 12) ---------------------------------------------------------------------
@pytest.mark.parametrize("r", ["sparse", "a", np.array(["1"]), [1.0, np.inf], -1.0])
def test_delta_gaussian_kernel_of_distance_names_r(r):
    """r was converted with np.asarray(r, float): a sparse matrix or a string gave numpy's
    messages ('setting an array element with a sequence'), inf and negative r no error at all."""
    import scipy.sparse as sp

    m = DeltaGaussian()
    with pytest.raises((TypeError, ValueError), match=r"^r must"):
        m.kernel_of_distance(sp.csr_matrix((0, 0)) if isinstance(r, str) and r == "sparse" else r)
    np.testing.assert_allclose(m.kernel_of_distance([0.5, 1e308]),
                               [np.exp(-0.125) - np.exp(-0.00125), 0.0], rtol=1e-14)


def test_gaussian_mixture_density_is_the_mixture_of_gaussian_densities():
    """GaussianMixture.density raised NotImplementedError."""
    import scipy.stats

    g = GaussianMixture((1.0, 3.0), (0.5, 2.0))
    w = np.array([[0.0, 0.0], [1.0, -2.0], [0.3, 0.1]])
    expected = (0.25 * scipy.stats.multivariate_normal(np.zeros(2), np.eye(2) / 0.25).pdf(w)
                + 0.75 * scipy.stats.multivariate_normal(np.zeros(2), np.eye(2) / 4.0).pdf(w))
    np.testing.assert_allclose(g.density(w), expected, rtol=1e-13)
    np.testing.assert_allclose(g.logdensity(w), np.log(expected), rtol=1e-13)
    assert g.density([[1e200, 0.0]])[0] == 0.0 and g.logdensity([[1e200, 0.0]])[0] == -np.inf


@pytest.mark.parametrize("model", ["grff", "gorf", "gorf_separate"])
def test_signed_models_refuse_phases_beyond_float64(model):
    """distance = 1e308 in d = 1: cos(distance <w, u>) was NaN and the engine raised
    FloatingPointError ('non-finite estimate'); now a ValueError naming distance."""
    with pytest.raises(ValueError, match=r"^distance=1e\+308 is too large"):
        mc.simulate(model, k=[1, 2], n_repetitions=10, random_state=0, dimension=1, distance=1e308)
    result = mc.simulate(model, k=[1, 2], n_repetitions=10, random_state=0, dimension=1, distance=1e300)
    assert np.all(np.isfinite(result.mean))


def test_gorf_blocks_of_repetitions_stay_bounded_at_large_dimension():
    """d = 10^6: each repetition draws a whole block of d/2 rows per part, and 4096 repetitions
    per engine block were 4 * 10^9 numbers (MemoryError); the model now lowers its block budget
    (about MAX_ELEMENTS numbers per block) and slabs of columns are whole blocks."""
    from varlab.mc.models._phases import MAX_ELEMENTS

    model = GORFModel()
    budget = model.samples_per_block(dimension=10 ** 6, distance=1.0)
    assert budget * 8 * (10 ** 6 // 2) <= MAX_ELEMENTS and model.granularity(dimension=10 ** 6, distance=1.0) == 5 * 10 ** 5
    assert model.samples_per_block(dimension=16, distance=1.0) == 2 ** 16        # unchanged at small d
    result = mc.simulate("gorf", k=[1, 2], n_repetitions=3, random_state=0, dimension=10 ** 6, distance=1.0)
    assert np.all(np.isfinite(result.mean))
    with pytest.raises(ValueError, match=r"^dimension=20000 is too large for model 'gorf'"):
        mc.simulate(GORFModel(through_sampler=True), k=[1], n_repetitions=2, random_state=0,
                    dimension=20000, distance=1.0)


def test_bandwidths_and_the_jordan_range_are_validated():
    """bandwidths = 5e-324 gave frequencies -inf (sign) and NaN masses (jordan); bandwidths =
    1e-300 with decomposition="jordan" never returned (the density's terms underflowed to 0, so
    the rejection sampler accepted nothing); a near-empty Jordan part (mass 1e-9 of its proposal)
    ran ~10^9 proposals per draw."""
    for decomposition in ("sign", "jordan"):
        with pytest.raises(ValueError, match=r"^bandwidths must be at least 3.56e-307"):
            DeltaGaussian((1.0,), (5e-324,), decomposition=decomposition, dimension=2)
    with pytest.raises(ValueError, match=r"^dimension=2 with bandwidths \[1e-300\] is outside the float64 range"):
        DeltaGaussian((1.0,), (1e-300,), decomposition="jordan", dimension=2)
    with pytest.raises(ValueError, match=r"^d=1000000 with bandwidths"):
        DeltaGaussian().jordan_masses(10 ** 6)
    assert np.isfinite(DeltaGaussian((1.0,), (1e-300,)).rvs_part("positive", 4, 2, 0)).all()
    near_empty = DeltaGaussian((1.0, -0.500001), (1.0, 2.0), decomposition="jordan", dimension=1)
    assert 0 < near_empty.total_masses()["negative"] < 1e-8
    with pytest.raises(ValueError, match=r"^the Jordan part \(negative\) has mass .* less than 1e-06"):
        near_empty.rvs_part("negative", 3, 1, 0)
    assert near_empty.rvs_part("positive", 3, 1, 0).shape == (3, 1)


def test_mixture_with_several_components_draws_them_by_their_weights():
    """Frequencies of a two-component mixture: E cos<w, z> is the mixture's kernel and the share
    of draws with |w| < 1 its radial CDF (a chi law per component), within Z_MAX SE; drawing the
    components uniformly (not by their weights) moves the mean by 0.12, about 60 SE."""
    from scipy import stats

    mixture, n, d = GaussianMixture(weights=(0.2, 0.8), lengthscales=(1.0, 10.0)), 40000, 2
    W = mixture.rvs(n, d, random_state=11)
    z = np.array([0.6, 0.8])
    values = np.cos(W @ z)
    assert abs(values.mean() - float(mixture.kernel(z))) <= Z_MAX * values.std(ddof=1) / np.sqrt(n)
    inside = np.linalg.norm(W, axis=1) < 1.0
    share = float(np.sum(mixture.weights * stats.chi.cdf(mixture.bandwidths, d)))
    assert abs(inside.mean() - share) <= Z_MAX * np.sqrt(share * (1 - share) / n)
