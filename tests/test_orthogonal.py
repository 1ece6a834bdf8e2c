"""Paper 004, orthogonal features: samplers (rows vs columns, blocks, SORF), the Gaussian Bessel
theory (derivation, closed forms) and the engine's agreement with it."""
import numpy as np
import pytest
import scipy.linalg

from varlab import mc, spectral
from varlab.features import RFF
from varlab.features.samplers import get_sampler
from varlab.features.samplers.orthogonal import fwht, haar_orthogonal
from varlab.mc import Z_MAX
from varlab.mc.models.orthogonal import ORFColumnsModel, ORFModel
from varlab.theory import orthogonal, orthogonal_derivation


def test_blocks_are_orthogonal_rows_with_chi_norms_and_partial_last_block():
    W = get_sampler("orthogonal").frequencies(spectral.Gaussian(1.0), 11, 4, random_state=3)
    for block in (W[0:4], W[4:8], W[8:11]):
        gram = block @ block.T
        np.testing.assert_allclose(gram - np.diag(np.diag(gram)), 0.0, atol=1e-12)
    assert W.shape == (11, 4)


def test_prefix_of_a_draw_is_a_draw():
    """The first j rows of one draw have the same (seeded) construction as a draw of j rows."""
    sampler, g = get_sampler("orthogonal"), spectral.Gaussian(1.0)
    assert sampler.prefix_granularity == 1
    W = sampler.frequencies(g, 8, 4, random_state=5)
    q = haar_orthogonal(np.random.default_rng(5), 2, 4)
    np.testing.assert_allclose(W / np.linalg.norm(W, axis=1, keepdims=True), q.reshape(8, 4), atol=1e-12)


def test_haar_sign_correction():
    """Without the sign correction Q's diagonal would be biased; with it E[Q_11] = 0."""
    q = haar_orthogonal(np.random.default_rng(0), 20000, 3)
    assert abs(q[:, 0, 0].mean()) < Z_MAX * np.sqrt(1 / 3 / 20000)


def test_fwht_is_the_normalised_hadamard_product():
    x = np.random.default_rng(1).standard_normal((3, 16))
    np.testing.assert_allclose(fwht(x), x @ scipy.linalg.hadamard(16) / 4.0, atol=1e-12)
    with pytest.raises(ValueError, match="power-of-two"):
        fwht(np.ones(6))


def test_orientation_is_validated_and_rff_takes_the_samplers():
    with pytest.raises(ValueError, match="orientation"):
        get_sampler("orthogonal", orientation="diagonal").frequencies(spectral.Gaussian(), 4, 4, 0)
    X = np.random.default_rng(0).standard_normal((5, 6))
    for name in ("orthogonal", "structured_orthogonal"):
        Z = RFF(64, kernel="gaussian", sampler=name, random_state=0).fit_transform(X)
        assert Z.shape == (5, 64) and np.all(np.isfinite(Z))


def test_engine_tells_rows_from_columns_through_the_sampler():
    """Through the real sampler: rows unbiased, the column-stacking variant biased (> 4.5 SE)."""
    grid = dict(k=[8], dimension=8, distance=[2.0], n_repetitions=4000, random_state=1)
    rows = mc.simulate(ORFModel(through_sampler=True), **grid)
    columns = mc.simulate(ORFColumnsModel(through_sampler=True), **grid)
    assert np.all(np.abs(rows.mean - rows.target) <= Z_MAX * rows.se_mean)
    assert np.all(np.abs(columns.mean - columns.target) > Z_MAX * columns.se_mean)
    fast = mc.simulate(ORFColumnsModel(), **grid)          # the O(d) law agrees with the sampler
    assert np.all(np.abs(fast.mean - columns.mean) <= Z_MAX * np.hypot(fast.se_mean, columns.se_mean))


def test_fast_path_and_sampler_path_agree_with_the_derived_variance():
    grid = dict(k=[3, 6, 12], dimension=6, distance=[1.0], n_repetitions=4000, random_state=2)
    for model in (ORFModel(through_sampler=True), ORFModel()):
        result = mc.simulate(model, **grid)
        z = (result.variance - result.theory["variance"]) / result.se_variance
        assert np.all(np.abs(z) <= Z_MAX), z


def test_printed_theorem_5_differs_from_the_derivation():
    d, r, k = 16, 1.0, 16
    derived = orthogonal.variance_gap(dimension=d, distance=r, k=k)
    printed = orthogonal.variance_gap_printed(dimension=d, distance=r, k=k)
    assert derived < 0 < printed


def test_closed_forms_small_cases():
    """d = 2: 1F1(2; 1; -x) = e^{-x}(1 - x), so C = e^{-x}(1 - x - e^{-x})."""
    r = np.array([0.1, 1.0, 3.0])
    x = r * r / 2
    np.testing.assert_allclose(orthogonal.pair_covariance(dimension=2, distance=r),
                               np.exp(-x) * (1 - x - np.exp(-x)), rtol=1e-12)
    assert orthogonal.pairs(20, 8) == 2 * 8 * 7 + 4 * 3
    assert orthogonal.variance_gap(dimension=4, distance=1.0, k=1) == 0.0


def test_numeric_quadrature_matches_closed_form():
    import scipy.stats
    law = scipy.stats.chi(5)
    r = np.array([0.5, 1.5, 3.0])
    numeric = orthogonal.covariance_numeric(law, law, 5, r) - np.exp(-r * r)
    np.testing.assert_allclose(numeric, orthogonal.pair_covariance(dimension=5, distance=r), atol=2e-6)


@pytest.mark.parametrize("d", [3, 4])
def test_symbolic_derivation(d):
    assert orthogonal_derivation.bessel_series_check(d) == 0
    assert orthogonal_derivation.series_to_hypergeometric_check(d) == 0
    assert orthogonal_derivation.chi_square_moment_check(d, 3) == 0
    assert orthogonal_derivation.kernel_check(d) == 0


def test_symbolic_kummer_and_iid_variance():
    assert orthogonal_derivation.kummer_check(4) == 0
    assert orthogonal_derivation.iid_variance_check() == 0
