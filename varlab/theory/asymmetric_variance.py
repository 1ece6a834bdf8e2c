"""The variance of the AsK-RFF estimator at a point, and the feature count of Prop. 6 (paper 002).

AsK-RFF (002, Eq. 7-8) estimates an asymmetric kernel by s(D), an average over M features of
each Jordan part of its complex spectral measure. From each part's characteristic function
(:func:`varlab.theory.asymmetric.part_transform`, the one-dimensional reduction of that module),
the variance of one term of s(D) at D = phase_ratio c + D_perp (|D_perp| = transverse sigma) is
a closed form (varlab's own; ``shift_variance``, ``sinh_variance``, ``cosh_variance``, each with
an mpmath reference, and ``estimator_variance``), and Var s(D) is that over M. The paper gives
only the uniform bound of Prop. 6 (``prop6_features``, with ``beta_d`` and the parts' second
moments ``part_second_moment``). Every name is also importable from ``varlab.theory.asymmetric``,
where the Formulas' examples run.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy.integrate

from .. import _validate
from .asymmetric import (KERNELS, PHASE_RATIO, SPREAD, _kernel_name, _mp_h_integral, kernel_masses,
                         part_h, part_transform)
from .formula import Formula

__all__ = ["shift_variance", "sinh_variance", "cosh_variance", "estimator_variance", "beta_d",
           "part_second_moment", "prop6_features"]


def _variance_numeric(kernel):
    def numeric(spread, phase_ratio, transverse):
        s = np.asarray(spread, dtype=float)
        total = np.zeros(np.broadcast(s, phase_ratio, transverse).shape)
        for part, weight in (("real_positive", 1.0), ("real_negative", 1.0), ("imaginary_positive", 4.0)):
            h = part_h(kernel, part)
            if h is None:
                continue
            mass = part_transform(kernel, part, s, 0.0, 0.0).real
            once = part_transform(kernel, part, s, phase_ratio, transverse)
            twice = part_transform(kernel, part, s, 2.0 * np.asarray(phase_ratio), 2.0 * np.asarray(transverse))
            if part.startswith("real"):
                term = 0.5 * mass * (mass + twice.real) - once.real ** 2
            else:
                term = 0.5 * mass * (mass - twice.real) - once.imag ** 2
            total = total + weight * term
        return np.maximum(total, 0.0)
    return numeric


def _mp_variance(kernel):
    def reference(spread, phase_ratio, transverse):
        s = spread
        total = mpmath.mpf(0)
        for part, weight in (("real_positive", 1), ("real_negative", 1), ("imaginary_positive", 4)):
            h = part_h(kernel, part)
            if h is None:
                continue
            tilt = mpmath.exp(s * s / 2) if (kernel != "shift_gaussian" and h != "one") else 1

            def U(alpha, tau):
                if h == "one":
                    value = mpmath.exp(-(alpha * s) ** 2 / 2)
                elif s == 0:
                    value = {"cos+": 1, "cos-": 0, "sin+": 0, "sin-": 0}[h]
                else:
                    value = _mp_h_integral(alpha, s, h)
                return tilt * mpmath.exp(-tau * tau / 2) * value
            mass = mpmath.re(U(0, 0))
            once, twice = U(phase_ratio, transverse), U(2 * phase_ratio, 2 * transverse)
            if part.startswith("real"):
                term = mass * (mass + mpmath.re(twice)) / 2 - mpmath.re(once) ** 2
            else:
                term = mass * (mass - mpmath.re(twice)) / 2 - mpmath.im(once) ** 2
            total += weight * term
        return total
    return reference


_VARIANCE = dict(parameters=("spread", "phase_ratio", "transverse"), tolerance=1e-8,
                 derived_by_varlab=True,
                 source="002, Eq. (7)-(8) (estimator); variance at a point derived by varlab")

_VARIANCE_EXAMPLES = {
    "shift_gaussian": """
        >>> from varlab.theory import asymmetric
        >>> round(asymmetric.shift_variance(spread=1.0, phase_ratio=0.5, transverse=1.0), 8)   # M = 1
        0.22294688
        """,
    "sinh_gaussian": """
        >>> from varlab.theory import asymmetric
        >>> round(asymmetric.sinh_variance(spread=1.0, phase_ratio=0.5, transverse=1.0), 8)
        0.6054997
        """,
    "cosh_gaussian": """
        >>> from varlab.theory import asymmetric
        >>> round(asymmetric.cosh_variance(spread=1.0, phase_ratio=0.5, transverse=1.0), 8)
        0.60603246
        """,
}

shift_variance, sinh_variance, cosh_variance = (
    Formula(f"asymmetric.{kernel.split('_')[0]}_variance", numeric=_variance_numeric(kernel),
            reference=_mp_variance(kernel),
            description=f"Var of one AsK-RFF term of the {kernel} kernel at D = phase_ratio c + "
                        f"D_perp (|D_perp| = transverse sigma): Var s(D) = this / M",
            examples=_VARIANCE_EXAMPLES[kernel], **_VARIANCE)
    for kernel in KERNELS)


def estimator_variance(kernel, spread, phase_ratio, transverse):
    """Var of one term of s(D) (Eq. 7, one feature of each part); Var s(D) = this / M. The
    numeric form of the ``*_variance`` Formulas, for any transverse >= 0 (absolute accuracy).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> round(float(asymmetric.estimator_variance("shift_gaussian", 1.0, 0.5, 1.0)), 8)   # = shift_variance
    0.22294688
    >>> round(float(asymmetric.estimator_variance("shift_gaussian", 1.0, 0.5, 0.0)), 8)   # D along c
    0.01739854
    """
    s = SPREAD.validate(spread, "spread")
    alpha = PHASE_RATIO.validate(phase_ratio, "phase_ratio")
    tau = _validate.real_array(transverse, "transverse", low=0.0)
    return _variance_numeric(_kernel_name(kernel))(s, alpha, tau)


# --- Prop. 6 --------------------------------------------------------------------------------------
def beta_d(d):
    """beta_d = ((d/2)^(-d/(d+2)) + (d/2)^(2/(d+2))) 2^((6d+2)/(d+2)) (002, Prop. 6).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> round(asymmetric.beta_d(2), 6), round(asymmetric.beta_d(16), 6)     # beta_2 = 16 sqrt2
    (22.627417, 61.721567)
    """
    d = float(d)
    return ((d / 2) ** (-d / (d + 2)) + (d / 2) ** (2 / (d + 2))) * 2 ** ((6 * d + 2) / (d + 2))


def part_second_moment(kernel, part, spread, sigma, d):
    """E_part |w|^2 of the normalised part: (d - 1)/sigma^2 (the orthogonal components) plus
    E_h[X^2]/(s sigma)^2 (along c), the latter by 1-D quadrature (scipy).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> round(asymmetric.part_second_moment("shift_gaussian", "real_positive", 1.0, 1.0, 2), 8)
    1.35733271
    >>> asymmetric.part_second_moment("sinh_gaussian", "real_positive", 1.0, 1.0, 2)    # the Gaussian: d / sigma^2
    2.0
    """
    h = part_h(kernel, part)
    if h is None:
        return 0.0
    s = float(spread)
    sigma = float(sigma)
    if h == "one" or s == 0.0:
        return d / sigma ** 2
    fn = {"cos+": lambda x: max(math.cos(x), 0.0), "cos-": lambda x: max(-math.cos(x), 0.0),
          "sin+": lambda x: max(math.sin(x), 0.0), "sin-": lambda x: max(-math.sin(x), 0.0)}[h]
    top = 12.0 * s
    points = [p for p in (math.pi / 2 * np.arange(-int(top / (math.pi / 2)) - 1,
                                                   int(top / (math.pi / 2)) + 2)) if -top < p < top]
    dens = lambda x: math.exp(-0.5 * (x / s) ** 2) / (s * math.sqrt(2 * math.pi))
    mass = scipy.integrate.quad(lambda x: fn(x) * dens(x), -top, top, points=points, limit=400)[0]
    second = scipy.integrate.quad(lambda x: x * x * fn(x) * dens(x), -top, top, points=points, limit=400)[0]
    # X = <c, w> with |c| = s sigma, so t = <c/|c|, w> = X / (s sigma)
    return (d - 1) / sigma ** 2 + second / mass / (s * sigma) ** 2


def prop6_features(kernel, spread, sigma, d, epsilon, delta, diameter):
    """The M of Prop. 6 (002): 4 (d+2) ||mu||^2/eps^2 (log(beta_d/delta) + 2d/(d+2)
    log(alpha_mu l / eps)), with ||mu|| = R+ + R- + 2 I+ and alpha_mu^2 = (R+^2 + R-^2 +
    2 I+^2) sigma_mu^2. Returns (M, details).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> M, details = asymmetric.prop6_features("shift_gaussian", 1.0, 1.0, 2, 0.1, 0.01, 1.0)
    >>> round(M), round(details["norm"], 6)         # features for sup error <= 0.1 w.p. 0.99
    (28599, 1.273183)
    """
    masses = kernel_masses(kernel, spread)
    rp, rn, ip = masses["real_positive"], masses["real_negative"], masses["imaginary_positive"]
    norm = rp + rn + 2 * ip
    moments = {part: part_second_moment(kernel, part, spread, sigma, d)
               for part in ("real_positive", "real_negative", "imaginary_positive")}
    sigma_mu2 = moments["real_positive"] + moments["real_negative"] + 2 * moments["imaginary_positive"]
    alpha = math.sqrt((rp ** 2 + rn ** 2 + 2 * ip ** 2) * sigma_mu2)
    bd = beta_d(d)
    M = 4 * (d + 2) * norm ** 2 / epsilon ** 2 * (math.log(bd / delta)
                                                   + 2 * d / (d + 2) * math.log(alpha * diameter / epsilon))
    return M, {"norm": norm, "alpha_mu": alpha, "sigma_mu2": sigma_mu2, "beta_d": bd}


# the Formulas' Examples (doctest collects no instances); they are named "asymmetric.*", so
# ``_doctests`` of this module would not find them
__test__ = {name: formula.__doc__ for name, formula in
            (("shift_variance", shift_variance), ("sinh_variance", sinh_variance),
             ("cosh_variance", cosh_variance))}
