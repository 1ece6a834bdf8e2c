"""Fused kernels: a model's per-sample loop compiled with numba, with its numpy code as the
reference and the fallback.

A fused kernel draws from the block's ``np.random.Generator`` inside one compiled loop, in exactly
the order of the model's numpy code (numba's ``Generator`` methods give numpy's streams bit for
bit), and computes the terms without temporary arrays. Results stay bit-identical across n_jobs,
chunk sizes and backends, as the engine's blocks and seeds do not change.

* The numba import and each compilation happen on first use (``cache=True``: later processes
  load the machine code from ``__pycache__``).
* ``VARLAB_FUSED=0`` in the environment (set before the engine's worker processes start) forces
  the numpy reference everywhere.
* Where numba is missing or a kernel fails to compile, :meth:`Kernel.compiled` warns once, in
  one line, and returns None: the model runs its numpy code.

A model opts in by decorating a loop with :func:`kernel` and asking it for the compiled function
at the top of ``sample`` (see ``docs/engine.md``).
"""
from __future__ import annotations

import os
import warnings

import numpy as np

__all__ = ["ENVIRONMENT", "Kernel", "kernel", "enabled"]

#: the environment variable that switches the fused kernels off ("0")
ENVIRONMENT = "VARLAB_FUSED"

_NUMBA_MISSING = []          # the import error, once it has been met (warned once per process)


def enabled() -> bool:
    """Whether fused kernels may run: False when ``VARLAB_FUSED=0`` is set.

    Examples
    --------
    >>> from varlab.mc import fused
    >>> fused.enabled() == (os.environ.get("VARLAB_FUSED", "1") != "0")
    True
    """
    return os.environ.get(ENVIRONMENT, "1") != "0"


def _numba():
    """The numba module, or None (warned once) when it cannot be imported."""
    if _NUMBA_MISSING:
        return None
    try:
        import numba
    except Exception as error:       # ImportError, or a numba built for another numpy
        _NUMBA_MISSING.append(error)
        warnings.warn(f"varlab: numba unavailable ({type(error).__name__}: {error}); fused kernels "
                      "off, using numpy", RuntimeWarning, stacklevel=3)
        return None
    return numba


def _type_key(argument):
    """What numba's type of ``argument`` depends on, cheaper to get than ``numba.typeof`` (an
    array's dtype, dimensions, layout and mutability; a function itself, e.g. a compiled kernel;
    else its Python type)."""
    if isinstance(argument, np.ndarray):
        flags = argument.flags
        return argument.dtype.str, argument.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable
    return argument if callable(argument) else type(argument)


def _jit(numba, function):
    """numba.njit with an on-disk cache, without one for a function that has no source file."""
    try:
        return numba.njit(cache=True)(function)
    except RuntimeError:             # "no locator available": defined interactively
        return numba.njit(function)


class Kernel:
    """A loop written in the subset of Python that numba compiles (``@fused.kernel``), compiled
    on first use for the types of its arguments.

    Examples
    --------
    >>> import math
    >>> import numpy as np
    >>> from varlab.mc import fused
    >>> @fused.kernel
    ... def cosines(rng, out, distance):
    ...     for i in range(out.size):
    ...         out.flat[i] = math.cos(distance * rng.standard_normal())
    >>> out = np.empty(4)
    >>> run = cosines.compiled(np.random.default_rng(0), out, 1.0)
    >>> run(np.random.default_rng(0), out, 1.0)                 # numpy's draws, bit for bit
    >>> bool(np.array_equal(out, np.cos(np.random.default_rng(0).standard_normal(4))))
    True
    """

    def __init__(self, function):
        self.function = function
        self.__name__ = function.__name__
        self.__doc__ = function.__doc__
        self._dispatcher = None
        self._failed = False
        self._compiled: set = set()         # the argument types compiled so far (``_type_key``)

    def compiled(self, *arguments):
        """The compiled function for these arguments' types, or None: fused kernels switched off
        (``VARLAB_FUSED=0``), numba missing, or the compilation failed (warned once)."""
        if self._failed or not enabled():
            return None
        numba = _numba()
        if numba is None:
            return None
        key = tuple(map(_type_key, arguments))
        if key in self._compiled:
            return self._dispatcher
        try:
            if self._dispatcher is None:
                self._dispatcher = _jit(numba, self.function)
            self._dispatcher.compile(tuple(numba.typeof(argument) for argument in arguments))
        except Exception as error:
            self._failed = True
            warnings.warn(f"varlab: fused kernel {self.__name__} failed to compile "
                          f"({type(error).__name__}); using numpy", RuntimeWarning, stacklevel=2)
            return None
        self._compiled.add(key)
        return self._dispatcher

    def __repr__(self) -> str:
        return f"fused.kernel({self.function.__module__}.{self.__name__})"


def kernel(function) -> Kernel:
    """Decorator: ``function`` becomes a fused :class:`Kernel` (compiled on first use).

    Examples
    --------
    >>> from varlab.mc import fused
    >>> @fused.kernel
    ... def double(out):
    ...     for i in range(out.size):
    ...         out[i] *= 2.0
    >>> double
    fused.kernel(varlab.mc.fused.double)
    """
    return Kernel(function)
