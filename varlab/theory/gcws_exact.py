"""Exact finite-k moments of the GCWS-based RBF estimator h(Xbar) (varlab's own).

Theorem 4 of paper 000 (``varlab.theory.gcws``) gives only the large-k forms of the estimator
h(Xbar) = exp(-2 gamma ((1 - Xbar)/(1 + Xbar))^2), Xbar = Binomial(k, g)/k, g = g(rho) of
000, Eq. (22). This module sums the binomial law instead: the exact mean and variance
(``exact_mean``, ``exact_variance``, ``exact_moments``) and bias (``exact_bias``) at any k, by a
windowed sum in log space that keeps all but 2 e^{-800} of the mass (taking every m-th term
once the binomial standard deviation exceeds ``_STRIDE_SIGMA``), with an mpmath reference (the
full sum, ``exact_moments_mp``); ``varlab.theory.gcws.asymptotic_accuracy`` compares Theorem 4's
variance with it. Every name is also importable from ``varlab.theory.gcws``, where the Formulas'
examples run.
"""
from __future__ import annotations

import mpmath
import numpy as np
from scipy import special, stats

from .formula import Formula, _check_dps
from .gcws_limit import _g_pair
from .parameters import parameter

__all__ = ["exact_moments", "exact_mean", "exact_variance", "exact_bias", "exact_moments_mp"]

_TAIL_LOG = 800.0          # binomial mass left out of the sum is < 2 exp(-800) ~ 1e-347
_BLOCK = 1 << 19           # elements per working array
_STRIDE_SIGMA = 2048.0     # from this binomial sd on (k g (1 - g) > 4 10^6; 000's maps stop at k = 1e7), the sum takes every m-th term (``_steps``)


def _support(k, g, gc):
    """[lo, hi] holding all but 2 exp(-800) of the Binomial(k, g) mass.

    Bernstein's inequality P(|X - kg| >= t) <= 2 exp(-t^2 / (2 (sigma^2 + t/3))) with
    t = L/3 + sqrt(L^2/9 + 2 L sigma^2), L = 800 (~ 40 sigma + 270 for large sigma; a plain
    mean +- 40 sd window is not enough when k g is small: Poisson tails). As 0 < h <= 1, the
    left-out terms change the mean and the variance by less than 1e-347, far below 1e-16 of any
    normal float64 result, however large gamma is.
    """
    sigma2 = k * g * gc
    t = _TAIL_LOG / 3.0 + np.sqrt(_TAIL_LOG ** 2 / 9.0 + 2.0 * _TAIL_LOG * sigma2)
    centre = k * g
    lo = np.clip(np.floor(centre - t), 0, k).astype(np.int64)
    hi = np.clip(np.ceil(centre + t), 0, k).astype(np.int64)
    return lo, hi


def _log_pmf(j, k, g, gc):
    """log P(Binomial(k, g) = j), accurate in relative terms where the pmf is representable.

    scipy's binom.logpmf goes through gammaln(k + 1) - ... and loses ~1e-9 (relative) at
    k = 1e6; the boost-based binom.pmf is accurate to ~1e-15, so use log(pmf) and fall back
    to logpmf only where the pmf underflows. For g > 1/2 the law is evaluated as that of
    k - j with success probability 1 - g, passed in accurately (matters as g -> 1).
    """
    flip = g > 0.5
    jj = np.where(flip, k - j, j)
    p = np.broadcast_to(np.where(flip, gc, g), jj.shape)
    with np.errstate(divide="ignore", under="ignore"):
        pmf = stats.binom.pmf(jj, k, p)
        out = np.log(np.where(pmf > 1e-290, pmf, 1.0))
        low = pmf <= 1e-290
        if np.any(low):
            out[low] = stats.binom.logpmf(jj[low], k, p[low])
    return out


def _logsumexp_rows(x):
    """log sum exp along rows (scipy.special.logsumexp; -inf for an all -inf row)."""
    with np.errstate(divide="ignore", under="ignore", invalid="ignore"):
        return special.logsumexp(x, axis=1)


def _steps(k, g, gc, gamma):
    """The stride m of the sum for each g (1 where k g (1 - g) < 2^20: every term).

    Where the binomial sd sigma = sqrt(k g (1 - g)) is large, the summand w_j h(j/k) is smooth on
    the scale s = (1/sigma^2 + 32 gamma/k^2)^{-1/2} (the log pmf's curvature within the window,
    which spans 40/sigma < 4% of g (1 - g) around kg, plus the largest curvature of log h) and
    analytic far beyond it, so by Poisson summation sum_j = m sum_l at j = lo + l m with a
    relative error about exp(-2 pi^2 (s/m)^2) < 1e-500 for m = floor(s/8) (a trapezoid rule).
    gamma enters capped at 750 / z_hi^2, z_hi = (k - hi)/(k + hi) at the window's top: beyond it
    every h(j/k) of the window is below e^{-1500} and the moments underflow to 0 at any stride;
    so a window has at most about 7200 terms (164000 unstrided, below sd 2048): no request is
    too large for memory (the windows are processed in blocks of ``_BLOCK`` elements)."""
    sigma = np.sqrt(float(k) * g * gc)
    _, hi = _support(k, g, gc)
    z_hi = (float(k) - hi) / (float(k) + hi)
    gamma = np.minimum(gamma, 750.0 / np.square(np.maximum(z_hi, 1e-150)))
    s = 1.0 / np.sqrt(1.0 / np.square(sigma) + 32.0 * gamma / float(k) ** 2)
    return np.where(sigma >= _STRIDE_SIGMA, np.maximum(1, np.floor(s / 8.0)), 1).astype(np.int64)


def _weights(k, g, gc, step):
    """Support windows (every ``step``-th term) and normalized log pmf rows for distinct g
    (0 < g < 1, sorted)."""
    lo, hi = _support(k, g, gc)
    width = int(np.max((hi - lo) // step)) + 1
    j = lo[:, None] + step[:, None] * np.arange(width)[None, :]
    inside = j <= hi[:, None]
    j = np.minimum(j, hi[:, None])
    log_w = np.where(inside, _log_pmf(j, k, g[:, None], gc[:, None]), -np.inf)
    return j, log_w - _logsumexp_rows(log_w)[:, None]


def _interior_moments(k, g, gc, gamma):
    """For 0 < g < 1 (1-d arrays): (z0, log mu, log shat) with mean = h0 mu and
    variance = h0^2 shat, where h0 = exp(-2 gamma z0^2) = h(j0/k) at a reference point j0.

    The pmf rows are computed once per distinct g and shared by all gammas. Rows = points,
    columns = the support window; weights w (the pmf) are normalized over it.
    j0 maximizes w h, so no term w_j h_j / h0 exceeds w(j0) (nothing overflows), and
    a_j = log h_j - log h0 = -2 gamma (z_j - z0)(z_j + z0) with the exact
    z_j - z0 = 2k (j0 - j)/((k + j)(k + j0)).

    * mu = sum w e^a, summed in log space (positive terms).
    * Usual case, mu >= 1/2 (the mean of h is not far below h0): ebar = mu - 1 is summed
      directly as sum w expm1(a) (absolute error ~ eps * spread, not eps), and the centred
      second pass uses d = expm1(a) - ebar; log mu = log1p(ebar).
    * Tilted case, mu < 1/2 (w h peaks far in a tail, e.g. gamma large and g small):
      d = e^a - mu from the logs, without the cancellation of expm1(a) - ebar near -1.
    shat = sum w d^2 is summed as exp(log w + 2 log|d|) (no overflow).
    """
    n = g.shape[0]
    z_ref = np.empty(n)
    log_mu_out = np.empty(n)
    log_shat = np.empty(n)
    unique_g, first, inverse = np.unique(g, return_index=True, return_inverse=True)
    unique_gc = gc[first]
    gamma_max = np.zeros(unique_g.size)
    np.maximum.at(gamma_max, inverse, gamma)
    steps = _steps(k, unique_g, unique_gc, gamma_max)
    lo, hi = _support(k, unique_g, unique_gc)
    widths = (hi - lo) // steps + 1
    kf = float(k)
    u_start = 0
    while u_start < unique_g.size:
        # a run of distinct g whose pmf rows fit in one block
        u_stop = u_start + 1
        while (u_stop < unique_g.size
               and (u_stop + 1 - u_start) * max(widths[u_start:u_stop + 1]) <= _BLOCK):
            u_stop += 1
        j_u, log_w_u = _weights(k, unique_g[u_start:u_stop], unique_gc[u_start:u_stop], steps[u_start:u_stop])
        points = np.flatnonzero((inverse >= u_start) & (inverse < u_stop))
        rows = max(1, _BLOCK // j_u.shape[1])
        for p_start in range(0, points.size, rows):
            idx = points[p_start:p_start + rows]
            which = inverse[idx] - u_start
            jf = j_u[which].astype(np.float64)
            log_w = log_w_u[which]
            inside = np.isfinite(log_w)
            gam = gamma[idx, None]
            z = (kf - jf) / (kf + jf)
            # argmax of log w - 2 gamma z^2; beyond gamma = 2^40 the rounding of 2 gamma z^2 (~ gamma
            # 1e-16) can pick a wrong maximiser (and overflow a below), so there z^2 - z_1^2 =
            # (z - z_1)(z + z_1) is taken from the exact difference
            j1, z1 = jf[:, :1], z[:, :1]
            score = np.where(gam > 2.0 ** 40,
                             -2.0 * gam * (2.0 * kf * (j1 - jf) / ((kf + jf) * (kf + j1))) * (z + z1),
                             -2.0 * gam * z * z)
            i0 = np.argmax(log_w + score, axis=1)[:, None]
            j0 = np.take_along_axis(jf, i0, axis=1)
            z0 = (kf - j0) / (kf + j0)
            log_w0 = np.take_along_axis(log_w, i0, axis=1)
            a = -2.0 * gam * (2.0 * kf * (j0 - jf) / ((kf + jf) * (kf + j0))) * (z + z0)
            with np.errstate(over="ignore", invalid="ignore", under="ignore", divide="ignore"):
                log_mu = log_w0[:, 0] + _logsumexp_rows(np.where(inside, log_w - log_w0 + a, -np.inf))
                tilted = log_mu < -np.log(2.0)
                # usual case
                e = np.expm1(np.minimum(a, 700.0))
                terms = np.where(a > 0.0, np.exp(log_w + a) * -np.expm1(-a), np.exp(log_w) * e)
                eb = np.sum(np.where(inside, terms, 0.0), axis=1)[:, None]
                log_d = np.where(a > 700.0, a + np.log1p(-(1.0 + eb) * np.exp(-a)),
                                 np.log(np.abs(e - eb)))
                if np.any(tilted):
                    # tilted case: log|e^a - mu|
                    lm = log_mu[:, None]
                    log_d_tilted = np.where(a > lm, a + np.log(-np.expm1(lm - a)),
                                            lm + np.log(-np.expm1(a - lm)))
                    log_d = np.where(tilted[:, None], log_d_tilted, log_d)
                log_shat[idx] = _logsumexp_rows(np.where(inside, log_w + 2.0 * log_d, -np.inf))
                log_mu_out[idx] = np.where(tilted, log_mu, np.log1p(eb[:, 0]))
            z_ref[idx] = z0[:, 0]
        u_start = u_stop
    return z_ref, log_mu_out, log_shat


def _broadcast_inputs(rho, gamma, k):
    try:
        return np.broadcast_arrays(parameter("rho").validate(rho), parameter("gamma").validate(gamma),
                                   parameter("k").validate(k))
    except ValueError as error:
        if "broadcast" not in str(error):
            raise
        raise ValueError(f"the shapes of rho {np.shape(rho)}, gamma {np.shape(gamma)} and k "
                         f"{np.shape(k)} do not broadcast together") from None


def _exact(rho, gamma, k, want_bias=False):
    """(mean, variance[, bias]) for validated, broadcast arrays rho, gamma (float64), k (int64)."""
    shape = rho.shape
    rho, gamma, k = rho.ravel(), gamma.ravel(), k.ravel()
    s, g, gc = _g_pair(rho)
    mean = np.empty(rho.shape)
    variance = np.zeros(rho.shape)
    bias = np.zeros(rho.shape)
    edge = (g == 0.0) | (gc == 0.0)          # rho = -1 or 1: Xbar = g exactly
    with np.errstate(over="ignore", under="ignore"):
        mean[edge] = np.exp(-gamma[edge] * (1.0 - rho[edge]))
    for kk in np.unique(k[~edge]):
        order = np.flatnonzero((k == kk) & ~edge)
        # beyond gamma = 1e4 (2k + 1)^2 every h(j/k), j < k, is below exp(-1e4): the moments
        # no longer change in float64, and capping gamma keeps every product finite
        gamma_eff = np.minimum(gamma[order], 1e4 * (2.0 * float(kk) + 1.0) ** 2)
        z0, log_mu, log_shat = _interior_moments(int(kk), g[order], gc[order], gamma_eff)
        log_h0 = -2.0 * gamma_eff * z0 ** 2
        with np.errstate(under="ignore"):
            mean[order] = np.exp(log_h0 + log_mu)
            variance[order] = np.exp(2.0 * log_h0 + log_shat)
            if want_bias:
                # E h - h(g) = h(g) expm1(log h0 - log h(g) + log mu), with
                # log h0 - log h(g) = -2 gamma (z0 - s)(z0 + s) (no cancellation in the
                # difference); where the shift is large (or gamma was capped) there is no
                # cancellation to avoid and mean - h(g) is used.
                capped = gamma_eff < gamma[order]
                sv = s[order]
                with np.errstate(over="ignore", invalid="ignore"):
                    rbf = np.exp(-gamma[order] * (1.0 - rho[order]))
                    shift = -2.0 * gamma_eff * (z0 - sv) * (z0 + sv) + log_mu
                    refined = rbf * np.expm1(np.minimum(shift, 1.0))
                bias[order] = np.where(capped | ~(shift <= 1.0), mean[order] - rbf, refined)
    out = [mean.reshape(shape), variance.reshape(shape)]
    if want_bias:
        out.append(bias.reshape(shape))
    return out


def _scalars(values):
    return [float(x) if x.ndim == 0 else x for x in values]


def exact_moments(rho, gamma, k):
    """Exact (mean, variance) of exp(-2 gamma ((1 - Xbar)/(1 + Xbar))^2), Xbar = Binomial(k, g)/k.

    g = g(rho) of 000, Eq. (22), as in Theorem 4 but with no asymptotics (varlab's own).
    Broadcasts over ``rho``, ``gamma`` and integer ``k`` (>= 1; arrays allowed, each distinct k
    is one vectorized pass; the pmf is computed once per distinct rho and k). The binomial law
    is summed over a window holding all but 2 exp(-800) of its mass (see ``_support``; about
    40 sd + 270 terms each side), in blocks, with a centred two-pass variance relative to a
    reference point (no E h^2 - (E h)^2 cancellation). Relative accuracy ~1e-13 for k <= 1e3
    and gamma <= 1e2 (tested against ``exact_moments_mp``; results below the float64 normal
    range underflow towards 0); finite, non-negative and never NaN for any valid input,
    k up to 1e6 and beyond (a 10 x 4 grid at k = 1e6 takes well under a second). From a
    binomial sd sqrt(k g (1 - g)) of 2048 on, the sum takes every m-th term of the window, m a
    small fraction of the summand's width (``_steps``: Poisson summation, error far below
    rounding), so any k up to 2^53 takes milliseconds.
    At rho = 1 (g = 1) and rho = -1 (g = 0) Xbar is constant: mean = exp(-gamma (1 - rho)),
    variance = 0 exactly. Scalars in give floats out. The two moments are also the computed
    Formulas ``exact_mean`` and ``exact_variance``.

    Examples
    --------
    >>> from varlab.theory import gcws
    >>> mean, variance = gcws.exact_moments(0.5, 1.0, 10)
    >>> round(mean, 6), round(variance, 8)
    (0.586748, 0.03519827)
    """
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        return tuple(_scalars(_exact(*_broadcast_inputs(rho, gamma, k))))


# mpmath reference: the full binomial sum (k + 1 terms) at the ambient precision
_REFERENCE_MAX_K = 20000


def _moments_mp(rho, gamma, k):
    """(mean, variance) of h(Xbar) at the ambient mpmath precision; rho, gamma exact binary values."""
    r, gm = mpmath.mpf(rho), mpmath.mpf(gamma)
    s = mpmath.sqrt((1 - r) / 2)
    g = (1 - s) / (1 + s)
    gc = 1 - g
    if g == 0 or gc == 0:
        return +mpmath.exp(-gm * (1 - r)), mpmath.mpf(0)
    ratio = g / gc
    pmf = gc ** k
    weights, values = [], []
    for j in range(k + 1):
        weights.append(pmf)
        values.append(mpmath.exp(-2 * gm * (mpmath.mpf(k - j) / (k + j)) ** 2))
        pmf = pmf * (k - j) / (j + 1) * ratio
    mean = mpmath.fsum(w * v for w, v in zip(weights, values))
    variance = mpmath.fsum(w * (v - mean) ** 2 for w, v in zip(weights, values))
    return mean, variance


_EXACT_SOURCE = ("varlab (derived; Theorem 4 of 000 gives only the large-k forms): the binomial "
                 "law of Xbar = Binomial(k, g)/k summed, g = g(rho) of 000, Eq. (22)")

exact_mean = Formula(
    name="gcws.exact_mean",
    parameters=("rho", "gamma", "k"),
    numeric=lambda rho, gamma, k: _exact(rho, gamma, k)[0],
    reference=lambda rho, gamma, k: _moments_mp(rho, gamma, k)[0],
    reference_domain={"k": (1, _REFERENCE_MAX_K)},
    tolerance=1e-11,
    source=_EXACT_SOURCE,
    description="Exact finite-k E exp(-2 gamma ((1 - Xbar)/(1 + Xbar))^2) (see ``exact_moments``); "
                "computed (a windowed binomial sum), no closed form",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import gcws
        >>> round(gcws.exact_mean(rho=0.5, gamma=1.0, k=10), 10)   # exp(-0.5) = 0.6065 without the bias
        0.5867475204
        """,
)

exact_variance = Formula(
    name="gcws.exact_variance",
    parameters=("rho", "gamma", "k"),
    numeric=lambda rho, gamma, k: _exact(rho, gamma, k)[1],
    reference=lambda rho, gamma, k: _moments_mp(rho, gamma, k)[1],
    reference_domain={"k": (1, _REFERENCE_MAX_K)},
    tolerance=1e-10,
    source=_EXACT_SOURCE,
    description="Exact finite-k Var exp(-2 gamma ((1 - Xbar)/(1 + Xbar))^2) (see ``exact_moments``); "
                "computed (a centred two-pass windowed binomial sum), no closed form",
    derived_by_varlab=True,
    examples="""
        >>> from varlab.theory import gcws
        >>> round(1000 * gcws.exact_variance(rho=0.5, gamma=1.0, k=1000), 6)     # -> V_g = 0.413864
        0.413141
        """,
)


def exact_bias(rho, gamma, k):
    """Exact finite-k bias E h(Xbar) - exp(-gamma (1 - rho)) of the GCWS-based RBF estimator.

    Computed without the cancellation of ``exact_mean - rbf``; k * bias -> ``asymptotic_bias``.
    (Not a Formula: it changes sign, so no relative tolerance holds across its domain.)

    Examples
    --------
    >>> from varlab.theory import gcws
    >>> float(gcws.exact_bias(rho=0.5, gamma=1.0, k=100))
    -0.00223777266665
    """
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        return _scalars(_exact(*_broadcast_inputs(rho, gamma, k), want_bias=True))[2]


def exact_moments_mp(rho, gamma, k, dps: int = 50):
    """mpmath reference for ``exact_moments``: the full binomial sum at ``dps`` digits.

    Scalar ``rho``, ``gamma`` (their exact binary values) and ``k`` (1 <= k <= 20000; the
    sum has k + 1 terms), validated like every Formula's parameters. Returns (mean, variance)
    as mpf, computed at dps + 15 digits. ``exact_mean.mp`` and ``exact_variance.mp`` evaluate
    the same sum with the precision control of ``Formula.mp``.

    Examples
    --------
    >>> import mpmath
    >>> from varlab.theory import gcws
    >>> mean, variance = gcws.exact_moments_mp(0.5, 1.0, 10, dps=30)[:2]
    >>> mpmath.nstr(mean, 20)
    '0.58674752038451956581'
    """
    dps = _check_dps(dps)
    for name, value in (("rho", rho), ("gamma", gamma), ("k", k)):
        if np.ndim(value) != 0:
            raise ValueError(f"exact_moments_mp takes scalar parameters; {name} has shape {np.shape(value)}")
    rho = float(parameter("rho").validate(rho))
    gamma = float(parameter("gamma").validate(gamma))
    k = int(parameter("k").validate(k))
    if k > _REFERENCE_MAX_K:
        raise ValueError(f"k must be <= {_REFERENCE_MAX_K} for the mpmath reference, got {k}")
    with mpmath.workdps(dps + 15):
        mean, variance = _moments_mp(rho, gamma, k)
    with mpmath.workdps(dps):
        return +mean, +variance
