"""Sampling models: what the Monte Carlo engine simulates, one module per estimator family.

A model is one estimator of a target value, over *declared parameters* (names of
``varlab.theory.parameters``, e.g. ``("rho", "gamma")`` or ``("dimension", "distance")``). Its
constructor arguments are *options* (recorded in every result). Two kinds:

* **prefix** models (``prefix = True``): the k-sample estimator is a function of the prefix sums
  of per-sample terms, so one pass of k_max samples gives every k of the grid. Implement
  ``sample(rng, n, k, out, workspace, **point)`` (fill ``out``, shape ``(n_terms, n, k)``, with
  the terms of n repetitions) and ``combine(sums, k, **point)`` (the ``(n_k, n)`` estimates from
  the ``(n_terms, n_k, n)`` prefix sums; ``k`` is a float array of shape ``(n_k, 1)``). A model
  whose prefixes are valid only at multiples of some g (frequencies drawn d at a time) returns g
  from ``granularity(**point)``; other rules (powers of two) override ``valid_k``.
* **fresh** models (``prefix = False``): each k is drawn afresh. Implement
  ``estimate(rng, n, k, workspace, **point)`` -> the ``(n,)`` estimates of n repetitions.

Every model implements ``target(**grid)`` (numpy, broadcasting over the flattened grid), may
give ``theory(k, **point)`` (a dict with "variance" and/or "mse" arrays over k, shown beside the
simulation) and sets ``unbiased`` when its mean equals its target at every k (the contract
tests then check it). Draw only from ``rng``; ``workspace.buffer(name, shape)`` gives scratch
arrays reused from block to block.

Devices (``varlab.mc.devices``): ``sample`` and ``estimate`` run on the engine's device. A model
that computes only with ``xp = workspace.xp`` (``xp.cos``, never ``np.cos``) and draws only from
``rng`` sets ``gpu = True`` and runs with ``simulate(..., device="cuda")``; the others refuse it
with their ``gpu_reason``. ``combine`` gets numpy prefix sums and ``estimate`` may return device
arrays (the engine moves them back); ``target`` and ``theory`` are numpy.

Subclasses with a ``name`` register themselves on definition; nothing is listed by hand::

    class MeanOfNormals(Model):
        name = "doc_mean_of_normals"
        parameters = ("distance",)
        unbiased = True

        def target(self, distance):
            return np.asarray(distance, dtype=float)

        gpu = True

        def sample(self, rng, n, k, out, workspace, *, distance):
            rng.standard_normal(out=out[0])
            out[0] += distance

        def combine(self, sums, k, *, distance):
            return sums[0] / k

Models must be picklable (defined at module level) to run with process backends.
"""
from __future__ import annotations

import inspect
from typing import Callable

import numpy as np

from ..._registry import Registry

__all__ = ["Model", "Workspace", "register", "get_model", "available_models", "model_class"]


class Workspace:
    """Scratch arrays reused from block to block (one workspace per task, never shared), and
    ``xp``, the array namespace of the device the task runs on (numpy on CPU, CuPy on a GPU).

    Examples
    --------
    >>> from varlab.mc import Workspace
    >>> workspace = Workspace()
    >>> workspace.buffer("x", (2, 3)) is workspace.buffer("x", (2, 3))     # reused from block to block
    True
    >>> workspace.xp.__name__
    'numpy'
    """

    def __init__(self, xp=np):
        self.xp = xp
        self._buffers: dict = {}

    def buffer(self, name: str, shape, dtype=np.float64) -> np.ndarray:
        """An uninitialised array named ``name`` of this shape (cached by name, shape, dtype)."""
        shape = tuple(int(s) for s in np.atleast_1d(shape))
        key = (name, shape, np.dtype(dtype).str)
        array = self._buffers.get(key)
        if array is None:
            for old in [old for old in self._buffers if old[0] == name]:
                del self._buffers[old]           # stale shapes of this name (a shorter last block)
            array = self._buffers[key] = self.xp.empty(shape, dtype=dtype)
        return array


_REGISTRY = Registry("model", __name__)


class Model:
    """Base class of the sampling models; see the package docstring for the contract.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import mc
    >>> class Coin(mc.Model):                   # no ``name``: used directly, not registered
    ...     parameters = ("rho",)
    ...     def target(self, rho):
    ...         return np.full_like(rho, 0.5)
    ...     def sample(self, rng, n, k, out, workspace, *, rho):
    ...         out[0] = rng.integers(0, 2, (n, k))
    ...     def combine(self, sums, k, *, rho):
    ...         return sums[0] / k
    >>> result = mc.simulate(Coin(), k=[1, 100], rho=0.0, n_repetitions=4000, random_state=0)
    >>> result.variance.round(4)                 # 1 / (4 k)
    array([[0.25  , 0.0025]])
    """

    #: registry name ("" for abstract bases, which are not registered)
    name: str = ""
    #: the declared parameters this model's grid is made of
    parameters: tuple = ("rho", "gamma")
    #: True: one pass of per-sample terms gives every k; False: each k is drawn afresh
    prefix: bool = True
    #: number of per-sample terms whose prefix sums ``combine`` needs (prefix models)
    n_terms: int = 1
    #: the mean equals the target at every k (checked by the contract tests)
    unbiased: bool = False
    #: one line for listings and reports
    description: str = ""
    #: ``sample``/``estimate`` use only ``workspace.xp`` and ``rng``, so they run on a GPU
    gpu: bool = False
    #: one line: why ``device="cuda"`` refuses this model (models with gpu = False give their own)
    gpu_reason: str = "it does not declare gpu = True (sample/estimate must use only workspace.xp, rng)"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("name"):
            register(cls)

    # --- to implement -------------------------------------------------------------------------
    def target(self, **grid) -> np.ndarray:
        """The value the estimator estimates (numpy, broadcasting over the grid)."""
        raise NotImplementedError

    def sample(self, rng, n, k, out, workspace, **point) -> None:
        """Prefix models: fill ``out`` (n_terms, n, k) with per-sample terms, drawing from rng."""
        raise NotImplementedError

    def combine(self, sums, k, **point) -> np.ndarray:
        """Prefix models: the (n_k, n) estimates from the prefix sums (n_terms, n_k, n)."""
        raise NotImplementedError

    def estimate(self, rng, n, k, workspace, **point) -> np.ndarray:
        """Fresh models: the (n,) estimates of n repetitions of the k-sample estimator."""
        raise NotImplementedError

    # --- optional -----------------------------------------------------------------------------
    def granularity(self, **point) -> int:
        """Prefix models: prefixes are valid at multiples of this many samples."""
        return 1

    def samples_per_block(self, **point) -> int:
        """Samples (repetitions x k) per block; part of the seeding scheme. Lower it when one
        sample costs much memory (a feature map over many dimensions)."""
        from ..seeds import BLOCK_ELEMENTS
        return BLOCK_ELEMENTS

    def valid_k(self, k: np.ndarray, **point) -> np.ndarray:
        """Which k of the grid this model can give at this point (default: multiples of the
        granularity)."""
        return np.asarray(k) % self.granularity(**point) == 0

    def theory(self, k: np.ndarray, **point) -> dict:
        """Known values beside the simulation: {"variance": (n_k,), "mse": (n_k,)} (either may be
        absent); exact or asymptotic as the model's docstring says."""
        return {}

    def options(self) -> dict:
        """The constructor arguments (stored under their own names), recorded in every result."""
        signature = inspect.signature(type(self).__init__)
        return {name: getattr(self, name) for name in list(signature.parameters)[1:]
                if signature.parameters[name].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                           inspect.Parameter.VAR_KEYWORD)}

    def __repr__(self) -> str:
        text = ", ".join(f"{key}={value!r}" for key, value in self.options().items())
        return f"{type(self).__name__}({text})"


def register(cls: type, name: str | None = None) -> type:
    """Register a Model subclass under ``name`` (default ``cls.name``); done automatically on
    definition. Re-defining the same class (same module and qualified name) replaces it; a
    different class under a taken name is an error.

    Examples
    --------
    >>> from varlab import mc
    >>> from varlab.mc.models.rff import NRFFModel
    >>> mc.register(NRFFModel) is mc.model_class("nrff")      # done on definition; idempotent
    True
    >>> class Other(mc.Model):                                # no name: not registered
    ...     parameters = ("rho",)
    >>> mc.register(Other, "nrff")
    Traceback (most recent call last):
    ...
    ValueError: a model named 'nrff' is already registered (varlab.mc.models.rff.NRFFModel)
    """
    return _REGISTRY.add(cls, cls.name if name is None else name)


def available_models() -> list[str]:
    """Names accepted by ``simulate(model=...)``.

    Examples
    --------
    >>> from varlab.mc import available_models
    >>> "nrff" in available_models(), "gcws_rbf_hashed" in available_models()
    (True, True)
    """
    return list(_REGISTRY.by_name())


def model_class(name: str) -> type:
    """The registered class ``name`` (ValueError listing the names otherwise).

    Examples
    --------
    >>> from varlab.mc import model_class
    >>> cls = model_class("nrff")
    >>> cls.parameters, cls.prefix
    (('rho', 'gamma'), True)
    """
    if name not in _REGISTRY.load():
        raise ValueError(f"model must be one of {available_models()} or a Model instance, "
                         f"got {name!r}")
    return _REGISTRY[name]


def get_model(model, **options) -> Model:
    """A Model instance from a registered name (built with ``options``) or an instance.

    Examples
    --------
    >>> from varlab.mc import get_model
    >>> get_model("gcws_rbf_hashed", data_dimension=20).data_dimension
    20
    """
    if isinstance(model, Model):
        if options:
            raise TypeError(f"model options {sorted(options)} can only be given with a model name; "
                            "configure the Model instance instead")
        return model
    if not isinstance(model, str):
        raise TypeError(f"model must be a model name (str) or a Model instance, got "
                        f"{type(model).__name__}")
    factory: Callable = model_class(model)
    accepted = list(inspect.signature(factory.__init__).parameters)[1:]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise TypeError(f"model {model!r} takes options {accepted}, got unexpected {unknown}")
    return factory(**options)
