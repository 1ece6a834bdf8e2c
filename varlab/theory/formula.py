"""The Formula type shared by every theory module, and the registry of all Formulas.

A Formula is one result of a paper (or of varlab) held three ways, checking each other:

* ``expr``: the sympy expression (the symbolic truth; derivations are tested against it), or
  ``None`` for a *computed* Formula (a sum or a quadrature with no closed sympy form);
* ``__call__(**params)``: a numpy function, vectorized by broadcasting and written in a
  numerically stable form (expm1, factored exponentials) that may differ from the paper's;
* ``mp(dps=50, **params)``: a high-precision mpmath evaluation: of ``expr`` (lambdified), or of
  ``reference``, an explicit mpmath callable (required for computed Formulas; a closed form
  gives one where ``expr`` is 0/0 at a point of its domain and the limit is wanted there).

Every Formula declares its parameter *names*; the domain, the validator and the sympy symbol of
each come from :mod:`varlab.theory.parameters`. ``source`` cites the paper file, theorem and
equation; ``derived_by_varlab`` labels results that the papers do not give; ``asymptotic``
marks large-k forms, whose finite-k error the Monte Carlo engine measures; ``tolerance`` is the
stated relative accuracy of the numpy evaluation against ``mp`` over the declared domain
(1e-12 for closed forms). A Formula registers itself under its unique name when it is created;
:func:`formulas` lists them all (generic tests are parametrized over it).

Each Formula has its own docstring (``help(rff.mean)``, IPython's ``rff.mean?``), made from its
description, source, parameters and ``examples``: doctest lines showing a real call. Doctest
collects functions and classes, not instances, so a theory module ends with
``__test__ = _doctests(globals())`` and its Formulas' examples run with ``--doctest-modules``.

>>> from varlab.theory import rff
>>> rff.mean(rho=0.5, gamma=2.0)
0.367879441171
>>> rff.mean.parameters
('rho', 'gamma')
>>> import mpmath
>>> mpmath.nstr(rff.mean.mp(rho=0.5, gamma=2.0, dps=20), 20)
'0.3678794411714423216'
>>> rff.mean(rho=1.5, gamma=2.0)
Traceback (most recent call last):
...
ValueError: rho must be in [-1.0, 1.0], got 1.5
"""
from __future__ import annotations

import importlib
import math
import numbers
import pkgutil
import textwrap
from dataclasses import InitVar, dataclass, field
from typing import Callable, Mapping

import mpmath
import numpy as np
import sympy

from .parameters import parameter

__all__ = ["Formula", "formulas", "formula", "MIN_DPS", "MAX_DPS", "CLOSED_FORM_TOLERANCE"]

#: the fewest and the most significant digits ``Formula.mp`` accepts or works at
MIN_DPS = 5
MAX_DPS = 20000
#: relative accuracy of every closed form's numpy evaluation against mpmath (issue 7, sec. 5)
CLOSED_FORM_TOLERANCE = 1e-12

_REGISTRY: dict[str, "Formula"] = {}


def _check_dps(dps) -> int:
    if isinstance(dps, (bool, np.bool_)) or not isinstance(dps, numbers.Integral):
        raise TypeError(f"dps must be an integer >= {MIN_DPS} (significant digits), got {dps!r}")
    if not MIN_DPS <= int(dps) <= MAX_DPS:
        raise ValueError(f"dps must be an integer in [{MIN_DPS}, {MAX_DPS}], got {dps!r}")
    return int(dps)


def _guard_digits(values: Mapping[str, float | int]) -> int:
    """Extra working digits for inputs that invite cancellation: each real value x contributes
    twice the number of decimal digits by which |x|, |1 - x| or |1 + x| is below 1 (e.g.
    gamma = 1e-30 or rho = 1 - 1e-16). The agreement loop of ``Formula.mp`` checks the rest."""
    digits = 0.0
    for value in values.values():
        if isinstance(value, int):
            continue
        for part in (value, 1.0 - value, 1.0 + value):
            if part != 0.0 and math.isfinite(part) and abs(part) < 1.0:
                digits += -math.log10(abs(part))
    return int(math.ceil(2.0 * digits))


def _agree(a, b, dps: int) -> bool:
    if a == b:
        return True
    if mpmath.isinf(a) or mpmath.isinf(b):
        return False
    return abs(a - b) <= mpmath.mpf(10) ** (-dps) * max(abs(a), abs(b))


@dataclass(frozen=True, eq=False, repr=False)
class Formula:
    """A result with a symbolic (or computed), a numeric and a high-precision evaluation.

    Fields: ``name`` (unique, e.g. ``"rff.mean"``), ``parameters`` (declared parameter names,
    in order), ``numeric`` (numpy function of those keywords; receives validated, broadcast
    float64 arrays, int64 for integer parameters), ``source``; optional ``expr`` (sympy, in the
    parameters' symbols; ``None`` for a computed Formula), ``reference`` (mpmath callable of the
    same keywords: mpf reals, int integers, evaluated at the ambient ``mpmath.mp.dps``),
    ``tolerance`` (stated relative accuracy; required for computed Formulas),
    ``reference_domain`` ({name: (low, high)} where ``reference`` is feasible, e.g. a sum of
    k + 1 terms), ``description``, ``asymptotic``, ``derived_by_varlab``, ``examples`` (doctest
    lines, the Examples section of the instance's own docstring); ``register`` (init only,
    default True) adds it to the registry of :func:`formulas`.

    Examples
    --------
    >>> import numpy as np
    >>> import sympy
    >>> from varlab.theory import Formula, parameter
    >>> rho, gamma = parameter("rho").symbol, parameter("gamma").symbol
    >>> mine = Formula("doc.mean", ("rho", "gamma"), lambda rho, gamma: np.exp(-gamma * (1.0 - rho)),
    ...                source="my note, Eq. (1)", expr=sympy.exp(-gamma * (1 - rho)), register=False)
    >>> import mpmath
    >>> mine(rho=0.5, gamma=2.0), mpmath.nstr(mine.mp(rho=0.5, gamma=2.0, dps=30), 30)
    (0.367879441171, '0.367879441171442321595523770161')
    """

    name: str
    parameters: tuple
    numeric: Callable[..., np.ndarray]
    source: str
    expr: sympy.Expr | None = None
    reference: Callable | None = None
    tolerance: float | None = None
    reference_domain: Mapping = field(default_factory=dict)
    description: str = ""
    asymptotic: bool = False
    derived_by_varlab: bool = False
    examples: str = ""
    register: InitVar[bool] = True
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self, register: bool):
        object.__setattr__(self, "parameters", tuple(self.parameters))
        if not self.parameters or len(set(self.parameters)) != len(self.parameters):
            raise ValueError(f"{self.name}: parameters must be distinct names, got {self.parameters!r}")
        declared = [parameter(name) for name in self.parameters]     # KeyError if undeclared
        if self.expr is None:
            if self.reference is None or self.tolerance is None:
                raise ValueError(f"{self.name}: a computed Formula (expr=None) needs a reference "
                                 f"(mpmath callable) and a stated tolerance")
        else:
            unknown = self.expr.free_symbols - {p.symbol for p in declared}
            if unknown:
                raise ValueError(f"{self.name}: expr uses symbols {sorted(map(str, unknown))} that are "
                                 f"not the declared parameters' symbols {[str(p.symbol) for p in declared]}")
        if self.tolerance is None:
            object.__setattr__(self, "tolerance", CLOSED_FORM_TOLERANCE)
        for name in self.reference_domain:
            if name not in self.parameters:
                raise ValueError(f"{self.name}: reference_domain names {name!r}, not a parameter")
        object.__setattr__(self, "__doc__", self._docstring())
        if register:
            if self.name in _REGISTRY:
                raise ValueError(f"a Formula named {self.name!r} already exists "
                                 f"(source {_REGISTRY[self.name].source!r}); names must be unique")
            _REGISTRY[self.name] = self

    # --- metadata ------------------------------------------------------------------------------

    @property
    def computed(self) -> bool:
        """True for a Formula with no closed sympy form (a sum or a quadrature)."""
        return self.expr is None

    @property
    def domain(self) -> dict:
        """{name: the declared domain in words} for each parameter."""
        return {name: parameter(name).domain for name in self.parameters}

    @property
    def symbols(self) -> tuple:
        """The sympy symbols of the parameters, in order (those ``expr`` is written in)."""
        return tuple(parameter(name).symbol for name in self.parameters)

    def symbol(self, name: str) -> sympy.Symbol:
        """The sympy symbol of parameter ``name`` (as used in ``expr``)."""
        if name not in self.parameters:
            raise KeyError(f"{self.name} has no parameter {name!r}; it has {list(self.parameters)}")
        return parameter(name).symbol

    def _docstring(self) -> str:
        """This Formula's own docstring: description, source, parameters, Examples."""
        labels = ["computed (no closed sympy form)" if self.computed else "closed form"]
        labels += ["asymptotic (a large-k form)"] * self.asymptotic
        labels += ["derived by varlab (not in the papers)"] * self.derived_by_varlab
        domains = ", ".join(f"{name} in {parameter(name).domain}" for name in self.parameters)
        text = [self.description or self.name, "",
                f"``{self.name}({', '.join(self.parameters)})``: {'; '.join(labels)}. Source: {self.source}. "
                f"Parameters: {domains}."]
        examples = textwrap.dedent(self.examples).strip()
        if examples:
            text += ["", "Examples", "--------", examples]
        return "\n".join(text) + "\n"

    def __repr__(self) -> str:
        kind = "computed" if self.computed else "closed form"
        return f"<Formula {self.name}({', '.join(self.parameters)}): {kind}; {self.source}>"

    # --- arguments -------------------------------------------------------------------------------

    def _bind(self, args: tuple, params: dict) -> dict:
        if len(args) > len(self.parameters):
            raise TypeError(f"{self.name} takes {len(self.parameters)} arguments "
                            f"{list(self.parameters)}, got {len(args)} positional")
        for name, value in zip(self.parameters, args):
            if name in params:
                raise TypeError(f"{self.name} got {name!r} both positionally and by keyword")
            params[name] = value
        missing = [name for name in self.parameters if name not in params]
        extra = sorted(set(params) - set(self.parameters))
        if missing or extra:
            raise TypeError(f"{self.name} takes arguments {list(self.parameters)}; "
                            f"missing {missing}, unexpected {extra}")
        return params

    def validate(self, *args, **params) -> dict:
        """{name: validated array} (float64, or int64 for integer parameters); each check names
        its parameter and its domain."""
        params = self._bind(args, params)
        return {name: parameter(name).validate(params[name]) for name in self.parameters}

    # --- evaluation ------------------------------------------------------------------------------

    def __call__(self, *args, **params) -> np.ndarray | float:
        """Evaluate with numpy, broadcasting over the parameters; scalars in give a float out.

        Values beyond the float64 range come out as 0 or inf (never NaN); a NaN would be a bug
        and raises FloatingPointError naming the point.
        """
        checked = self.validate(*args, **params)
        try:
            arrays = np.broadcast_arrays(*checked.values())
        except ValueError:
            shapes = ", ".join(f"{name} {np.shape(value)}" for name, value in checked.items())
            raise ValueError(f"{self.name}: the shapes of {shapes} do not broadcast together") from None
        with np.errstate(over="ignore", under="ignore", divide="ignore"):
            value = np.asarray(self.numeric(**dict(zip(checked, arrays))), dtype=np.float64)
        if np.any(np.isnan(value)):
            index = np.unravel_index(int(np.flatnonzero(np.isnan(value))[0]), value.shape)
            point = {name: array[index].item() for name, array in zip(checked, arrays)}
            raise FloatingPointError(f"{self.name} produced NaN at {point} (a bug: please report it)")
        return float(value) if value.ndim == 0 else value

    def _mp_function(self) -> Callable:
        function = self._cache.get("mp")
        if function is None:
            if self.reference is not None:
                function = self.reference
            else:
                lambdified = sympy.lambdify(self.symbols, self.expr, modules="mpmath")
                names = self.parameters

                def function(**values):
                    return lambdified(*(values[name] for name in names))
            self._cache["mp"] = function
        return function

    def _evaluate(self, values: dict, work: int):
        with mpmath.workdps(work):
            args = {name: (value if isinstance(value, int) else mpmath.mpf(value))
                    for name, value in values.items()}
            try:
                result = mpmath.mpmathify(self._mp_function()(**args))
            except ZeroDivisionError:
                raise ValueError(f"{self.name} is undefined (a division by zero) at {values} and "
                                 f"declares no limit there") from None
            if isinstance(result, mpmath.mpc):
                if result.imag != 0:
                    raise ValueError(f"{self.name} is not real at {values}: {result}")
                result = result.real
            if mpmath.isnan(result):
                raise ValueError(f"{self.name} is undefined (NaN) at {values} and declares no limit there")
            return +result

    def mp(self, dps: int = 50, **params) -> mpmath.mpf:
        """Evaluate at ``dps`` significant digits (scalar parameters; their exact binary values).

        Works at ``dps`` plus guard digits for inputs close to 0 or +-1, then doubles the
        working precision until two successive evaluations agree to ``dps`` digits; raises
        ValueError if they do not by ``MAX_DPS`` digits. Accepts numpy scalars (float32, uint64,
        ...) like the numpy evaluation; ``dps`` must be an integer >= ``MIN_DPS``.
        """
        dps = _check_dps(dps)
        params = self._bind((), params)
        values = {}
        for name in self.parameters:
            raw = params[name]
            if np.ndim(raw) != 0:
                raise ValueError(f"{self.name}.mp takes scalar parameters; {name} has shape "
                                 f"{np.shape(raw)} (use {self.name}(...) for arrays)")
            declared = parameter(name)
            checked = declared.validate(raw)
            values[name] = int(checked) if declared.integer else float(checked)
            low, high = self.reference_domain.get(name, (None, None))
            if (low is not None and values[name] < low) or (high is not None and values[name] > high):
                raise ValueError(f"{name} must be in [{low}, {high}] for the mpmath reference of "
                                 f"{self.name}, got {raw!r}")
        work = min(dps + 10 + _guard_digits(values), MAX_DPS)
        previous = self._evaluate(values, work)
        while True:
            if work >= MAX_DPS:
                raise ValueError(f"{self.name}.mp cannot reach {dps} digits at {values}: evaluations "
                                 f"still disagree at {MAX_DPS} working digits")
            work = min(2 * work, MAX_DPS)
            current = self._evaluate(values, work)
            if _agree(previous, current, dps):
                break
            previous = current
        with mpmath.workdps(dps):
            return +current


def _import_theory_modules() -> None:
    """Import every module of varlab.theory, so that each Formula has registered itself."""
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{__package__}.{info.name}")


def _doctests(namespace: Mapping) -> dict:
    """{attribute name: docstring} of the Formulas that the theory module with globals
    ``namespace`` defines (those named "<module>.*"), for the module's ``__test__``."""
    family = namespace["__name__"].rsplit(".", 1)[-1]
    return {name: value.__doc__ for name, value in namespace.items()
            if isinstance(value, Formula) and value.name.startswith(family + ".")}


def formulas() -> dict:
    """Every Formula of varlab.theory, by name (sorted); modules are discovered, not listed.

    Examples
    --------
    >>> from varlab.theory import formulas
    >>> f = formulas()["rff.variance"]
    >>> f.source, f.parameters
    ('000, Thm 2, Eq. (18)', ('rho', 'gamma'))
    """
    _import_theory_modules()
    return dict(sorted(_REGISTRY.items()))


def formula(name: str) -> Formula:
    """The Formula called ``name`` (KeyError naming the known ones otherwise).

    Examples
    --------
    >>> from varlab.theory.formula import formula
    >>> formula("nrff.asymptotic_variance")(rho=0.5, gamma=1.0)
    0.43632538666
    """
    registry = formulas()
    try:
        return registry[name]
    except KeyError:
        raise KeyError(f"no Formula named {name!r}; known: {sorted(registry)}") from None
