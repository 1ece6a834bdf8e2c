"""Quasi-Monte Carlo frequencies: Sobol and scrambled Sobol points (Yang et al. 2014; 003,
Eq. 6 and Sec. 4, "Sobol" and "SSobol"), through ``scipy.stats.qmc.Sobol``.

A point u in [0, 1)^d becomes a frequency by the inverse normal CDF: w = Phi^{-1}(u) / sigma
for the Gaussian measure (003, Eq. 6). For another radial measure, g = Phi^{-1}(u) gives the
direction g / |g| and the radius F^{-1}(F_chi_d(|g|)) with F the measure's ``norm_law(d)`` (|g|
is chi_d and independent of the direction, so the law is exact; the upper tail goes through
``sf``/``isf``).

m not a power of two: the first m points of the 2^K-point net, K = ceil(log2 m). Only at powers
of two are the points a (t, K, d)-net with QMC's balance properties; other m are a prefix of a
net (for "scrambled_sobol" still an unbiased estimator, with a larger error). The samplers'
``prefix_granularity`` is 1 because every prefix is a valid (if unbalanced) point set; the
Monte Carlo models draw each m afresh.

* ``"scrambled_sobol"``: scipy's scrambling (linear matrix scramble + digital shift), seeded
  from ``random_state``: every point is uniform, so the estimator is unbiased.
* ``"sobol"``: the unscrambled, deterministic Sobol sequence. Its first point is the origin,
  where Phi^{-1} is -inf, so varlab uses the points with indices j 2^K .. j 2^K + m - 1 for a
  block number j >= 1: ``block=None`` (default) draws j uniformly in [1, max(16, 2^(20 - K)))
  from ``random_state`` (scipy reaches index j 2^K by stepping, so j 2^K is kept below ~2^20) (so two seeds give two different deterministic nets, each a (t, K, d)-net
  since Sobol is a digital (t, d)-sequence); ``block=j`` fixes it (then ``random_state`` is
  ignored, the paper's deterministic method).
"""
from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import special, stats
from scipy.stats import qmc

from ...spectral import Gaussian, RadialMeasure
from . import Sampler

__all__ = ["Sobol", "ScrambledSobol", "sobol_points", "to_frequencies"]

#: scipy's Sobol engine holds 2^30 points (bits=30)
_BITS = 30
_MAX_DIMENSION = 21201


def _exponent(m: int) -> int:
    K = max(0, math.ceil(math.log2(m)))
    if K >= _BITS:
        raise ValueError(f"m must be below 2^{_BITS - 1} for Sobol points, got m={m}")
    return K


def sobol_points(m: int, d: int, *, scramble: bool, rng=None, block: int = 0) -> np.ndarray:
    """The first m points of the 2^K-point Sobol net (K = ceil(log2 m)) in [0, 1)^d, starting
    at index block * 2^K (unscrambled; scipy reaches it by stepping, O(block 2^K)) or scrambled by scipy with ``rng``.

    Examples
    --------
    >>> from varlab.features.samplers.qmc import sobol_points
    >>> sobol_points(4, 2, scramble=False, block=1)        # points 4..7 of the sequence
    array([[0.375, 0.375],
           [0.875, 0.875],
           [0.625, 0.125],
           [0.125, 0.625]])
    >>> sobol_points(5, 2, scramble=True, rng=0).shape    # the first 5 of an 8-point net
    (5, 2)
    """
    if d > _MAX_DIMENSION:
        raise ValueError(f"d must be <= {_MAX_DIMENSION} for scipy's Sobol points, got d={d}")
    K = _exponent(m)
    engine = qmc.Sobol(d, scramble=scramble, rng=rng, bits=_BITS) if scramble else \
        qmc.Sobol(d, scramble=False, bits=_BITS)
    if block:
        engine.fast_forward(block * 2 ** K)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)     # scipy's balance warning: documented above
        return engine.random(2 ** K)[:m]


def to_frequencies(U: np.ndarray, measure) -> np.ndarray:
    """Frequencies from points U in (0, 1)^d: Phi^{-1}(U) / sigma (Gaussian, 003 Eq. 6), or the
    direction of Phi^{-1}(U) with radius norm_law(d).ppf(chi_d.cdf(|Phi^{-1}(U)|)).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features.samplers.qmc import to_frequencies
    >>> to_frequencies(np.array([[0.5, 0.975]]), spectral.Gaussian(lengthscale=2.0)).round(4)
    array([[0.  , 0.98]])
    """
    G = special.ndtri(U)
    if isinstance(measure, Gaussian):
        G /= measure.lengthscale
        return G
    d = U.shape[1]
    radius = np.linalg.norm(G, axis=1)
    upper = radius > math.sqrt(d)
    law = measure.norm_law(d)
    new_radius = np.where(upper, law.isf(stats.chi(d).sf(radius)), law.ppf(stats.chi(d).cdf(radius)))
    safe = np.where(radius > 0, radius, 1.0)
    return G * (new_radius / safe)[:, None]


class ScrambledSobol(Sampler, name="scrambled_sobol"):
    """Scrambled Sobol points through the inverse normal CDF (003, "SSobol"); unbiased.

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features import RFF, get_sampler
    >>> W = get_sampler("scrambled_sobol").frequencies(spectral.Gaussian(), 16, 3, random_state=0)
    >>> W.shape
    (16, 3)
    >>> import numpy as np
    >>> X = np.random.default_rng(0).standard_normal((4, 3))
    >>> RFF(n_components=16, sampler="scrambled_sobol", random_state=0).fit_transform(X).shape
    (4, 16)
    """

    measure_type = RadialMeasure
    needs_fast_ppf = True
    coupling = "all"            # one scrambled net: its points are balanced together
    exact_rows = True           # each scrambled point is uniform on the cube (Owen)

    def _frequencies(self, measure, m, d, rng):
        return np.ascontiguousarray(to_frequencies(sobol_points(m, d, scramble=True, rng=rng), measure))


class Sobol(Sampler, name="sobol"):
    """Unscrambled Sobol points through the inverse normal CDF (003, "Sobol"; Yang et al. 2014),
    from block ``block`` of the sequence (None: a block drawn from ``random_state``; an int >= 1:
    that block, deterministic).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> sampler = get_sampler("sobol", block=1)         # deterministic: random_state is ignored
    >>> W = sampler.frequencies(spectral.Gaussian(), 8, 2)
    >>> W.shape, bool(np.array_equal(W, sampler.frequencies(spectral.Gaussian(), 8, 2, random_state=5)))
    ((8, 2), True)
    """

    measure_type = RadialMeasure
    needs_fast_ppf = True
    coupling = "all"            # consecutive points of one sequence

    def __init__(self, block=None):
        self.block = block

    def _frequencies(self, measure, m, d, rng):
        K = _exponent(m)
        if self.block is None:
            block = int(rng.integers(1, min(max(16, 2 ** (20 - K)), 2 ** (_BITS - K))))
        else:
            if isinstance(self.block, (bool, np.bool_)) or not isinstance(self.block, (int, np.integer)):
                raise TypeError(f"block must be None or an integer >= 1, got {self.block!r}")
            block = int(self.block)
            if not 1 <= block < 2 ** (_BITS - K):
                raise ValueError(f"block must be in [1, 2^{_BITS - K}) for m={m}, got {block}")
        return np.ascontiguousarray(to_frequencies(sobol_points(m, d, scramble=False, block=block), measure))
