"""Exact kernels and their Gram matrices.

Rows of ``X`` and ``Y`` are data vectors; dense arrays and scipy.sparse matrices are accepted.

* correlation rho(u, v): paper 000, Eq. (1);
* RBF in correlation form exp(-gamma (1 - rho)): 000, Eq. (14);
* folded RBF (1/2) exp(-gamma (1 - rho)) + (1/2) exp(-gamma (1 + rho)): 001, Eq. (11);
* Gaussian in distance form exp(-gamma ||u - v||^2) (scikit-learn's ``rbf_kernel`` convention);
* GMM (000, Eq. 8) and min-max;
* every registered stationary kernel (:func:`stationary`; the Laplacian, exponential, Matern,
  Cauchy and rational quadratic kernels), from exact distances; each is also
  ``varlab.kernels.<name>`` under the name ``RFF(kernel=...)`` takes (``matern32``,
  ``rational_quadratic``, a kernel a user registers), beside :func:`matern` of ``nu``.

One module per family (``correlation_kernels``, ``gaussian_kernel``, ``gmm_kernel``,
``stationary_kernels``); ``rows`` holds what they share.

Numerics: rows are divided by their largest |entry| before any norm (:func:`unit_rows`, public
so that feature maps can share it), sums that could overflow are formed on data scaled by an
exact power of two, and squared distances are sums of squared differences, so every finite
input from subnormal to 1.8e308, float32 or float64, dense or sparse, gives the exact kernel
to rounding (tests compare with mpmath).
"""
from __future__ import annotations

from .correlation_kernels import correlation, folded_rbf, rbf_correlation
from .gaussian_kernel import gaussian
from .gmm_kernel import gmm, gmm_transform, min_max
from .rows import MatrixLike, unit_rows
from .stationary_kernels import cauchy, exponential, laplacian, matern, stationary

__all__ = ["correlation", "rbf_correlation", "folded_rbf", "gaussian", "gmm", "gmm_transform", "min_max",
           "stationary", "laplacian", "exponential", "matern", "cauchy", "unit_rows", "MatrixLike"]


def __getattr__(name: str):
    """``varlab.kernels.<name>``: the Gram matrix function of the registered stationary kernel
    ``name`` (the names of ``RFF(kernel=...)``), e.g. ``varlab.kernels.matern32(X, gamma=0.5)``.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import kernels
    >>> X = np.array([[0.0], [1.0]])
    >>> bool(np.array_equal(kernels.matern32(X), kernels.matern(X, nu=1.5)))
    True
    """
    from functools import partial

    from ..theory import stationary_kernels

    if not name.startswith("_") and name in stationary_kernels():
        function = partial(stationary, kernel=name)
        function.__doc__ = f"The Gram matrix of the registered {name!r} kernel: stationary(X, Y, kernel={name!r}, gamma=...)."
        return function
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
