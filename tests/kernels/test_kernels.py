"""Exact kernels: values, dense = sparse, and input validation."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from varlab import kernels


def _data(seed=0, n=6, d=5):
    return np.random.default_rng(seed).standard_normal((n, d))


def test_correlation_matches_numpy_corrcoef_of_uncentred_rows():
    X = _data()
    expected = X @ X.T / np.outer(np.linalg.norm(X, axis=1), np.linalg.norm(X, axis=1))
    np.testing.assert_allclose(kernels.correlation(X), expected, rtol=1e-14, atol=1e-15)


def test_rbf_correlation_and_folded_rbf_are_eq14_and_eq11():
    X, Y = _data(0), _data(1, n=3)
    rho = kernels.correlation(X, Y)
    np.testing.assert_allclose(kernels.rbf_correlation(X, Y, gamma=2.0), np.exp(-2 * (1 - rho)))
    np.testing.assert_allclose(kernels.folded_rbf(X, Y, gamma=2.0),
                               0.5 * np.exp(-2 * (1 - rho)) + 0.5 * np.exp(-2 * (1 + rho)))


def test_gaussian_matches_distance_form():
    X, Y = _data(0), _data(1, n=3)
    distance = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(kernels.gaussian(X, Y, gamma=0.3), np.exp(-0.3 * distance), rtol=1e-12)


@pytest.mark.parametrize("function", [kernels.correlation, kernels.rbf_correlation,
                                      kernels.folded_rbf, kernels.gaussian])
def test_sparse_equals_dense(function):
    X = _data(2)
    X[X < 0.3] = 0.0
    X[:, 0] = 1.0
    np.testing.assert_allclose(function(sp.csr_matrix(X)), function(X), rtol=1e-13, atol=1e-15)


def test_correlation_of_identical_rows_is_one_and_in_range():
    X = _data(3, n=50, d=3)
    rho = kernels.correlation(X)
    assert np.all(np.abs(rho) <= 1.0)
    np.testing.assert_allclose(np.diag(rho), 1.0, rtol=1e-15)


@pytest.mark.parametrize("bad, match", [
    (np.array([[1.0, 0.0], [0.0, 0.0]]), "all-zero rows"),
    (np.array([[1.0, np.nan]]), "finite"),
    (np.array([[1.0, np.inf]]), "finite"),
    (np.array([1.0, 2.0]), "2-d"),
])
def test_bad_input_is_rejected(bad, match):
    with pytest.raises(ValueError, match=match):
        kernels.correlation(bad)


def test_shape_mismatch_and_gamma_are_rejected():
    with pytest.raises(ValueError, match="same number of columns"):
        kernels.correlation(_data(0, d=3), _data(1, d=4))
    for gamma in (0.0, -1.0, np.nan, np.inf):
        with pytest.raises(ValueError, match="gamma"):
            kernels.rbf_correlation(_data(), gamma=gamma)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, (4, 3), elements=st.floats(-1e3, 1e3)).filter(
    lambda a: np.all(np.linalg.norm(a, axis=1) > 1e-3)))
def test_correlation_is_symmetric_and_bounded(X):
    rho = kernels.correlation(X)
    assert np.all(np.abs(rho) <= 1.0)
    np.testing.assert_allclose(rho, rho.T, atol=1e-15)


# --- the stationary kernels beyond the Gaussian: exact distances for any finite input ------------

def _exact(name, distance, scale=1.0):
    """The kernel at a distance, from its formula (the reference of the tests below)."""
    a = scale * distance
    return {"laplacian": np.exp(-a), "exponential": np.exp(-a),
            "matern32": (1 + np.sqrt(3) * a) * np.exp(-np.sqrt(3) * a),
            "matern52": (1 + np.sqrt(5) * a + 5 * a * a / 3) * np.exp(-np.sqrt(5) * a),
            "cauchy": 1 / (1 + a * a)}[name]


def _kernel(name):
    return {"laplacian": kernels.laplacian, "exponential": kernels.exponential, "cauchy": kernels.cauchy,
            "matern32": lambda X, Y=None, gamma=1.0: kernels.matern(X, Y, nu=1.5, gamma=gamma),
            "matern52": lambda X, Y=None, gamma=1.0: kernels.matern(X, Y, nu=2.5, gamma=gamma)}[name]


STATIONARY = ["laplacian", "exponential", "matern32", "matern52", "cauchy"]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("name", STATIONARY)
def test_clustered_rows_far_from_the_origin_get_their_exact_distance(name, sparse):
    """Rows 1e8 and 1e8 + 1 are at distance 1 (|x|^2 + |y|^2 - 2<x, y> gave 0: the kernel 1)."""
    X = np.array([[1e8, 0.5], [1e8 + 1, 0.5], [1e8, 0.5 + 1e-4]])
    X = sp.csr_matrix(X) if sparse else X
    K = _kernel(name)(X)
    np.testing.assert_allclose(K[0, 1], _exact(name, 1.0), rtol=1e-13)
    np.testing.assert_allclose(K[0, 2], _exact(name, 1e-4), rtol=1e-13)
    assert np.all(np.diag(K) == 1.0)


@pytest.mark.parametrize("name", STATIONARY)
def test_tiny_distances_at_a_huge_gamma_do_not_underflow(name):
    """1e-200 apart at gamma = 1e200 (the squares underflowed to 0: the kernel 1)."""
    scale = 1e200 if name != "cauchy" else 1e100          # the Cauchy kernel's scale is sqrt(gamma)
    K = _kernel(name)(np.array([[1e-200], [2e-200]]), gamma=1e200)
    np.testing.assert_allclose(K[0, 1], _exact(name, 1e-200, scale), rtol=1e-13)


@pytest.mark.parametrize("name", STATIONARY)
def test_any_finite_input_is_accepted(name):
    """|x| = 1e200 (the squared norms overflowed: 'distance must be finite')."""
    K = _kernel(name)(np.array([[1e200, 0.0], [1e200, 1.0], [-1e200, 0.0]]))
    np.testing.assert_allclose(K[0, 1], _exact(name, 1.0), rtol=1e-13)
    assert K[0, 2] == 0.0                                  # the exact value is below 1e-400


@pytest.mark.parametrize("name", [*STATIONARY, "gaussian"])
def test_no_columns_and_a_too_large_matrix(name):
    function = kernels.gaussian if name == "gaussian" else _kernel(name)
    np.testing.assert_array_equal(function(np.zeros((3, 0))), np.ones((3, 3)))
    with pytest.raises(ValueError, match="too large: the \\(100000, 100000\\) kernel matrix"):
        function(np.zeros((100_000, 1)))
