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
