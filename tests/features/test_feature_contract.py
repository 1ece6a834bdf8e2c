"""Contract tests over the registries (issue 7, section 5): every feature map, every sampler and
every spectral measure is tested by being registered or listed here.

Feature maps (RFF in each kernel / normalize / phase variant and with each registered sampler;
GCWS): batch = row by row, dense = sparse (CSR/CSC/COO), float32 close to float64, and the same
random_state gives identical output.

Tolerances:
* RFF batch vs row by row and dense vs sparse: BLAS may sum the d products in another order, so
  the cosines agree to a few ulps of their arguments: |diff| <= RTOL * max(1, max(|x| @ |W| + |b|))
  * max|Z| with RTOL = 1e-12 (float64), 1e-5 (float32).
* RFF float32 vs float64: the float32 map uses the float32 rounding of the same frequencies and
  float32 arithmetic; the argument error is about (d + 2) eps32 |x| @ |W| (eps32 = 6e-8), so the
  same bound with RTOL = 1e-5 (20x headroom at d = 6).
* GCWS is a pure function of (seed, coordinate, sample) computed in float64: batch = rows, dense =
  sparse and float32 = float64 hold exactly (float32 data are hashed as their exact float64
  values; comparing with the unrounded float64 data is meaningless for a hash).

Samplers x probability measures: shape, dtype, reproducibility; for the Gaussian, the mean 0 and
second moments I / bandwidth^2 within 4.5 standard errors; for every measure, kernel(z) within
4.5 SE of the empirical E cos(<w, z>); for radial measures, |w| against norm_law(d) by a KS test
(p > 1e-3). All at fixed seeds.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.stats

from varlab import spectral
from varlab.features import GCWS, RFF
from varlab.features.samplers import available_samplers, get_sampler

RTOL = {np.float64: 1e-12, np.float32: 1e-5}
Z_LIMIT = 4.5


# -- the feature maps --------------------------------------------------------------------------------
class _RFFMap:
    def __init__(self, **params):
        self.params = params

    def __repr__(self):
        return "RFF(" + ", ".join(f"{k}={v!r}" for k, v in self.params.items()) + ")"

    def fit(self, X, seed):
        return RFF(64, gamma=0.8, random_state=seed, **self.params).fit(X)

    @staticmethod
    def output(model, X):
        return model.transform(X)

    @staticmethod
    def tolerance(model, X, Z, dtype):
        """RTOL * max(1, size of the arguments) * max|Z| (see the module notes)."""
        unit = sp.csr_matrix(X).toarray().astype(np.float64)
        if model.kernel == "correlation":
            unit /= np.abs(unit).max(axis=1, keepdims=True)
            unit /= np.linalg.norm(unit, axis=1, keepdims=True)
        size = np.abs(unit) @ np.abs(model.frequencies_.astype(np.float64))
        if model.phases_ is not None:
            size += model.phases_
        return RTOL[dtype] * max(1.0, size.max()) * np.abs(Z).max()


class _GCWSMap:
    exact = True

    def __init__(self, **params):
        self.params = params

    def __repr__(self):
        return "GCWS(" + ", ".join(f"{k}={v!r}" for k, v in self.params.items()) + ")"

    def fit(self, X, seed):
        return GCWS(n_components=48, random_state=seed, **self.params).fit(X)

    @staticmethod
    def output(model, X):
        return sp.csr_matrix(model.transform(X)).toarray()

    @staticmethod
    def tolerance(model, X, Z, dtype):
        return 0.0


RFF_MAPS = [_RFFMap(kernel=kernel, normalize=normalize, phase=phase)
            for kernel in ("correlation", "gaussian") for normalize in (False, True) for phase in (True, False)]
RFF_MAPS += [_RFFMap(kernel="gaussian", sampler=name) for name in available_samplers() if name != "iid"]
GCWS_MAPS = [_GCWSMap(b=4), _GCWSMap(b=2, zero_bit=True)]
MAPS = [pytest.param(m, id=repr(m)) for m in RFF_MAPS + GCWS_MAPS]


def _data(dtype=np.float64, n=23, d=6, seed=0):
    """Sparse-ish data with no all-zero row (the correlation kernel and GCWS reject those)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    X[:, 0] = np.where(X[:, 0] == 0.0, 1.0, X[:, 0])
    return X.astype(dtype)


def _assert_close(a, b, tolerance):
    if tolerance == 0.0:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=0, atol=tolerance)


@pytest.mark.parametrize("feature_map", MAPS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_batch_equals_row_by_row(feature_map, dtype):
    X = _data(dtype)
    model = feature_map.fit(X, seed=1)
    batch = feature_map.output(model, X)
    rows = np.vstack([feature_map.output(model, X[i:i + 1]) for i in range(X.shape[0])])
    assert rows.shape == batch.shape
    _assert_close(rows, batch, feature_map.tolerance(model, X, batch, dtype))


@pytest.mark.parametrize("feature_map", MAPS)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_dense_equals_sparse(feature_map, fmt, dtype):
    X = _data(dtype)
    model = feature_map.fit(X, seed=2)
    dense = feature_map.output(model, X)
    sparse = feature_map.output(model, sp.csr_matrix(X).asformat(fmt))
    assert sparse.dtype == dense.dtype
    _assert_close(sparse, dense, feature_map.tolerance(model, X, dense, dtype))


@pytest.mark.parametrize("feature_map", MAPS)
def test_float32_close_to_float64(feature_map):
    X64 = _data(np.float64)
    X32 = X64.astype(np.float32)
    if isinstance(feature_map, _GCWSMap):   # a hash: float32 data hash as their float64 values
        X64 = X32.astype(np.float64)
    Z64 = feature_map.output(feature_map.fit(X64, seed=3), X64)
    model32 = feature_map.fit(X32, seed=3)
    Z32 = feature_map.output(model32, X32)
    if isinstance(feature_map, _RFFMap):
        assert Z32.dtype == np.float32
    _assert_close(Z32.astype(np.float64), Z64, feature_map.tolerance(model32, X64, Z64, np.float32))


@pytest.mark.parametrize("feature_map", MAPS)
def test_same_random_state_same_output(feature_map):
    X = _data()
    for seed in (7, np.random.SeedSequence(7)):
        np.testing.assert_array_equal(feature_map.output(feature_map.fit(X, seed), X),
                                      feature_map.output(feature_map.fit(X, 7), X))
    assert not np.array_equal(feature_map.output(feature_map.fit(X, 8), X),
                              feature_map.output(feature_map.fit(X, 7), X))


# -- samplers x measures -------------------------------------------------------------------------------
def _sampler_measure_cases(accepted: bool):
    cases = []
    for sampler_name, sampler_cls in available_samplers().items():
        for measure_name, measure_cls in spectral.measures(kind="probability").items():
            if sampler_cls().accepts(measure_cls()) == accepted:
                cases.append(pytest.param(sampler_name, measure_name, id=f"{sampler_name}-{measure_name}"))
    return cases


SAMPLER_MEASURES = _sampler_measure_cases(accepted=True)


@pytest.mark.parametrize("sampler_name, measure_name", _sampler_measure_cases(accepted=False))
def test_sampler_refuses_what_it_does_not_accept(sampler_name, measure_name):
    """Sampler.accepts is what frequencies enforces (e.g. QMC refuses a norm law without a fast
    ppf, the orthogonal samplers a product measure)."""
    with pytest.raises(TypeError, match="measure"):
        get_sampler(sampler_name).frequencies(spectral.get_measure(measure_name), 4, 3, random_state=0)
N_STAT, D_STAT = 20_000, 3


def _rows(sampler, n):
    """n rounded up to a whole number of the sampler's prefix blocks."""
    g = sampler.prefix_granularity
    return g * math.ceil(n / g)


@pytest.mark.parametrize("sampler_name, measure_name", SAMPLER_MEASURES)
def test_sampler_shape_dtype_reproducible(sampler_name, measure_name):
    sampler, measure = get_sampler(sampler_name), spectral.get_measure(measure_name)
    assert isinstance(sampler.prefix_granularity, int) and sampler.prefix_granularity >= 1
    for d in (1, 2, 5):
        m = _rows(sampler, 7)
        W = sampler.frequencies(measure, m, d, random_state=11)
        assert W.shape == (m, d) and W.dtype == np.float64 and np.all(np.isfinite(W))
        np.testing.assert_array_equal(W, sampler.frequencies(measure, m, d, random_state=11))
        np.testing.assert_array_equal(W, sampler.frequencies(measure, m, d, np.random.SeedSequence(11)))
        assert not np.array_equal(W, sampler.frequencies(measure, m, d, random_state=12))
        rng = np.random.default_rng(0)
        assert not np.array_equal(sampler.frequencies(measure, m, d, rng), sampler.frequencies(measure, m, d, rng))


@pytest.mark.parametrize("sampler_name", list(available_samplers()))
@pytest.mark.parametrize("bandwidth, seed", [(0.5, 0), (2.0, 1)])
def test_gaussian_moments(sampler_name, bandwidth, seed):
    """w ~ N(0, I / b^2): each mean within 4.5 SE (sd 1/b) of 0, each second moment E[w_i w_j]
    within 4.5 SE of delta_ij / b^2 (Var(w_i^2) = 2 / b^4, Var(w_i w_j) = 1 / b^4 for i != j)."""
    sampler = get_sampler(sampler_name)
    n = _rows(sampler, N_STAT)
    W = sampler.frequencies(spectral.Gaussian(bandwidth), n, D_STAT, random_state=seed)
    assert np.all(np.abs(W.mean(axis=0)) <= Z_LIMIT * (1 / bandwidth) / math.sqrt(n))
    second = W.T @ W / n
    expected = np.eye(D_STAT) / bandwidth**2
    se = np.where(np.eye(D_STAT, dtype=bool), math.sqrt(2.0), 1.0) / bandwidth**2 / math.sqrt(n)
    assert np.all(np.abs(second - expected) <= Z_LIMIT * se)


@pytest.mark.parametrize("sampler_name, measure_name", SAMPLER_MEASURES)
def test_kernel_is_expected_cosine(sampler_name, measure_name):
    """kernel(z) = E cos(<w, z>): the empirical mean over the sampler's rows within 4.5 SE, with
    Var cos(<w, z>) = (1 + k(2z)) / 2 - k(z)^2 for a symmetric measure."""
    sampler, measure = get_sampler(sampler_name), spectral.get_measure(measure_name)
    n = _rows(sampler, N_STAT)
    W = sampler.frequencies(measure, n, D_STAT, random_state=5)
    z = np.random.default_rng(6).standard_normal((6, D_STAT)) * np.array([0.1, 0.3, 0.6, 1.0, 1.5, 2.5])[:, None]
    k, k2 = measure.kernel(z), measure.kernel(2 * z)
    assert measure.kernel(np.zeros(D_STAT)) == pytest.approx(1.0, abs=1e-15)
    variance = np.maximum((1 + k2) / 2 - k**2, 0.0)
    empirical = np.cos(W @ z.T).mean(axis=0)
    assert np.all(np.abs(empirical - k) <= Z_LIMIT * np.sqrt(variance / n) + 1e-12)


@pytest.mark.parametrize("sampler_name, measure_name",
                         [c for c in SAMPLER_MEASURES
                          if issubclass(spectral.measures()[c.values[1]], spectral.RadialMeasure)])
@pytest.mark.parametrize("d", [1, 4])
def test_norm_law_matches(sampler_name, measure_name, d):
    """|w| of the sampler's rows follows norm_law(d): KS test at a fixed seed, p > 1e-3, on the
    distinct norms (antithetic pairs w, -w share theirs; KS assumes no ties)."""
    sampler, measure = get_sampler(sampler_name), spectral.get_measure(measure_name)
    W = sampler.frequencies(measure, _rows(sampler, 5000), d, random_state=9)
    assert scipy.stats.kstest(np.unique(np.linalg.norm(W, axis=1)), measure.norm_law(d).cdf).pvalue > 1e-3


# -- every registered measure --------------------------------------------------------------------------
@pytest.mark.parametrize("measure_name", list(spectral.measures(kind="probability")))
def test_measure_contract(measure_name):
    """Defaults construct; parameters() round-trips; kernel(0) = 1; |k| <= 1; as_signed and
    as_complex keep the kernel and draw the positive part with the same stream."""
    cls = spectral.measures()[measure_name]
    measure = cls()
    assert measure.name == measure_name and cls(**measure.parameters()) == measure
    z = np.random.default_rng(0).standard_normal((10, 4))
    k = measure.kernel(z)
    assert k.shape == (10,) and np.all(np.abs(k) <= 1.0) and measure.kernel(np.zeros((1, 4)))[0] == 1.0
    np.testing.assert_array_equal(spectral.as_signed(measure).kernel(z), k)
    np.testing.assert_array_equal(spectral.as_complex(measure).kernel(z), k)
    np.testing.assert_array_equal(spectral.as_signed(measure).rvs_part("positive", 5, 4, 3), measure.rvs(5, 4, 3))
    np.testing.assert_array_equal(spectral.as_complex(measure).rvs_part("real_positive", 5, 4, 3),
                                  measure.rvs(5, 4, 3))
    if isinstance(measure, spectral.RadialMeasure):
        np.testing.assert_allclose(measure.kernel_of_distance(np.linalg.norm(z, axis=1), d=4), k, rtol=1e-14)
