"""Kernels of the correlation rho(u, v): rho itself (paper 000, Eq. 1), the RBF in correlation form
exp(-gamma (1 - rho)) (000, Eq. 14) and the folded RBF (001, Eq. 11).
"""
from __future__ import annotations

import numpy as np

from .rows import MatrixLike, inner, pair, scalar_gamma, unit_rows

__all__ = ["correlation", "rbf_correlation", "folded_rbf"]


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
    X, Y = pair(X, Y)
    U = unit_rows(X, "X")
    V = U if same else unit_rows(Y, "Y")
    return np.clip(inner(U, V), -1.0, 1.0)


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
    gamma = scalar_gamma(gamma)
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
    gamma = scalar_gamma(gamma)
    rho = correlation(X, Y)
    return 0.5 * np.exp(-gamma * (1.0 - rho)) + 0.5 * np.exp(-gamma * (1.0 + rho))

