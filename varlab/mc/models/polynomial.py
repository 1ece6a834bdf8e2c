"""GRFF and GORF models for the polynomial kernel on the unit sphere (1 - r^2/a^2)^m over
(dimension, distance <= 2) (004, "Setup", Fig. 2 and the variance-reduction figure (a)).

The measure is varlab's least-variation shell measure ``spectral.polynomial.PolynomialSphere``
(one per dimension); sampling is the delta-Gaussian models' (``mc.models.signed``: the exact-in-law
fast path or, with ``through_sampler``, the feature map's own ``signed_frequencies``), applied to
that measure. Target: the polynomial kernel itself; the estimators are exactly unbiased for the
measure's kernel, which is within ``max_error`` (about 1e-6) of it, so the mean differs from the
target by at most that. Theory: the exact variance for shell measures
(``theory.polynomial.estimator_variance``) and the MSE = variance + (kernel - polynomial)^2.
"""
from __future__ import annotations

import numpy as np

from ...spectral.polynomial import PolynomialSphere, polynomial_kernel
from ...theory import polynomial as theory
from . import Model
from .signed import GORFModel, GORFSeparateModel, GRFFModel

__all__ = ["GRFFPolynomialModel", "GORFPolynomialModel", "GORFSeparatePolynomialModel"]


def _bound(base, measure, through_sampler, name):
    """An instance of the delta-Gaussian model ``base`` sampling ``measure`` instead."""
    model = base.__new__(base)
    model.weights = model.bandwidths = None
    model.through_sampler = through_sampler
    model._measure = measure
    model.name = name
    return model


class _Polynomial(Model):
    parameters = ("dimension", "distance")
    unbiased = True
    gpu_reason = "it samples through the signed models, which draw with host numpy"
    base = GRFFModel

    def __init__(self, a=3.0, degree=1, tolerance=1e-6, through_sampler=False):
        PolynomialSphere(a, degree, 1, tolerance)            # validates the options (cheap in d = 1)
        self.a, self.degree, self.tolerance = float(a), int(degree), float(tolerance)
        self.through_sampler = bool(through_sampler)
        self._models = {}

    def measure(self, dimension) -> PolynomialSphere:
        """The shell measure in R^dimension (cached by its parameters)."""
        return PolynomialSphere(self.a, self.degree, int(dimension), self.tolerance)

    def _model(self, dimension):
        d = int(dimension)
        if d not in self._models:
            self._models[d] = _bound(self.base, self.measure(d), self.through_sampler, self.name)
        return self._models[d]

    def target(self, dimension, distance):
        distance = np.asarray(distance, dtype=np.float64)
        if np.any(distance > 2.0):
            raise ValueError(f"distance must be in [0, 2] (points on the unit sphere), got {float(distance.max())!r}")
        return polynomial_kernel(distance, self.a, self.degree) + 0.0 * np.asarray(dimension)

    def samples_per_block(self, *, dimension, distance):
        return self._model(dimension).samples_per_block(dimension=dimension, distance=distance)

    def granularity(self, *, dimension, distance):
        return self._model(dimension).granularity(dimension=dimension, distance=distance)

    def valid_k(self, k, **point):
        return self._model(point["dimension"]).valid_k(k, **point)

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        self._model(dimension).sample(rng, n, k, out, workspace, dimension=dimension, distance=distance)

    def combine(self, sums, k, *, dimension, distance):
        return sums[0] / k

    def theory(self, k, *, dimension, distance):
        measure = self.measure(dimension)
        variance = theory.estimator_variance(measure, int(dimension), float(distance),
                                             np.asarray(k, dtype=float), self.base.orthogonality)[0]
        bias = float(measure.kernel_of_distance(float(distance)) - measure.polynomial(float(distance)))
        return {"variance": variance, "mse": variance + bias * bias}


class GRFFPolynomialModel(_Polynomial):
    """GRFF (i.i.d. frequencies per part) for the polynomial kernel on the sphere.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("grff_polynomial", k=[16, 64], dimension=16, distance=1.0,
    ...                      n_repetitions=400, random_state=0)
    >>> result.target.round(4)                    # (1 - 1/3^2)^1
    array([[0.8889, 0.8889]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "grff_polynomial"
    description = "GRFF of the polynomial kernel on the sphere (varlab's shell measure, i.i.d.)"


class GORFPolynomialModel(_Polynomial):
    """GORF with W and V mutually orthogonal (004's GORF) for the polynomial kernel.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("gorf_polynomial", k=[16, 64], dimension=16, distance=1.0,
    ...                      n_repetitions=400, random_state=0)
    >>> result.options
    {'a': 3.0, 'degree': 1, 'tolerance': 1e-06, 'through_sampler': False}
    >>> mc.within(result.mse, result.theory["mse"], result.se_mse)
    array([[ True,  True]])
    """

    name = "gorf_polynomial"
    base = GORFModel
    description = "GORF of the polynomial kernel on the sphere (W, V mutually orthogonal)"


class GORFSeparatePolynomialModel(_Polynomial):
    """GORF with W and V each orthogonal on its own, for the polynomial kernel.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("gorf_separate_polynomial", k=[16, 64], dimension=16, distance=1.0,
    ...                      n_repetitions=400, random_state=0)
    >>> result.theory["variance"].round(4)
    array([[0.0594, 0.0149]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "gorf_separate_polynomial"
    base = GORFSeparateModel
    description = "GORF of the polynomial kernel on the sphere (W and V each orthogonal)"
