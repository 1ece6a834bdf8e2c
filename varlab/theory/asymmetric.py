"""Total masses and per-part moments of the complex spectral measures of paper 002 (AsK-RFF).

Paper 002 (Eq. 9-11) gives three asymmetric kernels whose Fourier transforms (k(D) = int
e^{i <w, D>} mu(dw)) are a Gaussian N(0, I / sigma^2) density p(w) times a function of ONE
projection X = <c, w>:

* shift-Gaussian  k1(D) = exp(-|D + r|^2 / (2 sigma^2)):   mu1 = p(w) e^{i X},  c = r;
* sinh-Gaussian   k2(D) = exp(-|D|^2/(2 sigma^2)) (1 + sinh <beta, D>):
                                             mu2 = p(w) [1 - i A sin X],  c = sigma^2 beta;
* "cosh"-Gaussian k3(D) = exp(-|D|^2/(2 sigma^2)) exp(<beta, D>):
                                             mu3 = A p(w) e^{-i X},       c = sigma^2 beta,

with A = exp(sigma^2 |beta|^2 / 2). Under p, X ~ N(0, s^2) with the *spread* s = |c| / sigma
(s = |r|/sigma, resp. sigma |beta|), independent of the components of w orthogonal to c. So each
Jordan part (002, Eq. 2) is p(w) h(X) with h one of cos+, cos-, sin+, sin- (x+ = max(x, 0)),
and its total mass, which the paper computes by d-dimensional numerical integration (002 §4),
is the ONE-dimensional Gaussian expectation E[h(X)] (times A for k3, k2's imaginary parts):

    ||mu_R+|| = E cos+(X),  ||mu_R-|| = E cos-(X),  ||mu_I+|| = ||mu_I-|| = E sin+(X)

for k1 (the same times A for k3; k2: ||mu_R+|| = 1, ||mu_R-|| = 0, ||mu_I+-|| = A E sin+(X)),
in any dimension d (varlab's own reduction; ``asymmetric_derivation`` has the algebra). Each
expectation, and each part's characteristic function E[e^{i lam X} h(X)], is evaluated in closed
form by ``varlab.theory.asymmetric_integrals`` (complex erfc on intervals for s < 2, the Fourier
series of h for s >= 2).

From them this module gives, per kernel, the parts' masses (``kernel_masses``) and
characteristic functions (``part_transform``), hence the variance of the AsK-RFF estimator s(D)
of Eq. (7) at a point (varlab's own: ``shift_variance``, ``sinh_variance``, ``cosh_variance``,
``estimator_variance``; the paper gives only the uniform bound of Prop. 6, also here:
``prop6_features``).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy.integrate

from .. import _validate
from .asymmetric_integrals import SOURCE  # noqa: F401 (the masses' source, importable from here as before)
from .asymmetric_integrals import _mp_h_integral, cos_negative_mass, cos_positive_mass, h_transform, sin_positive_mass
from .formula import Formula, _doctests
from .parameters import parameter

__all__ = ["SPREAD", "KERNELS", "PARTS", "cos_positive_mass", "cos_negative_mass",
           "sin_positive_mass", "part_transform", "kernel_masses", "part_second_moment",
           "estimator_variance", "prop6_features", "beta_d", "spread_of", "direction_of",
           "part_h", "h_transform", "shift_variance", "sinh_variance", "cosh_variance"]

# declared in theory/parameters.py (so that the registry is complete after ``import varlab``)
SPREAD, PHASE_RATIO, TRANSVERSE = (parameter(name) for name in ("spread", "phase_ratio", "transverse"))

KERNELS = ("shift_gaussian", "sinh_gaussian", "cosh_gaussian")
PARTS = ("real_positive", "real_negative", "imaginary_positive", "imaginary_negative")


# --- kernels: spread, direction, masses --------------------------------------------------------
def _kernel_name(kernel):
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {list(KERNELS)}, got {kernel!r}")
    return kernel


def direction_of(kernel, sigma, vector):
    """c: the direction of the kernel's phase X = <c, w> (r for the shift, sigma^2 beta otherwise).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> asymmetric.direction_of("cosh_gaussian", 2.0, [0.5, 0.0])     # sigma^2 beta
    array([2., 0.])
    """
    vector = np.asarray(vector, dtype=float)
    return vector if _kernel_name(kernel) == "shift_gaussian" else sigma * sigma * vector


def spread_of(kernel, sigma, vector):
    """s = |c| / sigma (= |r|/sigma or sigma |beta|).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> asymmetric.spread_of("shift_gaussian", 2.0, [3.0, 4.0])       # |r| / sigma
    2.5
    """
    return float(np.linalg.norm(direction_of(kernel, sigma, vector))) / float(sigma)


def _tilt(kernel, s):
    """A = exp(s^2/2) for the sinh/cosh kernels (1 for the shift)."""
    return 1.0 if kernel == "shift_gaussian" else math.exp(0.5 * s * s)


#: which h(X) each part is, per kernel ("one" = the Gaussian itself)
_PART_H = {
    "shift_gaussian": {"real_positive": "cos+", "real_negative": "cos-",
                       "imaginary_positive": "sin+", "imaginary_negative": "sin-"},
    "sinh_gaussian": {"real_positive": "one", "real_negative": None,
                      "imaginary_positive": "sin-", "imaginary_negative": "sin+"},
    "cosh_gaussian": {"real_positive": "cos+", "real_negative": "cos-",
                      "imaginary_positive": "sin-", "imaginary_negative": "sin+"},
}


def part_h(kernel, part):
    """The function h of X with part = (scale) p(w) h(<c, w>): "cos+", "cos-", "sin+", "sin-",
    "one" or None (empty part).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> asymmetric.part_h("shift_gaussian", "imaginary_negative")
    'sin-'
    >>> asymmetric.part_h("sinh_gaussian", "real_positive")         # the Gaussian p itself
    'one'
    >>> print(asymmetric.part_h("sinh_gaussian", "real_negative"))     # k2 has no negative real part
    None
    """
    return _PART_H[_kernel_name(kernel)][part]


def kernel_masses(kernel, spread) -> dict:
    """The four total masses of the kernel's complex measure at spread s (scalar), by part name
    (002, Eq. 2 and Def. 2; 1-D forms derived by varlab).

    Examples
    --------
    >>> from varlab.theory import asymmetric
    >>> masses = asymmetric.kernel_masses("shift_gaussian", 1.0)
    >>> sorted(masses)
    ['imaginary_negative', 'imaginary_positive', 'real_negative', 'real_positive']
    """
    kernel = _kernel_name(kernel)
    s = float(SPREAD.validate(spread, "spread"))
    tilt = _tilt(kernel, s)
    masses = {}
    for part in PARTS:
        h = part_h(kernel, part)
        if h is None:
            masses[part] = 0.0
        elif h == "one":
            masses[part] = 1.0
        else:
            formula = {"cos+": cos_positive_mass, "cos-": cos_negative_mass}.get(h, sin_positive_mass)
            masses[part] = tilt * float(formula(spread=s))
    return masses


# --- characteristic functions of the parts ------------------------------------------------------
def part_transform(kernel, part, spread, phase_ratio, transverse):
    """U_part(D) = ||part|| E_part[e^{i <w, D>}] for D = phase_ratio c + D_perp, |D_perp| =
    transverse sigma: tilt * E[e^{i alpha |c| ... }] = tilt e^{-tau^2/2} E[e^{i alpha X} h(X)].

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory import asymmetric
    >>> complex(np.round(asymmetric.part_transform("shift_gaussian", "real_positive", 1.0, 0.0, 0.0), 8))
    (0.65028002+0j)
    >>> complex(np.round(asymmetric.part_transform("shift_gaussian", "real_positive", 1.0, 0.5, 1.0), 6))
    (0.377114+0j)
    """
    h = part_h(kernel, part)
    if h is None:
        return np.zeros(np.broadcast(np.asarray(spread), np.asarray(phase_ratio),
                                     np.asarray(transverse)).shape, dtype=complex)
    s = np.asarray(spread, dtype=float)
    tilt = np.exp(0.5 * s * s) if (kernel != "shift_gaussian" and h != "one") else 1.0
    transverse = np.asarray(transverse, dtype=float)
    with np.errstate(over="ignore"):
        damping = np.exp(-0.5 * transverse * transverse)
    return tilt * damping * h_transform(phase_ratio, s, h)


# --- the variance of the estimator at a point ----------------------------------------------------
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


__test__ = _doctests(globals())     # the Formulas' Examples (those of asymmetric_integrals too)
