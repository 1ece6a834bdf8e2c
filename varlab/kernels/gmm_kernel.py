"""The GMM kernel (paper 000, Sections 1.1-1.2: the transform of Eq. 4/7 and the Gram matrix of
Eq. 8) and the min-max kernel.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from .. import _validate
from .rows import GRAM_BLOCK_ELEMENTS, MatrixLike, max_abs, pair, power_of_two_shift, shifted

__all__ = ["gmm", "gmm_transform", "min_max"]

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


def centered_sparse(X: sp.csr_matrix, mu) -> sp.csr_matrix:
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
        X = (X - shift).tocsr()        # may hold +-inf where |x_i - mu_i| overflows (callers check)
        X.sum_duplicates()
    X.eliminate_zeros()
    X.sort_indices()
    return X


def _check_centred(values, X):
    """u - mu must be finite: the transform holds the values themselves (no rescaling helps)."""
    if not np.all(np.isfinite(values)):
        raise ValueError("X - center overflows float64 (|u_i - mu_i| > 1.8e308): the transform of Eq. (4) "
                         "cannot hold it; divide X and center by a common factor (gmm and GCWS do not "
                         "need this)")


def gmm_transform(X: MatrixLike, center: ArrayLike | None = None) -> np.ndarray | sp.csr_matrix:
    """The nonnegative transform u -> u~ of Eq. (7) (centre mu = 0) or Eq. (4) (centre mu).

    Returns an (n, 2D) array with, for 0-based i, column 2i = (u_i - mu_i)^+ and column
    2i + 1 = (mu_i - u_i)^+ (the paper's 1-based 2i - 1 and 2i). Example (Eq. 7): u = [-5, 3]
    gives u~ = [0, 5, 3, 0]. One centre vector ``center`` (length D) is shared by all rows.

    Dense input gives a dense array, sparse input a CSR matrix (no explicit zeros); float32 input
    stays float32 (the differences u - mu are formed in float64). With a nonzero centre every
    coordinate where u_i != mu_i is nonzero, so a sparse input densifies in the columns where
    mu != 0 (n * nnz(mu) extra stored entries).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import gmm_transform
    >>> gmm_transform(np.array([[1.5, -2.0]]))            # (u_i+, u_i-) pairs, interleaved
    array([[1.5, 0. , 0. , 2. ]])
    """
    X = _validate.data_matrix(X, "X")
    mu = _center_vector(center, X.shape[1])
    n, d = X.shape
    dtype = X.dtype
    if sp.issparse(X):
        centered = centered_sparse(X, mu)
        _check_centred(centered.data, X)
        rows = np.repeat(np.arange(n), np.diff(centered.indptr))
        values = centered.data
        columns = 2 * centered.indices.astype(np.int64) + (values < 0)
        out = sp.csr_matrix((np.abs(values).astype(dtype), (rows, columns)), shape=(n, 2 * d))
        out.sort_indices()
        return out
    dev = X.astype(np.float64)
    if mu is not None:
        with np.errstate(over="ignore"):
            dev = dev - mu
        _check_centred(dev, X)
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


def gmm(X: MatrixLike, Y: MatrixLike | None = None, *, center: ArrayLike | None = None) -> np.ndarray:
    """Gram matrix of the generalized min-max similarity GMM(u, v) (paper 000, Eq. 8).

    GMM(u, v) = sum_i min(u~_i, v~_i) / sum_i max(u~_i, v~_i) over the transform u~ of Eq. (7)
    (or Eq. (4) with the centre vector ``center``, one mu for all rows). Computed as
    (s_u + s_v - d) / (s_u + s_v + d) with s = ||. - mu||_1 and d = ||u - v||_1 (derivation in
    the module notes), in row blocks of bounded memory: no (n, 2D) array is formed, and a sparse
    input is never densified (not even with a nonzero centre). Returns an (n_X, n_Y) float64
    array in [0, 1]. A pair of all-zero vectors (u = v = mu) raises ValueError (0/0).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import gmm
    >>> gmm(np.array([[1.0, -1.0], [2.0, 1.0]]))          # sum min / sum max of the Eq. (7) transforms
    array([[1.  , 0.25],
           [0.25, 1.  ]])
    """
    same = Y is None
    X, Y = pair(X, Y)
    mu = _center_vector(center, X.shape[1])
    # GMM is a ratio of sums homogeneous of degree 1 in (u, v, mu): scale huge data by a power
    # of two (exact) so that s_u + s_v + d <= 6 max|.| n_features cannot overflow
    e = power_of_two_shift(max_abs(X, Y, mu), 1017 - int(np.ceil(np.log2(max(X.shape[1], 1)))))
    if e:
        X, Y, mu = shifted(X, e), (None if same else shifted(Y, e)), shifted(mu, e)
        Y = X if same else Y
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
    rows_per_block = max(1, GRAM_BLOCK_ELEMENTS // max(m, 1))
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


def min_max(X: MatrixLike, Y: MatrixLike | None = None) -> np.ndarray:
    """Gram matrix of the min-max kernel sum_i min(u_i, v_i) / sum_i max(u_i, v_i).

    For nonnegative data only (ValueError on a negative entry); it equals GMM with mu = 0
    (000, Eq. 8 on data that Eq. 7 leaves unchanged). A pair of all-zero rows raises ValueError.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import min_max
    >>> min_max(np.array([[1.0, 2.0]]), np.array([[2.0, 1.0]]))    # (1 + 1) / (2 + 2)
    array([[0.5]])
    """
    X, Y2 = pair(X, Y)
    for name, M in (("X", X), ("Y", Y2)):
        values = M.data if sp.issparse(M) else M
        if values.size and values.min() < 0:
            raise ValueError(f"{name} must be nonnegative for the min-max kernel (use gmm for signed data)")
    return gmm(X, None if Y is None else Y2)
