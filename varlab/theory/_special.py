"""Special functions shared by the theory modules orthogonal, polynomial and signed (below all
three, so that none imports another for them): the radial characteristic function phi_d of the
uniform law on the sphere and the 0F1 helper it is computed with."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import scipy.special as sc

__all__ = ["phi"]


def _debye_polynomials(terms):
    """V_0..V_terms with Debye's U_k(p) = p^k V_k(p^2) (DLMF 10.41.10: U_{k+1}(p) = p^2 (1 - p^2)
    U_k'(p) / 2 + int_0^p (1 - 5 s^2) U_k(s) ds / 8), from exact fractions, highest power first."""
    u, out = {0: Fraction(1)}, [np.ones(1)]
    for k in range(1, terms + 1):
        new = {}
        for e, c in u.items():
            for power, value in ((e + 1, c * e / 2 + c / (8 * (e + 1))), (e + 3, -c * e / 2 - 5 * c / (8 * (e + 3)))):
                new[power] = new.get(power, 0) + value
        u = new
        out.append(np.array([float(u[k + 2 * i]) for i in range(k, -1, -1)]))
    return tuple(out)


#: U_0..U_16: past 16 terms where nu tanh(a)^3 >= 64 the remainder U_17(coth a)/nu^17 is below 6e-16
_DEBYE = _debye_polynomials(16)
_DEBYE_MIN = 64.0
#: Stirling's series of log Gamma(nu + 1) - (nu + 1/2) log nu + nu - log(2 pi)/2 (DLMF 5.11.1): the
#: next term, 1/(1188 nu^9), is below 1e-19 from nu = 64 on
_STIRLING = (1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0)


def _stirling(nu):
    return sum(c * nu ** (1 - 2 * k) for k, c in enumerate(_STIRLING, start=1))


def _log_debye(nu, t):
    """log 0F1(; nu + 1; -t^2/4) for 0 <= t < nu, nu (1 - t^2/nu^2)^{3/2} >= 64 (nu >= 64): with
    t = nu sech a, Debye's expansion of J_nu(nu sech a) (DLMF 10.19.3, 17 terms) times
    Gamma(nu + 1) (t/2)^{-nu} (Stirling, DLMF 5.11.1), combined in closed form: nu (log(1 + e^{-2a})
    + tanh a - 1) - log(tanh a)/2 + log(Gamma(nu + 1) e^nu nu^{-nu - 1/2} / sqrt(2 pi))
    + log sum_k U_k(coth a) / nu^k, with e^{-a} = q / (1 + s), q = t/nu, s = tanh a = sqrt(1 - q^2)."""
    q = t / nu
    s = np.sqrt((1.0 - q) * (1.0 + q))
    p = 1.0 / s
    y, w = p * p, p / nu
    total = np.polyval(_DEBYE[-1], y)
    for v in _DEBYE[-2::-1]:
        total = np.polyval(v, y) + w * total
    return (nu * (np.log1p(np.square(q / (1.0 + s))) - q * q / (1.0 + s)) - 0.5 * np.log(s) + _stirling(nu)
            + np.log(total))


def _log_prefactor(nu, t):
    """log(Gamma(nu + 1) (t/2)^{-nu}) for t > 0: by Stirling (DLMF 5.11.1) from nu = 99 on, as
    nu (log 2 - 1 - log(t/nu)) + log(2 pi nu)/2 + the series (no cancellation of nu log nu terms)."""
    big = nu >= 99.0
    safe = np.where(big, nu, 99.0)
    stirling = safe * (math.log(2.0) - 1.0 - np.log1p((t - safe) / safe)) + 0.5 * np.log(2.0 * math.pi * safe) + _stirling(safe)
    return np.where(big, stirling, sc.gammaln(nu + 1.0) - nu * np.log(0.5 * t))


def _hyp0f1_neg(b, x):
    """0F1(; b; -x) = Gamma(b) x^{-(b-1)/2} J_{b-1}(2 sqrt x) for b > 0, x >= 0 (nu = b - 1,
    t = 2 sqrt x): scipy's hyp0f1 for b <= 100 (it is NaN at small x from b ~ 128 and NaN or inf
    beyond b ~ 160) unless (t/2)^{1-b} underflows there (it returns 0 or subnormal digits), else
    ``_log_debye`` where it holds (b > 100, t below the turning point t = nu by more than
    ~ 8 nu^{1/3}), else scipy's jv times ``_log_prefactor`` in logs (near and past the turning
    point, where J_nu(t) >~ e^{-22} does not underflow)."""
    b, x = np.broadcast_arrays(np.asarray(b, dtype=np.float64), np.asarray(x, dtype=np.float64))
    nu, t = b - 1.0, 2.0 * np.sqrt(x)
    out = np.empty(b.shape)
    with np.errstate(all="ignore"):
        scipy_form = (b <= 100.0) & ~((nu > 0.0) & (nu * np.log(0.5 * t) > 700.0))
        out[scipy_form] = sc.hyp0f1(b[scipy_form], -x[scipy_form])
        rest = ~scipy_form | ~np.isfinite(out)
        nr, tr = nu[rest], t[rest]
        debye = (tr < nr) & (nr * ((1.0 - tr / nr) * (1.0 + tr / nr)) ** 1.5 >= _DEBYE_MIN)
        j = sc.jv(nr, tr)
        value = np.sign(j) * np.exp(_log_prefactor(nr, tr) + np.log(np.abs(j)))
        value[debye] = np.exp(_log_debye(nr[debye], tr[debye]))
        out[rest] = value
    return out


def phi(t, d):
    """phi_d(t) = 0F1(; d/2; -t^2/4) = Gamma(d/2) (t/2)^{1-d/2} J_{d/2-1}(t) = E cos(t theta_1),
    theta uniform on S^{d-1}, for every d >= 1 and t (``_hyp0f1_neg``: Debye's expansion below the
    turning point t = d/2 - 1 from d > 200 on, where J_{d/2-1}(t) underflows and 0F1's power series
    cancels; checked against mpmath to 1e-10 relative or 1e-300 absolute for d up to 1e5, the
    relative error measured against the envelope where phi oscillates, t > d/2). For |t| beyond
    1e150, where t^2 overflows: J's leading Hankel term (DLMF 10.17.3; relative remainder
    O(d^2/t)), its phase t - theta taken as cos t cos theta + sin t sin theta (scipy's jv rounds
    t - theta to t there).

    Examples
    --------
    >>> import math
    >>> from varlab.theory.orthogonal import phi
    >>> round(float(phi(1.0, 3)), 12), round(math.sin(1.0), 12)     # phi_3(t) = sin(t) / t
    (0.841470984808, 0.841470984808)
    >>> phi([0.0, 2.0], 2).round(6)                                # phi_2 = J_0
    array([1.      , 0.223891])
    >>> print(f"{float(phi(407.0, 2048)):.10e}")                    # e^{-41.3}: J_1023(407) ~ 1e-301
    1.1755471818e-18
    """
    t = np.abs(np.asarray(t, dtype=np.float64))
    b = 0.5 * np.asarray(d, dtype=np.float64)
    huge = t > 1e150
    out = _hyp0f1_neg(b, 0.25 * np.square(np.where(huge, 0.0, t)))
    if np.any(huge):
        b, t = np.broadcast_arrays(b, t)
        bh, th = b[huge], t[huge]
        theta = 0.5 * math.pi * (bh - 1.0) + 0.25 * math.pi
        wave = np.cos(th) * np.cos(theta) + np.sin(th) * np.sin(theta)
        out[huge] = wave * np.exp(sc.gammaln(bh) + (1.0 - bh) * np.log(0.5 * th) + 0.5 * np.log(2.0 / (math.pi * th)))
    return out
