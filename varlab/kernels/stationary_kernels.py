"""Kernels beyond the Gaussian: every registered stationary kernel (``varlab.theory.
stationary_kernels()``) from exact distances; its spectral measure is in ``varlab.spectral``.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .gaussian_kernel import sparse_squared_distances
from .rows import MatrixLike, check_kernel_matrix, max_abs, pair, scalar_gamma, shifted

__all__ = ["stationary", "laplacian", "exponential", "matern", "cauchy"]


def _scaled_distances(X, Y, scale: float, metric: str) -> np.ndarray:
    """scale ||u - v|| ("euclidean") or scale ||u - v||_1 ("cityblock") for every pair of rows
    of X and Y (Y = X when None), dense or sparse, to rounding for any finite input: the data
    are first multiplied by a power of two (exact) that brings the largest |entry| near 2**500
    (euclidean; 2**1000 for cityblock), so that no square or sum overflows or underflows; the
    euclidean sums are sums of (u_i - v_i)^2 as in ``gaussian``, never a cancelling expansion;
    scale is applied with the power of two undone in one ``ldexp`` (inf where it overflows)."""
    same = Y is None
    X, Y = pair(X, Y)
    check_kernel_matrix(X, Y)
    largest = max_abs(X, Y)
    if largest == 0.0 or X.shape[1] == 0:
        return np.zeros((X.shape[0], Y.shape[0]))
    room = np.log2(max(X.shape[1], 1))
    top = 500 - int(np.ceil(room / 2)) if metric == "euclidean" else 1000 - int(np.ceil(room))
    e = top - int(np.frexp(largest)[1])
    Xs = shifted(X, e)
    Ys = Xs if same else shifted(Y, e)
    if metric == "cityblock":
        from sklearn.metrics import pairwise_distances
        distances = pairwise_distances(Xs, Ys, metric="cityblock")
    elif sp.issparse(Xs) or sp.issparse(Ys):
        distances = np.sqrt(sparse_squared_distances(sp.csr_matrix(Xs), sp.csr_matrix(Ys), same))
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
    from ..theory import stationary_kernel

    declared = stationary_kernel(kernel)
    scale = declared.frequency_scale(scalar_gamma(gamma))
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
