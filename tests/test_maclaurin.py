"""Random Maclaurin features (Kar and Karnick 2012; 004's baseline RM): unbiased, with the exact
per-feature variance, in standard-error units; input validation; reproducibility."""
import numpy as np
import pytest
import scipy.sparse as sp

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


@pytest.mark.parametrize("params, error, match", [({"gamma": 0.0}, ValueError, "gamma"),
                                                  ({"coef0": -1.0}, ValueError, "coef0"),
                                                  ({"p": 1.0}, ValueError, r"\bp\b"),
                                                  ({"degree": 0}, ValueError, "degree"),
                                                  ({"n_components": 2.5}, TypeError, "n_components")])
def test_bad_arguments(params, error, match):
    with pytest.raises(error, match=match):
        RandomMaclaurin(**params).fit(np.ones((2, 3)))


def test_not_fitted_and_width():
    with pytest.raises(ValueError, match="not fitted"):
        RandomMaclaurin().transform(np.ones((2, 3)))
    rm = RandomMaclaurin(4, random_state=0).fit(np.ones((2, 3)))
    with pytest.raises(ValueError, match="X has 4 features"):
        rm.transform(np.ones((2, 4)))
    with pytest.raises(ValueError, match="X must be finite"):
        rm.transform(np.array([[np.nan, 0.0, 0.0]]))
