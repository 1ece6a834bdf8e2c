"""Antithetic and moment-matched frequencies (paper 003, Sec. 3 and Alg. 1).

* ``"antithetic"``: rows come in pairs (w, -w) (interleaved: w_1, -w_1, w_2, -w_2, ...), so every
  even prefix is an antithetic draw (``prefix_granularity = 2``); an odd m gives the first m
  rows of m + 1. Needs a symmetric measure.
* ``"moment_matching"``: Alg. 1 of 003. Draw m i.i.d. rows from the measure, centre them by the
  sample mean, whiten them by the inverse of a square root A of the sample covariance
  (A A' = S) and rescale to the measure's covariance (I / sigma^2 for the Gaussian; E|w|^2 / d
  times I for a radial measure), so that the m rows have mean 0 and covariance exactly that.
  Alg. 1 leaves open which square root and which divisor of S; both are options:
  ``root="cholesky"`` (A lower triangular) or ``"symmetric"`` (A = S^{1/2}), ``divisor="m-1"``
  (the unbiased sample covariance) or ``"m"``. The estimator of one kernel value has the same
  law for either root (``varlab.theory.moment_matching``).

  For m <= d the centred sample has rank m - 1 < d and S is singular. ``singular="error"`` (the
  default) raises a ValueError naming m; ``singular="diagonal"`` is varlab's documented fallback:
  match the mean and each coordinate's variance only (A = diag(S)^{1/2}), which needs m >= 2.
  Its effect on the estimator is measured by the engine (model ``mm_moment_matching`` with
  ``singular="diagonal"``; claim 003.mm.fallback).

``moment_match`` does the centring and whitening on a stack (..., m, d) of draws: the sampler
uses it on one draw, the Monte Carlo model on a block of repetitions at once.
"""
from __future__ import annotations

import abc

import numpy as np
from scipy import linalg

from ...spectral import Gaussian
from ...spectral.signed import GaussianMixture
from . import Sampler

__all__ = ["Antithetic", "MomentMatching", "MomentMatchable", "moment_match", "ROOTS", "DIVISORS", "SINGULAR"]

ROOTS = ("cholesky", "symmetric")
DIVISORS = ("m", "m-1")
SINGULAR = ("error", "diagonal")


def _check_choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


class MomentMatchable(abc.ABC):
    """The measures moment matching applies to (003 matches the Gaussian's first two moments):
    :class:`varlab.spectral.Gaussian` and Gaussian mixtures, registered as virtual subclasses.
    Heavy-tailed measures (Matern, exponential, Cauchy kernel: multivariate t and Laplace laws)
    are refused: whitening by the sample covariance distorts their radial law (the Matern 3/2
    estimate is biased by 0.1 at |z| = 1) or their second moment is infinite.

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features.samplers.moment_matching import MomentMatchable
    >>> isinstance(spectral.Gaussian(), MomentMatchable)
    True
    >>> isinstance(spectral.get_measure("matern", nu=1.5, lengthscale=1.0), MomentMatchable)
    False
    """


MomentMatchable.register(Gaussian)
MomentMatchable.register(GaussianMixture)


def moment_match(W, *, root="cholesky", divisor="m-1", singular="error") -> np.ndarray:
    """Centre and whiten a stack of draws W (..., m, d): a new array whose (m, d) slices have
    column means 0 and sample covariance (divisor m or m - 1) exactly I (003, Alg. 1, steps 4-5).

    Raises ValueError for m <= d with ``singular="error"`` (S is singular); with
    ``singular="diagonal"`` each coordinate is standardised instead (covariance diag 1).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.samplers.moment_matching import moment_match
    >>> W = np.random.default_rng(0).standard_normal((10, 3))
    >>> matched = moment_match(W)
    >>> matched.mean(axis=0).round(12) + 0.0
    array([0., 0., 0.])
    >>> np.cov(matched, rowvar=False).round(12) + 0.0      # divisor m - 1: exactly I
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    _check_choice(root, "root", ROOTS)
    _check_choice(divisor, "divisor", DIVISORS)
    _check_choice(singular, "singular", SINGULAR)
    W = np.asarray(W, dtype=np.float64)
    m, d = W.shape[-2:]
    if m < 2:
        raise ValueError(f"m must be >= 2 for moment matching (the centred sample of one row is 0), "
                         f"got m={m}")
    centred = W - W.mean(axis=-2, keepdims=True)
    # the whitened sample does not depend on the scale of W: divide each slice by a power of two
    # near its largest entry (exact, so the result is bit-identical) so that S neither under- nor
    # overflows for draws of scale 1e-162 or 1e150
    largest = np.max(np.abs(centred), axis=(-2, -1), keepdims=True)
    exponent = np.frexp(np.where(largest > 0, largest, 1.0))[1]
    centred = np.ldexp(centred, -exponent)
    scale = m if divisor == "m" else m - 1
    if m <= d:
        if singular == "error":
            raise ValueError(f"m={m} frequencies in d={d} dimensions: the sample covariance of "
                             f"moment matching is singular for m <= d (rank m - 1); use m >= d + 1 "
                             f"or singular='diagonal' (match each coordinate's variance only)")
        sd = np.sqrt(np.einsum("...ij,...ij->...j", centred, centred) / scale)
        return centred / sd[..., None, :]
    S = np.matmul(np.swapaxes(centred, -1, -2), centred) / scale            # (..., d, d)
    if root == "cholesky":
        L = np.linalg.cholesky(S)                                            # S = L L'
        if W.ndim == 2:
            return linalg.solve_triangular(L, centred.T, lower=True, check_finite=False).T
        # rows w_hat' = (L^{-1} w)' = w' L^{-T}: solve L X' = W' per slice
        return np.swapaxes(np.linalg.solve(L, np.swapaxes(centred, -1, -2)), -1, -2)
    values, vectors = np.linalg.eigh(S)                                      # S = V diag V'
    inverse_root = np.matmul(vectors / np.sqrt(values)[..., None, :], np.swapaxes(vectors, -1, -2))
    return np.matmul(centred, inverse_root)


def _coordinate_scale(measure, d: int) -> float:
    """sqrt(E|w|^2 / d): the standard deviation of one coordinate of a radial measure
    (1/sigma for the Gaussian, without squaring sigma, which overflows for sigma > 1.3e154)."""
    if isinstance(measure, Gaussian):
        return 1.0 / measure.lengthscale
    value = float(measure.norm_law(d).moment(2)) / d
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"moment matching needs a measure with finite second moments; "
                         f"{measure!r} has E|w|^2 = {value!r} in d={d}")
    return float(np.sqrt(value))


class Antithetic(Sampler, name="antithetic"):
    """Antithetic pairs (w_1, -w_1, w_2, -w_2, ...) of i.i.d. draws (003, Sec. 4, "Anti").
    With complex features the imaginary parts cancel and each pair gives cos(c'w).

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> W = get_sampler("antithetic").frequencies(spectral.Gaussian(), 6, 2, random_state=0)
    >>> bool((W[1::2] == -W[0::2]).all())              # pairs (w, -w)
    True
    >>> W.sum(axis=0) + 0.0
    array([0., 0.])
    """

    prefix_granularity = 2
    coupling = "blocks"                 # the pairs (w, -w)
    exact_rows = True                   # w and -w each have a symmetric measure's law

    def _frequencies(self, measure, m, d, rng):
        if not measure.symmetric:
            raise ValueError(f"antithetic pairs (w, -w) need a symmetric measure, got {measure!r}")
        half = measure.rvs((m + 1) // 2, d, rng)
        pairs = np.empty((2 * half.shape[0], d))
        pairs[0::2] = half
        np.negative(half, out=pairs[1::2])
        return np.ascontiguousarray(pairs[:m])


class MomentMatching(Sampler, name="moment_matching"):
    """Moment-matched frequencies (003, Alg. 1): i.i.d. draws, centred and whitened
    (``moment_match``), rescaled to the measure's covariance. Options: ``root``
    ("cholesky" | "symmetric"), ``divisor`` ("m-1" | "m"), ``singular`` ("error" | "diagonal")
    for m <= d. Not prefix-consistent: every m is a new set (``prefix_granularity`` is 1 only in
    the sense that the rows are exchangeable).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> sampler = get_sampler("moment_matching", root="symmetric")
    >>> W = sampler.frequencies(spectral.Gaussian(lengthscale=2.0), 50, 3, random_state=0)
    >>> np.cov(W, rowvar=False).round(12) + 0.0             # the measure's covariance I / 4
    array([[0.25, 0.  , 0.  ],
           [0.  , 0.25, 0.  ],
           [0.  , 0.  , 0.25]])
    """

    measure_type = MomentMatchable
    working_copies = 4          # the draws, their centred and rescaled copies, the whitened result
    coupling = "all"            # whitened together: every row depends on every other

    def __init__(self, root="cholesky", divisor="m-1", singular="error"):
        self.root = root
        self.divisor = divisor
        self.singular = singular

    def _frequencies(self, measure, m, d, rng):
        _check_choice(self.root, "root", ROOTS)
        _check_choice(self.divisor, "divisor", DIVISORS)
        _check_choice(self.singular, "singular", SINGULAR)
        if m < 2:
            raise ValueError(f"m must be >= 2 for moment matching, got m={m}")
        if m <= d and self.singular == "error":
            raise ValueError(f"m={m} frequencies in d={d} dimensions: moment matching needs "
                             f"m >= d + 1 (the sample covariance is singular otherwise); pass "
                             f"MomentMatching(singular='diagonal') to match the diagonal only")
        scale = _coordinate_scale(measure, d)
        W = measure.rvs(m, d, rng)
        whitened = moment_match(W, root=self.root, divisor=self.divisor, singular=self.singular)
        whitened *= scale
        return np.ascontiguousarray(whitened)
