"""The pathwise gap of 003's Corollary 2, Eq. (14): D = E_MM - E_CV* on one draw of frequencies.

Per repetition, m Gaussian frequencies W (m, d) give both estimators of k = exp(-s^2/2) at
c = s u (u from ``direction``): E_CV* by Eq. (11) with Thm 1's beta1* = beta2* = k (mu^ and
Sigma^ = (1/m) sum w w' of the raw draws, as model ``mm_cv2``), and E_MM from the same draws
centred and whitened (``whitened_projections``, as model ``mm_moment_matching``). The scalar is
Re D + xi Im D with xi = +-1 a fair coin, target 0, so its MSE is E|D|^2 exactly; Eq. (14),
E_MM = E_CV* + o_p(m^{-1/2}), says m |D|^2 -> 0 in probability.
"""
from __future__ import annotations

import math

import numpy as np

from .moment_matching import _direction, _Fresh, whitened_projections

__all__ = ["PathwiseGapModel"]


class PathwiseGapModel(_Fresh):
    """D = E_MM - E_CV* on common draws (module docstring); needs m >= d + 1. No theory.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_pathwise_gap", k=[8, 64], dimension=2, scaled_distance=1.0,
    ...                      n_repetitions=400, random_state=0)
    >>> result.target
    array([[0., 0.]])
    >>> bool(result.mse[0, 1] < result.mse[0, 0])          # E|D|^2 falls with m
    True
    """

    name = "mm_pathwise_gap"
    description = "003 Eq. (14): E_MM - E_CV* on one draw of frequencies"

    def __init__(self, direction="diagonal"):
        super().__init__("complex", direction)

    def target(self, dimension, scaled_distance):
        return np.zeros(np.broadcast(np.asarray(dimension), np.asarray(scaled_distance)).shape)

    def valid_k(self, k, *, dimension, scaled_distance):
        return np.asarray(k) >= dimension + 1

    def samples_per_block(self, *, dimension, scaled_distance):
        """n m d <= 2^21 numbers per block (two copies of W)."""
        return max(1, 2 ** 20 // int(dimension))

    def estimate(self, rng, n, k, workspace, *, dimension, scaled_distance):
        W = workspace.buffer("W", (n, k, dimension))
        rng.standard_normal(out=W)
        c = _direction(rng, n, dimension, self.direction) * scaled_distance
        t = np.einsum("nmd,nd->nm", W, c)                     # raw projections c'w_j
        beta = math.exp(-0.5 * scaled_distance ** 2)          # Thm 1: beta1* = beta2* = k
        cv_real = np.cos(t).mean(axis=1) + 0.5 * beta * ((t * t).mean(axis=1) - scaled_distance ** 2)
        cv_imaginary = -np.sin(t).mean(axis=1) + beta * t.mean(axis=1)
        u = whitened_projections(W, c)                        # overwrites W (centred)
        coin = rng.integers(0, 2, n) * 2.0 - 1.0
        return (np.cos(u).mean(axis=1) - cv_real) + coin * (-np.sin(u).mean(axis=1) - cv_imaginary)
