"""Models of the RFF family over (rho, gamma) (paper 000, §2).

u = e1 and v = rho e1 + sqrt(1 - rho^2) e2 are unit vectors with correlation rho; frequencies w
are drawn as the i.i.d. sampler of ``varlab.features.samplers`` draws them from the Gaussian
spectral measure of bandwidth 1/sqrt(gamma) (on the engine's device), so that <w, u> = sqrt(gamma) x and <w, v> = sqrt(gamma) y with x, y standard
bivariate normal with correlation rho (the sampling model of Theorem 2). The phase is w0 ~
U(0, 2 pi), drawn after the frequencies. "rff", "rff_no_phase" and "nrff" draw in the same
order, so the same seed gives them the same samples (common random numbers).

The ``*_feature_map`` models compute the same estimators through the real feature map
``varlab.features.RFF`` applied to u, v in R^data_dimension.
"""
from __future__ import annotations

import math

import numpy as np

from ... import _validate
from ...theory import nrff as nrff_theory
from ...theory import rff as rff_theory
from . import Model, _fused_rff

__all__ = ["RFFModel", "RFFNoPhaseModel", "NRFFModel", "RFFFeatureMapModel",
           "RFFNoPhaseFeatureMapModel", "NRFFFeatureMapModel", "correlated_unit_vectors"]

TWO_PI = 2.0 * math.pi


def correlated_unit_vectors(rho: float, dimension: int) -> np.ndarray:
    """A (2, dimension) array [u; v] of unit vectors with <u, v> = rho: u = e1, v = rho e1 + s e2,
    s = sqrt(1 - rho^2) (the correlation of 000, Eq. 1, realised in R^dimension).

    Examples
    --------
    >>> from varlab.mc.models.rff import correlated_unit_vectors
    >>> uv = correlated_unit_vectors(0.6, 3)
    >>> uv.round(6)
    array([[1. , 0. , 0. ],
           [0.6, 0.8, 0. ]])
    >>> float(uv[0] @ uv[1])
    0.6
    """
    rho = float(_validate.correlation(rho, "rho"))
    dimension = _validate.positive_int(dimension, "dimension", minimum=2)
    uv = np.zeros((2, dimension))
    uv[0, 0] = 1.0
    uv[1, 0] = rho
    uv[1, 1] = math.sqrt(max(0.0, 1.0 - rho * rho))
    return uv


def _draw_arguments(rng, n, k, rho, gamma, workspace, *, phase: bool):
    """(a, b): the (n, k) cosine arguments of u and v (a = <w, u> [+ w0 - pi], b likewise).

    The frequencies are the i.i.d. sampler's draw from the Gaussian measure of lengthscale
    1/sqrt(gamma) (``spectral.Gaussian.rvs``: one (n k, 2) standard normal draw divided by the
    lengthscale), made here with the device's ``rng`` and ``workspace.xp``; with ``phase`` a
    uniform U is drawn next and both arguments get w0 - pi = 2 pi U - pi. Shifting by pi flips
    the sign of both cosines, which cancels in every product X Y, X^2, Y^2; arguments near 0
    make the cosine faster.
    """
    xp = workspace.xp
    frequencies = rng.standard_normal((n * k, 2))
    frequencies /= 1.0 / math.sqrt(gamma)
    first, second = frequencies[:, 0].reshape(n, k), frequencies[:, 1].reshape(n, k)
    a = workspace.buffer("a", (n, k))
    b = workspace.buffer("b", (n, k))
    xp.copyto(a, first)                                             # sqrt(gamma) x
    xp.multiply(second, math.sqrt(max(0.0, 1.0 - rho * rho)), out=b)
    if rho != 0.0:
        b += rho * first                                            # sqrt(gamma) y
    if phase:
        shift = workspace.buffer("phase", (n, k))
        rng.random(out=shift)
        xp.multiply(shift, TWO_PI, out=shift)
        xp.subtract(shift, math.pi, out=shift)
        a += shift
        b += shift
    return a, b


def _feature_components(n, k, rho, gamma, rng, *, data_dimension, phase):
    """(X, Y): the (n, k) components of the real ``RFF`` map of u and v (n k components, seeded
    from ``rng``)."""
    from ...features import RFF

    uv = correlated_unit_vectors(rho, data_dimension)
    rff = RFF(n * k, gamma=gamma, kernel="correlation", normalize=False, phase=phase,
              random_state=rng).fit(uv)
    components = np.asarray(rff.components(uv), dtype=np.float64)
    return components[0].reshape(n, k), components[1].reshape(n, k)


class RFFModel(Model):
    """Original RFF (000, Eq. 15): (1/k) sum_j X_j Y_j, X = sqrt2 cos(sqrt(gamma) x + w0).
    Theory: variance V/k of Thm 2, Eq. (18), exact.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("rff", k=[10, 100], rho=0.5, gamma=1.0, n_repetitions=400, random_state=0)
    >>> result.target.round(4)                    # exp(-gamma (1 - rho))
    array([[0.6065, 0.6065]])
    >>> result.theory["variance"].round(4)        # V / k, Eq. (18)
    array([[0.07 , 0.007]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "rff"
    gpu = True
    unbiased = True
    description = "RFF: mean of sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)"

    def target(self, rho, gamma):
        return rff_theory.mean(rho=rho, gamma=gamma)

    def theory(self, k, *, rho, gamma):
        variance = rff_theory.variance(rho=rho, gamma=gamma) / np.asarray(k, dtype=float)
        return {"variance": variance, "mse": variance}

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        xp = workspace.xp
        if xp is np and _fused_rff.rff_terms(rng, out, workspace, rho, gamma, phase=True):
            return
        a, b = _draw_arguments(rng, n, k, rho, gamma, workspace, phase=True)
        xp.cos(a, out=a)                                   # -X / sqrt2
        xp.cos(b, out=b)                                   # -Y / sqrt2
        xp.multiply(a, b, out=out[0])                      # X Y / 2

    def combine(self, sums, k, *, rho, gamma):
        return sums[0] * 2.0 / k


class RFFNoPhaseModel(Model):
    """RFF without the phase (000, Eq. 17): (1/k) sum_j cos(sqrt(gamma) x_j) cos(sqrt(gamma) y_j),
    whose target is the folded RBF. Theory: varlab's per-sample variance / k, exact.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("rff_no_phase", k=[10, 100], rho=0.5, gamma=1.0, n_repetitions=400,
    ...                      random_state=0)
    >>> result.target.round(4)                    # exp(-gamma (1 - rho))/2 + exp(-gamma (1 + rho))/2
    array([[0.4148, 0.4148]])
    >>> mc.within(result.mean, result.target, result.se_mean)
    array([[ True,  True]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "rff_no_phase"
    gpu = True
    unbiased = True
    description = "RFF without phase: mean of cos(sqrt(gamma) x) cos(sqrt(gamma) y)"

    def target(self, rho, gamma):
        return rff_theory.no_phase_mean(rho=rho, gamma=gamma)

    def theory(self, k, *, rho, gamma):
        variance = rff_theory.no_phase_variance(rho=rho, gamma=gamma) / np.asarray(k, dtype=float)
        return {"variance": variance, "mse": variance}

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        xp = workspace.xp
        if xp is np and _fused_rff.rff_terms(rng, out, workspace, rho, gamma, phase=False):
            return
        a, b = _draw_arguments(rng, n, k, rho, gamma, workspace, phase=False)
        xp.cos(a, out=a)
        xp.cos(b, out=b)
        xp.multiply(a, b, out=out[0])

    def combine(self, sums, k, *, rho, gamma):
        return sums[0] / k


class NRFFModel(Model):
    """Normalized RFF (000, Thm 3): sum X_j Y_j / sqrt(sum X_j^2 sum Y_j^2). Theory: the
    second-order MSE expansion V_n/k + c2/k^2 (varlab's own; asymptotic) and variance V_n/k
    (000, Eq. 20; asymptotic).

    Examples
    --------
    >>> from varlab import mc
    >>> point = dict(k=[10, 100], rho=0.5, gamma=1.0, n_repetitions=400, random_state=0)
    >>> nrff, rff = mc.simulate("nrff", **point), mc.simulate("rff", **point)
    >>> nrff.theory["mse"].round(4)               # V_n / k + c2 / k^2
    array([[0.046 , 0.0044]])
    >>> (nrff.theory["mse"] / rff.theory["mse"]).round(2)     # normalising lowers the MSE here
    array([[0.66, 0.63]])
    >>> mc.within(nrff.mse, nrff.theory["mse"], nrff.se_mse)
    array([[ True,  True]])
    """

    name = "nrff"
    gpu = True
    n_terms = 3
    description = "NRFF: sum X Y / sqrt(sum X^2 sum Y^2)"

    def target(self, rho, gamma):
        return rff_theory.mean(rho=rho, gamma=gamma)

    def theory(self, k, *, rho, gamma):
        kk = np.asarray(k, dtype=np.int64)
        return {"variance": nrff_theory.asymptotic_variance(rho=rho, gamma=gamma) / kk,
                "mse": nrff_theory.mse_expansion(rho=rho, gamma=gamma, k=kk)}

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        xp = workspace.xp
        if xp is np and _fused_rff.rff_terms(rng, out, workspace, rho, gamma, phase=True):
            return
        a, b = _draw_arguments(rng, n, k, rho, gamma, workspace, phase=True)
        xp.cos(a, out=a)                                   # -X / sqrt2
        xp.cos(b, out=b)                                   # -Y / sqrt2
        xp.multiply(a, a, out=out[0])                      # X^2 / 2
        xp.multiply(a, b, out=out[1])                      # X Y / 2
        xp.multiply(b, b, out=out[2])                      # Y^2 / 2

    def combine(self, sums, k, *, rho, gamma):
        return sums[1] / np.sqrt(sums[0] * sums[2])


class _FeatureMap:
    """Mixin: the terms come from the real ``RFF`` map of u, v in R^data_dimension."""

    phase = True
    gpu = False
    gpu_reason = "its terms come from varlab.features.RFF, a host (numpy) feature map"

    def __init__(self, data_dimension: int = 2):
        self.data_dimension = _validate.positive_int(data_dimension, "data_dimension", minimum=2)

    def samples_per_block(self, **point):
        """Bounds the map's (data_dimension + 1) x (n k) weights to 2^21 numbers per block."""
        return max(1, min(super().samples_per_block(**point), 2 ** 21 // (self.data_dimension + 1)))

    def _components(self, rng, n, k, rho, gamma):
        return _feature_components(n, k, rho, gamma, rng, data_dimension=self.data_dimension,
                                   phase=self.phase)


class RFFFeatureMapModel(_FeatureMap, RFFModel):
    """"rff" through ``varlab.features.RFF`` (one map of n k components per block).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import mc
    >>> point = dict(k=[10, 100], rho=0.5, gamma=1.0, n_repetitions=200, random_state=0)
    >>> through_map = mc.simulate("rff_feature_map", **point)     # u, v in R^2
    >>> through_map.options
    {'data_dimension': 2}
    >>> bool(np.allclose(through_map.mean, mc.simulate("rff", **point).mean))   # the same samples
    True
    >>> mc.within(through_map.variance, through_map.theory["variance"], through_map.se_variance)
    array([[ True,  True]])
    """

    name = "rff_feature_map"
    description = "RFF through the feature map varlab.features.RFF"

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        X, Y = self._components(rng, n, k, rho, gamma)
        np.multiply(X, Y, out=out[0])
        out[0] *= 0.5


class RFFNoPhaseFeatureMapModel(_FeatureMap, RFFNoPhaseModel):
    """"rff_no_phase" through ``varlab.features.RFF(phase=False)``.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("rff_no_phase_feature_map", k=[10, 100], rho=0.5, gamma=1.0,
    ...                      n_repetitions=200, random_state=0)
    >>> result.target.round(4)
    array([[0.4148, 0.4148]])
    >>> mc.within(result.mean, result.target, result.se_mean)
    array([[ True,  True]])
    """

    name = "rff_no_phase_feature_map"
    phase = False
    description = "RFF without phase through the feature map varlab.features.RFF"

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        X, Y = self._components(rng, n, k, rho, gamma)
        np.multiply(X, Y, out=out[0])


class NRFFFeatureMapModel(_FeatureMap, NRFFModel):
    """"nrff" through ``varlab.features.RFF`` (normalised from the components' sums).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("nrff_feature_map", k=[10, 100], rho=0.5, gamma=1.0, n_repetitions=200,
    ...                      random_state=0)
    >>> result.mse.shape
    (1, 2)
    >>> mc.within(result.mse, result.theory["mse"], result.se_mse)
    array([[ True,  True]])
    """

    name = "nrff_feature_map"
    description = "NRFF through the feature map varlab.features.RFF"

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        X, Y = self._components(rng, n, k, rho, gamma)
        np.multiply(X, X, out=out[0])
        np.multiply(X, Y, out=out[1])
        np.multiply(Y, Y, out=out[2])
