"""Exact kernels and their Gram matrices.

Rows of ``X`` and ``Y`` are data vectors; dense arrays and scipy.sparse matrices are accepted.

* correlation rho(u, v): paper 000, Eq. (1);
* RBF in correlation form exp(-gamma (1 - rho)): 000, Eq. (14);
* folded RBF (1/2) exp(-gamma (1 - rho)) + (1/2) exp(-gamma (1 + rho)): 001, Eq. (11);
* Gaussian in distance form exp(-gamma ||u - v||^2) (scikit-learn's ``rbf_kernel`` convention).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from . import _validate


def _pair(X, Y):
    X = _validate.data_matrix(X, "X")
    Y = X if Y is None else _validate.data_matrix(Y, "Y")
    _validate.same_width(X, Y)
    return X, Y


def _row_norms(X, name: str) -> np.ndarray:
    squared = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) else np.einsum("ij,ij->i", X, X)
    norms = np.sqrt(squared.astype(np.float64))
    zero = np.flatnonzero(norms == 0)
    if zero.size:
        raise ValueError(f"{name} has all-zero rows (first at index {zero[0]}); "
                         "the correlation of a zero vector is undefined")
    return norms


def _inner(X, Y) -> np.ndarray:
    product = X @ Y.T
    product = product.toarray() if sp.issparse(product) else np.asarray(product)
    return product.astype(np.float64, copy=False)


def correlation(X, Y=None) -> np.ndarray:
    """Gram matrix of rho(u, v) = <u, v> / (||u|| ||v||) (000, Eq. 1), clipped to [-1, 1].

    Returns shape (n_X, n_Y). Zero rows raise ValueError.
    """
    X, Y = _pair(X, Y)
    nx, ny = _row_norms(X, "X"), _row_norms(Y, "Y")
    return np.clip(_inner(X, Y) / nx[:, None] / ny[None, :], -1.0, 1.0)


def rbf_correlation(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    """RBF(u, v; gamma) = exp(-gamma (1 - rho)) (000, Eq. 14)."""
    gamma = float(_validate.positive(gamma, "gamma"))
    return np.exp(-gamma * (1.0 - correlation(X, Y)))


def folded_rbf(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    """fRBF(u, v; gamma) = exp(-gamma (1 - rho)) / 2 + exp(-gamma (1 + rho)) / 2 (001, Eq. 11)."""
    gamma = float(_validate.positive(gamma, "gamma"))
    rho = correlation(X, Y)
    return 0.5 * np.exp(-gamma * (1.0 - rho)) + 0.5 * np.exp(-gamma * (1.0 + rho))


def gaussian(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    """exp(-gamma ||u - v||^2), the usual Gaussian kernel in distance form."""
    gamma = float(_validate.positive(gamma, "gamma"))
    X, Y = _pair(X, Y)
    sx = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) else np.einsum("ij,ij->i", X, X)
    sy = np.asarray(Y.multiply(Y).sum(axis=1)).ravel() if sp.issparse(Y) else np.einsum("ij,ij->i", Y, Y)
    squared = sx[:, None].astype(np.float64) + sy[None, :] - 2.0 * _inner(X, Y)
    return np.exp(-gamma * np.maximum(squared, 0.0))


# ===========================================================================================
# GMM kernel (paper 000, Sections 1.1-1.2) and min-max
# ===========================================================================================
#
# Transform (Eq. 4, centre mu; Eq. 7 is mu = 0), with 0-based indices: column 2i of u~ holds
# (u_i - mu_i)^+ and column 2i + 1 holds (mu_i - u_i)^+ (the paper's 1-based 2i-1 and 2i).
#
# Gram matrix without 2D-wide arrays. Write a = u_i - mu_i, b = v_i - mu_i. Over the pair of
# transformed coordinates (2i, 2i+1):
#   sum of min = min(a, b)^+ + (-max(a, b))^+ = min(|a|, |b|) if a, b have the same sign, else 0
#              = (|a| + |b| - |a - b|) / 2            (for opposite signs |a - b| = |a| + |b|)
#   sum of max = (|a| + |b|) - sum of min = (|a| + |b| + |a - b|) / 2   (min + max = sum).
# Summing over i, with s_u = ||u - mu||_1, s_v = ||v - mu||_1 and d = ||u - v||_1 (mu cancels):
#   GMM(u, v) = (s_u + s_v - d) / (s_u + s_v + d)                               (Eq. 8)
# so the Gram matrix is one cityblock-distance matrix plus two vectors of l1 norms. For
# nonnegative data with mu = 0, u~ is u interleaved with zeros, and GMM is the min-max kernel.

_GRAM_BLOCK_ELEMENTS = 1 << 18      # output entries per block (2 MiB of float64)
_SPARSE_PAIR_BUDGET = 1 << 22       # common-support pairs expanded at once in the sparse path


def _center_vector(center, n_features: int, name: str = "center"):
    """None or a finite 1-d vector of length n_features (float64); None means mu = 0."""
    if center is None:
        return None
    mu = _validate.real_array(center, name)
    if mu.ndim != 1 or mu.shape[0] != n_features:
        raise ValueError(f"{name} must be a 1-d vector of length n_features = {n_features}, "
                         f"got shape {mu.shape}")
    return mu


def _centered_sparse(X: sp.csr_matrix, mu) -> sp.csr_matrix:
    """X - mu (one mu for every row) as a CSR float64 matrix without explicit zeros.

    With a nonzero centre the result stores the union of each row's support and the support of
    mu: n_rows * nnz(mu) extra entries, i.e. dense in the columns where mu != 0.
    """
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    X.sum_duplicates()
    if mu is not None and np.any(mu != 0):
        support = np.flatnonzero(mu)
        n = X.shape[0]
        shift = sp.csr_matrix((np.tile(mu[support], n), np.tile(support, n),
                               np.arange(0, n * support.size + 1, support.size)), shape=X.shape)
        X = (X - shift).tocsr()
        X.sum_duplicates()
    X.eliminate_zeros()
    X.sort_indices()
    return X


def gmm_transform(X, center=None):
    """The nonnegative transform u -> u~ of Eq. (7) (centre mu = 0) or Eq. (4) (centre mu).

    Returns an (n, 2D) array with, for 0-based i, column 2i = (u_i - mu_i)^+ and column
    2i + 1 = (mu_i - u_i)^+ (the paper's 1-based 2i - 1 and 2i). Example (Eq. 7): u = [-5, 3]
    gives u~ = [0, 5, 3, 0]. One centre vector ``center`` (length D) is shared by all rows.

    Dense input gives a dense array, sparse input a CSR matrix (no explicit zeros); float32 input
    stays float32 (the differences u - mu are formed in float64). With a nonzero centre every
    coordinate where u_i != mu_i is nonzero, so a sparse input densifies in the columns where
    mu != 0 (n * nnz(mu) extra stored entries).
    """
    X = _validate.data_matrix(X, "X")
    mu = _center_vector(center, X.shape[1])
    n, d = X.shape
    dtype = X.dtype
    if sp.issparse(X):
        centered = _centered_sparse(X, mu)
        rows = np.repeat(np.arange(n), np.diff(centered.indptr))
        values = centered.data
        columns = 2 * centered.indices.astype(np.int64) + (values < 0)
        out = sp.csr_matrix((np.abs(values).astype(dtype), (rows, columns)), shape=(n, 2 * d))
        out.sort_indices()
        return out
    dev = X.astype(np.float64)
    if mu is not None:
        dev = dev - mu
    out = np.empty((n, 2 * d), dtype=dtype)
    out[:, 0::2] = np.maximum(dev, 0.0)
    out[:, 1::2] = np.maximum(-dev, 0.0)
    return out


def _l1_norms(X, mu) -> np.ndarray:
    """||x - mu||_1 for each row, float64, without densifying a sparse X.

    Sparse: ||x - mu||_1 = ||mu||_1 + sum over the row's support of (|x_i - mu_i| - |mu_i|).
    """
    if sp.issparse(X):
        data = X.data.astype(np.float64)
        if mu is None:
            terms = np.abs(data)
            base = 0.0
        else:
            mu_at = mu[X.indices]
            terms = np.abs(data - mu_at) - np.abs(mu_at)
            base = float(np.abs(mu).sum())
        rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        return base + np.bincount(rows, weights=terms, minlength=X.shape[0])
    dev = X.astype(np.float64, copy=False)
    if mu is not None:
        dev = dev - mu
    return np.abs(dev).sum(axis=1)


class _ColumnIndex:
    """The entries of a CSR matrix sorted by column (no D-sized arrays, unlike CSC's indptr)."""

    def __init__(self, Y: sp.csr_matrix):
        rows = np.repeat(np.arange(Y.shape[0]), np.diff(Y.indptr))
        order = np.argsort(Y.indices, kind="stable")
        self.columns = Y.indices[order].astype(np.int64)
        self.rows = rows[order]
        self.values = Y.data[order].astype(np.float64)
        self.n_rows = Y.shape[0]

    def ranges(self, columns):
        """(first position, count) of the entries in each of ``columns``."""
        low = np.searchsorted(self.columns, columns, side="left")
        return low, np.searchsorted(self.columns, columns, side="right") - low


def _sparse_cityblock_block(Xb: sp.csr_matrix, Y: _ColumnIndex, norms_x, norms_y) -> np.ndarray:
    """||x - y||_1 for the rows of Xb against all rows of Y (dense (nb, m) array).

    ||x - y||_1 = ||x||_1 + ||y||_1 - 2 S with S = sum over the common support of
    (|a| + |b| - |a - b|) / 2 = [a, b same sign] min(|a|, |b|). The common-support pairs are
    expanded column by column (vectorized) and accumulated with bincount; their number is the
    work of the sparse product |Xb| |Y|^T. Memory is O(nnz + pairs + nb m), never O(D).
    """
    nb, m = Xb.shape[0], Y.n_rows
    rows = np.repeat(np.arange(nb), np.diff(Xb.indptr))
    first, counts = Y.ranges(Xb.indices)
    total = int(counts.sum())
    common = np.zeros(nb * m)
    if total:
        owner = np.repeat(np.arange(counts.size), counts)
        where = first[owner] + (np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts))
        a = Xb.data[owner].astype(np.float64)
        b = Y.values[where]
        contribution = np.where((a > 0) == (b > 0), np.minimum(np.abs(a), np.abs(b)), 0.0)
        common = np.bincount(rows[owner] * m + Y.rows[where], weights=contribution, minlength=nb * m)
    distance = norms_x[:, None] + norms_y[None, :] - 2.0 * common.reshape(nb, m)
    return np.maximum(distance, 0.0, out=distance)


def _check_zero_pairs(sx, sy, same: bool):
    zx, zy = np.flatnonzero(sx == 0), np.flatnonzero(sy == 0)
    if zx.size and zy.size:
        where = (f"X row {zx[0]} is all-zero (after centring)" if same else
                 f"X row {zx[0]} and Y row {zy[0]} are both all-zero (after centring)")
        raise ValueError(f"GMM of two all-zero vectors is 0/0 (undefined): {where}")


def gmm(X, Y=None, *, center=None) -> np.ndarray:
    """Gram matrix of the generalized min-max similarity GMM(u, v) (paper 000, Eq. 8).

    GMM(u, v) = sum_i min(u~_i, v~_i) / sum_i max(u~_i, v~_i) over the transform u~ of Eq. (7)
    (or Eq. (4) with the centre vector ``center``, one mu for all rows). Computed as
    (s_u + s_v - d) / (s_u + s_v + d) with s = ||. - mu||_1 and d = ||u - v||_1 (derivation in
    the module notes), in row blocks of bounded memory: no (n, 2D) array is formed, and a sparse
    input is never densified (not even with a nonzero centre). Returns an (n_X, n_Y) float64
    array in [0, 1]. A pair of all-zero vectors (u = v = mu) raises ValueError (0/0).
    """
    same = Y is None
    X, Y = _pair(X, Y)
    mu = _center_vector(center, X.shape[1])
    sx = _l1_norms(X, mu)
    sy = sx if same else _l1_norms(Y, mu)
    _check_zero_pairs(sx, sy, same)
    n, m = X.shape[0], Y.shape[0]
    out = np.empty((n, m), dtype=np.float64)
    sparse = sp.issparse(X) or sp.issparse(Y)
    if sparse:
        X = sp.csr_matrix(X)
        X.sum_duplicates()
        Y = X if same else sp.csr_matrix(Y)
        Y.sum_duplicates()
        Y_index = _ColumnIndex(Y)
        nx_raw = _l1_norms(X, None)
        ny_raw = nx_raw if same else _l1_norms(Y, None)
        # rows per block: bound the output block and the expanded common-support pairs
        pairs_per_row = np.bincount(np.repeat(np.arange(n), np.diff(X.indptr)),
                                    weights=Y_index.ranges(X.indices)[1], minlength=n)
    else:
        from scipy.spatial.distance import cdist
        Xd = np.ascontiguousarray(X, dtype=np.float64)
        Yd = np.ascontiguousarray(Y, dtype=np.float64)
    rows_per_block = max(1, _GRAM_BLOCK_ELEMENTS // max(m, 1))
    start = 0
    while start < n:
        stop = min(n, start + rows_per_block)
        if sparse:
            cumulative = np.cumsum(pairs_per_row[start:stop])
            stop = start + max(1, int(np.searchsorted(cumulative, _SPARSE_PAIR_BUDGET, side="right")))
            block = out[start:stop]
            block[...] = _sparse_cityblock_block(X[start:stop], Y_index, nx_raw[start:stop], ny_raw)
        else:
            block = out[start:stop]
            cdist(Xd[start:stop], Yd, "cityblock", out=block)
        total = np.add(sx[start:stop, None], sy[None, :])
        denominator = total + block
        np.subtract(total, block, out=block)
        np.divide(block, denominator, out=block)
        np.clip(block, 0.0, 1.0, out=block)
        start = stop
    return out


def min_max(X, Y=None) -> np.ndarray:
    """Gram matrix of the min-max kernel sum_i min(u_i, v_i) / sum_i max(u_i, v_i).

    For nonnegative data only (ValueError on a negative entry); it equals GMM with mu = 0
    (000, Eq. 8 on data that Eq. 7 leaves unchanged). A pair of all-zero rows raises ValueError.
    """
    X, Y2 = _pair(X, Y)
    for name, M in (("X", X), ("Y", Y2)):
        values = M.data if sp.issparse(M) else M
        if values.size and values.min() < 0:
            raise ValueError(f"{name} must be nonnegative for the min-max kernel (use gmm for signed data)")
    return gmm(X, None if Y is None else Y2)
