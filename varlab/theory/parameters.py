"""Declared parameters: one object per parameter name, shared by Formulas, MC models and the CLI.

A :class:`Parameter` knows its sympy symbol (with the assumptions that match its domain), its
domain (an interval, open or closed at each end), whether it is an integer, how to validate a
value (scalars and arrays; the message names the parameter and its domain) and a typical grid
for tests. Every name of varlab.theory is declared once, here (so that the registry is complete
after ``import varlab``, whichever theory module has been imported); :func:`declare` fetches a
name declared identically and refuses one declared with a different domain. A model or formula of
your own with a parameter of your own (``t``) declares it first, with :func:`declare`.
:func:`declared_parameters` lists them (``varlab.theory.parameters()``, the function's former
name, still works with a DeprecationWarning; ``varlab.theory.parameters`` is this module).

>>> from varlab.theory.parameters import parameter
>>> parameter("rho").validate(0.5)
array(0.5)
>>> parameter("k").validate(3.0)
Traceback (most recent call last):
...
TypeError: k must be an integer >= 1 (or an array of them), got 3.0
"""
from __future__ import annotations

import numbers
import sys
import types
import warnings
from dataclasses import dataclass, field

import numpy as np
import sympy

from .. import _validate

__all__ = ["Parameter", "declare", "declared_parameters", "parameter", "MAX_INTEGER"]

#: largest integer parameter value accepted (integers are held as int64; this leaves headroom
#: for k + 1 and 2 k in formulas without wrapping)
MAX_INTEGER = 2 ** 53


@dataclass(frozen=True)
class Parameter:
    """A named parameter with its domain [low, high] (ends open or closed).

    Examples
    --------
    >>> from varlab.theory import parameter
    >>> gamma = parameter("gamma")
    >>> gamma.domain, gamma.validate([0.5, 2.0])
    ('(0, inf)', array([0.5, 2. ]))
    >>> gamma.validate(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: gamma must be in (0.0, inf), got -1.0
    """

    name: str
    description: str
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    integer: bool = False
    grid: tuple = ()
    assumptions: dict = field(default_factory=dict, compare=False)

    @property
    def symbol(self) -> sympy.Symbol:
        """The sympy symbol, with assumptions that follow from the domain."""
        assumptions = {"integer": True} if self.integer else {"real": True}
        if self.low is not None and self.low >= 0:
            assumptions["positive" if (self.low > 0 or self.low_open) else "nonnegative"] = True
        assumptions.update(self.assumptions)
        return sympy.Symbol(self.name, **assumptions)

    @property
    def domain(self) -> str:
        """The domain in interval notation, e.g. ``[-1, 1]`` or ``integers >= 1 and <= 2^53`` (every
        integer parameter stops at ``MAX_INTEGER`` at the latest)."""
        if self.integer:
            high = "2^53" if self.high is None or self.high >= MAX_INTEGER else str(int(self.high))
            return f"integers >= {int(self.low)} and <= {high}"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return (f"{'(' if self.low_open or self.low is None else '['}{low}, "
                f"{high}{')' if self.high_open or self.high is None else ']'}")

    def validate(self, value, name: str | None = None) -> np.ndarray:
        """``value`` as a float64 (real) or int64 (integer) array inside the domain.

        Rejects booleans, strings, complex numbers, NaN/inf and, for integers, any float
        (``k=3.0`` is a TypeError: an integer parameter is never silently rounded).
        """
        name = self.name if name is None else name
        if self.integer:
            return self._validate_integer(value, name)
        _reject_non_numbers(value, name, "a real number or array of real numbers")
        try:
            return _validate.real_array(value, name, low=self.low, high=self.high,
                                        low_open=self.low_open, high_open=self.high_open)
        except OverflowError:       # e.g. a Python int beyond the float64 range
            raise ValueError(f"{name} must be finite and in {self.domain}, got {value!r}") from None

    def _validate_integer(self, value, name: str) -> np.ndarray:
        low = int(self.low) if self.low is not None else -MAX_INTEGER
        high = min(int(self.high), MAX_INTEGER) if self.high is not None else MAX_INTEGER
        message = f"{name} must be an integer >= {low} (or an array of them), got {value!r}"
        if isinstance(value, (bool, np.bool_)):
            raise TypeError(message)
        if isinstance(value, numbers.Integral):
            if not low <= int(value) <= high:
                raise ValueError(f"{name} must be an integer in [{low}, {high}], got {value!r}")
            return np.asarray(int(value), dtype=np.int64)
        # a list such as [True, 2] becomes an int array: look at the elements themselves
        _reject_non_numbers(value, name, "an integer or array of integers", integer=True)
        try:
            array = np.asarray(value)
        except Exception:
            raise TypeError(message) from None
        if array.dtype.kind == "O":
            _reject_non_numbers(array, name, "an integer or array of integers", integer=True)
        if array.dtype.kind == "O" and array.size:
            # Python ints beyond int64 (checked above to be integers): range-check exactly
            items = [int(item) for item in array.ravel()]
            if min(items) < low or max(items) > high:
                raise ValueError(f"{name} must hold integers in [{low}, {high}], got {value!r}")
            array = np.asarray(items, dtype=np.int64).reshape(array.shape)
        if array.dtype.kind not in "iu":
            raise TypeError(message)
        # compare in Python ints / object space so that uint64 values beyond int64 never wrap
        if array.size and (array.min() < low or array.max() > high):
            raise ValueError(f"{name} must hold integers in [{low}, {high}], got {value!r}")
        return array.astype(np.int64)

    def typical(self) -> np.ndarray:
        """The declared typical grid (for tests and listings)."""
        return np.asarray(self.grid, dtype=np.int64 if self.integer else np.float64)


def _reject_non_numbers(value, name: str, what: str, integer: bool = False) -> None:
    """TypeError for booleans, strings or (for integers) non-integers hidden inside a list,
    tuple or object array, which numpy would silently convert ([True, 2] -> [1, 2],
    object ["0.5"] -> 0.5)."""
    if not isinstance(value, (list, tuple)) and not (isinstance(value, np.ndarray) and value.dtype.kind == "O"):
        return
    kind = numbers.Integral if integer else numbers.Real
    try:
        items = np.asarray(value, dtype=object).ravel()
    except Exception:
        raise TypeError(f"{name} must be {what}, got {value!r}") from None
    for item in items:
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, kind):
            raise TypeError(f"{name} must be {what} (not {type(item).__name__}), got {value!r}")


_PARAMETERS: dict[str, Parameter] = {}


def declare(name: str, description: str, **domain) -> Parameter:
    """Declare (or re-fetch, if declared identically) the parameter ``name``.

    Examples
    --------
    >>> from varlab.theory.parameters import declare
    >>> declare("rho", "correlation <u, v> of unit vectors (000, Eq. 1)", low=-1.0, high=1.0).domain
    '[-1, 1]'
    """
    new = Parameter(name, description, **domain)
    old = _PARAMETERS.get(name)
    if old is not None:
        if (old.low, old.high, old.low_open, old.high_open, old.integer) != (
                new.low, new.high, new.low_open, new.high_open, new.integer):
            raise ValueError(f"parameter {name!r} is already declared with domain {old.domain}; "
                             f"cannot redeclare it as {new.domain}")
        return old
    _PARAMETERS[name] = new
    return new


def parameter(name: str) -> Parameter:
    """The declared parameter ``name`` (KeyError naming the known ones, and :func:`declare`,
    otherwise).

    Examples
    --------
    >>> from varlab.theory import parameter
    >>> rho = parameter("rho")
    >>> rho.domain, rho.symbol, rho.symbol.is_real
    ('[-1, 1]', rho, True)
    """
    try:
        return _PARAMETERS[name]
    except KeyError:
        raise KeyError(f"no parameter named {name!r}; declared: {sorted(_PARAMETERS)}. Declare a "
                       f"parameter of your own first: varlab.theory.parameters.declare({name!r}, "
                       f"'what it is', low=..., high=...)") from None


def declared_parameters() -> dict[str, Parameter]:
    """Every declared parameter, by name.

    Examples
    --------
    >>> from varlab.theory import declared_parameters
    >>> declared_parameters()["gamma"].domain
    '(0, inf)'
    """
    return dict(sorted(_PARAMETERS.items()))


def _deprecated_parameters() -> dict[str, Parameter]:
    warnings.warn("varlab.theory.parameters() is deprecated: call varlab.theory.declared_parameters() "
                  "(varlab.theory.parameters is the module of declared parameters)", DeprecationWarning,
                  stacklevel=3)
    return declared_parameters()


def __getattr__(name: str):
    """``parameters``, the former name of :func:`declared_parameters`, with a DeprecationWarning."""
    if name == "parameters":
        return lambda: _deprecated_parameters()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _CallableModule(types.ModuleType):
    """This module, callable as the former function ``varlab.theory.parameters()`` (deprecated)."""

    def __call__(self) -> dict[str, Parameter]:
        return _deprecated_parameters()


sys.modules[__name__].__class__ = _CallableModule


# --- the parameters of papers 000-004 --------------------------------------------------------

RHO = declare("rho", "correlation <u, v> of unit vectors (000, Eq. 1)", low=-1.0, high=1.0,
              grid=(-0.5, 0.0, 0.5, 0.9, 0.99))
GAMMA = declare("gamma", "kernel parameter of the RBF kernel exp(-gamma (1 - rho)) (000, Eq. 14)",
                low=0.0, low_open=True, grid=(0.5, 1.0, 5.0))
K = declare("k", "number of samples (hashes, random features)", low=1, integer=True,
            grid=(1, 10, 100))
GMM = declare("gmm", "value of the GMM kernel, a collision probability (000, Eq. 8)", low=0.0,
              high=1.0, grid=(0.1, 0.5, 0.9))
G = declare("g", "the GMM limit g(rho) of 000, Eq. (22)", low=0.0, high=1.0, grid=(0.1, 0.5, 0.9))
E = declare("E", "the kernel value being estimated, exp(-gamma (1 - rho))", low=0.0, high=1.0,
            low_open=True, grid=(0.1, 0.5, 0.9))
DIMENSION = declare("dimension", "dimension d of the data (and of the frequencies)", low=1,
                    integer=True, grid=(1, 2, 10))
MUTUAL_DIMENSION = declare("mutual_dimension", "dimension d of the data for 004's GORF with W and V mutually "
                           "orthogonal (signed.gorf_variance_mutual): up to 300, as the float64 quadrature of "
                           "its cross covariance H0 needs Gamma(d/2)", low=1, high=300, integer=True,
                           grid=(1, 2, 10))
DISTANCE = declare("distance", "distance |z| = |x - y| between the two points", low=0.0,
                   grid=(0.0, 0.5, 1.0, 2.0))
BANDWIDTH = declare("bandwidth", "bandwidth sigma of a Gaussian-type kernel", low=0.0,
                    low_open=True, grid=(0.5, 1.0, 2.0))
M = declare("m", "number of random frequencies", low=1, integer=True, grid=(1, 16, 128))


# 004, the polynomial kernel on the sphere (theory/polynomial.py)
DEGREE = declare("degree", "degree m of the polynomial kernel (1 - |z|^2/a^2)^m on the sphere (004, Setup); "
                 "up to 10^6 (Pennington's sum over i <= m has about 40 sqrt(m) terms)",
                 low=1, high=10 ** 6, integer=True, grid=(1, 2, 3))
FREQUENCY = declare("frequency", "radial frequency in units of the truncation radius (u = a |w| or 2 |w|)",
                    low=0.0, high=1e3, grid=(0.5, 3.0, 20.0))
POSITIVE_FREQUENCY = declare("positive_frequency", "radial frequency u > 0 (as frequency, without u = 0, where "
                             "the envelope A u^{(d-3)/2-m} is infinite for d < 2m + 3)",
                             low=0.0, high=1e3, low_open=True, grid=(0.5, 3.0, 20.0))
A_SCALE = declare("a", "scale a >= 2 of the polynomial kernel (1 - |z|^2/a^2)^m on the sphere (004, Setup; a = 3 in "
                       "the slides; a >= 2 keeps it >= 0 for |z| <= 2, Pennington et al. 2015)",
                  low=2.0, grid=(2.0, 3.0, 5.0))

# 003, moment matching (theory/moment_matching.py)
SCALED_DISTANCE = declare(
    "scaled_distance", "s = |x - y| / sigma, so that c' Sigma c = s^2 (003, Eq. 3 and Cor. 1); "
    "varlab states its numerics for s <= 10 (k(s) = exp(-s^2/2) >= 2e-22)",
    low=0.0, high=10.0, grid=(0.5, 1.0, 2.0))
MM_DOF = declare(
    "mm_dof", "m - 1 >= 1 for m moment-matched frequencies (003, Alg. 1): the dimension of the "
    "sphere {sum t = 0} that the projections live on (the centred sample needs m >= 2)",
    low=1, high=10 ** 6, integer=True, grid=(2, 15, 255))

# 002, asymmetric kernels (theory/asymmetric.py)
SPREAD = declare("spread", "standard deviation s of the phase X = <c, w> of 002's complex measures "
                 "(s = |r|/sigma for the shift-Gaussian kernel, sigma |beta| for sinh/cosh)",
                 low=0.0, high=12.0, grid=(0.25, 1.0, 3.0))
PHASE_RATIO = declare("phase_ratio", "<c, D>/|c|^2: the displacement D along the kernel's "
                      "direction c, in units of c (002 kernels)", low=-20.0, high=20.0,
                      grid=(-1.0, 0.0, 0.5))
#: the Formulas' domain stops at |D_perp| = sigma/4: closer to D = 0 the variance is a difference of
#: O(1) terms that vanishes like |D|^2 and loses relative accuracy (``estimator_variance`` has no
#: such limit; its absolute accuracy is ~1e-16 times the squared masses)
TRANSVERSE = declare("transverse", "|D_perp|/sigma: the part of the displacement orthogonal to "
                     "c, in units of the bandwidth (002 kernels)", low=0.25, grid=(0.25, 0.5, 2.0))
