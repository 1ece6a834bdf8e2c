"""Sampling models of the estimators that the Monte Carlo engine simulates.

A model describes one estimator built from k i.i.d. samples by three things:

* ``target(rho, gamma)``: the value it estimates (numpy, broadcasting);
* ``sample(rng, n, k, rho, gamma, out, workspace)``: fill ``out`` (shape ``(n_terms, n, k)``,
  float64) with the per-sample *terms* of ``n`` independent repetitions of ``k`` samples each,
  drawing from the numpy Generator ``rng`` (one scalar ``rho`` and ``gamma``);
* ``combine(sums, k, rho, gamma)``: the estimates from the cumulative sums of the terms over
  the first k samples. ``sums`` has shape ``(n_terms, n_k, n)`` and ``k`` is a float array of
  shape ``(n_k, 1)``; return an array of shape ``(n_k, n)``.

The engine computes the sums for every k of the grid in one pass, so ``sample`` is called once
per block with ``k = k_max`` (or a slab of it, for very large k). ``workspace.buffer(name,
shape)`` hands out scratch arrays that are reused from block to block; the hot loops should
write into ``out`` and scratch buffers in place (``Generator.standard_normal(out=...)``,
``np.cos(a, out=a)``). ``sample`` must draw only from ``rng`` (results are then a pure function
of the seed), and ``combine`` must return finite values (the engine raises FloatingPointError
on NaN/inf rather than averaging them).

Models that can also be simulated through the real feature map (``varlab.features.RFF``)
set ``feature_phase`` (True/False, passed to ``RFF(phase=...)``) and implement
``feature_terms(X, Y, out)``, which turns the ``(n, k)`` component values of u and v into the
same terms that ``sample`` produces.

Adding a model is a short subclass plus ``register``; for example an RBF estimator in the style
of paper 000, Thm 4 (Xbar the mean of k Bernoulli(g) collisions, with a user-supplied g; varlab's
own Thm 4 models are registered as "gcws_rbf" and "gcws_rbf_hashed" in ``varlab.mc.gcws_models``,
so a new model needs a name of its own)::

    class BernoulliRBF(Model):
        name = "my_bernoulli_rbf"
        n_terms = 1

        def __init__(self, collision_probability):
            self.collision_probability = collision_probability   # g(rho, gamma) -> [0, 1]

        def target(self, rho, gamma):
            return np.exp(-gamma * (1.0 - np.asarray(rho)))

        def sample(self, rng, n, k, rho, gamma, out, workspace):
            g = float(self.collision_probability(rho, gamma))
            uniform = workspace.buffer("uniform", (n, k))
            rng.random(out=uniform)
            np.less(uniform, g, out=out[0])          # Bernoulli(g) as 0.0 / 1.0

        def combine(self, sums, k, rho, gamma):
            xbar = sums[0] / k
            return np.exp(-2.0 * gamma * ((1.0 - xbar) / (1.0 + xbar)) ** 2)

    register(BernoulliRBF)      # simulate("my_bernoulli_rbf", ..., collision_probability=g)

Model instances must be picklable (define the class at module level) to run with the
``loky`` backend.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..theory import rff as rff_theory

__all__ = ["Model", "Workspace", "RFFModel", "RFFNoPhaseModel", "NRFFModel", "register",
           "get_model", "available_models"]

TWO_PI = 2.0 * math.pi


class Workspace:
    """Scratch arrays reused from block to block (one workspace per task, never shared)."""

    def __init__(self):
        self._buffers: dict = {}

    def buffer(self, name: str, shape, dtype=np.float64) -> np.ndarray:
        """An uninitialised array named ``name`` of this shape (cached by name, shape, dtype)."""
        shape = tuple(int(s) for s in np.atleast_1d(shape))
        key = (name, shape, np.dtype(dtype).str)
        array = self._buffers.get(key)
        if array is None:
            # drop stale buffers of the same name (e.g. the shorter last block)
            for old in [old for old in self._buffers if old[0] == name]:
                del self._buffers[old]
            array = self._buffers[key] = np.empty(shape, dtype=dtype)
        return array


class Model:
    """Base class of the sampling models; see the module docstring for the contract."""

    #: registry name
    name: str = ""
    #: number of per-sample terms whose cumulative sums ``combine`` needs
    n_terms: int = 1
    #: ``RFF(phase=...)`` for simulation through the feature map; None if unsupported
    feature_phase: bool | None = None
    #: one line for listings and reports
    description: str = ""

    def target(self, rho, gamma) -> np.ndarray:
        """The value the estimator estimates at (rho, gamma) (numpy, broadcasting)."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, n: int, k: int, rho: float, gamma: float,
               out: np.ndarray, workspace: Workspace) -> None:
        """Fill ``out`` (n_terms, n, k) with the per-sample terms of n repetitions, drawing only
        from ``rng``."""
        raise NotImplementedError

    def combine(self, sums: np.ndarray, k: np.ndarray, rho: float, gamma: float) -> np.ndarray:
        """The (n_k, n) estimates from the prefix sums ``sums`` (n_terms, n_k, n) of the terms."""
        raise NotImplementedError

    def feature_terms(self, X: np.ndarray, Y: np.ndarray, out: np.ndarray) -> None:
        """The terms of ``sample`` from the (n, k) feature-map components X of u and Y of v."""
        raise NotImplementedError(f"model {self.name!r} cannot be simulated through the feature map")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# --- shared sampler for the RFF family ------------------------------------------------------

def _draw_arguments(rng, rho, gamma, a, b, c, *, phase: bool):
    """Fill ``a``, ``b`` with the cosine arguments of x and y; ``c`` is scratch (clobbered).

    x = z1, y = rho z1 + sqrt(1 - rho^2) z2 with z1, z2 standard normal (each an (n, k) array
    drawn in C order, z1 first); with ``phase`` a uniform U is drawn last and both arguments get
    the phase w - pi = 2 pi U - pi, i.e. ``a = sqrt(gamma) x + w - pi``. Shifting by pi flips the
    sign of both cosines, cos(t + w - pi) = -cos(t + w), which cancels in every product
    X Y, X^2, Y^2; arguments near 0 make ``np.cos`` faster. Every model of the RFF family
    draws in this order, so "rff" and "nrff" run with the same seed see the same samples.
    """
    root = math.sqrt(gamma)
    rng.standard_normal(out=a, dtype=np.float64)          # z1
    rng.standard_normal(out=b, dtype=np.float64)          # z2
    np.multiply(a, root, out=a)                            # sqrt(gamma) x
    np.multiply(b, math.sqrt(max(0.0, 1.0 - rho * rho)) * root, out=b)
    if rho != 0.0:
        np.multiply(a, rho, out=c)
        np.add(b, c, out=b)                                # sqrt(gamma) y
    if phase:
        rng.random(out=c, dtype=np.float64)                # U
        np.multiply(c, TWO_PI, out=c)
        np.subtract(c, math.pi, out=c)                     # w - pi
        np.add(a, c, out=a)
        np.add(b, c, out=b)


def _rbf(rho, gamma):
    """exp(-gamma (1 - rho)), the target of RFF, NRFF and GCWS-RBF (000, Eq. 14 and 16)."""
    return np.asarray(rff_theory.mean(rho=rho, gamma=gamma), dtype=np.float64)


class RFFModel(Model):
    """Original RFF (000, Eq. 15): (1/k) sum_j X_j Y_j, X = sqrt2 cos(sqrt(gamma) x + w)."""

    name = "rff"
    n_terms = 1
    feature_phase = True
    description = "RFF: mean of sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)"

    def target(self, rho, gamma):
        return _rbf(rho, gamma)

    def sample(self, rng, n, k, rho, gamma, out, workspace):
        a = workspace.buffer("a", (n, k))
        b = workspace.buffer("b", (n, k))
        _draw_arguments(rng, rho, gamma, a, b, out[0], phase=True)
        np.cos(a, out=a)                                   # -X / sqrt2
        np.cos(b, out=b)                                   # -Y / sqrt2
        np.multiply(a, b, out=out[0])                      # X Y / 2

    def combine(self, sums, k, rho, gamma):
        return sums[0] * 2.0 / k

    def feature_terms(self, X, Y, out):
        np.multiply(X, Y, out=out[0])
        np.multiply(out[0], 0.5, out=out[0])


class RFFNoPhaseModel(Model):
    """RFF without the phase w (000, Eq. 17): (1/k) sum_j cos(sqrt(gamma) x_j) cos(sqrt(gamma) y_j).

    Its target is the folded RBF exp(-gamma(1-rho))/2 + exp(-gamma(1+rho))/2.
    """

    name = "rff_no_phase"
    n_terms = 1
    feature_phase = False
    description = "RFF without phase: mean of cos(sqrt(gamma) x) cos(sqrt(gamma) y)"

    def target(self, rho, gamma):
        return np.asarray(rff_theory.no_phase_mean(rho=rho, gamma=gamma), dtype=np.float64)

    def sample(self, rng, n, k, rho, gamma, out, workspace):
        a = workspace.buffer("a", (n, k))
        b = workspace.buffer("b", (n, k))
        _draw_arguments(rng, rho, gamma, a, b, out[0], phase=False)
        np.cos(a, out=a)
        np.cos(b, out=b)
        np.multiply(a, b, out=out[0])

    def combine(self, sums, k, rho, gamma):
        return sums[0] / k

    def feature_terms(self, X, Y, out):
        np.multiply(X, Y, out=out[0])


class NRFFModel(Model):
    """Normalized RFF (000, Thm 3): sum X_j Y_j / sqrt(sum X_j^2 sum Y_j^2)."""

    name = "nrff"
    n_terms = 3
    feature_phase = True
    description = "NRFF: sum X Y / sqrt(sum X^2 sum Y^2)"

    def target(self, rho, gamma):
        return _rbf(rho, gamma)

    def sample(self, rng, n, k, rho, gamma, out, workspace):
        a, b, c = out[0], out[1], out[2]
        _draw_arguments(rng, rho, gamma, a, b, c, phase=True)
        np.cos(a, out=a)                                   # -X / sqrt2
        np.cos(b, out=b)                                   # -Y / sqrt2
        np.multiply(b, b, out=c)                           # Y^2 / 2
        np.multiply(a, b, out=b)                           # X Y / 2
        np.multiply(a, a, out=a)                           # X^2 / 2

    def combine(self, sums, k, rho, gamma):
        return sums[1] / np.sqrt(sums[0] * sums[2])

    def feature_terms(self, X, Y, out):
        np.multiply(X, X, out=out[0])
        np.multiply(X, Y, out=out[1])
        np.multiply(Y, Y, out=out[2])


# --- registry ---------------------------------------------------------------------------------

_REGISTRY: dict[str, Callable[..., Model]] = {}


def register(factory: Callable[..., Model], name: str | None = None, *, overwrite: bool = False):
    """Register a Model subclass (or any callable returning a Model) under ``name``.

    ``name`` defaults to ``factory.name``. Returns ``factory`` (usable as a class decorator).
    """
    name = name if name is not None else getattr(factory, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"model name must be a non-empty string, got {name!r}")
    if name in _REGISTRY and not overwrite and _REGISTRY[name] is not factory:
        raise ValueError(f"a model named {name!r} is already registered (pass overwrite=True)")
    _REGISTRY[name] = factory
    return factory


def available_models() -> list[str]:
    """Names accepted by ``simulate(model=...)``."""
    return sorted(_REGISTRY)


def get_model(model, **options) -> Model:
    """A Model instance from a registered name (built with ``options``) or an instance."""
    if isinstance(model, Model):
        if options:
            raise TypeError(f"model options {sorted(options)} can only be given with a model name; "
                            "configure the Model instance instead")
        return model
    if isinstance(model, str):
        factory = _REGISTRY.get(model)
        if factory is None:
            raise ValueError(f"model must be one of {available_models()} or a varlab.mc.models.Model "
                             f"instance, got {model!r}")
        try:
            instance = factory(**options)
        except TypeError as error:
            raise TypeError(f"invalid options {sorted(options)} for model {model!r}: {error}") from None
        if not isinstance(instance, Model):
            raise TypeError(f"the factory registered as {model!r} did not return a Model")
        return instance
    raise TypeError(f"model must be a model name (str) or a Model instance, got {type(model).__name__}")


for _factory in (RFFModel, RFFNoPhaseModel, NRFFModel):
    register(_factory)
