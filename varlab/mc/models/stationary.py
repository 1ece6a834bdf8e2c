"""Random Fourier features of the Gaussian, Laplacian, exponential, Matern and Cauchy kernels over
(dimension, distance), paired cos/sin or random phase, through any sampler (iid, orthogonal,
structured_orthogonal, fastfood, antithetic, QMC, moment matching; varlab.theory.stationary).

z = x - y: distance (1, ..., 1) / sqrt(d) for the radial kernels (lengthscale 1: |z| = distance;
a direction with every coordinate non-zero, so that a sampler that is not rotation invariant shows
its bias), distance (1, ..., 1) / d for the Laplacian (gamma = 1: ||z||_1 = distance). Each
repetition draws its own k frequencies through ``varlab.features.samplers`` (whole blocks per
repetition, the first k rows kept), so every prefix of one draw is a draw (granularity: the
sampler's block).

* ``features="paired"``: the term of frequency w is cos <w, z> = [cos <w,x>, sin <w,x>] . [cos <w,y>,
  sin <w,y>]; variance V = (1 + k(2z))/2 - k(z)^2 per frequency.
* ``features="phase"``: 2 cos(<w,x> + b) cos(<w,y> + b) = cos <w,z> + cos(<w,x+y> + 2b); 2b mod 2 pi
  is uniform and independent of w, so the second term is cos(2 pi U) with U ~ U[0, 1) drawn after
  the frequencies; variance V + 1/2.

Theory (exact): iid V/k (+ 1/(2k) with phases); orthogonal rows of a radial kernel
``stationary.orf_variance`` (the pair covariance by quadrature; the phase terms are uncorrelated,
+ 1/(2k)); other samplers: measured only.
"""
from __future__ import annotations

import math

import numpy as np

from ... import spectral
from ...features.samplers import get_sampler
from ...spectral import stationary as measures
from ...theory import stationary as theory
from ..seeds import BLOCK_ELEMENTS
from . import Model
from ._phases import blocked_budget, phases

__all__ = ["StationaryRFFModel", "KERNELS", "FEATURES"]

KERNELS = ("gaussian", "laplacian", "exponential", "matern32", "matern52", "cauchy")
FEATURES = ("paired", "phase")


def _measure(kernel: str):
    return {"gaussian": lambda: spectral.Gaussian(1.0), "laplacian": lambda: measures.Laplacian(1.0),
            "exponential": lambda: measures.Exponential(1.0), "matern32": lambda: measures.Matern(1.5, 1.0),
            "matern52": lambda: measures.Matern(2.5, 1.0), "cauchy": lambda: measures.CauchyKernel(1.0)}[kernel]()


class StationaryRFFModel(Model):
    """RFF (paired cos/sin or random phase) of a shift-invariant kernel through a sampler; options
    ``kernel``, ``sampler`` (a registered name), ``features``. Theory for iid and orthogonal.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("stationary_rff", k=[16, 64], dimension=4, distance=1.0,
    ...                      n_repetitions=400, random_state=0, kernel="laplacian", features="phase")
    >>> result.target.round(4)                    # exp(-1)
    array([[0.3679, 0.3679]])
    >>> result.theory["variance"].round(4)        # V / k + 1 / (2 k)
    array([[0.0583, 0.0146]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "stationary_rff"
    parameters = ("dimension", "distance")
    unbiased = True
    description = "RFF (paired or random phase) of the Gaussian/Laplacian/exponential/Matern/Cauchy kernels"

    def __init__(self, kernel="gaussian", sampler="iid", features="paired"):
        if kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {list(KERNELS)}, got {kernel!r}")
        if features not in FEATURES:
            raise ValueError(f"features must be one of {list(FEATURES)}, got {features!r}")
        self.kernel, self.sampler, self.features = kernel, sampler, features
        self._sampler = get_sampler(sampler)
        self._sampler._check_measure(_measure(kernel))      # e.g. the Laplacian with orthogonal rows
        self.unbiased = self._sampler.unbiased_for(_measure(kernel))

    def target(self, dimension, distance):
        return theory.kernel_value(self.kernel, distance) + 0.0 * np.asarray(dimension)

    def _block(self, d: int) -> int:
        """Rows per independent block of the sampler (``Sampler.coupling``)."""
        if self._sampler.coupling != "blocks":
            return 1
        block = getattr(self._sampler, "_block", None)
        return self._sampler.prefix_granularity if block is None else int(block(d))

    def granularity(self, *, dimension, distance):
        """Slabs of columns are whole blocks of the sampler."""
        return self._block(int(dimension))

    def valid_k(self, k, **point):
        """Every k: the first k rows of a blocked draw are a draw of k rows."""
        return np.ones(np.shape(k), dtype=bool)

    def samples_per_block(self, *, dimension, distance):
        d = int(dimension)
        block = self._block(d)
        return blocked_budget(self.name, d, block, self._sampler.elements(block, d) + 2 * block,
                              max(16, BLOCK_ELEMENTS // d))

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        d = int(dimension)
        block = self._block(d)
        rows = -(-k // block) * block
        measure = _measure(self.kernel)
        if self._sampler.coupling == "all":      # one call's rows are coupled: one call a repetition
            w = np.stack([self._sampler.frequencies(measure, rows, d, rng) for _ in range(n)])
        else:
            w = self._sampler.frequencies(measure, n * rows, d, rng).reshape(n, rows, d)
        projection = w[:, :k, :].sum(axis=-1)
        factor = distance / (d if self.kernel == "laplacian" else math.sqrt(d))
        phases(projection, distance, factor=factor, out=out[0])
        np.cos(out[0], out=out[0])
        if self.features == "phase":
            shift = rng.random((n, k))
            out[0] += np.cos(2.0 * math.pi * shift)

    def combine(self, sums, k, *, dimension, distance):
        return sums[0] / k

    def theory(self, k, *, dimension, distance):
        kk = np.asarray(k, dtype=np.int64)
        extra = 0.5 / kk if self.features == "phase" else 0.0
        if self.sampler == "iid":
            variance = theory.paired_variance(self.kernel, distance) / kk + extra
        elif self.sampler == "orthogonal":
            variance = theory.orf_variance(self.kernel, int(dimension), distance, kk) + extra
        else:
            return {}
        return {"variance": variance, "mse": variance}
