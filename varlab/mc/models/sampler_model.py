"""The base of models whose frequencies come from a registered sampler, drawn so that the
repetitions stay independent whatever the sampler couples.

A :class:`SamplerModel` simulates the paired cos/sin estimator (1/k) sum_j cos <w_j, z> (plus
what a subclass adds) over the declared parameters (dimension, distance), z = distance u with a
fixed unit direction u. Its frequencies come from ``varlab.features.samplers`` through the
sampler's declared capabilities, never its type:

* ``Sampler.block_size(d)``: rows per independent block. Each repetition draws whole blocks and
  keeps its first k rows, so every prefix of one draw is a draw and one pass gives every k; the
  engine's column slabs are whole blocks (``granularity``).
* ``Sampler.coupling``: where every row of a call is coupled ("all": moment matching, QMC nets),
  each repetition gets its own call, else the n repetitions' blocks come from one call (n draws
  of whole blocks are one draw of their rows).
* ``Sampler.unbiased_for(measure)``: the model's ``unbiased`` (the contract tests check the
  mean against the target where it is True).

Subclasses give ``measure()`` (the spectral measure at lengthscale 1), ``direction_norm(d)`` (z =
distance (1, ..., 1) / direction_norm: sqrt(d) for |z| = distance) and, optionally, ``theory``.
"""
from __future__ import annotations

import numpy as np

from ...features.samplers import get_sampler
from ..seeds import BLOCK_ELEMENTS
from . import Model
from ._phases import blocked_budget, phases

__all__ = ["SamplerModel"]


class SamplerModel(Model):
    """Paired cos/sin random features through a registered sampler (module docstring).

    ``sampler`` (a registered name) and ``sampler_options`` select the sampler; ``row_cost``:
    numbers per row beyond the sampler's own (``samples_per_block``).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import mc
    >>> from varlab.mc.models.sampler_model import SamplerModel
    >>> model = mc.get_model("stationary_rff", kernel="gaussian", sampler="moment_matching")
    >>> isinstance(model, SamplerModel), model.block_size(3), model.unbiased     # one call a repetition
    (True, 1, False)
    >>> model.frequencies(np.random.default_rng(0), 2, 4, 3).shape               # (n, rows, d)
    (2, 4, 3)
    """

    parameters = ("dimension", "distance")
    sampler = "iid"
    sampler_options: dict = {}
    row_cost = 1
    gpu_reason = "it draws through varlab.features.samplers (host numpy)"

    def measure(self):
        """The spectral measure the frequencies are drawn from (lengthscale 1)."""
        raise NotImplementedError

    def direction_norm(self, d: int) -> float:
        """c with z = distance (1, ..., 1) / c, so <w, z> = distance sum_i w_i / c (sqrt(d): |z| =
        distance)."""
        raise NotImplementedError

    def _sampler(self):
        return get_sampler(self.sampler, **self.sampler_options)

    def block_size(self, d: int) -> int:
        """Rows per independent block of the sampler (1 where every row of a call couples: those
        draw one call per repetition)."""
        return self._sampler().block_size(d) or 1

    def granularity(self, *, dimension, distance):
        """Slabs of columns are whole blocks (a prefix of one draw, never two cut blocks)."""
        return self.block_size(int(dimension))

    def valid_k(self, k, **point):
        """Every k: the first k rows of a blocked draw are a draw of k rows."""
        return np.ones(np.shape(k), dtype=bool)

    def samples_per_block(self, *, dimension, distance):
        """About 2^16 numbers of frequencies per block, fewer where whole blocks per repetition
        would exceed the sampler's limit."""
        d = int(dimension)
        block = self.block_size(d)
        sampler = self._sampler()
        cost = sampler.elements(block, d) if hasattr(sampler, "elements") else block * d
        return blocked_budget(self.name, d, block, cost + self.row_cost * block, max(16, BLOCK_ELEMENTS // d))

    def frequencies(self, rng, n: int, k: int, d: int) -> np.ndarray:
        """(n, rows, d) frequencies, rows = k rounded up to whole blocks: one sampler call for
        the n repetitions, or one call each where the sampler couples every row of a call."""
        sampler, measure = self._sampler(), self.measure()
        block = self.block_size(d)
        rows = -(-k // block) * block
        if sampler.coupling == "all":
            return np.stack([sampler.frequencies(measure, rows, d, rng) for _ in range(n)])
        return sampler.frequencies(measure, n * rows, d, rng).reshape(n, rows, d)

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        d = int(dimension)
        w = self.frequencies(rng, n, k, d)
        projection = w[:, :k, :].sum(axis=-1)
        phases(projection, distance, factor=distance / self.direction_norm(d), out=out[0])
        np.cos(out[0], out=out[0])

    def combine(self, sums, k, *, dimension, distance):
        return sums[0] / k
