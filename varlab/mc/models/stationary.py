"""Random Fourier features of every registered stationary kernel (``varlab.theory.
stationary_kernels()``: Gaussian, Laplacian, exponential, Matern, Cauchy, rational quadratic) over
(dimension, distance), paired cos/sin or random phase, through any sampler the kernel's measure
accepts (iid, orthogonal, structured_orthogonal, fastfood, antithetic, QMC, moment matching;
``SamplerModel`` keeps the repetitions independent whatever the sampler couples).

z = x - y: distance (1, ..., 1) / sqrt(d) for the radial kernels (lengthscale 1: |z| = distance;
a direction with every coordinate non-zero, so that a sampler that is not rotation invariant shows
its bias), distance (1, ..., 1) / d for a cityblock kernel such as the Laplacian (||z||_1 =
distance). Each repetition draws its own k frequencies through ``varlab.features.samplers`` (whole
blocks per repetition, the first k rows kept), so every prefix of one draw is a draw (granularity:
the sampler's block).

* ``features="paired"``: the term of frequency w is cos <w, z> = [cos <w,x>, sin <w,x>] . [cos <w,y>,
  sin <w,y>]; variance V = (1 + k(2z))/2 - k(z)^2 per frequency.
* ``features="phase"``: 2 cos(<w,x> + b) cos(<w,y> + b) = cos <w,z> + cos(<w,x+y> + 2b); 2b mod 2 pi
  is uniform and independent of w, so the second term is cos(2 pi U) with U ~ U[0, 1) drawn after
  the frequencies; variance V + 1/2.

Theory (exact): iid V/k (+ 1/(2k) with phases); orthogonal rows of a radial kernel
``stationary.orf_variance`` (the pair covariance by quadrature of the kernel's mixing law; the
phase terms are uncorrelated, + 1/(2k)); other samplers: measured only.
"""
from __future__ import annotations

import math

import numpy as np

from ...features.samplers import get_sampler
from ...spectral import kernel_measure
from ...theory import stationary as theory
from ...theory import stationary_kernel, stationary_kernels
from . import _fused_stationary
from .sampler_model import SamplerModel

__all__ = ["StationaryRFFModel", "FEATURES"]

FEATURES = ("paired", "phase")


class StationaryRFFModel(SamplerModel):
    """RFF (paired cos/sin or random phase) of a registered shift-invariant kernel through a
    sampler; options ``kernel`` (``varlab.theory.stationary_kernels()``), ``sampler`` (a
    registered name), ``features``. Theory for iid and orthogonal.

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
    unbiased = True
    row_cost = 2                  # the frequencies' projection and the phase shift
    description = "RFF (paired or random phase) of every registered stationary kernel"

    def __init__(self, kernel="gaussian", sampler="iid", features="paired"):
        if kernel not in stationary_kernels():
            raise ValueError(f"kernel must be one of {list(stationary_kernels())}, got {kernel!r}")
        if features not in FEATURES:
            raise ValueError(f"features must be one of {list(FEATURES)}, got {features!r}")
        self.kernel, self.sampler, self.features = kernel, sampler, features
        sampler = get_sampler(sampler)
        sampler.check_measure(self.measure())      # e.g. the Laplacian with orthogonal rows
        self.unbiased = sampler.unbiased_for(self.measure())

    def measure(self):
        return kernel_measure(self.kernel)

    def direction_norm(self, d):
        return d if stationary_kernel(self.kernel).metric == "cityblock" else math.sqrt(d)

    def target(self, dimension, distance):
        return theory.kernel_value(self.kernel, distance) + 0.0 * np.asarray(dimension)

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        if (self.kernel, self.sampler) == ("gaussian", "iid") and _fused_stationary.gaussian_terms(
                rng, out[0], workspace, dimension=dimension, distance=distance, phase=self.features == "phase",
                lengthscale=self.measure().lengthscale, factor=distance / self.direction_norm(int(dimension))):
            return
        super().sample(rng, n, k, out, workspace, dimension=dimension, distance=distance)
        if self.features == "phase":
            shift = rng.random((n, k))
            out[0] += np.cos(2.0 * math.pi * shift)

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
