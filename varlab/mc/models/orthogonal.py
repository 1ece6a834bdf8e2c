"""Models of i.i.d., orthogonal (ORF) and structured (SORF) random features for the Gaussian
kernel over (dimension, distance) (004, "Theorem 5"; varlab/theory/orthogonal.py).

x - y = z = distance * (1, ..., 1) / sqrt(d) (a direction with every coordinate non-zero, so that
a sampler that is not rotation invariant shows its bias), kernel exp(-|z|^2/2) (bandwidth 1).
Each repetition draws its own k frequencies through ``varlab.features.samplers`` (whole blocks
per repetition, the first k rows kept); the per-sample term is cos(<w_j, z>), the estimator
their mean (the paired cos/sin features of 004: cos<w,x>cos<w,y> + sin<w,x>sin<w,y>).
Every prefix of a block-orthogonal draw is a draw, so one pass gives every k.
"""
from __future__ import annotations

import math

import numpy as np

from ... import spectral
from ...features.samplers import get_sampler
from ...features.samplers.orthogonal import _padded
from ...theory import orthogonal as theory
from . import Model
from ..seeds import BLOCK_ELEMENTS

__all__ = ["IIDRadialModel", "ORFModel", "ORFColumnsModel", "SORFModel"]


class _Radial(Model):
    parameters = ("dimension", "distance")
    sampler = "iid"
    sampler_options: dict = {}

    def target(self, dimension, distance):
        distance = np.asarray(distance, dtype=np.float64)
        return np.exp(-0.5 * distance * distance) + 0.0 * np.asarray(dimension)

    def samples_per_block(self, *, dimension, distance):
        """About 2^16 numbers of frequencies per block."""
        return max(16, BLOCK_ELEMENTS // int(dimension))

    def _block(self, d):
        return 1

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        d = int(dimension)
        block = self._block(d)
        rows = -(-k // block) * block
        sampler = get_sampler(self.sampler, **self.sampler_options)
        w = sampler.frequencies(spectral.Gaussian(1.0), n * rows, d, rng).reshape(n, rows, d)
        projection = w[:, :k, :].sum(axis=-1)
        np.multiply(projection, distance / math.sqrt(d), out=out[0])
        np.cos(out[0], out=out[0])

    def combine(self, sums, k, *, dimension, distance):
        return sums[0] / k


class IIDRadialModel(_Radial):
    """i.i.d. RFF, paired cos/sin, Gaussian kernel in R^d. Theory: V_1/k, exact
    (``orthogonal.iid_variance``)."""

    name = "rff_radial"
    unbiased = True
    description = "i.i.d. RFF (paired cos/sin) of exp(-|z|^2/2) in R^d"

    def theory(self, k, *, dimension, distance):
        v = theory.iid_variance(distance=distance) / np.asarray(k, dtype=float)
        return {"variance": v, "mse": v}


class ORFModel(_Radial):
    """Block-orthogonal RFF (rows of S Q). Theory: varlab's exact variance
    ``orthogonal.orf_variance`` (blocks of d, partial last block)."""

    name = "orf"
    sampler = "orthogonal"
    unbiased = True
    description = "ORF (rows of S Q, paired cos/sin) of exp(-|z|^2/2) in R^d"

    def _block(self, d):
        return d

    def theory(self, k, *, dimension, distance):
        v = theory.orf_variance(dimension=dimension, distance=distance, k=np.asarray(k, dtype=np.int64))
        return {"variance": v, "mse": v}


class ORFColumnsModel(ORFModel):
    """The column-stacking variant (columns of S Q): biased; the engine measures by how much."""

    name = "orf_columns"
    sampler_options = {"orientation": "columns"}
    unbiased = False
    description = "ORF with the columns of S Q (biased variant)"

    def theory(self, k, **point):
        return {}


class SORFModel(_Radial):
    """SORF (H D1 H D2 H D3 directions, chi norms): bias and variance measured, no theory."""

    name = "sorf"
    sampler = "structured_orthogonal"
    unbiased = False
    description = "SORF (Hadamard-sign products) of exp(-|z|^2/2) in R^d"

    def _block(self, d):
        return _padded(d)
