"""GMM kernel (paper 000, Eq. 4, 7, 8), its transform, and the min-max kernel (varlab.kernels)."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from varlab import kernels
from varlab.kernels import gmm_kernel


def _brute_gmm(X, Y, center=None):
    """Eq. (8) literally: sum of min over sum of max of the 2D-dim transforms."""
    A = kernels.gmm_transform(X, center)
    B = kernels.gmm_transform(Y, center)
    A = A.toarray() if sp.issparse(A) else A
    B = B.toarray() if sp.issparse(B) else B
    low = np.minimum(A[:, None, :], B[None, :, :]).sum(-1)
    high = np.maximum(A[:, None, :], B[None, :, :]).sum(-1)
    return low / high


def _signed_with_zeros(rng, n, d, zero_fraction=0.4):
    X = rng.standard_normal((n, d)) * np.exp(rng.standard_normal((n, d)))
    X[rng.random((n, d)) < zero_fraction] = 0.0
    X[:, 0] = np.where(X[:, 0] == 0, 1.0, X[:, 0])      # no all-zero rows
    return X


def test_transform_paper_example():
    np.testing.assert_array_equal(kernels.gmm_transform(np.array([[-5.0, 3.0]])), [[0, 5, 3, 0]])
    # Eq. (4): centre vector; u_i <= mu_i goes to the second coordinate of the pair
    out = kernels.gmm_transform(np.array([[-5.0, 3.0, 2.0]]), center=[1.0, 1.0, 2.0])
    np.testing.assert_array_equal(out, [[0, 6, 2, 0, 0, 0]])


def test_transform_dtype_and_sparse():
    rng = np.random.default_rng(0)
    X = _signed_with_zeros(rng, 6, 5)
    dense = kernels.gmm_transform(X)
    assert dense.shape == (6, 10) and dense.dtype == np.float64 and dense.min() >= 0
    assert kernels.gmm_transform(X.astype(np.float32)).dtype == np.float32
    S = kernels.gmm_transform(sp.csr_matrix(X))
    assert sp.issparse(S) and S.format == "csr" and S.nnz == np.count_nonzero(X)
    np.testing.assert_array_equal(S.toarray(), dense)
    # a nonzero centre densifies the columns where mu != 0 (and only those)
    mu = np.zeros(5)
    mu[[1, 3]] = [0.5, -2.0]
    Sc = kernels.gmm_transform(sp.csr_matrix(X), center=mu)
    np.testing.assert_allclose(Sc.toarray(), kernels.gmm_transform(X, center=mu), rtol=0, atol=0)
    support = np.count_nonzero((X - mu) != 0)
    assert Sc.nnz == support


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(1, 7), st.integers(1, 6), st.integers(1, 9), st.booleans(), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_gram_equals_eq8(n, m, d, use_center, sparse, seed):
    rng = np.random.default_rng(seed)
    X, Y = _signed_with_zeros(rng, n, d), _signed_with_zeros(rng, m, d)
    center = rng.standard_normal(d) * (rng.random(d) < 0.5) if use_center else None
    if center is not None:
        X[:, 0] = Y[:, 0] = center[0] + 1.0      # keep every row away from the centre
    expected = _brute_gmm(X, Y, center)
    Xs, Ys = (sp.csr_matrix(X), sp.csr_matrix(Y)) if sparse else (X, Y)
    got = kernels.gmm(Xs, Ys, center=center)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    # mixed dense / sparse
    np.testing.assert_allclose(kernels.gmm(X, Ys, center=center), expected, rtol=1e-12, atol=1e-14)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(hnp.arrays(np.float64, st.tuples(st.integers(2, 6), st.integers(1, 5)),
                  elements=st.sampled_from([0.0, 1.0, -1.0, 2.5, -0.5, 1e-3, 7.0])))
def test_gram_properties(X):
    X = X.copy()
    X[:, 0] = np.where(np.all(X == 0, axis=1), 1.0, X[:, 0])
    G = kernels.gmm(X)
    np.testing.assert_allclose(G, G.T, rtol=0, atol=1e-15)
    np.testing.assert_allclose(np.diag(G), 1.0)
    assert G.min() >= 0 and G.max() <= 1
    np.testing.assert_allclose(G, _brute_gmm(X, X), rtol=1e-12, atol=1e-15)


def test_blocked_paths_agree(monkeypatch):
    rng = np.random.default_rng(3)
    X, Y = _signed_with_zeros(rng, 37, 12), _signed_with_zeros(rng, 23, 12)
    center = rng.standard_normal(12)
    full = kernels.gmm(X, Y, center=center)
    monkeypatch.setattr(gmm_kernel, "GRAM_BLOCK_ELEMENTS", 50)
    monkeypatch.setattr(gmm_kernel, "_SPARSE_PAIR_BUDGET", 40)
    np.testing.assert_allclose(kernels.gmm(X, Y, center=center), full, rtol=1e-13)
    np.testing.assert_allclose(kernels.gmm(sp.csr_matrix(X), sp.csr_matrix(Y), center=center), full,
                               rtol=1e-12, atol=1e-15)


def test_sparse_high_dimensional_with_centre_is_not_densified():
    import tracemalloc

    d = 2_000_000
    rng = np.random.default_rng(1)
    X = sp.random(4, d, density=5e-6, random_state=1, format="csr") - sp.random(4, d, density=5e-6,
                                                                                random_state=2, format="csr")
    X = sp.csr_matrix(X + sp.csr_matrix((np.ones(4), (np.arange(4), np.full(4, 7))), shape=(4, d)))
    center = np.zeros(d)
    center[[3, 11, 999_999]] = rng.standard_normal(3)
    tracemalloc.start()
    got = kernels.gmm(X, center=center)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # O(nnz) plus one temporary the size of mu; a dense copy of X alone would be 4 * center.nbytes
    assert peak < 1.5 * center.nbytes
    # reference on the columns that matter (support of X and of mu)
    columns = np.union1d(np.unique(X.indices), np.flatnonzero(center))
    expected = _brute_gmm(X[:, columns].toarray(), X[:, columns].toarray(), center[columns])
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_min_max_nonnegative():
    rng = np.random.default_rng(2)
    X = np.abs(_signed_with_zeros(rng, 8, 6))
    Y = np.abs(_signed_with_zeros(rng, 5, 6))
    expected = np.minimum(X[:, None], Y[None]).sum(-1) / np.maximum(X[:, None], Y[None]).sum(-1)
    np.testing.assert_allclose(kernels.min_max(X, Y), expected, rtol=1e-12)
    np.testing.assert_allclose(kernels.min_max(sp.csr_matrix(X), Y), expected, rtol=1e-12)
    np.testing.assert_allclose(kernels.gmm(X, Y), expected, rtol=1e-12)   # GMM = min-max on X >= 0
    with pytest.raises(ValueError, match="nonnegative"):
        kernels.min_max(-X)
    with pytest.raises(ValueError, match="Y must be nonnegative"):
        kernels.min_max(X, sp.csr_matrix(-Y))


def test_zero_rows():
    X = np.array([[1.0, -2.0], [0.0, 0.0]])
    Y = np.array([[0.0, 0.0], [3.0, 1.0]])
    with pytest.raises(ValueError, match="0/0"):
        kernels.gmm(X)                            # the zero row against itself
    with pytest.raises(ValueError, match="X row 1 and Y row 0"):
        kernels.gmm(X, Y)
    with pytest.raises(ValueError, match="0/0"):
        kernels.min_max(np.abs(X))
    # one zero vector against a nonzero one is fine: GMM = 0
    G = kernels.gmm(X[:1], Y)
    assert G[0, 0] == 0.0 and 0 < G[0, 1] < 1
    # with a centre, "zero" means equal to the centre
    with pytest.raises(ValueError, match="0/0"):
        kernels.gmm(np.array([[1.0, 2.0]]), center=[1.0, 2.0])
    with pytest.raises(ValueError, match="0/0"):
        kernels.gmm(sp.csr_matrix(np.array([[0.0, 0.0]])))


@pytest.mark.parametrize("call, match", [
    (lambda: kernels.gmm(np.ones((2, 3)), np.ones((2, 4))), "same number of columns"),
    (lambda: kernels.gmm(np.ones((2, 3)), center=[1.0, 2.0]), "center"),
    (lambda: kernels.gmm(np.ones((2, 3)), center=[1.0, np.nan, 0.0]), "center"),
    (lambda: kernels.gmm(np.array([[1.0, np.inf]])), "finite"),
    (lambda: kernels.gmm_transform(np.ones(3)), "2-d"),
    (lambda: kernels.gmm_transform(np.ones((2, 3)), center=np.ones((3, 1))), "center"),
])
def test_validation(call, match):
    with pytest.raises(ValueError, match=match):
        call()
