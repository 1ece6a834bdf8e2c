"""Sympy re-derivations behind :mod:`varlab.theory.asymmetric` (paper 002, AsK-RFF).

1. The Fourier transforms of 002, Eq. (9)-(11): with p(w) the N(0, 1/sigma^2) density (one
   coordinate; the d-dimensional integrals factor over coordinates, and the phases depend on w
   only through <r, w> or <beta, w>, so the 1-D identity with a = r_j or beta_j is the general
   one), int e^{i w D} mu(w) dw equals k(D) for mu_1 = p e^{i r w}, mu_2 = p (1 - i A
   sin(sigma^2 beta w)), mu_3 = A p e^{-i sigma^2 beta w}, A = exp(sigma^2 beta^2 / 2)
   (:func:`transform_residual`).
2. The 1-D reduction of the total masses: every part is p(w) h(<c, w>), and under w ~ N(0,
   I/sigma^2) the phase X = <c, w> has characteristic function exp(-t^2 |c|^2 / (2 sigma^2)), i.e.
   X ~ N(0, s^2), s = |c|/sigma (:func:`projection_characteristic_function`), so ||part|| = scale *
   E h(X), a 1-D expectation in any d.
3. The Fourier coefficients a_n of h = max(+-cos, 0), max(+-sin, 0) (h(x) = sum a_n e^{inx}),
   from which E h(X) = sum_n a_n e^{-n^2 s^2 / 2} and E[e^{i lam X} h(X)] = sum_n a_n
   e^{-(lam + n)^2 s^2 / 2} (:func:`fourier_coefficient`, :func:`mass_series`), and Cor. 5:
   a_n(cos+) - a_n(cos-) = a_n(cos), a_n(sin+) - a_n(sin-) = a_n(sin), hence ||R+|| - ||R-|| =
   E cos X = k(0) and ||I+|| = ||I-|| (the imaginary part is odd) (:func:`corollary5_coefficients`).

The tests (tests/theory/test_asymmetric_derivation.py) assert these equal the implemented forms.
"""
from __future__ import annotations

import functools

import sympy as sp

__all__ = ["transform_residual", "projection_characteristic_function", "fourier_coefficient",
           "fourier_coefficient_general",
           "mass_series", "corollary5_coefficients", "H_FUNCTIONS"]

w, D, t, x = sp.symbols("w D t x", real=True)
a, beta = sp.symbols("a beta", real=True)
sigma, s = sp.symbols("sigma s", positive=True)
n = sp.symbols("n", integer=True)

H_FUNCTIONS = ("cos+", "cos-", "sin+", "sin-")


def _gaussian_density():
    return sigma / sp.sqrt(2 * sp.pi) * sp.exp(-sigma ** 2 * w ** 2 / 2)


@functools.lru_cache(maxsize=None)
def _gaussian_fourier(shift):
    """int p(w) e^{i w (D + shift)} dw, by sympy."""
    value = sp.integrate(_gaussian_density() * sp.exp(sp.I * w * (D + shift)), (w, -sp.oo, sp.oo))
    return sp.simplify(value)


def transform_residual(kernel: str) -> sp.Expr:
    """int e^{i w D} mu(w) dw - k(D) for the printed mu of 002 Eq. (9) (shift), (10) (sinh),
    (11) (cosh), one coordinate; simplifies to 0 when the printed transform is right.

    Examples
    --------
    >>> from varlab.theory import asymmetric_derivation
    >>> asymmetric_derivation.transform_residual("cosh_gaussian")     # 002's Eq. (11) is right (~2 s)
    0
    """
    gauss = sp.exp(-D ** 2 / (2 * sigma ** 2))
    A = sp.exp(sigma ** 2 * beta ** 2 / 2)
    if kernel == "shift_gaussian":
        inverse = _gaussian_fourier(a)
        k = sp.exp(-(D + a) ** 2 / (2 * sigma ** 2))
    elif kernel == "sinh_gaussian":
        # sin(u) = (e^{iu} - e^{-iu}) / (2i), u = sigma^2 beta w
        inverse = _gaussian_fourier(0) - sp.I * A * (_gaussian_fourier(sigma ** 2 * beta)
                                                     - _gaussian_fourier(-sigma ** 2 * beta)) / (2 * sp.I)
        k = gauss * (1 + sp.sinh(beta * D))
    elif kernel == "cosh_gaussian":
        inverse = A * _gaussian_fourier(-sigma ** 2 * beta)
        k = gauss * sp.exp(beta * D)
    else:
        raise ValueError(f"kernel must be one of shift_gaussian, sinh_gaussian, cosh_gaussian, got {kernel!r}")
    return sp.simplify(sp.expand(sp.simplify((inverse - k).rewrite(sp.exp))))


def projection_characteristic_function(d: int = 3) -> sp.Expr:
    """E exp(i t <c, w>) for w ~ N(0, I/sigma^2) in d dimensions, by sympy (one Gaussian integral
    per coordinate); equals exp(-t^2 |c|^2 / (2 sigma^2)): X = <c, w> ~ N(0, |c|^2/sigma^2).

    Examples
    --------
    >>> from varlab.theory import asymmetric_derivation
    >>> value, c = asymmetric_derivation.projection_characteristic_function(1)
    >>> value, c
    (exp(-c1**2*t**2/(2*sigma**2)), (c1,))
    """
    if not isinstance(d, int) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    c = sp.symbols(f"c1:{d + 1}", real=True)
    value = sp.Integer(1)
    for cj in c:
        value *= sp.integrate(_gaussian_density() * sp.exp(sp.I * t * cj * w), (w, -sp.oo, sp.oo))
    return sp.simplify(value), c


@functools.lru_cache(maxsize=None)
def fourier_coefficient_general(h: str) -> sp.Expr:
    """a_n (integer symbol ``n``) of h: (1/2pi) int_{period} h(x) e^{-inx} dx by sympy for
    max(cos x, 0) (on [-pi/2, pi/2]) and max(sin x, 0) (on [0, pi]); max(-cos x, 0) = max(cos(x +
    pi), 0) and likewise for sin, so a_n(h-) = (-1)^n a_n(h+) (a shift by pi).

    Examples
    --------
    >>> from varlab.theory import asymmetric_derivation
    >>> a_n = asymmetric_derivation.fourier_coefficient_general("cos+")   # a Piecewise in n (~4 s, once)
    >>> a_n.subs(asymmetric_derivation.n, 0)                            # the mean of max(cos x, 0)
    1/pi
    """
    if h not in H_FUNCTIONS:
        raise ValueError(f"h must be one of {H_FUNCTIONS}, got {h!r}")
    if h.endswith("-"):
        return (-1) ** n * fourier_coefficient_general(h[:-1] + "+")
    lo, hi, f = (-sp.pi / 2, sp.pi / 2, sp.cos(x)) if h == "cos+" else (0, sp.pi, sp.sin(x))
    value = sp.integrate(sp.expand((f * sp.exp(-sp.I * n * x)).rewrite(sp.exp)), (x, lo, hi)) / (2 * sp.pi)
    return sp.simplify(value)


def fourier_coefficient(h: str, order: int) -> sp.Expr:
    """a_n of h at the integer ``order`` (exact, from :func:`fourier_coefficient_general`).

    Examples
    --------
    >>> from varlab.theory import asymmetric_derivation
    >>> [asymmetric_derivation.fourier_coefficient("cos+", n) for n in range(4)]
    [1/pi, 1/4, 1/(3*pi), 0]
    """
    if not isinstance(order, int):
        raise TypeError(f"order must be an int, got {type(order).__name__}")
    return sp.nsimplify(sp.simplify(fourier_coefficient_general(h).subs(n, order)))


def mass_series(h: str, spread, terms: int = 12) -> sp.Expr:
    """E h(X), X ~ N(0, s^2), as sum_{|n| <= terms} a_n e^{-n^2 s^2 / 2} (E e^{inX} = e^{-n^2 s^2/2}).

    Examples
    --------
    >>> from varlab.theory import asymmetric, asymmetric_derivation
    >>> round(float(asymmetric_derivation.mass_series("cos+", 1, terms=6)), 10)
    0.6502800179
    >>> round(asymmetric.cos_positive_mass(spread=1.0), 10)             # the numeric form varlab evaluates
    0.6502800179
    """
    return sum(fourier_coefficient(h, k) * sp.exp(-sp.Integer(k) ** 2 * sp.sympify(spread) ** 2 / 2)
               for k in range(-terms, terms + 1))


def corollary5_coefficients(order: int) -> tuple:
    """(a_n(cos+) - a_n(cos-) - a_n(cos), a_n(sin+) - a_n(sin-) - a_n(sin)): both 0 (Cor. 5).

    Examples
    --------
    >>> from varlab.theory import asymmetric_derivation
    >>> asymmetric_derivation.corollary5_coefficients(1), asymmetric_derivation.corollary5_coefficients(2)
    ((0, 0), (0, 0))
    """
    cos_n = sp.Rational(1, 2) if abs(order) == 1 else 0
    sin_n = {1: -sp.I / 2, -1: sp.I / 2}.get(order, 0)
    return (sp.simplify(fourier_coefficient("cos+", order) - fourier_coefficient("cos-", order) - cos_n),
            sp.simplify(fourier_coefficient("sin+", order) - fourier_coefficient("sin-", order) - sin_n))
