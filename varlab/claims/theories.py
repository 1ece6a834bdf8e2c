"""Theories of what a claim compares: the convention by which a theory is evaluated at a
source's points, and :func:`per_sample` for the common laws.

A theory is a ``varlab.theory`` Formula or a callable:

* a **Formula** is evaluated at each point's values of the parameters it declares, and at the
  whole k grid if it declares ``k``; one without ``k`` has the same value at every k (e.g.
  ``rff.mean``, the mean of an unbiased estimator);
* a **callable** is called as ``theory(k, **point)``: ``k`` the 1-d int64 array of the k grid,
  ``point`` the model's declared parameters at one grid point (Python floats or ints, as in
  ``Model.theory``), plus the simulation's options (and ``model``, the model's name) that it
  names; it returns the statistic at each k (an array of k's shape, or a scalar), e.g.
  ``lambda k, rho, gamma: rff.variance(rho=rho, gamma=gamma) / k``;
* :func:`per_sample` states the common case: a law of one sample (or of one frequency), of
  which a mean of k samples has 1/k.
"""
from __future__ import annotations

import inspect
from typing import Callable, Mapping

import numpy as np

from ..theory.formula import Formula

__all__ = ["theory_values", "per_sample"]


def theory_values(theory, k, point: dict) -> np.ndarray:
    """The theory's (n_k,) values at one point (see the module docstring for the convention).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.claims.theories import theory_values
    >>> from varlab.theory import rff
    >>> k = np.array([1, 10, 100])
    >>> theory_values(rff.mean, k, {"rho": 0.5, "gamma": 1.0}).round(4)        # no k: every k alike
    array([0.6065, 0.6065, 0.6065])
    >>> def variance(k, rho, gamma):
    ...     return rff.variance(rho=rho, gamma=gamma) / k
    >>> theory_values(variance, k, {"rho": 0.5, "gamma": 1.0}).round(4)
    array([0.6998, 0.07  , 0.007 ])
    """
    if isinstance(theory, Formula):
        missing = [name for name in theory.parameters if name != "k" and name not in point]
        if missing:
            raise ValueError(f"the Formula {theory.name} needs {missing}, which the model does not "
                             f"declare (its parameters: {list(point)})")
        arguments = {name: point[name] for name in theory.parameters if name != "k"}
        values = theory(**arguments, **({"k": k} if "k" in theory.parameters else {}))
    elif callable(theory):
        values = theory(k.copy(), **point)
    else:
        raise TypeError(f"theory must be a varlab.theory Formula or a callable theory(k, **point), "
                        f"got {type(theory).__name__}")
    values = np.asarray(values, dtype=float)
    if values.shape not in ((), k.shape):
        raise ValueError(f"the theory must give one value per k ({k.size}) or a scalar, got shape "
                         f"{values.shape} at {point}")
    return np.broadcast_to(values, k.shape)




def theory_point(theory, point: dict, options: dict) -> dict:
    """The arguments of a callable theory at a point: the parameters, plus the simulation's
    options (and ``model``, the model's name) that the callable names (all of them if it takes
    ``**kwargs``)."""
    if isinstance(theory, Formula):
        return {**point, **{name: value for name, value in options.items()
                            if name in theory.parameters}}
    if not callable(theory):
        return point                                # theory_values refuses it, naming the types
    signature = inspect.signature(theory).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in signature):
        return {**point, **options}
    names = {p.name for p in signature}
    return {**point, **{name: value for name, value in options.items() if name in names}}


def name_of(function) -> str:
    return function.name if isinstance(function, Formula) else getattr(
        function, "__qualname__", "formula")


def per_sample(law, *, count: str = "", samples: int = 1, name: str = "") -> Callable:
    """A theory ``theory(k, **point)``: the statistic of an estimator that averages n =
    ``samples`` x k independent samples, from ``law``:

    * ``law`` / n, for a law of one sample (the default), e.g. ``rff.variance``;
    * ``law`` with its parameter ``count`` at n, for a law that takes the number of samples
      itself under another name (``count="m"``: 003's laws in m, the engine's k);
    * ``law`` a dict {model name: law}: the law of the simulation's model, for a declaration
      over several simulations (give ``name``).

    Each law is a Formula or a callable given the point's parameters and the simulation's options
    that it names. ``name`` (default: the law's name, + "/k" for a law of one sample) names the
    theory where a verdict prints it.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.claims import per_sample
    >>> from varlab.claims.theories import theory_values
    >>> from varlab.theory import rff
    >>> variance = per_sample(rff.variance)
    >>> variance.__qualname__
    'rff.variance/k'
    >>> bool(np.allclose(theory_values(variance, np.array([1, 10]), {"rho": 0.5, "gamma": 1.0}),
    ...                  rff.variance(rho=0.5, gamma=1.0) / np.array([1, 10])))
    True
    >>> per_sample(lambda distance: 0.5, samples=2)(np.array([4]), distance=1.0, kernel="gaussian")
    array([0.0625])
    >>> in_m = per_sample({"a": lambda m: 1.0 / m, "b": lambda m: 2.0 / m}, count="m", name="by model")
    >>> in_m(np.array([4]), model="b")
    array([0.5])
    """
    if int(samples) != samples or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    laws = dict(law) if isinstance(law, Mapping) else None
    if laws is not None and not name:
        raise ValueError("name the theory of a dict of laws (name=...)")

    def theory(k, **point):
        chosen = law
        if laws is not None:
            if point.get("model") not in laws:
                raise ValueError(f"{name}: no law for model {point.get('model')!r} (laws for "
                                 f"{sorted(laws)})")
            chosen = laws[point["model"]]
        n = samples * np.asarray(k)
        arguments = theory_point(chosen, {}, point)
        if count:
            return np.asarray(chosen(**{**arguments, count: n}), dtype=float)
        return np.asarray(chosen(**arguments), dtype=float) / n

    theory.__qualname__ = name or name_of(law) + ("" if count else
                                                  "/k" if samples == 1 else f"/({samples}k)")
    return theory
