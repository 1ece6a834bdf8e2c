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
