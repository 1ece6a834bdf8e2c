"""The polynomial kernel on the unit sphere and its spectral measures (004, "Setup": k(x, y) =
alpha (q + <x, y>)^m = (1 - |x - y|^2 / a^2)^m, q = a^2/2 - 1, alpha = (2/a^2)^m).

On the sphere r = |x - y| <= 2, so k is a radial function of r on [0, 2] only; a stationary
representation k(z) = int cos<w, z> dmu(w) needs a radial extension of it to R^d. Write the
radial part of a radial measure as nu(rho) drho (nu = |S^{d-1}| rho^{d-1} p(rho)), so that
k(r) = int phi_d(rho r) nu(rho) drho with phi_d(t) = Gamma(d/2) (2/t)^{d/2-1} J_{d/2-1}(t)
= 0F1(; d/2; -t^2/4) = E cos(t theta_1).

**As printed in the literature the slides cite.** (a) The extension truncated at r = a, the
Bochner-Riesz function (1 - r^2/a^2)_+^m (Stein and Weiss 1971, Ch. IV, Thm 4.15; used by
Liu et al. 2021 for the slides' GRFF), in u = a rho (``radial_density``):

    nu(u) = 2^{1 - d/2 + m} m! / Gamma(d/2) u^{d/2 - 1 - m} J_{d/2 + m}(u).

(b) The extension truncated at the sphere's diameter r = 2 (Pennington, Yu and Kumar 2015,
"Spherical random features", Sec. 3, the Fourier transform K^(w) of (1 - |z|^2/a^2)^p on |z| <= 2,
a sum over i of binomial terms in (2/|w|)^{d/2+i} J_{d/2+i}(2|w|)), in u = 2 rho
(``radial_density_sphere``): with (1 - r^2/a^2)^m = sum_i C(m, i) (1 - 4/a^2)^{m-i} (4/a^2)^i
(1 - r^2/4)^i, each term is (a) at radius 2 and degree i:

    nu(u) = sum_{i=0}^m C(m, i) (1 - 4/a^2)^{m-i} (4/a^2)^i BR_{d,i}(u),

BR_{d,i} the density (a) with degree i. Both integrate to k(0) = 1 (Weber-Schafheitlin:
int_0^inf u^{d/2-1-m} J_{d/2+m}(u) du = 2^{d/2-1-m} Gamma(d/2)/m!, an Abel limit for d >= 2m + 3).

**Total variation (varlab's own).** |J_n(u)| = sqrt(2/(pi u)) |cos(u - phase)| (1 + O(1/u)) and
|cos| averages 2/pi, so |nu| averages ``variation_envelope`` = A u^{(d-3)/2 - m},
A = 2^{1 - d/2 + m} m! / Gamma(d/2) (2/pi)^{3/2}, and the Jordan masses truncated at frequency U
(in u) grow as T(U) = P(U) + N(U) ~ A U^e / e, e = (d - 1)/2 - m, for d > 2m + 1, as A log U for
d = 2m + 1, and converge for d <= 2m (``variation_growth``). For (b) with a != 2 the i = 0 term (the
jump of the extension at r = 2) leads: A_0 = 2^{1-d/2}/Gamma(d/2) |1 - 4/a^2|^m (2/pi)^{3/2},
e = (d - 1)/2 > 0 for every d >= 2 (log for d = 1): infinite in every dimension.
``truncated_masses`` computes P(U), N(U) by Gauss-Legendre quadrature between the sign changes
of nu (mpmath reference ``truncated_masses_mp``). The slides' setting (a = 3, m = 1; letter
d = 16, usps d = 256) has infinite masses under both: no finite signed measure is printed.

**Extensions with finite mass (varlab's own).** Only k on [0, 2] is seen by sphere data, so any
extension beyond r = 2 gives the same Gram matrices. ``taper_masses``: the C^infinity extension
k(r) (1 - S((r - 2)/width)), S the smooth step e^{-1/t}/(e^{-1/t} + e^{-1/(1-t)}), has a transform
decaying faster than any power, hence finite masses in every d; but no extension equal to k on a
ball can have an exponentially decaying transform (it would be analytic), so rho^{d-1} against a
sub-exponential decay makes these masses grow fast with d (measured: 1.51/0.51 in d = 2,
3.92/2.92 in d = 4, 15.9/14.9 in d = 6, 90.6/89.7
in d = 8 for width 1). ``varlab.spectral.polynomial.PolynomialSphere`` instead solves
for the least total variation directly (a linear program over shells), which stays small.
Variances of GRFF/GORF for a measure made of shells are exact finite sums
(``varlab.theory.polynomial_variance``), and those of Random Maclaurin features, 004's
baseline, are in ``varlab.theory.maclaurin``; their names are importable from here too.
"""
from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import scipy.special as sc
import scipy.stats
import sympy

from ._special import _hyp0f1_neg, phi
from .formula import Formula, _doctests
from .maclaurin import maclaurin_variance
from .parameters import parameter
from .polynomial_variance import estimator_variance, shell_covariance

__all__ = ["phi", "bochner_riesz", "RADIAL_DENSITY_EXPR", "radial_density", "radial_density_sphere", "variation_envelope",
           "variation_growth", "truncated_masses", "truncated_masses_mp", "finite_total_variation",
           "total_masses", "taper_masses",
           # defined in polynomial_variance and maclaurin
           "shell_covariance", "estimator_variance", "maclaurin_variance"]

# declared in theory/parameters.py (so that the registry is complete after ``import varlab``)
DEGREE, FREQUENCY, A_SCALE = (parameter(name) for name in ("degree", "frequency", "a"))

_REF = {"dimension": (1, 256), "degree": (1, 16)}
_TINY = np.finfo(np.float64).tiny


# --- the Bessel-type densities (numpy; phi_d and the 0F1 helpers are in theory._special) ------------

def bochner_riesz(d, i, u):
    """BR_{d,i}(u) = 2^{1-d/2+i} i!/Gamma(d/2) u^{d/2-1-i} J_{d/2+i}(u): the radial density (in
    u = b rho) of (1 - r^2/b^2)_+^i in R^d (i >= 0; i = 0 is the ball's indicator). Computed in
    logs; where J underflows (u << d/2 + i), by u^{d-1} 2^{-n}/Gamma(n+1) 0F1(; n+1; -u^2/4), n = d/2 + i.

    Examples
    --------
    >>> from varlab.theory import polynomial
    >>> polynomial.bochner_riesz(2, 1, [0.5, 1.0, 5.0]).round(8)     # d = 2, degree 1: 4 J_2(u) / u
    array([0.12241609, 0.22980697, 0.01862605])
    """
    d, i, u = np.broadcast_arrays(np.asarray(d, dtype=np.float64), np.asarray(i, dtype=np.float64),
                                  np.asarray(u, dtype=np.float64))
    order = 0.5 * d + i
    log_c = (1.0 - 0.5 * d + i) * math.log(2.0) + sc.gammaln(i + 1.0) - sc.gammaln(0.5 * d)
    with np.errstate(all="ignore"):
        j = sc.jv(order, u)
        normal = (np.abs(j) > 1e-290) & (u > 0) & np.isfinite(j)
        safe_u = np.where(u > 0, u, 1.0)
        direct = np.sign(j) * np.exp(log_c + (0.5 * d - 1.0 - i) * np.log(safe_u) + np.log(np.where(normal, np.abs(j), 1.0)))
        power = np.where(d == 1.0, 0.0, np.where(u > 0, (d - 1.0) * np.log(safe_u), -np.inf))
        series = np.exp(log_c + power - order * math.log(2.0) - sc.gammaln(order + 1.0)) * _hyp0f1_neg(order + 1.0, 0.25 * u * u)
    return np.where(normal, direct, series)


def _br_mp(d, i, u):
    n = mpmath.mpf(d) / 2 + i
    c = mpmath.mpf(2) ** (1 - mpmath.mpf(d) / 2 + i) * mpmath.factorial(i) / mpmath.gamma(mpmath.mpf(d) / 2)
    return c * u ** (d - 1) / (2 ** n * mpmath.gamma(n + 1)) * mpmath.hyp0f1(n + 1, -u * u / 4)


_D, _M, _U, _UP = (parameter(name).symbol for name in ("dimension", "degree", "frequency", "positive_frequency"))

#: the closed form of ``radial_density`` in sympy (the Formula is held as computed: scipy's J_n is
#: accurate to about 1e-11 relative at u ~ 10^3, short of the 1e-12 closed forms promise)
RADIAL_DENSITY_EXPR = (2 ** (1 - _D / 2 + _M) * sympy.factorial(_M) / sympy.gamma(_D / 2) * _U ** (_D / 2 - 1 - _M)
                       * sympy.besselj(_D / 2 + _M, _U))

radial_density = Formula(
    name="polynomial.radial_density",
    parameters=("dimension", "degree", "frequency"),
    numeric=lambda dimension, degree, frequency: bochner_riesz(dimension, degree, frequency),
    reference=lambda dimension, degree, frequency: _br_mp(dimension, degree, frequency),
    tolerance=1e-10,
    reference_domain=_REF,
    source="Bochner-Riesz transform of (1 - r^2/a^2)_+^m (Stein and Weiss 1971, Ch. IV Thm 4.15), the "
           "truncation at r = a used for 004's polynomial kernel by Liu et al. 2021 (004 ref. [5]); "
           "radial density in u = a|w|",
    description="radial density nu(u) of the polynomial kernel's transform, extension truncated at r = a",
    examples="""
        >>> from varlab.theory import polynomial
        >>> round(polynomial.radial_density(dimension=16, degree=1, frequency=10.0), 10)     # nu(u), u = a |w|
        0.9048105322
        """,
)


#: binomial mass left out of Pennington's sum: below 2 e^{-800} (Bernstein's inequality)
_TAIL_LOG = 800.0
#: elements per working array of the sum
_BLOCK = 1 << 20


def _binomial_window(m, p):
    """[lo, hi] holding all but 2 e^{-800} of the Binomial(m, p) mass (as gcws_exact._support:
    Bernstein's inequality, about 40 sd + 270 terms each side of m p)."""
    t = _TAIL_LOG / 3.0 + math.sqrt(_TAIL_LOG ** 2 / 9.0 + 2.0 * _TAIL_LOG * m * p * (1.0 - p))
    return max(0, math.floor(m * p - t)), min(int(m), math.ceil(m * p + t))


def _sphere(dimension, degree, a, frequency):
    """Pennington's sum over i <= m; its weights binom(m, i) (1 - 4/a^2)^{m-i} (4/a^2)^i are the
    Binomial(m, 4/a^2) probabilities (scipy.stats.binom: no overflow at large m), summed over the
    window holding all but 2 e^{-800} of their mass (``_binomial_window``), vectorised over the
    points that share (m, a)."""
    shape = np.broadcast(dimension, degree, a, frequency).shape
    d, m, scale, u = (array.ravel() for array in np.broadcast_arrays(dimension, degree, a, frequency))
    total = np.zeros(d.shape)
    p = 4.0 / np.square(scale.astype(np.float64))
    groups, inverse = np.unique(np.stack([m.astype(np.float64), p]), axis=1, return_inverse=True)
    inverse = inverse.ravel()
    for index, (mm, pp) in enumerate(groups.T):
        lo, hi = _binomial_window(mm, pp)
        i = np.arange(lo, hi + 1)
        coefficient = scipy.stats.binom.pmf(i, int(mm), pp)
        i, coefficient = i[coefficient > 0], coefficient[coefficient > 0]
        where = np.flatnonzero(inverse == index)
        for chunk in np.array_split(where, max(1, where.size * i.size // _BLOCK)):
            with np.errstate(all="ignore"):
                total[chunk] = bochner_riesz(d[chunk, None], i[None, :], u[chunk, None]) @ coefficient
    return total.reshape(shape)


def _sphere_mp(dimension, degree, a, frequency):
    return mpmath.fsum(mpmath.binomial(degree, i) * (1 - 4 / a ** 2) ** (degree - i) * (4 / a ** 2) ** i
                       * _br_mp(dimension, i, frequency) for i in range(degree + 1))


radial_density_sphere = Formula(
    name="polynomial.radial_density_sphere",
    parameters=("dimension", "degree", "a", "frequency"),
    numeric=_sphere,
    reference=_sphere_mp,
    tolerance=1e-10,
    reference_domain=_REF,
    source="Pennington, Yu and Kumar 2015 ('Spherical random features', 004 ref. [3]), Sec. 3: the Fourier "
           "transform of (1 - |z|^2/a^2)^p on |z| <= 2 as a sum over i of p!/(p-i)! (1 - 4/a^2)^{p-i} "
           "(2/a^2)^i (2/|w|)^{d/2+i} J_{d/2+i}(2|w|); radial density in u = 2|w|",
    description="radial density nu(u) of the polynomial kernel's transform, extension truncated at r = 2",
    examples="""
        >>> from varlab.theory import polynomial
        >>> round(polynomial.radial_density_sphere(dimension=16, degree=1, a=3.0, frequency=10.0), 10)   # u = 2 |w|
        3.1393904018
        """,
)


def _envelope_log_c(d, m):
    return (1.0 - 0.5 * d + m) * math.log(2.0) + sc.gammaln(m + 1.0) - sc.gammaln(0.5 * d) + 1.5 * math.log(2.0 / math.pi)


def _envelope(dimension, degree, frequency):
    d, m, u = (np.asarray(x, dtype=np.float64) for x in (dimension, degree, frequency))
    with np.errstate(all="ignore"):
        log_u = np.log(u)
        exponent = 0.5 * (d - 3.0) - m
        return np.exp(_envelope_log_c(d, m) + np.where(exponent == 0.0, 0.0, exponent * log_u))


variation_envelope = Formula(
    name="polynomial.variation_envelope",
    parameters=("dimension", "degree", "positive_frequency"),
    expr=2 ** (1 - _D / 2 + _M) * sympy.factorial(_M) / sympy.gamma(_D / 2) * (2 / sympy.pi) ** sympy.Rational(3, 2)
    * _UP ** ((_D - 3) / 2 - _M),
    numeric=lambda dimension, degree, positive_frequency: _envelope(dimension, degree, positive_frequency),
    reference=lambda dimension, degree, positive_frequency: (
        2 ** (1 - mpmath.mpf(dimension) / 2 + degree) * mpmath.factorial(degree) / mpmath.gamma(mpmath.mpf(dimension) / 2)
        * (2 / mpmath.pi) ** mpmath.mpf(1.5) * positive_frequency ** (mpmath.mpf(dimension - 3) / 2 - degree)),
    source="varlab's own, from 004's polynomial kernel with the truncation at r = a: the mean of |nu(u)| over a "
           "period, |J_n(u)| ~ sqrt(2/(pi u)) |cos| with mean |cos| = 2/pi",
    description="envelope A u^{(d-3)/2-m} of the total-variation density of the printed transform",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import polynomial
        >>> round(polynomial.variation_envelope(dimension=16, degree=1, positive_frequency=100.0), 4)   # ~ u^5.5
        157474.2955
        """,
)


# --- truncated Jordan masses ---------------------------------------------------------------------

def _density_function(dimension, degree, a, truncation):
    _check_truncation(truncation)
    if truncation == "a" or a == 2.0:
        return lambda u: bochner_riesz(dimension, degree, u)
    return lambda u: _sphere(dimension, degree, a, u)


def _check_truncation(truncation):
    if truncation not in ("a", "sphere"):
        raise ValueError(f"truncation must be one of ['a', 'sphere'], got {truncation!r}")


def _sign_changes(f, upper, step=0.05):
    """Zeros of f on (0, upper): sign changes on a grid of ``step`` refined by vectorised bisection."""
    grid = np.linspace(0.0, upper, max(2, int(math.ceil(upper / step)) + 1))
    values = f(grid)
    left = np.flatnonzero(np.sign(values[:-1]) * np.sign(values[1:]) < 0)
    lo, hi = grid[left], grid[left + 1]
    sign_lo = np.sign(values[left])
    for _ in range(60):                                   # bisection steps, vectorised over zeros
        mid = 0.5 * (lo + hi)
        same = np.sign(f(mid)) == sign_lo
        lo, hi = np.where(same, mid, lo), np.where(same, hi, mid)
    return 0.5 * (lo + hi)


@functools.lru_cache(maxsize=256)
def _masses_cached(dimension, degree, a, truncation, upper, nodes):
    f = _density_function(dimension, degree, a, truncation)
    edges = np.concatenate([[0.0], _sign_changes(f, upper), [upper]])
    x, w = np.polynomial.legendre.leggauss(nodes)
    lo, hi = edges[:-1, None], edges[1:, None]
    points = lo + 0.5 * (hi - lo) * (x + 1.0)
    pieces = (f(points) * 0.5 * (hi - lo) * w).sum(axis=1)
    return math.fsum(pieces[pieces > 0]), abs(math.fsum(pieces[pieces < 0]))


def _validated(dimension, degree, a):
    d = int(parameter("dimension").validate(dimension))
    m = int(parameter("degree").validate(degree))
    a = float(parameter("a").validate(a))
    return d, m, a


def truncated_masses(dimension, degree, cutoff, *, a=3.0, truncation="a", nodes=24) -> dict:
    """Jordan masses {"positive": P(U), "negative": N(U)} of the printed transform restricted to
    u <= U = ``cutoff`` (u = a|w| for truncation "a", 2|w| for "sphere"): Gauss-Legendre with
    ``nodes`` nodes between consecutive sign changes of nu (varlab; about 1e-12 relative).

    Examples
    --------
    >>> from varlab.theory import polynomial
    >>> masses = polynomial.truncated_masses(2, 1, 10.0)         # d = 2, m = 1, u <= 10
    >>> {part: round(mass, 6) for part, mass in masses.items()}
    {'positive': 1.188067, 'negative': 0.196762}
    """
    d, m, a = _validated(dimension, degree, a)
    upper = float(_check_positive(cutoff, "cutoff"))
    _check_truncation(truncation)
    p, n = _masses_cached(d, m, a, truncation, upper, int(nodes))
    return {"positive": p, "negative": n}


def _check_positive(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number > 0, got {value!r}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def truncated_masses_mp(dimension, degree, cutoff, *, a=3, truncation="a", dps=30) -> dict:
    """mpmath reference of ``truncated_masses`` (slow: one mpmath.quad per sign-change interval;
    the sign changes are those found in float64, refined by mpmath.findroot).

    Examples
    --------
    >>> import mpmath
    >>> from varlab.theory import polynomial
    >>> masses = polynomial.truncated_masses_mp(2, 1, 10.0, dps=15)
    >>> {part: mpmath.nstr(mass, 10) for part, mass in masses.items()}
    {'positive': '1.188067466', 'negative': '0.1967620151'}
    """
    d, m, a = _validated(dimension, degree, a)
    f_np = _density_function(d, m, a, truncation)
    zeros = _sign_changes(f_np, float(cutoff))
    with mpmath.workdps(dps):
        a_mp = mpmath.mpf(a)
        if truncation == "a" or a == 2.0:
            f = lambda u: _br_mp(d, m, u)  # noqa: E731
        else:
            f = lambda u: _sphere_mp(d, m, a_mp, u)  # noqa: E731
        edges = [mpmath.mpf(0)] + [mpmath.findroot(f, mpmath.mpf(z)) for z in zeros] + [mpmath.mpf(cutoff)]
        pieces = [mpmath.quad(f, [lo, hi]) for lo, hi in zip(edges[:-1], edges[1:])]
        return {"positive": sum(p for p in pieces if p > 0), "negative": abs(sum(p for p in pieces if p < 0))}


def finite_total_variation(dimension, degree, *, a=3.0, truncation="a") -> bool:
    """Whether the printed transform is a finite signed measure: truncation "a" (or a = 2) iff
    d <= 2m; truncation "sphere" with a != 2: never (the jump at r = 2).

    Examples
    --------
    >>> from varlab.theory import polynomial
    >>> polynomial.finite_total_variation(2, 1), polynomial.finite_total_variation(4, 1)
    (True, False)
    """
    d, m, a = _validated(dimension, degree, a)
    _check_truncation(truncation)
    if truncation == "sphere" and a != 2.0:
        return False
    return d <= 2 * m


def variation_growth(dimension, degree, cutoff, *, a=3.0, truncation="a") -> float:
    """Leading term of T(U) = P(U) + N(U) (varlab): A U^e/e with e = (d-1)/2 - m (truncation "a")
    or e = (d-1)/2 and A_0 (truncation "sphere", a != 2), A log U where e = 0; for a finite measure
    (e < 0) the limit is finite and this raises ValueError.

    Examples
    --------
    >>> from varlab.theory import polynomial
    >>> t100, t200 = (polynomial.variation_growth(16, 1, cutoff) for cutoff in (100.0, 200.0))
    >>> round(t100, 2), round(t200 / t100, 6)         # e = (16 - 1)/2 - 1 = 6.5: doubling U gives 2^6.5
    (2422681.47, 90.509668)
    """
    d, m, a = _validated(dimension, degree, a)
    u = float(_check_positive(cutoff, "cutoff"))
    _check_truncation(truncation)
    if truncation == "sphere" and a != 2.0:
        log_a0 = (1.0 - 0.5 * d) * math.log(2.0) - sc.gammaln(0.5 * d) + m * math.log(abs(1.0 - 4.0 / a ** 2)) \
            + 1.5 * math.log(2.0 / math.pi)
        e = 0.5 * (d - 1.0)
    else:
        log_a0 = float(_envelope_log_c(d, m))
        e = 0.5 * (d - 1.0) - m
    if e < 0:
        raise ValueError(f"the total variation is finite for dimension={d} <= 2 degree={2 * m}: no growth")
    if e == 0:
        return math.exp(log_a0) * math.log(u)
    log_value = log_a0 + e * math.log(u) - math.log(e)
    return math.exp(log_value) if log_value < 709.0 else math.inf


def total_masses(dimension, degree, *, a=3.0, truncation="a", cutoff=4000.0) -> dict:
    """Jordan masses of the printed transform where they are finite (truncation "a", d <= 2m):
    quadrature to u = ``cutoff`` plus the envelope's tail A U^e/|e| shared equally (relative error
    O(1/U) on the tail). ValueError explaining the infinite variation otherwise.

    Examples
    --------
    >>> from varlab.theory import polynomial
    >>> {part: round(mass, 4) for part, mass in polynomial.total_masses(2, 1).items()}   # P - N = k(0) = 1
    {'positive': 1.5149, 'negative': 0.5149}
    >>> polynomial.total_masses(16, 1)            # the slides' letter setting # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the printed transform ... has infinite total variation in dimension=16: ...
    """
    d, m, a = _validated(dimension, degree, a)
    _check_truncation(truncation)
    if not finite_total_variation(d, m, a=a, truncation=truncation):
        if truncation == "sphere" and a != 2.0:
            why = (f"the extension truncated at r = 2 jumps by (1 - 4/a^2)^m = {(1 - 4 / a ** 2) ** m:.4g} there, so "
                   f"|nu(u)| ~ u^{{(d-3)/2}} and the masses grow like U^{(d - 1) / 2:g}")
        else:
            e = 0.5 * (d - 1) - m
            why = (f"|nu(u)| ~ u^{{(d-3)/2-m}} = u^{e - 1:g}, so the masses truncated at U grow like "
                   + (f"U^{e:g}" if e > 0 else "log U"))
        raise ValueError(f"the printed transform of (1 - r^2/a^2)^m (a={a:g}, degree={m}) has infinite total "
                         f"variation in dimension={d}: {why} (finite only for truncation='a' and dimension <= "
                         f"2 degree); use varlab.spectral.polynomial.PolynomialSphere, a finite measure with the "
                         f"same kernel on the sphere")
    p, n = _masses_cached(d, m, a, truncation, float(cutoff), 24)
    e = 0.5 * (d - 1) - m
    tail = math.exp(_envelope_log_c(d, m)) * cutoff ** e / abs(e)
    return {"positive": p + 0.5 * tail, "negative": n + 0.5 * tail}


# --- a C^infinity extension (the brief's first candidate), for the record --------------------------

def _smooth_step(t):
    t = np.clip(t, 0.0, 1.0)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        left = np.where(t > 0, np.exp(-1.0 / np.where(t > 0, t, 1.0)), 0.0)
        right = np.where(t < 1, np.exp(-1.0 / np.where(t < 1, 1.0 - t, 1.0)), 0.0)
    return left / (left + right)


def taper_masses(dimension, degree=1, *, a=3.0, width=1.0, upper=None, nodes=4000) -> dict:
    """Jordan masses of the C^infinity extension k(r) (1 - S((r - 2)/width)) (varlab): the d-dim
    Hankel transform nu(rho) = 2^{1-d/2}/Gamma(d/2) rho^{d/2} int_0^{2+width} k J_{d/2-1}(rho r)
    r^{d/2} dr by Gauss-Legendre on [0, 2] and [2, 2 + width], then |nu| integrated on a grid to
    ``upper`` (default 150). Float64 cancellation limits it to d <= 8 (ValueError beyond); the
    returned "error" is |P - N - 1|, the check k(0) = 1.

    Examples
    --------
    >>> from varlab.theory import polynomial
    >>> masses = polynomial.taper_masses(2, upper=20.0, nodes=60)    # a coarse grid: a fraction of a second
    >>> {part: round(value, 2) for part, value in masses.items()}
    {'positive': 1.5, 'negative': 0.5, 'error': 0.0}
    """
    d, m, a = _validated(dimension, degree, a)
    if d > 8:
        raise ValueError(f"dimension must be <= 8 for taper_masses (float64 cancellation in the Hankel "
                         f"transform beyond), got {d}")
    upper = 150.0 if upper is None else float(upper)
    x, w = np.polynomial.legendre.leggauss(nodes)
    r = np.concatenate([x + 1.0, 2.0 + 0.5 * width * (x + 1.0)])
    weights = np.concatenate([w, 0.5 * width * w])
    k = (1.0 - r ** 2 / a ** 2) ** m * (1.0 - _smooth_step((r - 2.0) / width))
    weights = weights * k * r ** (0.5 * d)
    rho = np.linspace(0.0, upper, int(upper * 100) + 1)
    values = np.concatenate([sc.jv(0.5 * d - 1.0, chunk[:, None] * r[None, :]) @ weights
                             for chunk in np.array_split(rho, max(1, rho.size // 200))])
    nu = np.exp((1.0 - 0.5 * d) * math.log(2.0) - sc.gammaln(0.5 * d)) * rho ** (0.5 * d) * values
    p = float(np.trapezoid(np.clip(nu, 0.0, None), rho))
    n = float(np.trapezoid(np.clip(-nu, 0.0, None), rho))
    return {"positive": p, "negative": n, "error": abs(p - n - 1.0)}


__test__ = _doctests(globals())     # the Formulas' Examples (doctest collects no instances)
