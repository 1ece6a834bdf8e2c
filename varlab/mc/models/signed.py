"""GRFF and GORF models for the delta-Gaussian kernel over (dimension, distance) (004).

z = distance * (1, ..., 1)/sqrt(d); kernel options: ``weights`` and ``bandwidths`` of
sum_i a_i exp(-r^2/(2 sigma_i^2)) (default the slides' a = (1, -1), sigma = (1, 10)), split by
the sign of a_i. Per-sample term P cos<w_j, z> - N cos<v_j, z>; frequencies through
``varlab.features.signed.signed_frequencies`` (whole blocks per repetition, first k kept), so
every prefix is a draw (and the engine's column slabs are whole blocks). Blocks of repetitions
stay within about ``MAX_ELEMENTS`` numbers (ValueError naming dimension where one block alone
exceeds it); phases beyond float64 are refused naming distance. Theory: varlab's exact variance
(``theory.signed.estimator_variance``).
"""
from __future__ import annotations

import math

import numpy as np

from ...features.samplers import get_sampler
from ...features.signed import signed_frequencies
from ...spectral.signed import DeltaGaussian
from ...theory import signed as theory
from ..seeds import BLOCK_ELEMENTS
from . import Model
from ._phases import blocked_budget, phases

__all__ = ["GRFFModel", "GORFModel", "GORFSeparateModel"]


class _Signed(Model):
    parameters = ("dimension", "distance")
    sampler = "iid"
    orthogonality = "iid"
    unbiased = True
    gpu_reason = "it draws through varlab.features.signed and its samplers (host numpy)"

    def __init__(self, weights=(1.0, -1.0), bandwidths=(1.0, 10.0), through_sampler=False):
        self.weights = tuple(float(a) for a in weights)
        self.bandwidths = tuple(float(b) for b in bandwidths)
        self.through_sampler = bool(through_sampler)
        self._measure = DeltaGaussian(self.weights, self.bandwidths)

    def _fast(self, rng, n, rows, d):
        """(n, rows) projections <w_i, u>, <v_i, u> in the sampler's law at O(1) per row: a block's
        rows projected on u are Q u, a uniform unit vector g/|g| (split half/half for "mutual");
        i.i.d. rows project to R theta_1, theta_1 = +-sqrt(Beta(1/2, (d-1)/2))."""
        parts = self._measure.parts()
        out = []
        if self.orthogonality == "mutual" and d >= 2:
            h = d // 2
            g = rng.standard_normal((n * rows // h, d))
            g /= np.linalg.norm(g, axis=1, keepdims=True)
            directions = [g[:, :h].reshape(n, rows), g[:, h:2 * h].reshape(n, rows)]
        else:
            directions = []
            for _ in range(2):
                if self.orthogonality == "iid" or d < 2:
                    theta = np.sqrt(rng.beta(0.5, 0.5 * (d - 1), size=(n, rows))) if d > 1 else np.ones((n, rows))
                    theta *= np.where(rng.random((n, rows)) < 0.5, -1.0, 1.0)
                    directions.append(theta)
                else:
                    g = rng.standard_normal((n * rows // d, d))
                    g /= np.linalg.norm(g, axis=1, keepdims=True)
                    directions.append(g.reshape(n, rows))
        for part, theta in zip((parts["positive"], parts["negative"]), directions):
            radius = part.norm_law(d).rvs(size=(n, rows), random_state=rng)
            out.append(theta * radius)
        return out

    def target(self, dimension, distance):
        return self._measure.kernel_of_distance(np.asarray(distance, dtype=np.float64)) + 0.0 * np.asarray(dimension)

    def samples_per_block(self, *, dimension, distance):
        """2^16 samples on the fast path, about 2^16 numbers of frequencies through the sampler;
        fewer where whole orthogonal blocks per repetition would exceed MAX_ELEMENTS numbers."""
        d = int(dimension)
        block = self._rows(1, d)
        if not self.through_sampler:       # directions, radii, phases, cosines of two parts
            return blocked_budget(self.name, d, block, 8 * block)
        if self.orthogonality == "iid":
            cost = 2 * block * d
        elif self.orthogonality == "separate":
            cost = 2 * get_sampler(self.sampler).elements(block, d)
        else:                              # one Haar block (and its QR) per block of d/2 rows per part
            cost = 2 * d * d + 2 * block * d
        return blocked_budget(self.name, d, block, cost, max(16, BLOCK_ELEMENTS // (2 * d)))

    def granularity(self, *, dimension, distance):
        """Slabs of columns are whole blocks (a prefix of one draw, never two cut blocks)."""
        return self._rows(1, int(dimension))

    def valid_k(self, k, **point):
        """Every k: the first k rows of a blocked draw are a draw of k rows."""
        return np.ones(np.shape(k), dtype=bool)

    def _rows(self, k, d):
        if self.orthogonality == "iid":
            return k
        h = d if (self.orthogonality == "separate" or d < 2) else d // 2
        return -(-k // h) * h

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        d = int(dimension)
        rows = self._rows(k, d)
        P, N = self._measure.total_masses()["positive"], self._measure.total_masses()["negative"]
        if not self.through_sampler:
            a, b = self._fast(rng, n, rows, d)
            out[0] = P * np.cos(phases(a[:, :k], distance)) - N * np.cos(phases(b[:, :k], distance))
            return
        W, V = signed_frequencies(self._measure, n * rows, d, sampler=self.sampler,
                                  orthogonality="separate" if self.orthogonality == "iid" else self.orthogonality,
                                  rng=rng)
        scale = distance / math.sqrt(d)
        a = np.cos(phases(W.reshape(n, rows, d)[:, :k].sum(axis=-1), distance, factor=scale))
        out[0] = P * a
        if V.shape[0]:
            out[0] -= N * np.cos(phases(V.reshape(n, rows, d)[:, :k].sum(axis=-1), distance, factor=scale))

    def combine(self, sums, k, *, dimension, distance):
        return sums[0] / k

    def theory(self, k, *, dimension, distance):
        v = theory.estimator_variance(self._measure, int(dimension), float(distance),
                                      np.asarray(k, dtype=float), self.orthogonality)
        return {"variance": v, "mse": v}


class GRFFModel(_Signed):
    """GRFF (i.i.d. frequencies per part; 004).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("grff", k=[16, 64], dimension=4, distance=1.0, n_repetitions=400,
    ...                      random_state=0)
    >>> result.target.round(4)                    # exp(-1/2) - exp(-1/200)
    array([[-0.3885, -0.3885]])
    >>> result.theory["variance"].round(4)
    array([[0.0125, 0.0031]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "grff"
    description = "GRFF of the delta-Gaussian kernel (i.i.d. frequencies)"


class GORFModel(_Signed):
    """GORF with mutual orthogonality (004: W and V from one Haar block, half each).

    Examples
    --------
    >>> from varlab import mc
    >>> point = dict(k=[16, 64], dimension=4, distance=1.0, n_repetitions=400, random_state=0)
    >>> gorf, grff = mc.simulate("gorf", **point), mc.simulate("grff", **point)
    >>> bool(gorf.theory["variance"][0, 0] < grff.theory["variance"][0, 0])
    True
    >>> mc.within(gorf.variance, gorf.theory["variance"], gorf.se_variance)
    array([[ True,  True]])
    """

    name = "gorf"
    sampler = "orthogonal"
    orthogonality = "mutual"
    description = "GORF of the delta-Gaussian kernel (W, V mutually orthogonal)"


class GORFSeparateModel(_Signed):
    """GORF with each part orthogonalised on its own (varlab's alternative).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("gorf_separate", k=[16, 64], dimension=4, distance=1.0,
    ...                      n_repetitions=400, random_state=0)
    >>> result.theory["variance"].round(4)
    array([[0.0051, 0.0013]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "gorf_separate"
    sampler = "orthogonal"
    orthogonality = "separate"
    description = "GORF of the delta-Gaussian kernel (W and V each orthogonal, independent)"
