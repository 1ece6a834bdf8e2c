"""The Formula type shared by every theory module.

A Formula is one closed form held three ways, checking each other:

* ``expr``: the sympy expression (the symbolic truth; derivations are tested against it);
* ``__call__(**params)``: a numpy function, vectorized by broadcasting and written in a
  numerically stable form (expm1, factored exponentials) that may differ from the paper's;
* ``mp(**params, dps=50)``: an mpmath evaluation of ``expr`` at high precision.

``source`` cites the paper file, theorem and equation; ``derived_by_varlab`` labels closed
forms that the papers do not give; ``asymptotic`` marks large-k forms, whose finite-k error the
Monte Carlo engine measures.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import mpmath
import numpy as np
import sympy


@dataclass(frozen=True)
class Formula:
    """A closed form with a symbolic, a numeric and a high-precision evaluation."""

    name: str
    expr: sympy.Expr
    numeric: Callable[..., np.ndarray]
    validators: Mapping[str, Callable]
    source: str
    description: str = ""
    asymptotic: bool = False
    derived_by_varlab: bool = False
    _mp_cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def parameters(self) -> tuple[str, ...]:
        """Names of the keyword arguments, in order."""
        return tuple(self.validators)

    def _checked(self, params: Mapping) -> dict:
        missing = set(self.validators) - set(params)
        extra = set(params) - set(self.validators)
        if missing or extra:
            raise TypeError(f"{self.name} takes keyword arguments {list(self.validators)}; "
                            f"missing {sorted(missing)}, unexpected {sorted(extra)}")
        return {name: check(params[name], name) for name, check in self.validators.items()}

    def __call__(self, **params) -> np.ndarray | float:
        """Evaluate with numpy, broadcasting over the parameters; scalars in give a float out."""
        checked = self._checked(params)
        arrays = np.broadcast_arrays(*checked.values())
        value = np.asarray(self.numeric(**dict(zip(checked, arrays))), dtype=np.float64)
        if np.any(np.isnan(value)):
            raise FloatingPointError(f"{self.name} produced NaN for {params!r}")
        return float(value) if value.ndim == 0 else value

    def mp(self, dps: int = 50, **params) -> mpmath.mpf:
        """Evaluate ``expr`` in mpmath at ``dps`` significant digits (scalar parameters)."""
        self._checked(params)
        function = self._mp_cache.get("f")
        if function is None:
            symbols = [sympy.Symbol(name, real=True) for name in self.validators]
            function = sympy.lambdify(symbols, self.expr, modules="mpmath")
            self._mp_cache["f"] = function
        with mpmath.workdps(dps):
            # mpf(float) is the exact binary value; str() would round it
            args = [mpmath.mpf(params[name]) for name in self.validators]
            return +function(*args)

    def symbol(self, name: str) -> sympy.Symbol:
        """The sympy symbol of parameter ``name`` used in ``expr``."""
        if name not in self.validators:
            raise KeyError(f"{self.name} has no parameter {name!r}")
        return sympy.Symbol(name, real=True)
