"""The variance of Random Maclaurin features (Kar and Karnick 2012; paper 004's baseline "RM").

``maclaurin_variance``: the exact variance of one feature product for the polynomial kernel
(gamma <x, y> + coef0)^degree with Rademacher vectors (varlab's own), the theory of
``varlab.features.RandomMaclaurin``; also importable from ``varlab.theory.polynomial``.
"""
from __future__ import annotations

import numpy as np
import scipy.special as sc

__all__ = ["maclaurin_variance"]


def maclaurin_variance(x, y, degree, gamma, coef0, p=2.0) -> float:
    """Var of one Random Maclaurin feature product Z(x) Z(y) for (gamma <x, y> + coef0)^degree with
    Rademacher vectors and orders P(N = n) proportional to p^{-n} on 0..degree (varlab's own):
    E[(<w, x><w, y>)^2] = |x|^2 |y|^2 + 2 <x, y>^2 - 2 sum_i x_i^2 y_i^2 =: M for Rademacher w, so
    Var = sum_n (a_n^2 / pi_n) M^n - f(<x, y>)^2; the D-feature estimate has Var / D.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory import polynomial
    >>> round(polynomial.maclaurin_variance(np.array([0.5, 0.5]), np.array([0.5, -0.5]), 2, 1.0, 1.0), 4)
    0.75
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    t = float(x @ y)
    moment = float((x @ x) * (y @ y) + 2.0 * t * t - 2.0 * np.sum(x * x * y * y))
    n = np.arange(degree + 1)
    a = sc.comb(degree, n) * gamma ** n * coef0 ** (degree - n)
    pi = p ** -n.astype(np.float64)
    pi /= pi.sum()
    return float(np.sum(a * a / pi * moment ** n) - (gamma * t + coef0) ** (2 * degree))
