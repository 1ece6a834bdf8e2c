"""Random Maclaurin features (Kar and Karnick 2012; 004's baseline RM): unbiased, with the exact
per-feature variance, in standard-error units; input validation; reproducibility."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

from varlab.features import RandomMaclaurin
from varlab.mc import Z_MAX
from varlab.theory.polynomial import maclaurin_variance


def _pairs(d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((3, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


@pytest.mark.parametrize("degree, gamma, coef0", [(1, 2 / 9, 7 / 9), (2, 1.0, 0.5), (3, 0.5, 0.0)])
def test_unbiased_with_the_exact_variance(degree, gamma, coef0):
    X = _pairs(16, degree)
    D = 200000
    rm = RandomMaclaurin(D, degree=degree, gamma=gamma, coef0=coef0, random_state=degree).fit(X)
    Z = rm.transform(X) * np.sqrt(D)                      # per-feature values Z_i(x)
    for i, j in ((0, 1), (0, 2), (1, 1)):
        products = Z[i] * Z[j]
        exact = (gamma * X[i] @ X[j] + coef0) ** degree
        se = products.std(ddof=1) / np.sqrt(D)
        assert abs(products.mean() - exact) <= Z_MAX * se, (i, j)
        variance = maclaurin_variance(X[i], X[j], degree, gamma, coef0)
        centred = (products - products.mean()) ** 2
        se_variance = centred.std(ddof=1) / np.sqrt(D)
        assert abs(centred.mean() - variance) <= Z_MAX * se_variance, (i, j)


def test_sphere_polynomial_kernel_parameters():
    """(1 - |x - y|^2/a^2)^m on the unit sphere = ((2/a^2) <x, y> + 1 - 2/a^2)^m."""
    X = _pairs(8, 0)
    a = 3.0
    D = 100000
    Z = RandomMaclaurin(D, degree=1, gamma=2 / a ** 2, coef0=1 - 2 / a ** 2, random_state=0).fit_transform(X)
    K = Z @ Z.T
    exact = 1 - np.square(np.linalg.norm(X[:, None] - X[None], axis=-1)) / a ** 2
    se = np.sqrt(np.array([[maclaurin_variance(x, y, 1, 2 / a ** 2, 1 - 2 / a ** 2) for y in X] for x in X]) / D)
    assert np.all(np.abs(K - exact) <= Z_MAX * se + 1e-12)


def test_dense_equals_sparse_and_reproducible():
    X = np.random.default_rng(1).standard_normal((5, 7))
    X[X < 0.3] = 0.0
    rm = RandomMaclaurin(40, degree=3, coef0=1.0, random_state=3).fit(X)
    np.testing.assert_allclose(rm.transform(sp.csr_matrix(X)), rm.transform(X), rtol=1e-12, atol=1e-15)
    again = RandomMaclaurin(40, degree=3, coef0=1.0, random_state=3).fit(X)
    np.testing.assert_array_equal(again.transform(X), rm.transform(X))
    assert np.all(np.isin(rm.orders_, [0, 1, 2, 3]))


@pytest.mark.parametrize("params, error, match", [
    ({"gamma": 0.0}, ValueError, r"'gamma' parameter of RandomMaclaurin must be a float in the range \(0.0, inf\)"),
    ({"coef0": -1.0}, ValueError, r"'coef0' parameter of RandomMaclaurin must be a float in the range \[0.0, inf\)"),
    ({"p": 1.0}, ValueError, r"'p' parameter of RandomMaclaurin must be a float in the range \(1.0, inf\)"),
    ({"degree": 0}, ValueError, r"'degree' parameter of RandomMaclaurin must be an int in the range \[1, inf\)"),
    ({"n_components": 2.5}, TypeError, "'n_components' parameter of RandomMaclaurin must be an int")])
def test_bad_arguments(params, error, match):
    with pytest.raises(error, match=match):
        RandomMaclaurin(**params).fit(np.ones((2, 3)))


def test_not_fitted_and_width():
    with pytest.raises(NotFittedError, match="not fitted"):
        RandomMaclaurin().transform(np.ones((2, 3)))
    rm = RandomMaclaurin(4, random_state=0).fit(np.ones((2, 3)))
    with pytest.raises(ValueError, match="X has 4 features, but RandomMaclaurin is expecting 3 features"):
        rm.transform(np.ones((2, 4)))
    with pytest.raises(ValueError, match="Input X contains NaN"):
        rm.transform(np.array([[np.nan, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="Input X contains infinity"):
        rm.transform(np.array([[np.inf, 0.0, 0.0]]))


def test_computes_in_the_dtype_of_x_and_refuses_overflow():
    X = np.random.default_rng(2).standard_normal((4, 3))
    rm = RandomMaclaurin(50, degree=3, coef0=1.0, random_state=0).fit(X)
    assert np.any(rm.orders_ == 3)
    Z64, Z32 = rm.transform(X), rm.transform(X.astype(np.float32))
    assert Z64.dtype == np.float64 and Z32.dtype == np.float32
    np.testing.assert_allclose(Z32, Z64, rtol=1e-4, atol=1e-6)
    # a cube of ~3e15 fits float64 but not float32: refused, never returned as inf
    big = np.full((1, 3), 1e15)
    assert np.all(np.isfinite(rm.transform(big)))
    with pytest.raises(ValueError, match=r"^X: the features overflow float32 .* or pass float64 data"):
        rm.transform(big.astype(np.float32))
    with pytest.raises(ValueError, match=r"^X: the features overflow float64 .* rescale X$"):
        rm.transform(np.full((1, 3), 1e120))
