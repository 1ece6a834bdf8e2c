"""Models of AsK-RFF (paper 002, Eq. 7-8) over (dimension, distance).

Geometry: the kernel's vector (r for the shift-Gaussian, beta for sinh/cosh) is ``magnitude``
e1; the displacement is D = distance (cos(angle) e1 + sin(angle) e2) (d = 1: D = distance
cos(angle) e1). One sample is the Eq. (7) term with one frequency of each part,

    ||R+|| cos <omega, D> - ||R-|| cos <zeta, D> - 2 ||I+|| sin <nu, D>,

and the k-sample estimator s(D) is their mean (M = k). Theory: Var s(D) = V/k with V from
:func:`varlab.theory.asymmetric.estimator_variance` (varlab's own, exact).

``askrff`` draws the frequencies from the measure's parts (``method`` "exact" or the paper's
"rejection"); ``askrff_feature_map`` computes the same terms through
``varlab.features.AsKRFF.transform``/``right`` (unbiasedness of the real maps, Eq. 8);
``askrff_part`` estimates E_part[cos <w, D>] (or sin for the imaginary parts) of one normalised
part, checking the samplers' laws.
"""
from __future__ import annotations

import math

import numpy as np

from ... import _validate, spectral
from ...spectral.asymmetric import kernel_value
from ...theory import asymmetric as theory
from . import Model
from ._phases import too_large

__all__ = ["AsKRFFModel", "AsKRFFFeatureMapModel", "AsKRFFPartModel"]


def _geometry(kernel, dimension, distance, magnitude, angle, sigma):
    vector = np.zeros(dimension)
    vector[0] = magnitude
    delta = np.zeros(dimension)
    delta[0] = distance * math.cos(angle)
    if dimension > 1:
        delta[1] = distance * math.sin(angle)
    c = theory.direction_of(kernel, sigma, vector)
    alpha = float(delta @ c / (c @ c)) if magnitude > 0 else 0.0
    tau = float(np.linalg.norm(delta - alpha * c)) / sigma
    return vector, delta, alpha, tau


def _phases(w, delta, distance):
    """w @ delta, the phases <w, D>; ValueError naming distance where one overflows float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        values = w @ delta
    if not np.all(np.isfinite(values)):
        raise too_large(distance, float(np.max(np.abs(w @ (delta / float(distance))))))
    return values


class _AsKRFFBase(Model):
    parameters = ("dimension", "distance")
    unbiased = True
    gpu_reason = "it draws from varlab.spectral's asymmetric measures (host numpy)"

    def __init__(self, kernel="shift_gaussian", sigma=1.0, magnitude=0.5, angle=2 * math.pi / 3,
                 method="exact"):
        _validate.choice(kernel, "kernel", theory.KERNELS)
        _validate.choice(method, "method", ("exact", "rejection"))
        self.kernel = kernel
        self.sigma = float(_validate.positive(sigma, "sigma"))
        self.magnitude = float(_validate.positive(magnitude, "magnitude"))
        self.angle = float(_validate.real_array(angle, "angle"))
        self.method = method

    def _setup(self, dimension, distance):
        dimension = int(dimension)
        vector, delta, alpha, tau = _geometry(self.kernel, dimension, float(distance), self.magnitude,
                                              self.angle, self.sigma)
        name = "shift" if self.kernel == "shift_gaussian" else "beta"
        measure = spectral.get_measure(self.kernel, lengthscale=self.sigma, method=self.method, **{name: vector})
        return measure, delta, alpha, tau

    def samples_per_block(self, **point):
        return max(1, min(super().samples_per_block(**point), 2 ** 19 // (3 * int(point["dimension"]))))

    def target(self, dimension, distance):
        dimension = np.asarray(dimension)
        distance = np.asarray(distance, dtype=float)
        out = np.empty(np.broadcast(dimension, distance).shape)
        for index in np.ndindex(out.shape):
            d = int(np.broadcast_to(dimension, out.shape)[index])
            vector, delta, _, _ = _geometry(self.kernel, d, float(np.broadcast_to(distance, out.shape)[index]),
                                            self.magnitude, self.angle, self.sigma)
            out[index] = kernel_value(self.kernel, delta, self.sigma, vector)
        return out

    def theory(self, k, *, dimension, distance):
        _, _, alpha, tau = _geometry(self.kernel, int(dimension), float(distance), self.magnitude,
                                     self.angle, self.sigma)
        s = theory.spread_of(self.kernel, self.sigma, np.eye(1, int(dimension), 0)[0] * self.magnitude)
        if not theory.PHASE_RATIO.low <= alpha <= theory.PHASE_RATIO.high:
            return {}                      # outside the declared domain of the variance formulas
        variance = float(theory.estimator_variance(self.kernel, s, alpha, tau)) / np.asarray(k, dtype=float)
        return {"variance": variance, "mse": variance}

    def combine(self, sums, k, **point):
        return sums[0] / k


class AsKRFFModel(_AsKRFFBase):
    """AsK-RFF estimator s(D) (002, Eq. 7) with frequencies from the parts' samplers.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("askrff", k=[8, 32], dimension=2, distance=1.0, n_repetitions=200,
    ...                      random_state=0)
    >>> result.target.round(4)
    array([[0.6873, 0.6873]])
    >>> mc.within(result.mean, result.target, result.se_mean)
    array([[ True,  True]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "askrff"
    description = "AsK-RFF s(D) of 002 Eq. (7): mean of R+ cos - R- cos - 2 I+ sin"

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        measure, delta, _, _ = self._setup(dimension, distance)
        masses, parts = measure.total_masses(), measure.parts()
        term = out[0]
        term[...] = 0.0
        for part, sign, trig in (("real_positive", 1.0, np.cos), ("real_negative", -1.0, np.cos),
                                 ("imaginary_positive", -2.0, np.sin)):
            if parts[part] is None:
                continue
            w = parts[part].rvs(n * k, int(dimension), rng)
            term += sign * masses[part] * trig(_phases(w, delta, distance)).reshape(n, k)


class AsKRFFFeatureMapModel(_AsKRFFBase):
    """The same estimator through ``varlab.features.AsKRFF``: term j = sum of the products of
    left(x) and right(y) over feature j's columns, x = D, y = 0.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("askrff_feature_map", k=[8, 32], dimension=2, distance=1.0,
    ...                      n_repetitions=100, random_state=0)
    >>> result.target.round(4)
    array([[0.6873, 0.6873]])
    >>> mc.within(result.mean, result.target, result.se_mean)
    array([[ True,  True]])
    """

    name = "askrff_feature_map"
    description = "AsK-RFF through the real maps left/right of varlab.features.AsKRFF"
    gpu_reason = "it computes through varlab.features.AsKRFF, a host (numpy) feature map"

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        from ...features import AsKRFF

        _, delta, _, _ = self._setup(dimension, distance)
        vector = np.zeros(int(dimension))
        vector[0] = self.magnitude
        name = "shift" if self.kernel == "shift_gaussian" else "beta"
        ask = AsKRFF(n * k, kernel=self.kernel, gamma=1.0 / (2.0 * self.sigma ** 2), method=self.method,
                     random_state=rng, **{name: vector})
        x, y = delta[None, :], np.zeros((1, int(dimension)))
        ask.fit(x)
        for W in ask.frequencies_.values():
            _phases(W, delta, distance)    # refuse (naming distance) what the maps could not take
        product = (ask.transform(x) * ask.right(y))[0]            # (6 n k,)
        M = n * k
        per_feature = product.reshape(3, 2, M).sum(axis=(0, 1)) * M      # undo the 1/M of phi psi
        out[0] = per_feature.reshape(n, k)


class AsKRFFPartModel(Model):
    """E_part[cos <w, D>] (real parts) or E_part[sin <w, D>] (imaginary parts) of one normalised
    part: checks a sampler's law against the closed-form transform.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("askrff_part", k=[8, 32], dimension=2, distance=1.0, n_repetitions=100,
    ...                      random_state=0, part="real_negative")
    >>> result.target.round(4)
    array([[0.4355, 0.4355]])
    >>> mc.within(result.mean, result.target, result.se_mean)
    array([[ True,  True]])
    """

    name = "askrff_part"
    parameters = ("dimension", "distance")
    unbiased = True
    description = "mean of cos/sin <w, D> over frequencies of one part of an 002 measure"
    gpu_reason = "it draws from varlab.spectral's asymmetric measures (host numpy)"

    def __init__(self, kernel="shift_gaussian", part="real_positive", sigma=1.0, magnitude=1.5,
                 angle=2 * math.pi / 3, method="exact"):
        self.base = _AsKRFFBase(kernel, sigma, magnitude, angle, method)
        _validate.choice(part, "part", theory.PARTS)
        self.kernel, self.part, self.sigma, self.magnitude, self.angle, self.method = (
            kernel, part, self.base.sigma, self.base.magnitude, self.base.angle, method)

    def _measure(self, dimension, distance):
        measure, delta, _, _ = self.base._setup(dimension, distance)
        part = measure.parts()[self.part]
        if part is None:
            raise ValueError(f"part {self.part!r} of the {self.kernel} kernel is empty")
        return part, delta

    def samples_per_block(self, **point):
        return self.base.samples_per_block(**point)

    def target(self, dimension, distance):
        dimension = np.asarray(dimension)
        distance = np.asarray(distance, dtype=float)
        shape = np.broadcast(dimension, distance).shape
        out = np.empty(shape)
        for index in np.ndindex(shape):
            part, delta = self._measure(int(np.broadcast_to(dimension, shape)[index]),
                                        float(np.broadcast_to(distance, shape)[index]))
            value = part.kernel(delta) if self.part.startswith("real") else part.sine_kernel(delta)
            out[index] = float(value)
        return out

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        part, delta = self._measure(dimension, distance)
        w = part.rvs(n * k, int(dimension), rng)
        trig = np.cos if self.part.startswith("real") else np.sin
        out[0] = trig(_phases(w, delta, distance)).reshape(n, k)

    def combine(self, sums, k, **point):
        return sums[0] / k
