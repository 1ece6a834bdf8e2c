"""Random Maclaurin features for dot-product kernels (Kar and Karnick 2012, "Random feature maps
for dot product kernels", AISTATS, Alg. 1; 004's baseline "RM").

A kernel f(<x, y>) = sum_n a_n <x, y>^n with a_n >= 0 (here the polynomial kernel
(gamma <x, y> + coef0)^degree, a_n = C(degree, n) gamma^n coef0^(degree - n), as in scikit-learn's
PolynomialCountSketch; 004's alpha (q + <x, y>)^m is gamma = alpha^(1/m), coef0 = q alpha^(1/m), and
on the unit sphere (1 - |x - y|^2/a^2)^m = ((2/a^2) <x, y> + 1 - 2/a^2)^m). Each feature draws an
order N with P(N = n) = pi_n and N Rademacher vectors omega_1..omega_N in {-1, 1}^d, and is

    Z(x) = sqrt(a_N / pi_N) prod_{j <= N} <omega_j, x>,

so that E[Z(x) Z(y)] = sum_n pi_n (a_n / pi_n) prod_j E[<omega_j, x><omega_j, y>] = f(<x, y>)
(E omega omega^T = I): unbiased for every x, y. Kar and Karnick take pi_n = 2^{-(n+1)} on all n >= 0;
a polynomial has a_n = 0 beyond its degree, where their features are identically 0, so varlab
restricts the same geometric law to n = 0..degree (pi_n proportional to p^{-n}, p = 2 by
default): still unbiased (pi_n > 0 wherever a_n > 0) and no feature is wasted. ``transform(X)``
returns the D features divided by sqrt(D): transform(X) @ transform(Y).T estimates K, the mean
of D i.i.d. unbiased products.
"""
from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
import scipy.special as sc
from sklearn.utils._param_validation import Interval

from .. import _random
from .._validate import check_allocation
from ._base import RANDOM_STATE, FeatureMap, declared, fitted_gamma, scikit_learn_gamma

__all__ = ["RandomMaclaurin", "maclaurin_coefficients"]


def maclaurin_coefficients(degree, gamma, coef0) -> np.ndarray:
    """a_n = C(degree, n) gamma^n coef0^(degree - n), n = 0..degree, of (gamma t + coef0)^degree.

    Examples
    --------
    >>> from varlab.features.maclaurin import maclaurin_coefficients
    >>> maclaurin_coefficients(degree=2, gamma=1.0, coef0=1.0)     # (t + 1)^2 = 1 + 2 t + t^2
    array([1., 2., 1.])
    """
    n = np.arange(degree + 1)
    with np.errstate(over="ignore"):
        return sc.comb(degree, n) * float(gamma) ** n * float(coef0) ** (degree - n)


class RandomMaclaurin(FeatureMap, name="random_maclaurin"):
    """Random Maclaurin features of the polynomial kernel (gamma <x, y> + coef0)^degree.

    Parameters
    ----------
    n_components : int, default=100
        D, the number of random features drawn (an order N and its Rademacher vectors each), which
        is also the number of output columns.
    degree : int >= 1, default=2
    gamma : float > 0 or "scale", default=1.0
        ``"scale"``: 1 / (n_features X.var()) of the ``X`` given to ``fit`` (as scikit-learn's
        ``SVC``); the value used is ``gamma_``.
    coef0 : float >= 0, default=0.0
        (gamma <x, y> + coef0)^degree must have non-negative Maclaurin coefficients.
    p : float > 1, default=2.0
        Orders N are drawn with P(N = n) proportional to p^{-n}, n = 0..degree (Kar and Karnick's
        p = 2, restricted to the kernel's degrees).
    random_state : None, int, Generator, SeedSequence or RandomState

    Attributes
    ----------
    orders_ : (D,) array
        The drawn N.
    weights_ : (D,) array
        sqrt(a_N / pi_N).
    rademacher_ : (degree, D, d) array
        The omega_j (rows j >= N of a feature unused).
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import RandomMaclaurin
    >>> X = np.random.default_rng(0).standard_normal((4, 3)) / 2
    >>> rm = RandomMaclaurin(n_components=200000, degree=2, coef0=1.0, random_state=0).fit(X)
    >>> bool(np.abs(rm.kernel_estimate(X) - (X @ X.T + 1.0) ** 2).max() < 0.1)
    True
    """

    _parameter_constraints = {
        "n_components": [declared("k")],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": scikit_learn_gamma(),
        "coef0": [Interval(Real, 0, None, closed="left")],
        "p": [Interval(Real, 1, None, closed="neither")],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, n_components: int = 100, *, degree: int = 2, gamma: float = 1.0, coef0: float = 0.0,
                 p: float = 2.0, random_state=None):
        self.n_components = n_components
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.p = p
        self.random_state = random_state

    def _fit(self, X) -> int:
        """Draw the orders and Rademacher vectors for the width of ``X``."""
        D, m = int(self.n_components), int(self.degree)
        check_allocation("n_components", m * D * X.shape[1] + 32 * D, itemsize=1,
                         what=f"bytes: degree={m} Rademacher vectors of width {X.shape[1]} per feature, "
                              "and the orders' draw")
        gamma, coef0, p = fitted_gamma(self.gamma, X), float(self.coef0), float(self.p)
        coefficients = maclaurin_coefficients(m, gamma, coef0)
        if not np.all(np.isfinite(coefficients)):
            raise ValueError(f"gamma={gamma!r} and coef0={coef0!r} overflow the Maclaurin coefficients at degree={m}")
        orders = np.arange(m + 1)
        probabilities = p ** -orders.astype(np.float64)
        probabilities /= probabilities.sum()
        rng = _random.generator(self.random_state)
        self.orders_ = rng.choice(orders, size=D, p=probabilities)
        self.rademacher_ = rng.integers(0, 2, size=(m, D, X.shape[1]), dtype=np.int8)
        self.rademacher_ *= 2                   # in place: {0, 1} -> {-1, 1}, no temporary copies
        self.rademacher_ -= 1
        self.weights_ = np.sqrt(coefficients[self.orders_] / probabilities[self.orders_])
        self.gamma_ = gamma
        return D

    def _transform(self, X) -> np.ndarray:
        """(n, D) features Z(x)/sqrt(D) in X's dtype; transform(X) @ transform(Y).T estimates the
        kernel. A feature that overflows is refused (ValueError), never returned as inf."""
        out = np.ones((X.shape[0], self.orders_.size), dtype=X.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            for j in range(self.rademacher_.shape[0]):      # one matrix product per factor, <= degree
                used = self.orders_ > j
                if not used.any():
                    break
                projection = X @ self.rademacher_[j, used].T.astype(X.dtype)
                out[:, used] *= np.asarray(projection.toarray() if sp.issparse(projection) else projection)
            out *= (self.weights_ / math.sqrt(self.orders_.size)).astype(X.dtype)
        if not np.all(np.isfinite(out)):
            raise ValueError(f"X: the features overflow {out.dtype} (a product of degree={self.degree} "
                             f"projections <omega, x> of size up to {float(abs(X).max()) * X.shape[1]:.3g}); "
                             "rescale X" + (" or pass float64 data" if out.dtype != np.float64 else ""))
        return out
