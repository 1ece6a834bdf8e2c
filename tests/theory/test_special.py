"""phi_d(t) = 0F1(; d/2; -t^2/4) (theory._special) against mpmath's Bessel function: 1e-10
relative, or 1e-300 absolute, for d up to 1e5, the error measured against the envelope
Gamma(d/2) (t/2)^{1-d/2} sqrt(J^2 + Y^2) where phi oscillates (t > d/2 - 1)."""
import mpmath
import numpy as np
import pytest
import scipy.special as sc
import scipy.stats
import sympy

from varlab.theory import _special, orthogonal


def _reference(t, d):
    """Gamma(d/2) (t/2)^{1-d/2} J_{d/2-1}(t) at 30 digits (mpmath raises its working precision
    through the cancellation of J's series, up to 1e6 bits)."""
    with mpmath.workdps(30):
        b, t = mpmath.mpf(d) / 2, mpmath.mpf(t)
        if t == 0:
            return mpmath.mpf(1)
        return mpmath.gamma(b) * (t / 2) ** (1 - b) * mpmath.besselj(b - 1, t, maxterms=10 ** 7, maxprec=10 ** 6)


def _envelope(t, d):
    nu = 0.5 * d - 1.0
    with np.errstate(all="ignore"):
        modulus = np.log(np.hypot(sc.jv(nu, t), sc.yv(nu, t)))
        return np.where(t > nu, np.exp(sc.gammaln(nu + 1.0) - nu * np.log(0.5 * t) + modulus), 0.0)


def _assert_matches_mpmath(t, d):
    t = np.asarray(t, dtype=np.float64)
    values = _special.phi(t, d)
    reference = [_reference(float(x), d) for x in t]
    error = np.array([float(abs(mpmath.mpf(float(v)) - r)) for v, r in zip(values, reference)])
    scale = np.maximum([float(abs(r)) for r in reference], _envelope(t, d))
    bad = (error > 1e-10 * scale) & (error > 1e-300)
    assert not np.any(bad), [(x, v, mpmath.nstr(r, 12)) for x, v, r, b in zip(t, values, reference, bad) if b]


def test_the_reported_points():
    """Issue 34: the series cancelled where J underflows, from d ~ 1500 on."""
    assert _special.phi(407.0, 2048) == pytest.approx(1.1755471817873e-18, rel=1e-12)
    assert _special.phi(1000.0, 4096) == pytest.approx(1.8398604829626e-55, rel=1e-12)
    law = scipy.stats.chi(4096)
    covariance = orthogonal.covariance_numeric(law, law, 4096, [10.0])[0] - np.exp(-100.0)
    assert covariance == pytest.approx(orthogonal.pair_covariance(dimension=4096, distance=10.0), rel=1e-3)
    assert covariance == pytest.approx(-2.69e-44, rel=1e-2)


@pytest.mark.parametrize("d, t", [
    (2, [0.0, 0.3, 2.4048, 50.0, 3e3]),
    (3, [1e-3, 1.0, 1e3]),
    (199, [0.03, 30.0, 3980.0]),                     # scipy's hyp0f1: NaN at small t, 0 where (t/2)^{1-d/2} underflows
    (256, [0.05, 40.0, 126.0, 140.0, 5120.0]),
    (2048, [10.0, 272.0, 407.0, 800.0, 1000.0, 1030.0, 1300.0]),
    (4096, [30.0, 384.0, 1000.0, 2000.0, 2100.0]),
    (10 ** 4, [100.0, 600.0, 3000.0, 3500.0]),
    (10 ** 5, [0.0, 1.0, 1897.0, 8000.0, 11700.0, 12000.0]),
])
def test_phi_against_mpmath(d, t):
    _assert_matches_mpmath(t, d)


def _grid(d):
    """t from 0 to 20 d (geometric) and through the turning point t = nu = d/2 - 1, kept where the
    terms of J's series (mpmath sums them; its time grows with them) stay below e^3000: nu h(t/nu)
    <= 3000, h(q) = sqrt(1 + q^2) - 1 - log((1 + sqrt(1 + q^2)) / 2) (DLMF 10.41.3). d = 1e5 stops
    at t = 0.42 nu (phi ~ e^{-2000})."""
    nu = 0.5 * d - 1.0
    t = [0.0, 6.0 * np.sqrt(d), 0.58 * d, 37.0 * np.sqrt(d), *np.geomspace(1e-3, 20.0 * max(d, 10), 48)]
    if nu > 1:
        t += [nu + k * nu ** (1 / 3) for k in np.arange(-24.0, 25.0, 1.5) if nu + k * nu ** (1 / 3) > 0]
        t += list(nu * np.array([0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01, 1.05, 1.2, 1.5, 2.0, 3.0]))
    t = np.array(sorted(t))
    root = np.sqrt(1.0 + np.square(t / max(nu, 1.0)))
    return t[nu * (root - 1.0 - np.log((1.0 + root) / 2.0)) <= 3000.0]


@pytest.mark.slow
@pytest.mark.parametrize("d", [2, 3, 10, 100, 150, 199, 200, 201, 256, 1000, 1500, 2048, 4096, 10 ** 4, 10 ** 5])
def test_phi_against_mpmath_on_a_grid(d):
    """``_grid``: through the turning point in steps of 1.5 nu^{1/3}."""
    _assert_matches_mpmath(_grid(d), d)


def test_debye_polynomials_are_dlmf_10_41_10():
    """U_1..U_3 as printed in DLMF 10.41.10, and the recurrence's next one by sympy."""
    p = sympy.Symbol("p")
    printed = [(3 * p - 5 * p ** 3) / 24, (81 * p ** 2 - 462 * p ** 4 + 385 * p ** 6) / 1152,
               (30375 * p ** 3 - 369603 * p ** 5 + 765765 * p ** 7 - 425425 * p ** 9) / 414720]
    s = sympy.Symbol("s")
    u = printed[-1]
    u4 = sympy.expand(p ** 2 * (1 - p ** 2) * sympy.diff(u, p) / 2 + sympy.integrate(((1 - 5 * s ** 2) * u.subs(p, s)), (s, 0, p)) / 8)
    for k, expected in enumerate(printed + [u4], start=1):
        polynomial = sympy.Poly(expected, p)
        coefficients = [float(polynomial.coeff_monomial(p ** (k + 2 * i))) for i in range(k, -1, -1)]
        assert coefficients == list(_special._DEBYE[k])
