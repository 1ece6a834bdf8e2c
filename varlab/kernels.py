"""Exact kernels and their Gram matrices.

Rows of ``X`` and ``Y`` are data vectors; dense arrays and scipy.sparse matrices are accepted.

* correlation rho(u, v): paper 000, Eq. (1);
* RBF in correlation form exp(-gamma (1 - rho)): 000, Eq. (14);
* folded RBF (1/2) exp(-gamma (1 - rho)) + (1/2) exp(-gamma (1 + rho)): 001, Eq. (11);
* Gaussian in distance form exp(-gamma ||u - v||^2) (scikit-learn's ``rbf_kernel`` convention).

Numerics: rows are divided by their largest |entry| before any norm (:func:`unit_rows`, public
so that feature maps can share it), sums that could overflow are formed on data scaled by an
exact power of two, and squared distances are sums of squared differences, so every finite
input from subnormal to 1.8e308, float32 or float64, dense or sparse, gives the exact kernel
to rounding (tests compare with mpmath).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from . import _validate

__all__ = ["correlation", "rbf_correlation", "folded_rbf", "gaussian", "gmm", "gmm_transform", "min_max",
           "stationary", "laplacian", "exponential", "matern", "cauchy",
           "unit_rows"]

#: what the public functions take for ``X`` and ``Y``: an array or a scipy.sparse matrix
MatrixLike = ArrayLike | sp.spmatrix

_EPS = np.finfo(np.float64).eps


def _pair(X, Y):
    """X and Y (Y = X when None) as float64 arrays or canonical CSR matrices of equal width."""
    X = _float64(_validate.data_matrix(X, "X"))
    Y = X if Y is None else _float64(_validate.data_matrix(Y, "Y"))
    _validate.same_width(X, Y)
    return X, Y


def _check_kernel_matrix(X, Y) -> None:
    """Refuse up front an (n_X, n_Y) kernel matrix beyond varlab's allocation limit."""
    _validate.check_allocation("X", X.shape[0] * Y.shape[0],
                               what=f"the ({X.shape[0]}, {Y.shape[0]}) kernel matrix")


def _float64(X):
    if sp.issparse(X):
        if X.dtype != np.float64 or not X.has_canonical_format:
            X = X.astype(np.float64)               # a copy: the caller's matrix is not modified
            X.sum_duplicates()
        return X
    return np.asarray(X, dtype=np.float64)


def _gamma(gamma) -> float:
    """gamma: a finite real scalar > 0 (arrays, even with one element, are rejected)."""
    if isinstance(gamma, (bool, np.bool_)) or np.ndim(gamma) != 0:
        raise TypeError(f"gamma must be a real scalar > 0, got {gamma!r}")
    return float(_validate.positive(gamma, "gamma"))


def _row_max_abs(X) -> np.ndarray:
    """max_i |x_i| of each row (0 for an empty or all-zero row), in X's dtype."""
    if X.shape[1] == 0:
        return np.zeros(X.shape[0], X.dtype)
    if sp.issparse(X):
        return np.asarray(abs(X).max(axis=1).toarray()).ravel()
    return np.max(np.abs(X), axis=1)


def _max_abs(*arrays) -> float:
    """The largest |entry| over dense arrays and sparse matrices (0.0 when all are empty)."""
    largest = 0.0
    for A in arrays:
        if A is None:
            continue
        values = A.data if sp.issparse(A) else A
        if values.size:
            largest = max(largest, float(np.max(np.abs(values))))
    return largest


def _power_of_two_shift(largest: float, top: int) -> int:
    """e <= 0 such that largest * 2**e < 2**top: 0 (data used unchanged) unless largest is huge."""
    if largest == 0.0:
        return 0
    return min(0, top - int(np.frexp(largest)[1]))         # largest < 2**frexp exponent


def _shifted(X, e: int):
    """X * 2**e (exact unless it underflows), a new array/matrix when e != 0."""
    if e == 0 or X is None:
        return X
    if sp.issparse(X):
        X = X.copy()
        X.data = np.ldexp(X.data, e)
        return X
    return np.ldexp(X, e)


def unit_rows(X: MatrixLike, name: str = "X") -> np.ndarray | sp.csr_matrix:
    """Rows of ``X`` divided by their l2 norms, without overflow or underflow.

    Each row is first divided by its largest absolute entry (so its entries lie in [-1, 1] and
    the sum of squares is in [1, n_features]), then by the l2 norm of the result: the norm of
    [1e200, 1] or [1e-200, 1e-200] is never formed. Accepts a dense float array or a CSR
    matrix (canonical format: no duplicate entries) and keeps its dtype; returns a new
    array/matrix (``X`` is not modified). An all-zero row raises ValueError naming ``name``
    (its correlation, paper 000 Eq. 1, is undefined).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import unit_rows
    >>> unit_rows(np.array([[3e300, 4e300]]))            # no overflow
    array([[0.6, 0.8]])
    """
    X = _validate.data_matrix(X, name)
    if sp.issparse(X) and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    largest = _row_max_abs(X)
    zero = np.flatnonzero(largest == 0)
    if zero.size:
        raise ValueError(f"{name} has all-zero rows (first at index {zero[0]}); "
                         "the correlation of a zero vector is undefined")
    if sp.issparse(X):
        Y = X.copy()
        counts = np.diff(Y.indptr)
        Y.data /= np.repeat(largest, counts)
        squared = np.bincount(np.repeat(np.arange(Y.shape[0]), counts),
                              weights=Y.data.astype(np.float64) ** 2, minlength=Y.shape[0])
        Y.data /= np.repeat(np.sqrt(squared).astype(Y.dtype), counts)
        return Y
    Y = X / largest[:, None]
    Y /= np.sqrt(np.einsum("ij,ij->i", Y, Y))[:, None]
    return Y


def _inner(X, Y) -> np.ndarray:
    product = X @ Y.T
    product = product.toarray() if sp.issparse(product) else np.asarray(product)
    return product.astype(np.float64, copy=False)


def correlation(X: MatrixLike, Y: MatrixLike | None = None) -> np.ndarray:
    """Gram matrix of rho(u, v) = <u, v> / (||u|| ||v||) (000, Eq. 1), clipped to [-1, 1].

    Returns shape (n_X, n_Y), float64. Rows are scaled with :func:`unit_rows` (divided by their
    largest |entry| before the norm), so any finite non-zero rows work, from 1e-300 to 1e308
    and in float32. Zero rows raise ValueError.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import correlation
    >>> correlation(np.array([[1.0, 0.0], [1.0, 1.0]])).round(6)
    array([[1.      , 0.707107],
           [0.707107, 1.      ]])
    """
    same = Y is None
    X, Y = _pair(X, Y)
    U = unit_rows(X, "X")
    V = U if same else unit_rows(Y, "Y")
    return np.clip(_inner(U, V), -1.0, 1.0)


def rbf_correlation(X: MatrixLike, Y: MatrixLike | None = None, *, gamma: float = 1.0) -> np.ndarray:
    """RBF(u, v; gamma) = exp(-gamma (1 - rho)) (000, Eq. 14).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import rbf_correlation
    >>> rbf_correlation(np.array([[1.0, 0.0], [0.0, 2.0]]), gamma=2.0)      # exp(-2 (1 - 0))
    array([[1.        , 0.13533528],
           [0.13533528, 1.        ]])
    """
    gamma = _gamma(gamma)
    return np.exp(-gamma * (1.0 - correlation(X, Y)))


def folded_rbf(X: MatrixLike, Y: MatrixLike | None = None, *, gamma: float = 1.0) -> np.ndarray:
    """fRBF(u, v; gamma) = exp(-gamma (1 - rho)) / 2 + exp(-gamma (1 + rho)) / 2 (001, Eq. 11).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import folded_rbf
    >>> folded_rbf(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]), gamma=1.0)   # rho = 0: exp(-1)
    array([[0.36787944]])
    """
    gamma = _gamma(gamma)
    rho = correlation(X, Y)
    return 0.5 * np.exp(-gamma * (1.0 - rho)) + 0.5 * np.exp(-gamma * (1.0 + rho))


# Gaussian kernel. The squared distance is never formed as |x|^2 + |y|^2 - 2<x, y> where that
# cancels: dense input goes to cdist('sqeuclidean'), which sums (x_i - y_i)^2; sparse input
# uses the expansion (fast: one sparse product) with the rigorous rounding bound
#   |error| <= (2 n + 6) eps (|x|^2 + |y|^2)        (n = the most nonzeros in a row)
# and recomputes exactly, as sum over the union of supports of (x_i - y_i)^2, every pair where
# that bound is not negligible next to the distance itself and the kernel is not 0.
# Data whose squares could overflow are first multiplied by a power of two 2**e (exact), and
# gamma d^2 = ldexp(m_gamma d'^2, e_gamma - 2 e) with gamma = m_gamma 2**e_gamma, so neither
# the squares nor gamma times them overflow on the way.

_CANCELLATION = 64.0        # recompute a sparse pair when (|x|^2 + |y|^2) > 64 d^2 ...
_NEGLIGIBLE = 1e-17         # ... unless gamma times its rounding bound is below this
_EXP_ZERO = 746.0           # exp(-746) == 0.0 in float64


def _squared_norms(X) -> np.ndarray:
    if sp.issparse(X):
        return np.bincount(np.repeat(np.arange(X.shape[0]), np.diff(X.indptr)), weights=X.data * X.data,
                           minlength=X.shape[0])
    return np.einsum("ij,ij->i", X, X)


def _exact_sparse_squared(X, Y, rows, columns) -> np.ndarray:
    """sum_i (x_i - y_i)^2 over the union of supports, for the pairs (X[rows], Y[columns])."""
    out = np.empty(rows.size)
    per_pair = np.diff(X.indptr)[rows] + np.diff(Y.indptr)[columns]
    cumulative = np.cumsum(per_pair)
    start = 0
    while start < rows.size:
        base = cumulative[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(cumulative, base + _GRAM_BLOCK_ELEMENTS * 4, side="right")))
        difference = (X[rows[start:stop]] - Y[columns[start:stop]]).tocsr()
        out[start:stop] = _squared_norms(difference)
        start = stop
    return out


def gaussian(X: MatrixLike, Y: MatrixLike | None = None, *, gamma: float = 1.0) -> np.ndarray:
    """exp(-gamma ||u - v||^2), the usual Gaussian kernel in distance form.

    Squared distances are sums of (u_i - v_i)^2, never |u|^2 + |v|^2 - 2<u, v> where that loses
    digits (see the module notes), so rows like [1e8, 0.5] and [1e8, -0.3] give exp(-0.64),
    the diagonal is exactly 1, and dense and sparse inputs agree to rounding. Memory is the
    (n_X, n_Y) output plus row blocks.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import gaussian
    >>> gaussian(np.array([[0.0, 0.0], [1.0, 1.0]]), gamma=0.5)           # exp(-0.5 * 2)
    array([[1.        , 0.36787944],
           [0.36787944, 1.        ]])
    """
    gamma = _gamma(gamma)
    same = Y is None
    X, Y = _pair(X, Y)
    _check_kernel_matrix(X, Y)
    # (|u_i| + |v_i|)^2 summed over n_features terms stays below 2**1018
    e = _power_of_two_shift(_max_abs(X, Y), 508 - int(np.ceil(np.log2(max(X.shape[1], 1)) / 2)))
    Xs = _shifted(X, e)
    Ys = Xs if same else _shifted(Y, e)
    mantissa, exponent = np.frexp(gamma)
    exponent = int(exponent) - 2 * e
    sparse = sp.issparse(Xs) or sp.issparse(Ys)
    if not sparse:
        from scipy.spatial.distance import cdist
        squared = cdist(Xs, Ys, "sqeuclidean")
    else:
        squared = _sparse_squared_distances(sp.csr_matrix(Xs), sp.csr_matrix(Ys), same, mantissa, exponent)
    squared *= mantissa
    with np.errstate(over="ignore"):
        exponent_values = np.ldexp(squared, exponent, out=squared)
    np.negative(exponent_values, out=exponent_values)
    return np.exp(exponent_values, out=exponent_values)


def _sparse_squared_distances(X, Y, same, mantissa=None, exponent=None) -> np.ndarray:
    """Squared distances of CSR rows (module notes); with gamma = mantissa 2**exponent, pairs
    whose exp(-gamma d^2) is 0 or 1 whatever the rounding are not recomputed; without it, every
    pair that cancels is."""
    n, m = X.shape[0], Y.shape[0]
    sx = _squared_norms(X)
    sy = sx if same else _squared_norms(Y)
    most = int(max(np.diff(X.indptr).max(initial=0), np.diff(Y.indptr).max(initial=0)))
    slack = (2 * most + 6) * _EPS
    out = np.empty((n, m))
    rows_per_block = max(1, _GRAM_BLOCK_ELEMENTS // max(m, 1))
    for start in range(0, n, rows_per_block):
        stop = min(n, start + rows_per_block)
        block = out[start:stop]
        block[...] = _inner(X[start:stop], Y)
        total = sx[start:stop, None] + sy[None, :]
        np.multiply(block, -2.0, out=block)
        block += total
        np.maximum(block, 0.0, out=block)
        redo = total > _CANCELLATION * block
        if mantissa is not None:
            bound = slack * total
            # gamma * (value - bound) >= 746 means the kernel is 0 whatever the rounding
            with np.errstate(over="ignore"):
                gamma_bound = np.ldexp(mantissa * bound, exponent)
                gamma_low = np.ldexp(mantissa * np.maximum(block - bound, 0.0), exponent)
            redo &= (gamma_bound > _NEGLIGIBLE) & (gamma_low < _EXP_ZERO)
        if same:
            redo[np.arange(stop - start), np.arange(start, stop)] = False     # x - x = 0 exactly
            block[np.arange(stop - start), np.arange(start, stop)] = 0.0
        rows, columns = np.nonzero(redo)
        if rows.size:
            block[rows, columns] = _exact_sparse_squared(X, Y, rows + start, columns)
    return out


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
        centered = _centered_sparse(X, mu)
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
    X, Y = _pair(X, Y)
    mu = _center_vector(center, X.shape[1])
    # GMM is a ratio of sums homogeneous of degree 1 in (u, v, mu): scale huge data by a power
    # of two (exact) so that s_u + s_v + d <= 6 max|.| n_features cannot overflow
    e = _power_of_two_shift(_max_abs(X, Y, mu), 1017 - int(np.ceil(np.log2(max(X.shape[1], 1)))))
    if e:
        X, Y, mu = _shifted(X, e), (None if same else _shifted(Y, e)), _shifted(mu, e)
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
    X, Y2 = _pair(X, Y)
    for name, M in (("X", X), ("Y", Y2)):
        values = M.data if sp.issparse(M) else M
        if values.size and values.min() < 0:
            raise ValueError(f"{name} must be nonnegative for the min-max kernel (use gmm for signed data)")
    return gmm(X, None if Y is None else Y2)


# ===========================================================================================
# Kernels beyond the Gaussian (spectral measures in varlab.spectral.stationary)
# ===========================================================================================
def _scaled_distances(X, Y, scale: float, metric: str) -> np.ndarray:
    """scale ||u - v|| ("euclidean") or scale ||u - v||_1 ("cityblock") for every pair of rows
    of X and Y (Y = X when None), dense or sparse, to rounding for any finite input: the data
    are first multiplied by a power of two (exact) that brings the largest |entry| near 2**500
    (euclidean; 2**1000 for cityblock), so that no square or sum overflows or underflows; the
    euclidean sums are sums of (u_i - v_i)^2 as in ``gaussian``, never a cancelling expansion;
    scale is applied with the power of two undone in one ``ldexp`` (inf where it overflows)."""
    same = Y is None
    X, Y = _pair(X, Y)
    _check_kernel_matrix(X, Y)
    largest = _max_abs(X, Y)
    if largest == 0.0 or X.shape[1] == 0:
        return np.zeros((X.shape[0], Y.shape[0]))
    room = np.log2(max(X.shape[1], 1))
    top = 500 - int(np.ceil(room / 2)) if metric == "euclidean" else 1000 - int(np.ceil(room))
    e = top - int(np.frexp(largest)[1])
    Xs = _shifted(X, e)
    Ys = Xs if same else _shifted(Y, e)
    if metric == "cityblock":
        from sklearn.metrics import pairwise_distances
        distances = pairwise_distances(Xs, Ys, metric="cityblock")
    elif sp.issparse(Xs) or sp.issparse(Ys):
        distances = np.sqrt(_sparse_squared_distances(sp.csr_matrix(Xs), sp.csr_matrix(Ys), same))
    else:
        from scipy.spatial.distance import cdist
        distances = np.sqrt(cdist(Xs, Ys, "sqeuclidean"))
    mantissa, exponent = np.frexp(scale)
    distances *= mantissa
    with np.errstate(over="ignore"):
        return np.ldexp(distances, int(exponent) - e, out=distances)


def stationary(X: MatrixLike, Y: MatrixLike | None = None, *, kernel: str, gamma: float = 1.0) -> np.ndarray:
    """The Gram matrix of the registered stationary ``kernel`` (``varlab.theory.
    stationary_kernels()``) in its ``gamma`` convention (``StationaryKernel.gamma_words``): its
    profile at r = ||u - v|| / lengthscale (``||u - v||_1`` for a cityblock kernel such as the
    Laplacian), from exact distances (``_scaled_distances``): any finite input, dense or sparse.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import stationary
    >>> stationary(np.array([[0.0, 0.0], [3.0, 4.0]]), kernel="rational_quadratic", gamma=0.16)   # (1 + 1)^-2
    array([[1.  , 0.25],
           [0.25, 1.  ]])
    """
    from .theory import stationary_kernel

    declared = stationary_kernel(kernel)
    scale = declared.frequency_scale(_gamma(gamma))
    r = np.minimum(_scaled_distances(X, Y, scale, declared.metric), np.finfo(np.float64).max)
    return declared.kernel(distance=r)


def laplacian(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    """exp(-gamma ||u - v||_1) (scikit-learn's ``laplacian_kernel``).

    Examples
    --------
    >>> from varlab.kernels import laplacian
    >>> round(float(laplacian([[0.0, 0.0]], [[1.0, -1.0]], gamma=0.5)[0, 0]), 12)      # exp(-1)
    0.367879441171
    """
    return stationary(X, Y, kernel="laplacian", gamma=gamma)


def exponential(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    """exp(-gamma ||u - v||), the exponential (Matern-1/2) kernel of lengthscale 1/gamma.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import exponential
    >>> exponential(np.array([[0.0, 0.0], [3.0, 4.0]]), gamma=0.2)       # exp(-0.2 * 5)
    array([[1.        , 0.36787944],
           [0.36787944, 1.        ]])
    """
    return stationary(X, Y, kernel="exponential", gamma=gamma)


def matern(X, Y=None, *, nu: float = 1.5, gamma: float = 1.0) -> np.ndarray:
    """The Matern kernel of smoothness nu in {0.5, 1.5, 2.5} and lengthscale 1/gamma (Rasmussen and
    Williams 2006, Eq. 4.16-4.17): (1 + a) e^{-a}, a = sqrt3 gamma ||u - v|| for nu = 3/2.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import matern
    >>> round(float(matern([[0.0]], [[1.0]], nu=1.5)[0, 0]), 12)         # (1 + sqrt3) e^{-sqrt3}
    0.483357724597
    >>> matern(np.array([[0.0, 0.0], [3.0, 4.0]]), nu=2.5, gamma=0.2).round(8)
    array([[1.        , 0.52399411],
           [0.52399411, 1.        ]])
    """
    names = {0.5: "exponential", 1.5: "matern32", 2.5: "matern52"}
    if nu not in names:
        raise ValueError(f"nu must be one of {sorted(names)}, got {nu!r}")
    return stationary(X, Y, kernel=names[nu], gamma=gamma)


def cauchy(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    """1 / (1 + gamma ||u - v||^2), the Cauchy kernel of lengthscale 1/sqrt(gamma).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.kernels import cauchy
    >>> cauchy(np.array([[0.0, 0.0], [3.0, 4.0]]), gamma=0.04)           # 1 / (1 + 0.04 * 25)
    array([[1. , 0.5],
           [0.5, 1. ]])
    """
    return stationary(X, Y, kernel="cauchy", gamma=gamma)
