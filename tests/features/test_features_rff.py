"""Tests of varlab.features.RFF (paper 000, §2, Eq. 14-21; folded RBF of 001, Eq. 11)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from varlab import kernels, spectral
from varlab.features import RFF
from varlab.theory import stationary_kernel, stationary_kernels
from varlab.features._base import NotFittedError
from varlab.features.samplers import IID, Sampler

VARIANTS = [
    dict(kernel="correlation"),
    dict(kernel="correlation", normalize=True),
    dict(kernel="correlation", phase=False),
    dict(kernel="gaussian"),
    dict(kernel="gaussian", normalize=True, phase=False),
]

# Batch and row-alone transforms agree to within a few ulps, not bitwise: BLAS evaluates the
# (1, d) @ (d, k) product with another kernel / summation order than the (n, d) @ (d, k) one.
# The cosine turns an error of the argument into an absolute error of the same size, so the
# absolute tolerance is relative to the size of the argument |x| @ |W| + |w|.
RTOL = {np.float64: 1e-12, np.float32: 1e-5}


def _data(n=40, d=6, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal((n, d)).astype(dtype)


def _pair(rho, d=4, seed=0):
    """Two unit vectors with correlation rho, randomly rotated."""
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((d, d)))
    u = q[:, 0]
    v = rho * q[:, 0] + math.sqrt(1.0 - rho**2) * q[:, 1]
    return np.vstack([u, v])


def _assert_rows_independent(model, X, dtype):
    batch = model.transform(X)
    rows = np.vstack([model.transform(X[i:i + 1]) for i in range(X.shape[0])])
    unit = X.astype(np.float64)
    if model.kernel == "correlation":
        unit /= np.abs(unit).max(axis=1, keepdims=True)
        unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    size = np.abs(unit) @ np.abs(model.frequencies_.astype(np.float64))
    if model.phases_ is not None:
        size += model.phases_
    rtol = RTOL[dtype]
    np.testing.assert_allclose(rows, batch, rtol=rtol, atol=rtol * max(1.0, size.max()) * np.abs(batch).max())


# -- parameters and fitted attributes ----------------------------------------------------------
def test_parameters_stored_unchanged_and_never_rewritten():
    rng = np.random.default_rng(5)
    sampler = IID()
    params = dict(n_components=np.int64(7), gamma=2, kernel="gaussian", normalize=True, phase=False, paired=False,
                  sampler=sampler, random_state=rng)
    model = RFF(**params)
    assert model.get_params() == params
    model.fit(_data())
    assert model.get_params() == params
    assert model.get_params()["random_state"] is rng
    assert model.get_params()["sampler"] is sampler and model.sampler_ is sampler
    assert RFF().get_params()["sampler"] == "iid"
    assert repr(RFF(5, gamma=2.0)) == "RFF(gamma=2.0, n_components=5)"     # scikit-learn's repr
    assert model.set_params(gamma=3.0) is model and model.gamma == 3.0
    with pytest.raises(ValueError, match="Invalid parameter 'gama'"):
        model.set_params(gama=1.0)


def test_transform_follows_fitted_map_until_refit():
    X = _data()
    model = RFF(20, kernel="correlation", random_state=0).fit(X)
    Z = model.transform(X)
    model.set_params(kernel="gaussian", phase=False)
    np.testing.assert_array_equal(model.transform(X), Z)
    assert model.fit(X).phases_ is None


def test_fitted_attributes_and_shapes():
    X = _data(n=10, d=5)
    model = RFF(33, kernel="correlation", gamma=0.5, random_state=0).fit(X)
    assert model.frequencies_.shape == (5, 33) and model.phases_.shape == (33,)
    assert model.n_features_in_ == 5
    assert np.all((model.phases_ >= 0) & (model.phases_ < 2 * np.pi))
    assert model.transform(X).shape == (10, 33)
    assert model.components(X).shape == (10, 33)
    assert RFF(4, kernel="correlation", phase=False, random_state=0).fit(X).phases_ is None


def _reference_draw(seed, k, d, scale, phase=True):
    """An independent reference for RFF's stream: from the SeedSequence of ``seed``, a C-ordered
    (k, d) block of standard normals r_j (row j = frequency j) times ``scale``, then k phases
    U[0, 2 pi) from the same generator."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    frequencies = rng.standard_normal((k, d)) * scale
    phases = rng.uniform(0.0, 2.0 * np.pi, size=k) if phase else None
    return frequencies.T, phases


@pytest.mark.parametrize("kernel, factor", [("correlation", 1.0), ("gaussian", 2.0)])
@pytest.mark.parametrize("phase", [True, False])
def test_frequencies_and_phases_match_reference_stream(kernel, factor, phase):
    """Frequencies sqrt(gamma) r_j (correlation, 000 Eq. 15) or sqrt(2 gamma) r_j (Gaussian),
    r_j ~ N(0, I) drawn as rows of one (k, d) block, then the phases; RFF divides by the
    bandwidth 1/sqrt(factor gamma) instead of multiplying, so the two agree to an ulp or two."""
    X = _data(d=3)
    gamma = 0.7
    model = RFF(50, gamma=gamma, kernel=kernel, phase=phase, random_state=11).fit(X)
    frequencies, phases = _reference_draw(11, 50, 3, math.sqrt(factor * gamma), phase)
    np.testing.assert_allclose(model.frequencies_, frequencies, rtol=4e-16, atol=0)
    if phase:
        np.testing.assert_array_equal(model.phases_, phases)
    else:
        assert model.phases_ is None
    assert isinstance(model.measure_, spectral.Gaussian)
    assert model.measure_.bandwidth == pytest.approx(1.0 / math.sqrt(factor * gamma), rel=1e-15)


def test_frequency_scaling_and_stream():
    """Same seed: same standard normal draws r_j, scaled by sqrt(gamma) (correlation, 000 Eq. 15)
    or sqrt(2 gamma) (Gaussian); the phase=False fit shares the frequencies."""
    X = _data(d=3)
    gamma = 0.7
    corr = RFF(50, kernel="correlation", gamma=gamma, random_state=11).fit(X)
    gauss = RFF(50, gamma=gamma, kernel="gaussian", random_state=11).fit(X)
    nophase = RFF(50, kernel="correlation", gamma=gamma, phase=False, random_state=11).fit(X)
    np.testing.assert_allclose(corr.frequencies_ / math.sqrt(gamma), gauss.frequencies_ / math.sqrt(2 * gamma),
                               rtol=1e-15)
    np.testing.assert_array_equal(corr.frequencies_, nophase.frequencies_)
    np.testing.assert_array_equal(corr.phases_, gauss.phases_)


def test_sampler_parameter():
    """A name or an instance; the frequencies are the sampler's rows, from the same generator
    that then draws the phases."""
    X = _data(d=4)
    by_name = RFF(30, kernel="correlation", gamma=2.0, random_state=5).fit(X)
    by_instance = RFF(30, kernel="correlation", gamma=2.0, sampler=IID(), random_state=5).fit(X)
    np.testing.assert_array_equal(by_name.frequencies_, by_instance.frequencies_)
    np.testing.assert_array_equal(by_name.phases_, by_instance.phases_)

    class Doubled(Sampler):  # unregistered: an instance is enough
        def _frequencies(self, measure, m, d, rng):
            return 2.0 * measure.rvs(m, d, rng)

    doubled = RFF(30, kernel="correlation", gamma=2.0, sampler=Doubled(), random_state=5).fit(X)
    np.testing.assert_array_equal(doubled.frequencies_, 2.0 * by_name.frequencies_)
    np.testing.assert_array_equal(doubled.phases_, by_name.phases_)
    for bad, error in (("sobol-ish", ValueError), (None, TypeError), (IID, TypeError), (3, TypeError)):
        model = RFF(sampler=bad)  # stored unchanged, validated in fit
        assert model.sampler is bad
        with pytest.raises(error, match="sampler"):
            model.fit(X)


@pytest.mark.parametrize("kernel", ["gaussian", "correlation"])
@pytest.mark.parametrize("gamma", [1e200, 1e307, 1e308, np.finfo(np.float64).max])
def test_huge_gamma_float64_has_no_nan(kernel, gamma):
    """Fuzz finding (issue 7): sqrt(2 gamma) overflowed for gamma > 8.9e307 and RFF returned NaN.
    Now the bandwidth is 1/(sqrt2 sqrt(gamma)), the frequencies are finite, and for distinct
    points the estimate is near exp(-gamma |u - v|^2) = 0 and a point with itself near 1."""
    X = _data(n=4, d=3)
    model = RFF(2000, gamma=gamma, kernel=kernel, random_state=0).fit(X)
    assert np.all(np.isfinite(model.frequencies_))
    Z = model.transform(X)
    assert np.all(np.isfinite(Z))
    G = Z @ Z.T
    off = G[~np.eye(4, dtype=bool)]
    assert np.all(np.abs(off) <= 4.5 * math.sqrt(1.5 / 2000))  # per-sample variance <= 3/2 (Eq. 18)
    # k(x, x) = 1: 2 cos^2 of a (pseudo-)uniform angle has mean 1 and variance 1/2
    assert np.all(np.abs(np.diag(G) - 1.0) <= 4.5 * math.sqrt(0.5 / 2000))


def test_huge_gamma_errors_name_gamma():
    """What cannot be computed says so, naming gamma (never a silent NaN): float32 frequencies
    beyond the float32 range (gamma > ~1e77), and float64 arguments <x, w> beyond the float64
    range (gamma ~ 1e300 with |x| ~ 1e200)."""
    X = _data(n=3, d=2)
    Z = RFF(20, gamma=1e76, kernel="gaussian", random_state=0).fit(X.astype(np.float32)).transform(
        X.astype(np.float32))
    assert Z.dtype == np.float32 and np.all(np.isfinite(Z))
    for gamma in (1e78, 1e200, np.finfo(np.float64).max):
        with pytest.raises(ValueError, match=r"gamma=.*float32"):
            RFF(20, gamma=gamma, kernel="gaussian", random_state=0).fit(X.astype(np.float32))
        fitted64 = RFF(20, gamma=gamma, kernel="gaussian", random_state=0).fit(X)
        with pytest.raises(ValueError, match=r"gamma=.*float32"):
            fitted64.transform(X.astype(np.float32))
    model = RFF(20, gamma=1e300, kernel="gaussian", random_state=0).fit(X)
    with pytest.raises(ValueError, match=r"overflow float64: gamma=1e\+300"):
        model.transform(X * 1e200)
    with pytest.raises(ValueError, match="gamma"):
        RFF(20, gamma=1e300, kernel="gaussian", phase=False, random_state=0).fit(X).transform(
            sp.csr_matrix(X * 1e200))
    # float32 arguments overflow although the frequencies fit: gamma = 1e70, |x| = 1e10
    model32 = RFF(20, gamma=1e70, kernel="gaussian", random_state=0).fit(X.astype(np.float32))
    with pytest.raises(ValueError, match=r"overflow float32: gamma=1e\+70"):
        model32.transform((X * 1e10).astype(np.float32))


def test_random_state_kinds():
    X = _data()
    a = RFF(20, kernel="correlation", random_state=3).fit(X).frequencies_
    np.testing.assert_array_equal(a, RFF(20, kernel="correlation", random_state=3).fit(X).frequencies_)
    np.testing.assert_array_equal(a, RFF(20, kernel="correlation", random_state=np.random.SeedSequence(3)).fit(X).frequencies_)
    assert not np.array_equal(a, RFF(20, kernel="correlation", random_state=4).fit(X).frequencies_)
    rng = np.random.default_rng(0)
    model = RFF(20, kernel="correlation", random_state=rng)
    assert not np.array_equal(model.fit(X).frequencies_, model.fit(X).frequencies_)  # a Generator advances
    with pytest.raises(TypeError, match="random_state"):
        RFF(kernel="correlation", random_state="seed").fit(X)


# -- dtypes, sparse input ----------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_dtype_preserved(variant):
    X = _data()
    m64 = RFF(64, random_state=0, **variant).fit(X)
    m32 = RFF(64, random_state=0, **variant).fit(X.astype(np.float32))
    assert m32.frequencies_.dtype == np.float32
    np.testing.assert_array_equal(m32.frequencies_, m64.frequencies_.astype(np.float32))  # cast once, in fit
    Z32 = m32.transform(X.astype(np.float32))
    assert Z32.dtype == np.float32 and m32.components(X.astype(np.float32)).dtype == np.float32
    assert m64.transform(X).dtype == np.float64
    assert m64.transform(X.astype(np.float32)).dtype == np.float32
    assert m64.transform(X.astype(np.int64).clip(1)).dtype == np.float64
    np.testing.assert_allclose(Z32, m64.transform(X), atol=1e-5)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_sparse_equals_dense(variant, fmt):
    X = _data(n=30, d=8)
    X[X < 0.3] = 0.0
    X[:, 0] = 1.0  # no zero rows
    model = RFF(50, gamma=0.3, random_state=1, **variant).fit(sp.csr_matrix(X))
    dense = model.transform(X)
    for dtype in (np.float64, np.float32):
        sparse = model.transform(sp.csr_matrix(X).asformat(fmt).astype(dtype))
        assert isinstance(sparse, np.ndarray) and sparse.dtype == dtype
        np.testing.assert_allclose(sparse, dense, rtol=RTOL[dtype], atol=RTOL[dtype])


def test_sparse_duplicates_summed_and_input_not_modified():
    rows, cols, vals = [0, 0, 0, 1], [0, 0, 1, 2], [1.0, -1.0, 2.0, 3.0]
    X = sp.csr_matrix((vals, (rows, cols)), shape=(2, 3))  # duplicates summed by the conversion
    X_dup = sp.csr_matrix((np.array(vals), np.array(cols), np.array([0, 3, 4])), shape=(2, 3))
    data_before = X_dup.data.copy()
    model = RFF(10, kernel="correlation", random_state=0).fit(X)
    np.testing.assert_allclose(model.transform(X_dup), model.transform(X.toarray()), rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(X_dup.data, data_before)
    dense = _data()
    copy = dense.copy()
    RFF(10, kernel="correlation", random_state=0).fit_transform(dense)
    np.testing.assert_array_equal(dense, copy)


# -- the feature map itself ----------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_transform_is_scaled_components(variant):
    X = _data()
    model = RFF(40, gamma=1.5, random_state=2, **variant).fit(X)
    values = model.components(X)
    unit = X / np.linalg.norm(X, axis=1, keepdims=True) if model.kernel == "correlation" else X
    argument = unit @ model.frequencies_ + (0.0 if model.phases_ is None else model.phases_)
    expected = (math.sqrt(2.0) if model.phase else 1.0) * np.cos(argument)
    np.testing.assert_allclose(values, expected, rtol=1e-12, atol=1e-13)
    Z = model.transform(X)
    if model.normalize:
        np.testing.assert_allclose(np.linalg.norm(Z, axis=1), 1.0, rtol=1e-14)
        np.testing.assert_allclose(Z, values / np.linalg.norm(values, axis=1, keepdims=True), rtol=1e-13,
                                   atol=1e-15)
    else:
        np.testing.assert_allclose(Z, values / math.sqrt(40), rtol=1e-14, atol=1e-16)


def test_correlation_kernel_is_scale_invariant_and_robust():
    X = _data(n=5, d=3)
    model = RFF(30, kernel="correlation", random_state=0).fit(X)
    Z = model.transform(X)
    for scale in (1e-200, 1e-3, 7.0, 1e250):
        np.testing.assert_allclose(model.transform(X * scale), Z, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(model.transform([[1e-310, 0.0, 0.0]]), model.transform([[1.0, 0.0, 0.0]]),
                               rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_batch_equals_rows(variant, dtype):
    X = _data(n=25, d=7, dtype=dtype)
    _assert_rows_independent(RFF(200, gamma=2.0, random_state=4, **variant).fit(X), X, dtype)


@settings(max_examples=40, deadline=None)
@given(X=hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)),
                    elements=st.floats(-100, 100, allow_nan=False, allow_subnormal=False)),
       k=st.integers(1, 60), gamma=st.floats(1e-3, 10.0), variant=st.sampled_from(VARIANTS),
       dtype=st.sampled_from([np.float64, np.float32]), seed=st.integers(0, 2**32 - 1))
def test_property_batch_equals_rows(X, k, gamma, variant, dtype, seed):
    X = X.astype(dtype)
    if variant["kernel"] == "correlation":
        assume(np.all(np.abs(X).max(axis=1) > 0))
    model = RFF(k, gamma=gamma, random_state=seed, **variant).fit(X)
    _assert_rows_independent(model, X, dtype)
    assert np.all(np.isfinite(model.transform(X)))


# -- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("params, error, match", [
    (dict(n_components=0), ValueError, "n_components"),
    (dict(n_components=-3), ValueError, "n_components"),
    (dict(n_components=2.0), TypeError, "n_components"),
    (dict(n_components=True), TypeError, "n_components"),
    (dict(gamma=0.0), ValueError, "gamma"),
    (dict(gamma=-1.0), ValueError, "gamma"),
    (dict(gamma=np.nan), ValueError, "gamma"),
    (dict(gamma=np.inf), ValueError, "gamma"),
    (dict(gamma="1"), TypeError, "gamma"),
    (dict(gamma=[1.0, 2.0]), TypeError, "gamma"),
    (dict(kernel="polynomial"), ValueError, "kernel"),
    (dict(kernel=None), TypeError, "kernel"),
    (dict(normalize="yes"), TypeError, "normalize"),
    (dict(phase=1), TypeError, "phase"),
])
def test_invalid_parameters(params, error, match):
    model = RFF(**params)  # __init__ never validates
    with pytest.raises(error, match=match):
        model.fit(_data())


@settings(max_examples=50, deadline=None)
@given(n_components=st.integers(-10**6, 0),
       gamma=st.one_of(st.floats(max_value=0.0), st.just(np.inf), st.just(-np.inf), st.just(np.nan)))
def test_property_validators_reject_out_of_domain(n_components, gamma):
    with pytest.raises(ValueError, match="n_components"):
        RFF(n_components, kernel="correlation").fit(_data(n=2))
    with pytest.raises(ValueError, match="gamma"):
        RFF(5, kernel="correlation", gamma=gamma).fit(_data(n=2))


@settings(max_examples=30, deadline=None)
@given(position=st.tuples(st.integers(0, 3), st.integers(0, 2)), bad=st.sampled_from([np.nan, np.inf, -np.inf]),
       sparse=st.booleans())
def test_property_non_finite_data_rejected(position, bad, sparse):
    X = _data(n=4, d=3)
    model = RFF(5, kernel="correlation", random_state=0).fit(X)
    X[position] = bad
    X = sp.csr_matrix(X) if sparse else X
    with pytest.raises(ValueError, match="NaN|infinity"):
        RFF(5, kernel="correlation", random_state=0).fit(X)
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.transform(X)


def test_data_errors():
    X = _data(d=4)
    with pytest.raises(NotFittedError, match="not fitted"):
        RFF().transform(X)
    with pytest.raises(ValueError, match="not fitted"):  # NotFittedError is a ValueError
        RFF().components(X)
    model = RFF(5, kernel="correlation", random_state=0).fit(X)
    with pytest.raises(ValueError, match="X has 3 features, but RFF is expecting 4"):
        model.transform(X[:, :3])
    with pytest.raises(ValueError, match="all-zero row.*index 1"):
        model.transform(np.vstack([X[0], np.zeros(4)]))
    with pytest.raises(ValueError, match="all-zero row"):
        model.transform(sp.csr_matrix(np.vstack([X[0], np.zeros(4)])))
    RFF(5, kernel="gaussian", random_state=0).fit(X).transform(np.zeros((2, 4)))  # fine for the Gaussian
    with pytest.raises(ValueError, match="X: Expected 2D array"):
        model.transform(X[0])
    with pytest.raises(ValueError, match="Complex data"):
        model.transform(X + 1j)
    with pytest.raises(ValueError, match="X: Found array with 0 sample"):
        RFF().fit(np.zeros((0, 4)))
    with pytest.raises(ValueError, match="X: Found array with 0 feature"):
        RFF().fit(np.zeros((3, 0)))


# -- statistics (fixed seeds, tolerances in standard errors) ---------------------------------------
K_STAT = 20_000
CASES = [(0.9, 1.0, 0), (0.5, 2.0, 1), (0.0, 0.5, 2), (-0.6, 1.0, 3), (0.99, 5.0, 4)]


@pytest.mark.parametrize("rho, gamma, seed", CASES)
def test_rff_inner_product_estimates_rbf(rho, gamma, seed):
    """<z(u), z(v)> is the mean of k products of Eq. (16): mean exp(-gamma(1-rho)) (Eq. 14),
    variance V/k with V of Eq. (18)."""
    U = _pair(rho, seed=seed)
    Z = RFF(K_STAT, kernel="correlation", gamma=gamma, random_state=100 + seed).fit_transform(U)
    mean = math.exp(-gamma * (1 - rho))
    V = 0.5 + 0.5 * (-math.expm1(-2 * gamma * (1 - rho))) ** 2
    assert abs(Z[0] @ Z[1] - mean) <= 4.5 * math.sqrt(V / K_STAT)
    np.testing.assert_allclose(Z[0] @ Z[1], kernels.rbf_correlation(U[:1], U[1:], gamma=gamma)[0, 0],
                               atol=4.5 * math.sqrt(V / K_STAT))


@pytest.mark.parametrize("rho, gamma, seed", CASES)
def test_nrff_inner_product_estimates_rbf(rho, gamma, seed):
    """NRFF (Eq. 19): asymptotic variance V_n/k with V_n of Eq. (20); the O(1/k^2) term is
    negligible at k = 20000. At rho -> 1, V_n -> 0, so the bound is tight there."""
    U = _pair(rho, seed=seed)
    Z = RFF(K_STAT, kernel="correlation", gamma=gamma, normalize=True, random_state=200 + seed).fit_transform(U)
    e = math.exp(-2 * gamma * (1 - rho))
    V = 0.5 + 0.5 * (1 - e) ** 2
    Vn = V - 0.25 * e * (3 - e**2)
    assert abs(Z[0] @ Z[1] - math.exp(-gamma * (1 - rho))) <= 4.5 * math.sqrt(Vn / K_STAT)


@pytest.mark.parametrize("rho, gamma, seed", CASES)
def test_no_phase_inner_product_estimates_folded_rbf(rho, gamma, seed):
    """No phase (Eq. 17): mean e^{-g(1-rho)}/2 + e^{-g(1+rho)}/2 (001 Eq. 11); variance (varlab's
    own derivation) 1/8 [(1 - e^{-2g(1-rho)})^2 + (1 - e^{-2g(1+rho)})^2]."""
    U = _pair(rho, seed=seed)
    Z = RFF(K_STAT, kernel="correlation", gamma=gamma, phase=False, random_state=300 + seed).fit_transform(U)
    mean = 0.5 * math.exp(-gamma * (1 - rho)) + 0.5 * math.exp(-gamma * (1 + rho))
    V = 0.125 * (math.expm1(-2 * gamma * (1 - rho)) ** 2 + math.expm1(-2 * gamma * (1 + rho)) ** 2)
    np.testing.assert_allclose(mean, kernels.folded_rbf(U[:1], U[1:], gamma=gamma)[0, 0], rtol=1e-12)
    assert abs(Z[0] @ Z[1] - mean) <= 4.5 * math.sqrt(V / K_STAT)


@pytest.mark.parametrize("gamma, scale, seed", [(0.5, 0.5, 0), (1.0, 0.3, 1), (0.1, 1.0, 2)])
def test_gaussian_kernel_mode(gamma, scale, seed):
    """Gaussian mode: mean exp(-gamma ||u - v||^2) (varlab.kernels.gaussian); the variance of one
    product is Eq. (18) with e^{-gamma(1-rho)} replaced by the kernel value K, 1/2 + (1 - K^2)^2/2,
    since w.(u - v) ~ N(0, 2 gamma ||u - v||^2) plays the role of sqrt(gamma)(x - y)."""
    U = np.random.default_rng(seed).standard_normal((2, 5)) * scale
    K = kernels.gaussian(U[:1], U[1:], gamma=gamma)[0, 0]
    Z = RFF(K_STAT, gamma=gamma, kernel="gaussian", random_state=400 + seed).fit_transform(U)
    V = 0.5 + 0.5 * (1 - K**2) ** 2
    assert 0.05 < K < 0.95
    assert abs(Z[0] @ Z[1] - K) <= 4.5 * math.sqrt(V / K_STAT)


@pytest.mark.parametrize("gamma, scale, seed", [(0.5, 0.5, 0), (1.0, 0.3, 1), (0.1, 1.0, 2)])
def test_defaults_estimate_the_gaussian_kernel_on_unnormalised_rows(gamma, scale, seed):
    """RFF(n_components, gamma=g) with every other parameter at its default is RBFSampler's
    Gaussian kernel exp(-g ||u - v||^2) on the rows as given (no unit scaling): the same numbers
    as kernel="gaussian", and within 4.5 SE of the kernel (V as in test_gaussian_kernel_mode)."""
    U = np.random.default_rng(seed).standard_normal((2, 5)) * scale
    K = kernels.gaussian(U[:1], U[1:], gamma=gamma)[0, 0]
    Z = RFF(K_STAT, gamma=gamma, random_state=500 + seed).fit_transform(U)
    np.testing.assert_array_equal(Z, RFF(K_STAT, gamma=gamma, kernel="gaussian", random_state=500 + seed).fit_transform(U))
    assert abs(Z[0] @ Z[1] - K) <= 4.5 * math.sqrt((0.5 + 0.5 * (1 - K**2) ** 2) / K_STAT)
    assert abs(kernels.rbf_correlation(U[:1], U[1:], gamma=gamma)[0, 0] - K) > 10 * math.sqrt(1 / K_STAT)


def test_components_give_repetitions():
    """The Monte Carlo recipe: one fit with k * m components, products reshaped to (m, k); each
    row mean is one RFF estimate, and the spread of the m estimates matches V/k (Eq. 18)."""
    rho, gamma, k, m = 0.8, 1.0, 50, 400
    U = _pair(rho, seed=9)
    C = RFF(k * m, kernel="correlation", gamma=gamma, random_state=9).fit(U).components(U)
    products = (C[0] * C[1]).reshape(m, k)
    estimates = products.mean(axis=1)
    V = 0.5 + 0.5 * (1 - math.exp(-2 * gamma * (1 - rho))) ** 2
    assert abs(estimates.mean() - math.exp(-gamma * (1 - rho))) <= 4.5 * math.sqrt(V / (k * m))
    # sample variance of m normal-ish estimates: relative SE about sqrt(2/(m-1)) (= 0.071)
    assert abs(estimates.var(ddof=1) / (V / k) - 1) <= 4.5 * math.sqrt(2 / (m - 1))


def test_paired_components_are_the_cosines_and_sines_whose_products_average_to_the_estimate():
    """components() of the paired map: [cos <x, w_j>]_j then [sin <x, w_j>]_j, no sqrt2 (a
    phase map's factor) and no 1/sqrt(k); the mean of the per-frequency products
    cos cos + sin sin is the kernel estimate, and transform is components / sqrt(k)."""
    X = np.random.default_rng(3).standard_normal((5, 4))
    rff = RFF(n_components=64, gamma=0.3, paired=True, random_state=0).fit(X)
    projections = X @ rff.frequencies_
    values = rff.components(X)
    np.testing.assert_allclose(values, np.hstack([np.cos(projections), np.sin(projections)]), atol=1e-13)
    products = values[0, :64] * values[1, :64] + values[0, 64:] * values[1, 64:]
    np.testing.assert_allclose(products.mean(), rff.kernel_estimate(X)[0, 1], rtol=1e-12)
    np.testing.assert_allclose(rff.transform(X), values / math.sqrt(64), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("kernel", list(stationary_kernels()))
def test_gamma_range_is_where_the_frequencies_are_finite(kernel):
    """Issue 31: RFF refused gamma below 3.6e-307 for the new kernels (a lengthscale bound of the
    measures with no reason). Every gamma whose frequencies are finite float64 works (down to the
    subnormals for the 1/sqrt(gamma) lengthscales); beyond that the refusal names the bound and why."""
    X = np.random.default_rng(0).standard_normal((3, 2))
    factor, power = stationary_kernel(kernel).gamma
    for gamma in (1e-307, 1e-300, 1e-100, 1e100):
        features = RFF(n_components=8, kernel=kernel, gamma=gamma, random_state=0).fit_transform(X)
        assert np.all(np.isfinite(features)), gamma
    if power == 1:                      # frequencies grow as gamma: finite up to 1.8e308 / 64
        with pytest.raises(ValueError, match="overflow float64 beyond gamma = 2.81e"):
            RFF(n_components=8, kernel=kernel, gamma=1e307, random_state=0).fit(X)
    else:                               # as sqrt(gamma): every finite gamma
        assert np.all(np.isfinite(RFF(n_components=8, kernel=kernel, gamma=1e307, random_state=0).fit_transform(X)))
