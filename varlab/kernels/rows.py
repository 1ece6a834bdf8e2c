"""What every kernel of varlab.kernels shares: argument checks, exact power-of-two shifts of data
whose squares or sums could overflow, and rows scaled to unit l2 norm without overflow.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from .. import _validate

__all__ = ["unit_rows", "MatrixLike"]

#: what the public functions take for ``X`` and ``Y``: an array or a scipy.sparse matrix
MatrixLike = ArrayLike | sp.spmatrix

#: output entries per block of a Gram matrix computed in row blocks (2 MiB of float64)
GRAM_BLOCK_ELEMENTS = 1 << 18



def pair(X, Y):
    """X and Y (Y = X when None) as float64 arrays or canonical CSR matrices of equal width."""
    X = float64(_validate.data_matrix(X, "X"))
    Y = X if Y is None else float64(_validate.data_matrix(Y, "Y"))
    _validate.same_width(X, Y)
    return X, Y


def check_kernel_matrix(X, Y) -> None:
    """Refuse up front an (n_X, n_Y) kernel matrix beyond varlab's allocation limit."""
    _validate.check_allocation("X", X.shape[0] * Y.shape[0],
                               what=f"the ({X.shape[0]}, {Y.shape[0]}) kernel matrix")


def float64(X):
    if sp.issparse(X):
        if X.dtype != np.float64 or not X.has_canonical_format:
            X = X.astype(np.float64)               # a copy: the caller's matrix is not modified
            X.sum_duplicates()
        return X
    return np.asarray(X, dtype=np.float64)


def scalar_gamma(gamma) -> float:
    """gamma: a finite real scalar > 0 (arrays, even with one element, are rejected)."""
    if isinstance(gamma, (bool, np.bool_)) or np.ndim(gamma) != 0:
        raise TypeError(f"gamma must be a real scalar > 0, got {gamma!r}")
    return float(_validate.positive(gamma, "gamma"))


def row_max_abs(X) -> np.ndarray:
    """max_i |x_i| of each row (0 for an empty or all-zero row), in X's dtype."""
    if X.shape[1] == 0:
        return np.zeros(X.shape[0], X.dtype)
    if sp.issparse(X):
        return np.asarray(abs(X).max(axis=1).toarray()).ravel()
    return np.max(np.abs(X), axis=1)


def max_abs(*arrays) -> float:
    """The largest |entry| over dense arrays and sparse matrices (0.0 when all are empty)."""
    largest = 0.0
    for A in arrays:
        if A is None:
            continue
        values = A.data if sp.issparse(A) else A
        if values.size:
            largest = max(largest, float(np.max(np.abs(values))))
    return largest


def power_of_two_shift(largest: float, top: int) -> int:
    """e <= 0 such that largest * 2**e < 2**top: 0 (data used unchanged) unless largest is huge."""
    if largest == 0.0:
        return 0
    return min(0, top - int(np.frexp(largest)[1]))         # largest < 2**frexp exponent


def shifted(X, e: int):
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
    largest = row_max_abs(X)
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


def inner(X, Y) -> np.ndarray:
    product = X @ Y.T
    product = product.toarray() if sp.issparse(product) else np.asarray(product)
    return product.astype(np.float64, copy=False)

