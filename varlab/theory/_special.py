"""Special functions shared by the theory modules orthogonal, polynomial and signed (below all
three, so that none imports another for them): the radial characteristic function phi_d of the
uniform law on the sphere and the 0F1 helpers it is computed with."""
from __future__ import annotations

import math

import numpy as np
import scipy.special as sc

__all__ = ["phi"]


def _hyp0f1_series(b, x, terms=400):
    """0F1(; b; -x) by its series (vectorised over points; loops over terms only), for x small
    against b^2 (where J_{b-1}(2 sqrt x) underflows and the series loses few digits)."""
    total = np.ones(np.broadcast(b, x).shape)
    term = np.ones_like(total)
    for j in range(terms):
        term = term * -x / ((b + j) * (j + 1.0))
        total = total + term
        if np.all(np.abs(term) <= 1e-17 * np.abs(total)):
            break
    return total


def _hyp0f1_neg(b, x):
    """0F1(; b; -x) for b > 0, x >= 0: scipy's hyp0f1 up to b = 100 (it returns NaN at small x
    from b ~ 128 and NaN or inf everywhere beyond b ~ 160), else Gamma(b) x^{-(b-1)/2} J_{b-1}(2 sqrt x) in logs, and the series where
    that Bessel value underflows."""
    b, x = np.broadcast_arrays(np.asarray(b, dtype=np.float64), np.asarray(x, dtype=np.float64))
    out = np.empty(b.shape)
    small = b <= 100.0
    with np.errstate(all="ignore"):
        out[small] = sc.hyp0f1(b[small], -x[small])
        large = ~small | ~np.isfinite(out)
        if np.any(large):
            bl, xl = b[large], x[large]
            t = 2.0 * np.sqrt(xl)
            j = sc.jv(bl - 1.0, t)
            normal = (np.abs(j) > 1e-290) & (t > 0)
            value = np.where(normal, np.sign(j) * np.exp(sc.gammaln(bl) - (bl - 1.0) * np.log(np.where(t > 0, t, 1.0) / 2.0)
                                                          + np.log(np.where(normal, np.abs(j), 1.0))), 0.0)
            if np.any(~normal):
                value[~normal] = _hyp0f1_series(bl[~normal], xl[~normal])
            out[large] = value
    return out


def phi(t, d):
    """phi_d(t) = 0F1(; d/2; -t^2/4) = E cos(t theta_1), theta uniform on S^{d-1} (also from
    d ~ 256 on, where scipy's hyp0f1 returns NaN, and for |t| beyond 1e150, where t^2 overflows:
    there by Gamma(d/2) (|t|/2)^{1-d/2} J_{d/2-1}(|t|) with J's leading Hankel term (DLMF 10.17.3;
    relative remainder O(d^2/t)), its phase t - theta taken as cos t cos theta + sin t sin theta:
    scipy's jv rounds t - theta to t there).

    Examples
    --------
    >>> import math
    >>> from varlab.theory.orthogonal import phi
    >>> round(float(phi(1.0, 3)), 12), round(math.sin(1.0), 12)     # phi_3(t) = sin(t) / t
    (0.841470984808, 0.841470984808)
    >>> phi([0.0, 2.0], 2).round(6)                                # phi_2 = J_0
    array([1.      , 0.223891])
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
