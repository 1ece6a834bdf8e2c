"""Paper 004, orthogonal features: samplers (rows vs columns, blocks, SORF), the Gaussian Bessel
theory (derivation, closed forms) and the engine's agreement with it."""
import numpy as np
import pytest
import scipy.linalg

from varlab import mc, spectral
from varlab.features import RFF
from varlab.features.samplers import get_sampler
from varlab.features.samplers.orthogonal import fwht, haar_orthogonal, sorf_directions
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


def test_householder_blocks_are_orthogonal_and_haar(monkeypatch):
    """Stewart's method (from d = HOUSEHOLDER_FROM on): orthogonal to rounding at d = 200, and Haar
    at d = 3 (forced there): E Q_11 = 0 (no sign bias), E Q_11^2 = 1/3, E Q_11^4 = 1/5,
    E tr Q = 0, E (tr Q)^2 = 1."""
    from varlab.features.samplers import orthogonal as module

    q = haar_orthogonal(np.random.default_rng(0), 2, 200)
    for block in q:
        np.testing.assert_allclose(block @ block.T, np.eye(200), atol=1e-13)
    monkeypatch.setattr(module, "HOUSEHOLDER_FROM", 1)
    n = 20000
    q = haar_orthogonal(np.random.default_rng(1), n, 3)
    np.testing.assert_allclose(q[:5] @ np.swapaxes(q[:5], 1, 2), np.broadcast_to(np.eye(3), (5, 3, 3)), atol=1e-14)
    trace = np.trace(q, axis1=1, axis2=2)
    for values, expected in ((q[:, 0, 0], 0.0), (q[:, 0, 0] ** 2, 1 / 3), (q[:, 0, 0] ** 4, 1 / 5),
                             (trace, 0.0), (trace ** 2, 1.0)):
        assert abs(values.mean() - expected) <= Z_MAX * values.std() / np.sqrt(n)


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


def test_bessel_terms_are_finite_at_large_dimension():
    """phi_d and the quadrature of the Bessel term at d = 512, where scipy's hyp0f1 is NaN."""
    import mpmath
    import scipy.stats
    t = np.array([0.5, 3.0, 20.0])
    np.testing.assert_allclose(orthogonal.phi(t, 512), [float(mpmath.hyp0f1(256, -v * v / 4)) for v in t],
                               rtol=1e-12)
    r = np.array([0.05, 0.1, 0.3])
    law = scipy.stats.chi(512)
    np.testing.assert_allclose(orthogonal.covariance_numeric(law, law, 512, r),
                               [float(mpmath.hyp1f1(512, 256, -v * v / 2)) for v in r], atol=2e-6)


@pytest.mark.parametrize("d", [3, 4])
def test_symbolic_derivation(d):
    assert orthogonal_derivation.bessel_series_check(d) == 0
    assert orthogonal_derivation.series_to_hypergeometric_check(d) == 0
    assert orthogonal_derivation.chi_square_moment_check(d, 3) == 0
    assert orthogonal_derivation.kernel_check(d) == 0


def test_symbolic_kummer_and_iid_variance():
    assert orthogonal_derivation.kummer_check(4) == 0
    assert orthogonal_derivation.iid_variance_check() == 0


# --- fuzz findings (issue 12) ---------------------------------------------------------------------
def test_orthogonal_samplers_refuse_what_cannot_fit_and_sorf_computes_only_the_rows_it_returns():
    """ORF/SORF built (blocks, p, p) even for m = 1: d = 10^5 was a MemoryError (10^10 numbers),
    d = 10^6 the OOM killer. Each draw now states its size (``elements``) and refuses more than
    MAX_ELEMENTS numbers; SORF computes only the m rows it returns (each row its own
    Walsh-Hadamard chain), so 16 frequencies in d = 10^5 cost 16 x 2^17 numbers."""
    from varlab.features.samplers.orthogonal import MAX_ELEMENTS

    g = spectral.Gaussian(1.0)
    with pytest.raises(ValueError, match=r"^m=1 frequencies in d=100000 dimensions: sampler 'orthogonal'"):
        get_sampler("orthogonal").frequencies(g, 1, 10 ** 5, random_state=0)
    with pytest.raises(ValueError, match=r"^m=1000000 frequencies in d=1000 .*reduce m or d"):
        get_sampler("structured_orthogonal").frequencies(g, 10 ** 6, 1000, random_state=0)
    assert get_sampler("structured_orthogonal").elements(16, 10 ** 5) < MAX_ELEMENTS / 20
    W = get_sampler("structured_orthogonal").frequencies(g, 16, 10 ** 5, random_state=0)
    assert W.shape == (16, 10 ** 5) and np.all(np.isfinite(W))
    sampler = get_sampler("structured_orthogonal")
    for m in (1, 5, 33, 64):                      # p = 64: the first m rows of one block
        rng = np.random.default_rng(2)
        directions = sorf_directions(rng, 1, 40).reshape(64, 40)[:m]
        norms = g.norm_law(40).rvs(size=m, random_state=rng)
        np.testing.assert_allclose(sampler.frequencies(g, m, 40, random_state=2), directions * norms[:, None],
                                   rtol=1e-14, atol=1e-15)
    rng = np.random.default_rng(2)
    whole = sorf_directions(rng, 1, 40).reshape(64, 40) * g.norm_law(40).rvs(size=64, random_state=rng)[:, None]
    np.testing.assert_array_equal(sampler.frequencies(g, 64, 40, random_state=2), whole)    # whole blocks: same bits


def test_radial_models_bound_their_blocks_and_refuse_what_cannot_fit():
    """Every repetition draws whole orthogonal blocks, and 4096 repetitions per engine block at
    d = 10^6 were 4 * 10^9 numbers (MemoryError); the block budget now keeps a block of
    repetitions within about MAX_ELEMENTS numbers (unchanged at the papers' dimensions), slabs of
    columns are whole blocks (granularity = block), and a dimension whose single block cannot
    fit is refused before drawing."""
    from varlab.mc import seeds
    from varlab.mc.models._phases import MAX_ELEMENTS
    from varlab.mc.models.orthogonal import SORFModel

    model = ORFModel()
    assert model.samples_per_block(dimension=64, distance=1.0) == 2 ** 16                  # unchanged
    assert SORFModel().samples_per_block(dimension=64, distance=1.0) == 2 ** 16 // 64     # unchanged
    budget = model.samples_per_block(dimension=10 ** 6, distance=1.0)
    assert budget * 4 * 10 ** 6 <= MAX_ELEMENTS
    assert model.granularity(dimension=3, distance=1.0) == 3 and model.valid_k(np.array([1, 2, 7]), dimension=3,
                                                                                distance=1.0).all()
    assert seeds.block_layout(10 ** 5, granularity=3, budget=model.samples_per_block(dimension=3, distance=1.0))[1] % 3 == 0
    result = mc.simulate("orf", k=[1, 3], n_repetitions=4, random_state=0, dimension=10 ** 6, distance=1.0)
    assert np.all(np.isfinite(result.mean))
    with pytest.raises(ValueError, match=r"^dimension=8000 is too large for model 'sorf'"):
        mc.simulate("sorf", k=[1], n_repetitions=2, random_state=0, dimension=8000, distance=1.0)
    with pytest.raises(ValueError, match=r"^dimension=10000 is too large for model 'orf'"):
        mc.simulate(ORFModel(through_sampler=True), k=[1], n_repetitions=2, random_state=0, dimension=10 ** 4,
                    distance=1.0)
    for name in ("orf", "orf_columns", "sorf"):
        with pytest.raises(ValueError, match=r"^distance=1e\+308 is too large"):
            mc.simulate(name, k=[1, 2], n_repetitions=10, random_state=0, dimension=1, distance=1e308)


def test_sorf_is_biased_where_its_directions_are_orthogonal_to_z():
    """SORF's directions are discrete: at d = 4 about 12% of them are orthogonal to
    z = (1, 1, 1, 1) |z|/2, where cos<w, z> = 1 at every |z|, so at |z| = 5 its mean is about 0.024
    against the kernel 3.7e-6 (004.sorf.unbiased); ORF (uniform directions) is unbiased there."""
    from paper_checks.p004.claims import sorf_zero_projection

    zero, se = sorf_zero_projection(4, 2000, 0)
    assert zero > 0.08 and se < 0.01
    grid = dict(k=[32], dimension=4, distance=5.0, n_repetitions=6000, random_state=1)
    sorf = mc.simulate("sorf", **grid)
    assert (sorf.mean[0, 0] - sorf.target) / sorf.se_mean[0, 0] > Z_MAX          # z = 9.3
    orf = mc.simulate(ORFModel(through_sampler=True), **grid)
    assert abs(orf.mean[0, 0] - orf.target) <= Z_MAX * orf.se_mean[0, 0]


def test_sorf_factored_form_is_the_same_draw_and_its_product_is_x_w_transpose():
    """``factored`` draws exactly ``frequencies``; rows cut to zero (entries of H D1 H D2 H D3 are
    integers times p^{-3/2}, so a cut row is zero or of norm >= p^{-3/2}; rounding left ~1e-17
    there, normalised into a noise direction) are +-e_1; the fast product equals X W^T."""
    sampler, g = get_sampler("structured_orthogonal"), spectral.Gaussian(0.7)
    X = np.random.default_rng(1).standard_normal((9, 2))
    W, factors = sampler.factored(g, 3200, 2, random_state=0)
    np.testing.assert_array_equal(W, sampler.frequencies(g, 3200, 2, random_state=0))
    assert factors.zero.size > 10
    np.testing.assert_array_equal(W[factors.zero, 1], 0.0)
    for d in (2, 5, 40, 300):
        X = np.random.default_rng(d).standard_normal((9, d))
        W, factors = sampler.factored(g, 1000, d, random_state=d)
        np.testing.assert_allclose(factors.product(X), X @ W.T, rtol=0, atol=1e-12 * np.abs(X @ W.T).max())


@pytest.mark.parametrize("options", [dict(kernel="gaussian"), dict(kernel="correlation", phase=False),
                                     dict(kernel="gaussian", normalize=True)])
def test_rff_sorf_uses_the_fast_product_from_its_threshold_with_the_dense_results(options):
    import math
    import scipy.sparse

    from varlab.features.samplers.orthogonal import FAST_PRODUCT_FROM

    for d in (FAST_PRODUCT_FROM - 1, FAST_PRODUCT_FROM, 700):
        X = np.random.default_rng(d).standard_normal((50, d))
        model = RFF(300, gamma=0.5 / d, sampler="structured_orthogonal", random_state=3, **options).fit(X)
        assert model._fast_product(X) == (d >= FAST_PRODUCT_FROM)
        assert model._factors is not None and model.sampler_.fast_product_from == FAST_PRODUCT_FROM
        U = X / np.linalg.norm(X, axis=1, keepdims=True) if options["kernel"] == "correlation" else X
        arguments = U @ model.frequencies_ + (0.0 if model.phases_ is None else model.phases_)
        dense = np.cos(arguments)
        dense = (dense / np.linalg.norm(dense, axis=1, keepdims=True) if model.normalize else
                 dense * math.sqrt((2.0 if model.phase else 1.0) / 300))
        np.testing.assert_allclose(model.transform(X), dense, rtol=0, atol=1e-12)
        assert not model._fast_product(X.astype(np.float32)) and not model._fast_product(scipy.sparse.csr_matrix(X))
        np.testing.assert_allclose(model.transform(scipy.sparse.csr_matrix(X)), model.transform(X), atol=1e-12)


def test_sampler_capabilities_fast_product_and_joint_frequencies():
    """Feature maps ask a sampler for capabilities, never for its type: ``fast_product_from`` with
    ``factored`` (SORF only) and ``joint_frequencies`` (Orthogonal: 004's mutual GORF)."""
    from varlab.features.samplers.orthogonal import FAST_PRODUCT_FROM

    g = spectral.Gaussian(1.0)
    assert get_sampler("structured_orthogonal").fast_product_from == FAST_PRODUCT_FROM
    for name in ("iid", "orthogonal"):
        assert get_sampler(name).fast_product_from is None
        with pytest.raises(NotImplementedError, match="fast_product_from is None"):
            get_sampler(name).factored(g, 4, 3, random_state=0)
        assert RFF(8, sampler=name, random_state=0).fit(np.ones((2, 3)))._factors is None
    assert get_sampler("iid").joint_frequencies is None
    # joint draw: each Haar block of d directions gives d//2 rows of W and d//2 of V, then the norms
    sampler, first, second = get_sampler("orthogonal"), spectral.Gaussian(1.0), spectral.Gaussian(0.5)
    d, s = 8, 6                                          # two blocks (s > d // 2)
    W, V = sampler.joint_frequencies(first, second, s, d, np.random.default_rng(4))
    assert W.shape == V.shape == (s, d)
    rng = np.random.default_rng(4)
    q = haar_orthogonal(rng, 2, d)
    norms_w = first.norm_law(d).rvs(size=s, random_state=rng)
    norms_v = second.norm_law(d).rvs(size=s, random_state=rng)
    np.testing.assert_allclose(W, q[:, :4].reshape(-1, d)[:s] * norms_w[:, None], rtol=1e-12)
    np.testing.assert_allclose(V, q[:, 4:].reshape(-1, d)[:s] * norms_v[:, None], rtol=1e-12)
    rows = np.vstack([W[:4], V[:4]])                     # the first block: all 8 rows orthogonal
    gram = rows @ rows.T
    np.testing.assert_allclose(gram - np.diag(np.diag(gram)), 0.0, atol=1e-12)
    with pytest.raises(ValueError, match="d >= 2"):
        sampler.joint_frequencies(first, second, 2, 1, np.random.default_rng(0))
