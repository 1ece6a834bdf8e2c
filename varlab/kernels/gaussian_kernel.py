"""The Gaussian kernel exp(-gamma ||u - v||^2) from exact squared distances (dense and sparse).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .rows import (GRAM_BLOCK_ELEMENTS, MatrixLike, check_kernel_matrix, inner, max_abs, pair,
                   power_of_two_shift, scalar_gamma, shifted)

__all__ = ["gaussian"]

# Gaussian kernel. The squared distance is never formed as |x|^2 + |y|^2 - 2<x, y> where that
# cancels: dense input goes to cdist('sqeuclidean'), which sums (x_i - y_i)^2; sparse input
# uses the expansion (fast: one sparse product) with the rigorous rounding bound
#   |error| <= (2 n + 6) eps (|x|^2 + |y|^2)        (n = the most nonzeros in a row)
# and recomputes exactly, as sum over the union of supports of (x_i - y_i)^2, every pair where
# that bound is not negligible next to the distance itself and the kernel is not 0.
# Data whose squares could overflow are first multiplied by a power of two 2**e (exact), and
# gamma d^2 = ldexp(m_gamma d'^2, e_gamma - 2 e) with gamma = m_gamma 2**e_gamma, so neither
# the squares nor gamma times them overflow on the way.

_EPS = np.finfo(np.float64).eps
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
        stop = max(start + 1, int(np.searchsorted(cumulative, base + GRAM_BLOCK_ELEMENTS * 4, side="right")))
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
    gamma = scalar_gamma(gamma)
    same = Y is None
    X, Y = pair(X, Y)
    check_kernel_matrix(X, Y)
    # (|u_i| + |v_i|)^2 summed over n_features terms stays below 2**1018
    e = power_of_two_shift(max_abs(X, Y), 508 - int(np.ceil(np.log2(max(X.shape[1], 1)) / 2)))
    Xs = shifted(X, e)
    Ys = Xs if same else shifted(Y, e)
    mantissa, exponent = np.frexp(gamma)
    exponent = int(exponent) - 2 * e
    sparse = sp.issparse(Xs) or sp.issparse(Ys)
    if not sparse:
        from scipy.spatial.distance import cdist
        squared = cdist(Xs, Ys, "sqeuclidean")
    else:
        squared = sparse_squared_distances(sp.csr_matrix(Xs), sp.csr_matrix(Ys), same, mantissa, exponent)
    squared *= mantissa
    with np.errstate(over="ignore"):
        exponent_values = np.ldexp(squared, exponent, out=squared)
    np.negative(exponent_values, out=exponent_values)
    return np.exp(exponent_values, out=exponent_values)


def sparse_squared_distances(X, Y, same, mantissa=None, exponent=None) -> np.ndarray:
    """Squared distances of CSR rows (module notes); with gamma = mantissa 2**exponent, pairs
    whose exp(-gamma d^2) is 0 or 1 whatever the rounding are not recomputed; without it, every
    pair that cancels is."""
    n, m = X.shape[0], Y.shape[0]
    sx = _squared_norms(X)
    sy = sx if same else _squared_norms(Y)
    most = int(max(np.diff(X.indptr).max(initial=0), np.diff(Y.indptr).max(initial=0)))
    slack = (2 * most + 6) * _EPS
    out = np.empty((n, m))
    rows_per_block = max(1, GRAM_BLOCK_ELEMENTS // max(m, 1))
    for start in range(0, n, rows_per_block):
        stop = min(n, start + rows_per_block)
        block = out[start:stop]
        block[...] = inner(X[start:stop], Y)
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

