"""Regression tests for the fuzz findings of issue 7, section 7, on kernels and hashing.

Each test fails on the code before the fix: kernels without row rescaling, the expanded
Gaussian distance, GCWS's overflowing centre, empty/mismatched hash arrays, object arrays of
numeric strings, parameter-less error messages, and GCWS's scikit-learn conventions.
"""
from __future__ import annotations

import inspect

import mpmath
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.exceptions import NotFittedError

from varlab import _random, kernels
from varlab.features import GCWS, RFF, bbit_code, gmm_estimate
from varlab.features import cws
from varlab.features.cws import randomness

FMAX = np.finfo(np.float64).max


def _forms(X):
    return (np.asarray(X, dtype=np.float64), sp.csr_matrix(np.asarray(X, dtype=np.float64)))


# ------------------------------------------------------------------------------------------
# Kernels rescale rows before norms and sums
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sparse", [False, True])
def test_correlation_of_huge_and_tiny_rows(sparse):
    pick = (lambda A: sp.csr_matrix(A)) if sparse else np.asarray
    np.testing.assert_allclose(kernels.correlation(pick(np.array([[1e200, 1.0]]))), [[1.0]], rtol=1e-15)
    np.testing.assert_allclose(kernels.correlation(pick(np.array([[1e-200, 1e-200]]))), [[1.0]], rtol=1e-15)
    rho = kernels.correlation(pick(np.array([[1e300, 1e300], [-1e-300, 1e-300], [3e-320, 0.0]])))
    np.testing.assert_allclose(rho, [[1, 0, 2 ** -0.5], [0, 1, -(2 ** -0.5)], [2 ** -0.5, -(2 ** -0.5), 1]],
                               rtol=1e-15, atol=1e-16)
    exact = 0.5 * np.exp(-1.0 * (1 - 1)) + 0.5 * np.exp(-1.0 * (1 + 1))   # rho = 1: 0.568
    np.testing.assert_allclose(kernels.folded_rbf(pick(np.array([[1.0]])), pick(np.array([[1e200]]))),
                               [[exact]], rtol=1e-15)
    np.testing.assert_allclose(kernels.rbf_correlation(pick(np.array([[1.0, 0.0]])), pick(np.array([[1e308, 1e308]]))),
                               np.exp(-(1 - 2 ** -0.5)), rtol=1e-14)


def test_float32_rows_near_1e20():
    X = np.array([[1e20, 3e20, -2e20], [2e20, 1e20, 0.0]], dtype=np.float32)
    reference = X.astype(np.float64)
    reference = reference / np.linalg.norm(reference, axis=1, keepdims=True)
    for form in (X, sp.csr_matrix(X)):
        rho = kernels.correlation(form)
        assert np.all(np.isfinite(rho))
        np.testing.assert_allclose(rho, reference @ reference.T, rtol=1e-14)
        assert np.all(np.isfinite(kernels.gaussian(form, gamma=1e-40)))
        np.testing.assert_allclose(kernels.gmm(form), kernels.gmm(X.astype(np.float64) / 1e20), rtol=1e-14)


@pytest.mark.parametrize("sparse", [False, True])
def test_gmm_near_the_float64_maximum(sparse):
    pick = (lambda A: sp.csr_matrix(A)) if sparse else np.asarray
    assert kernels.gmm(pick(np.array([[1e308]])), pick(np.array([[1e308]])))[0, 0] == 1.0
    assert kernels.gmm(pick(np.array([[FMAX, FMAX]])))[0, 0] == 1.0
    assert kernels.gmm(pick(np.array([[1e308]])), pick(np.array([[-1e308]])))[0, 0] == 0.0
    # s_u = 3.4e308, s_v = 2.7e308, d = 0.7e308 (each beyond float64 in u - mu): (6.1 - 0.7) / (6.1 + 0.7)
    value = kernels.gmm(pick(np.array([[1.7e308]])), pick(np.array([[1e308]])), center=[-1.7e308])[0, 0]
    np.testing.assert_allclose(value, 5.4 / 6.8, rtol=1e-14)
    assert kernels.min_max(pick(np.array([[FMAX, 1.0]])), pick(np.array([[FMAX / 2, 3.0]])))[0, 0] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="overflows"):
        kernels.gmm_transform(pick(np.array([[1.7e308]])), center=[-1.7e308])


@settings(max_examples=30, deadline=None, derandomize=True)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 6)),
                  elements=st.floats(-10, 10, allow_subnormal=False)),
       st.integers(-1000, 960), st.booleans())
def test_kernels_are_invariant_to_a_power_of_two_scale(X, power, sparse):
    """rho, GMM (with the centre scaled too) and gamma-adjusted Gaussian do not see the scale."""
    X = X.copy()
    X[:, 0] = np.where(np.all(X == 0, axis=1), 1.0, X[:, 0])
    scaled = np.ldexp(X, power)
    mu = np.linspace(-1.0, 1.0, X.shape[1])
    pick = (lambda A: sp.csr_matrix(A)) if sparse else (lambda A: A)
    np.testing.assert_allclose(kernels.correlation(pick(scaled)), kernels.correlation(X), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(kernels.gmm(pick(scaled)), kernels.gmm(X), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(kernels.gmm(pick(scaled), center=np.ldexp(mu, power)),
                               kernels.gmm(X, center=mu), rtol=1e-13, atol=1e-15)
    if -480 < power < 480:                              # gamma = 2**(-2 power) stays a normal float
        np.testing.assert_allclose(kernels.gaussian(pick(scaled), gamma=np.ldexp(0.3, -2 * power)),
                                   kernels.gaussian(X, gamma=0.3), rtol=1e-12, atol=1e-300)


# ------------------------------------------------------------------------------------------
# Gaussian: squared distances without cancellation
# ------------------------------------------------------------------------------------------

def _brute_gaussian(X, Y, gamma):
    """exp(-gamma sum (x_i - y_i)^2) in mpmath (exact differences of the float64 inputs)."""
    out = np.empty((X.shape[0], Y.shape[0]))
    for i, x in enumerate(X):
        for j, y in enumerate(Y):
            squared = mpmath.fsum((mpmath.mpf(float(a)) - mpmath.mpf(float(b))) ** 2 for a, b in zip(x, y))
            out[i, j] = float(mpmath.exp(-mpmath.mpf(gamma) * squared))
    return out


@pytest.mark.parametrize("sparse", [False, True])
def test_gaussian_large_offsets(sparse):
    pick = (lambda A: sp.csr_matrix(A)) if sparse else np.asarray
    value = kernels.gaussian(pick(np.array([[1e8, 0.5]])), pick(np.array([[1e8, -0.3]])))[0, 0]
    np.testing.assert_allclose(value, np.exp(-0.64), rtol=1e-14)
    X = np.array([[1e8, 0.5, 0.0], [1e8, -0.3, 0.0], [1e8 + 1.0, 0.0, 2.0], [3.0, 0.0, 1e-3]])
    gram = kernels.gaussian(pick(X), gamma=0.7)
    np.testing.assert_array_equal(np.diag(gram), 1.0)                 # never 0 on the diagonal
    np.testing.assert_allclose(gram, _brute_gaussian(X, X, 0.7), rtol=1e-13, atol=1e-300)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(1, 6), st.integers(1, 5), st.integers(1, 8),
       st.sampled_from([0.0, 1.0, 1e4, 1e8, -1e12, 1e150]), st.floats(1e-3, 1e3), st.integers(0, 2**32 - 1))
def test_gaussian_dense_equals_sparse_equals_exact(n, m, d, offset, gamma, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < 0.6)
    Y = rng.standard_normal((m, d)) * (rng.random((m, d)) < 0.6)
    X[:, 0] += offset
    Y[:, 0] += offset
    Y[0] = X[0]                                                        # one exact duplicate pair
    dense = kernels.gaussian(X, Y, gamma=gamma)
    sparse = kernels.gaussian(sp.csr_matrix(X), sp.csr_matrix(Y), gamma=gamma)
    exact = _brute_gaussian(X, Y, gamma)
    np.testing.assert_allclose(dense, exact, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(sparse, exact, rtol=1e-12, atol=1e-300)
    assert dense[0, 0] == 1.0 and sparse[0, 0] == 1.0


def test_gaussian_extreme_gamma_and_magnitudes():
    for X in _forms([[1e300, 1.0]]):
        Y = sp.csr_matrix([[1e300, 2.0]]) if sp.issparse(X) else np.array([[1e300, 2.0]])
        assert kernels.gaussian(X, Y, gamma=1e-300)[0, 0] == 1.0                     # d^2 = 1
        np.testing.assert_allclose(kernels.gaussian(X, Y, gamma=0.5)[0, 0], np.exp(-0.5), rtol=1e-15)
    # d^2 = 1e320 overflows float64 but gamma d^2 = 1: the kernel is exp(-1)
    exact = float(mpmath.exp(-mpmath.mpf(1e160) ** 2 * mpmath.mpf(1e-320)))     # 1e-320: subnormal
    np.testing.assert_allclose(kernels.gaussian([[1e160]], [[0.0]], gamma=1e-320)[0, 0], exact, rtol=1e-14)
    np.testing.assert_allclose(kernels.gaussian(sp.csr_matrix([[1e160]]), [[0.0]], gamma=1e-320)[0, 0], exact,
                               rtol=1e-14)
    assert kernels.gaussian([[FMAX]], [[-FMAX]], gamma=FMAX)[0, 0] == 0.0
    assert kernels.gaussian([[FMAX]], [[FMAX]], gamma=FMAX)[0, 0] == 1.0


# ------------------------------------------------------------------------------------------
# GCWS with a centre: u - mu beyond float64, checked against Algorithm 1 in mpmath
# ------------------------------------------------------------------------------------------

def _mp_algorithm1(X, center, key, k):
    """Algorithm 1 (000, log form) on u~ = |u - mu| in 60-digit arithmetic; (r, log c, beta) from
    the counter-based generator are taken as exact."""
    mpmath.mp.dps = 60
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    i_star = np.empty((n, k), dtype=np.int64)
    t_star = np.empty((n, k), dtype=np.int64)
    coords = np.arange(2 * d)
    r, log_c, beta = randomness.cws_randomness(key, coords[None, :], np.arange(k)[:, None], log_c=True)
    for p in range(n):
        u_tilde = {}
        for i in range(d):
            diff = mpmath.mpf(float(X[p, i])) - mpmath.mpf(float(center[i]))
            if diff != 0:
                u_tilde[2 * i + (diff < 0)] = abs(diff)
        for j in range(k):
            best = None
            for coord, value in sorted(u_tilde.items()):
                rj, bj = mpmath.mpf(float(r[j, coord])), mpmath.mpf(float(beta[j, coord]))
                t = mpmath.floor(mpmath.log(value) / rj + bj)
                a = mpmath.mpf(float(log_c[j, coord])) - rj * (t + 1 - bj)
                if best is None or a < best[0]:
                    best = (a, coord, int(t))
            i_star[p, j], t_star[p, j] = best[1], best[2]
    return i_star, t_star


@pytest.mark.parametrize("sparse", [False, True])
def test_gcws_centre_beyond_float64_matches_mpmath(sparse):
    X = np.array([[-1e300]])
    model = GCWS(4, center=[1.7976931348623157e308], random_state=0).fit(X)
    i_star, t_star = model.hash(sp.csr_matrix(X) if sparse else X)
    assert np.all(i_star == 1)                                         # u <= mu: coordinate 2i + 1
    assert t_star[0, 0] == 352 and np.all(np.abs(t_star) < 2**20)
    np.testing.assert_array_equal(t_star, _mp_algorithm1(X, [FMAX], model.key_, 4)[1])


@settings(max_examples=12, deadline=None, derandomize=True)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 3)),
                  elements=st.sampled_from([0.0, 1.0, -2.5, 1e300, -1e300, 1.5e308, -FMAX, FMAX])),
       hnp.arrays(np.float64, 3, elements=st.sampled_from([0.0, 3.0, -1e300, 1.7e308, -1.7e308, FMAX])),
       st.integers(1, 12), st.booleans())
def test_gcws_huge_centred_data_matches_mpmath(X, center, k, sparse):
    center = center[: X.shape[1]]
    X = X.copy()
    X[:, 0] = np.where(np.all(X == center, axis=1), center[0] / 2 + 1.0, X[:, 0])
    model = GCWS(k, center=center, random_state=3).fit(X)
    got = model.hash(sp.csr_matrix(X) if sparse else X)
    expected = _mp_algorithm1(X, center, model.key_, k)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


# ------------------------------------------------------------------------------------------
# Empty or mismatched hash arrays
# ------------------------------------------------------------------------------------------

def test_empty_and_mismatched_hashes():
    with pytest.raises(ValueError, match="values must hold k >= 1"):
        bbit_code(np.zeros((2, 0), int), 4)
    empty = (np.zeros((2, 0), np.int64), np.zeros((2, 0), np.int64))
    with pytest.raises(ValueError, match="hash_u must hold k >= 1"):
        gmm_estimate(empty, empty)
    with pytest.raises(ValueError, match="t_star must have the shape of i_star"):
        GCWS(3, b=3).code([[1, 2, 3]], [[5]])
    with pytest.raises(ValueError, match=r"i_star must have shape \(n, n_components\)"):
        GCWS(4, b=3).code([[1, 2, 3]], [[5]])
    with pytest.raises(ValueError, match="i_star must have shape"):
        GCWS(3, b=3).code([1, 2, 3], [5, 6, 7])
    with pytest.raises(ValueError, match="broadcastable"):
        gmm_estimate((np.zeros((2, 3), int), np.zeros((2, 3), int)), (np.zeros((3, 3), int), np.zeros((3, 3), int)))
    with pytest.raises(TypeError, match="zero_bit"):
        gmm_estimate(empty, empty, zero_bit="no")
    # what still works: one row, one sample; an empty batch of rows
    assert GCWS(1, b=2).code([[3]], [[0]]).shape == (1, 4)
    assert bbit_code(np.zeros((0, 3), int), 2).shape == (0, 12)


# ------------------------------------------------------------------------------------------
# Object arrays of numeric strings; parameter names in messages
# ------------------------------------------------------------------------------------------

_STRINGS = np.array([["1.0", "2.0"], ["3.0", "4.5"]], dtype=object)


@pytest.mark.parametrize("call", [
    lambda X: kernels.correlation(X),
    lambda X: kernels.gaussian(X),
    lambda X: kernels.gmm(X),
    lambda X: kernels.gmm_transform(X),
])
def test_object_arrays_of_strings_are_rejected(call):
    with pytest.raises(TypeError, match="X must hold real numbers, got str '1.0'"):
        call(_STRINGS)
    mixed = np.array([[1.0, None]], dtype=object)
    with pytest.raises(TypeError, match="X must hold real numbers, got NoneType"):
        call(mixed)
    with pytest.raises(TypeError, match="X must hold real numbers"):
        call(np.array([[1.0, 2 + 0j]], dtype=object))


@pytest.mark.parametrize("call", [
    lambda X: RFF(4, random_state=0).fit(X),
    lambda X: GCWS(4, random_state=0).fit(X),
    lambda X: GCWS(4, random_state=0).fit(np.ones((1, 2))).hash(X),
    lambda X: GCWS(4, random_state=0).fit(np.ones((1, 2))).transform(X),
])
def test_feature_maps_reject_strings_and_name_x(call):
    """The feature maps validate with scikit-learn's validate_data: numeric strings (an object
    array, or a str array, which scikit-learn's own RBFSampler refuses) are not numbers, None is
    a missing value, a complex number is not real; each error names X."""
    for strings in (_STRINGS, _STRINGS.astype(str)):
        with pytest.raises((TypeError, ValueError), match=r"\bX\b"):
            call(strings)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        call(np.array([[1.0, None]], dtype=object))
    with pytest.raises((TypeError, ValueError), match=r"^X: .*complex"):
        call(np.array([[1.0, 2 + 0j]], dtype=object))


def test_object_arrays_of_numbers_are_accepted():
    numbers = np.array([[1, 2.5], [np.float32(3.0), 4]], dtype=object)
    np.testing.assert_array_equal(kernels.correlation(numbers), kernels.correlation(numbers.astype(float)))
    model = GCWS(8, random_state=0).fit(numbers)
    np.testing.assert_array_equal(model.hash(numbers)[1], model.hash(numbers.astype(float))[1])


@pytest.mark.parametrize("kernel", [kernels.rbf_correlation, kernels.folded_rbf, kernels.gaussian])
@pytest.mark.parametrize("gamma", [np.array([1.0]), [1.0], np.array([[0.5]]), True, "1.0"])
def test_gamma_must_be_a_scalar(kernel, gamma):
    with pytest.raises(TypeError, match="gamma must be a real"):
        kernel(np.eye(2), gamma=gamma)


def test_gamma_scalars_are_accepted():
    for gamma in (0.5, np.float32(0.5), np.array(0.5), 1):
        np.testing.assert_allclose(kernels.gaussian(np.eye(2), gamma=gamma), kernels.gaussian(np.eye(2), gamma=float(gamma)))


# ------------------------------------------------------------------------------------------
# GCWS follows the scikit-learn rules; one name for k; the adapter's defaults are the class's
# ------------------------------------------------------------------------------------------

def test_gcws_init_stores_parameters_unchanged_and_validates_at_use():
    center = [0.0, "a"]
    model = GCWS(n_components=0, b="x", zero_bit="no", center=center, random_state=-1)   # no error
    params = model.get_params()
    assert params == dict(n_components=0, b="x", zero_bit="no", center=center, zero_rows="zeros",
                                  sparse_output=True, random_state=-1)
    assert params["center"] is center and not hasattr(model, "key_")
    with pytest.raises(NotFittedError):                    # nothing is hashed before fit
        model.hash(np.ones((1, 2)))
    # fit validates (scikit-learn reports the first invalid parameter in alphabetical order)
    with pytest.raises(ValueError, match=r"The 'b' parameter of GCWS must be an int in the range \[1, 32\] or None"):
        model.fit(np.ones((1, 2)))
    model.set_params(b=4, zero_bit=False, center=None, random_state=0)
    with pytest.raises(ValueError, match=r"The 'n_components' parameter of GCWS must be an int in the range "
                                         r"\[1, 4294967296\]. Got 0 instead"):
        model.fit(np.ones((1, 2)))
    model.set_params(n_components=2**32 + 1)
    with pytest.raises(ValueError, match=r"The 'n_components' parameter of GCWS must be an int in the range "
                                         r"\[1, 4294967296\]. Got 4294967297 instead"):
        model.fit(np.ones((1, 2)))
    assert not hasattr(model, "key_")


def test_gcws_key_is_drawn_at_fit():
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    model = GCWS(16, random_state=rng)
    assert rng.bit_generator.state == state and not hasattr(model, "key_")      # nothing drawn yet
    X = np.random.default_rng(1).standard_normal((3, 4))
    with pytest.raises(NotFittedError):
        model.hash(X)
    assert rng.bit_generator.state == state                                     # still nothing
    with pytest.raises(TypeError):
        model.fit()                                                             # fit needs X
    first = model.fit(X).hash(X)
    key = model.key_
    assert rng.bit_generator.state != state
    assert model.hash(X[1:])[1].tolist() == first[1][1:].tolist() and model.key_ == key
    assert model.fit(X).key_ != key                                    # fit draws a new key
    key = model.key_
    model.set_params(random_state=7)
    assert model.key_ == key                                           # scikit-learn: kept until a refit
    assert model.fit(X).hash(X)[0].tolist() == GCWS(16, random_state=7).fit(X).hash(X)[0].tolist()
    assert repr(model) == "GCWS(n_components=16, random_state=7)"


def test_number_of_samples_is_n_components_everywhere():
    assert "n_samples" not in inspect.signature(GCWS).parameters
    assert list(inspect.signature(GCWS).parameters)[0] == "n_components"
    with pytest.raises(TypeError):
        GCWS(n_samples=4)                                              # no alias (0.x package)


def test_gcws_is_its_own_scikit_learn_transformer():
    """The adapters (varlab.adapters.GCWSTransformer) are gone: GCWS itself is the transformer,
    with the defaults the adapter had."""
    from sklearn.base import BaseEstimator, TransformerMixin

    with pytest.raises(ModuleNotFoundError):
        import varlab.adapters  # noqa: F401
    assert isinstance(GCWS(), BaseEstimator) and isinstance(GCWS(), TransformerMixin)
    assert GCWS().zero_bit is False and GCWS().b == 8 and GCWS().n_components == 256
    assert GCWS().get_params() == dict(n_components=256, b=8, zero_bit=False, center=None, zero_rows="zeros",
                                       sparse_output=True, random_state=None)


def test_gcws_messages_name_the_parameter():
    X = np.random.default_rng(0).standard_normal((5, 3))
    bad_inputs = [np.ones(3), np.ones((0, 3)), np.ones((2, 0)), np.array([["a", "b"]]), np.array([[1 + 1j, 2]]),
                  5.0, np.array([[1.0, np.nan]])]
    for bad in bad_inputs:
        with pytest.raises((ValueError, TypeError), match=r"\bX\b"):
            GCWS(8, random_state=0).fit(bad)
    fitted = GCWS(8, random_state=0).fit(X)
    for bad in (np.ones(3), np.ones((2, 4)), np.array([["a", "b", "c"]])):
        with pytest.raises((ValueError, TypeError), match=r"\bX\b"):
            fitted.transform(bad)
    for params, name in ((dict(n_components=0), "'n_components' parameter of GCWS"),
                         (dict(b=0), "'b' parameter of GCWS"), (dict(zero_bit=None), "'zero_bit' parameter of GCWS"),
                         (dict(center=[1.0]), "center must have length n_features = 3"),
                         (dict(random_state="seed"), "'random_state' parameter of GCWS")):
        with pytest.raises((ValueError, TypeError), match=name):
            GCWS(**params).fit(X)
