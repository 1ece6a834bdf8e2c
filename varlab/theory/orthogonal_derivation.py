"""varlab's derivation of the Gaussian-kernel Bessel terms of 004's "Theorem 5" (sympy).

phi_d(t) = Gamma(d/2) J_{d/2-1}(t) / (t/2)^{d/2-1} = sum_n (-t^2/4)^n / ((d/2)_n n!) (0F1), and
for the Gaussian kernel with bandwidth 1, T = R_1^2 + R_2^2 ~ chi^2(2d), E T^n = 2^n (d)_n. Hence

    E phi_d(sqrt(T) r) = sum_n (-r^2/2)^n (d)_n / ((d/2)_n n!) = 1F1(d; d/2; -r^2/2),

and by Kummer's transformation 1F1(d; d/2; -x) = e^{-x} 1F1(-d/2; d/2; x), a polynomial of degree
d/2 times e^{-x} for even d. Likewise E phi_d(R r) with R^2 ~ chi^2(d) is 1F1(d/2; d/2; -x) =
e^{-x} = k(r). Each function returns a sympy expression that is identically 0 when the step holds
(tests/test_orthogonal_theory.py simplifies them).
"""
from __future__ import annotations

import sympy

__all__ = ["bessel_series_check", "chi_square_moment_check", "series_to_hypergeometric_check",
           "kummer_check", "kernel_check", "iid_variance_check", "large_dimension_series"]

_t, _r, _x = sympy.symbols("t r x", positive=True)


def bessel_series_check(d: int, order: int = 8):
    """Gamma(d/2) J_{d/2-1}(t)/(t/2)^{d/2-1} minus its 0F1 series, as a series in t to ``order``.

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.bessel_series_check(3, order=4)      # 0: phi_3 is the 0F1 series
    0
    """
    nu = sympy.Rational(d, 2) - 1
    phi = sympy.gamma(sympy.Rational(d, 2)) * sympy.besselj(nu, _t) / (_t / 2) ** nu
    series = sum((-_t ** 2 / 4) ** n / (sympy.rf(sympy.Rational(d, 2), n) * sympy.factorial(n))
                 for n in range(order))
    return sympy.simplify(sympy.series(phi, _t, 0, 2 * order).removeO() - series)


def chi_square_moment_check(d: int, n: int):
    """E T^n for T ~ chi^2(2d) minus 2^n (d)_n (integral of the chi^2 density).

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.chi_square_moment_check(2, 2)
    0
    """
    u = sympy.symbols("u", positive=True)
    density = u ** (d - 1) * sympy.exp(-u / 2) / (2 ** d * sympy.gamma(d))
    return sympy.simplify(sympy.integrate(u ** n * density, (u, 0, sympy.oo)) - 2 ** n * sympy.rf(d, n))


def series_to_hypergeometric_check(d: int, order: int = 10):
    """sum_n (-r^2/4)^n 2^n (d)_n / ((d/2)_n n!) minus the series of 1F1(d; d/2; -r^2/2).

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.series_to_hypergeometric_check(2, order=4)
    0
    """
    lhs = sum((-_r ** 2 / 4) ** n * 2 ** n * sympy.rf(d, n) / (sympy.rf(sympy.Rational(d, 2), n) * sympy.factorial(n))
              for n in range(order))
    rhs = sympy.hyper([d], [sympy.Rational(d, 2)], -_r ** 2 / 2)
    return sympy.expand(lhs - sympy.series(sympy.hyperexpand(rhs), _r, 0, 2 * order).removeO())


def kummer_check(d: int):
    """1F1(d; d/2; -x) - e^{-x} 1F1(-d/2; d/2; x) for even d (closed forms via hyperexpand).

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.kummer_check(4)
    0
    """
    lhs = sympy.hyperexpand(sympy.hyper([d], [sympy.Rational(d, 2)], -_x))
    rhs = sympy.exp(-_x) * sympy.hyperexpand(sympy.hyper([-sympy.Rational(d, 2)], [sympy.Rational(d, 2)], _x))
    return sympy.simplify(lhs - rhs)


def kernel_check(d: int):
    """E phi_d(R r), R^2 ~ chi^2(d): 1F1(d/2; d/2; -x) - e^{-x}.

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.kernel_check(4)
    0
    """
    return sympy.simplify(sympy.hyperexpand(sympy.hyper([sympy.Rational(d, 2)], [sympy.Rational(d, 2)], -_x))
                          - sympy.exp(-_x))


def iid_variance_check():
    """(1 + k(2r))/2 - k(r)^2 - (1 - e^{-r^2})^2/2 for k(r) = e^{-r^2/2} (paired features) and
    1 + k(2r)/2 - k(r)^2 - [1/2 + (1 - e^{-r^2})^2/2] (random phase): both 0.

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.iid_variance_check()
    0
    """
    k = lambda r: sympy.exp(-r ** 2 / 2)  # noqa: E731
    paired = (1 + k(2 * _r)) / 2 - k(_r) ** 2 - (1 - sympy.exp(-_r ** 2)) ** 2 / 2
    phase = 1 + k(2 * _r) / 2 - k(_r) ** 2 - (sympy.Rational(1, 2) + (1 - sympy.exp(-_r ** 2)) ** 2 / 2)
    return sympy.simplify(paired) + sympy.simplify(phase)


def large_dimension_series(order: int) -> list:
    """[R_1(x), ..., R_order(x)]: log(1F1(2n; n; -x) e^{2x}) = sum_p R_p(x) / n^p as n -> infinity
    (varlab; the form theory/orthogonal.py uses for d > 1e5). By Kummer, 1F1(2n; n; -x) e^{x} =
    1F1(-n; n; x) = sum_j (-x)^j/j! P_j with log P_j = -2 sum_{i<j} atanh(i/n); expand in 1/n
    (Faulhaber sums of i^k), sum over j with sum_j (-x)^j j^m/j! = e^{-x} sum_l S(m, l) (-x)^l
    (Stirling numbers of the second kind), and take the logarithm.

    Examples
    --------
    >>> from varlab.theory import orthogonal_derivation
    >>> orthogonal_derivation.large_dimension_series(2)     # R_1, R_2: the first two of theory.orthogonal's
    [-x**2, -x**2*(2*x - 1)]
    """
    j, i, eps = sympy.symbols("j i epsilon")
    log_p = sum(-2 * sympy.expand(sympy.summation(i ** k, (i, 0, j - 1))) * eps ** k / k
                for k in range(1, 2 * order, 2))
    excess = sympy.expand(sympy.series(sympy.exp(log_p), eps, 0, order + 1).removeO() - 1)
    total = 0
    for p in range(1, order + 1):
        for (m,), a in sympy.Poly(excess.coeff(eps, p), j).terms():
            total += a * eps ** p * sum(sympy.functions.combinatorial.numbers.stirling(m, l) * (-_x) ** l
                                        for l in range(m + 1))
    log_ratio = sympy.expand(sympy.series(sympy.log(1 + total), eps, 0, order + 1).removeO())
    return [sympy.factor(log_ratio.coeff(eps, p)) for p in range(1, order + 1)]
