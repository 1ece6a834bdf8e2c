"""Claim kinds as declarations: each claim is a data object with its id, source, the paper's
words (``quote``), what varlab tests (``statement``), and what to simulate and compare. Declaring
one registers it.

* :class:`Agreement`: a model statistic equals a formula over a grid (relative or absolute
  tolerance);
* :class:`Ordering`: a statistic of A is below that of B over a grid (effect size);
* :class:`Identity`: an exact (symbolic or exact-number) computation;
* :class:`Paired`: A below B over independent trials (the real-data tables);
* :class:`Joint`: one statement whose parts (declarations made with ``Kind.part``) all hold,
  e.g. an exact law and its simulation;
* :func:`claim`: a decorator for the few checks with a rule of their own (they build their
  Verdict with ``varlab.testing.builders``: ``agreement`` / ``ordering`` / ``exact`` /
  ``combined``).

What a declaration compares comes from the engine (a model name, or ``varlab.claims.sources``: a
:class:`Simulation`, a :class:`Difference`) or from code outside it, a :class:`Measured` source
(hashes of generated pairs, fits, a sampler's proposal counts) returning a :class:`Measurement`.

A new agreement claim is about ten lines::

    Agreement("000.thm2.eq16", source="000, Thm 2, Eq. (16)",
              quote="E[sqrt2 cos(...) sqrt2 cos(...)] = e^{-gamma(1-rho)}",
              statement="The k-sample RFF estimator's mean equals rff.mean.",
              model="rff", theory=rff.mean, statistic="mean", k=(1, 10),
              grid=dict(rho=(-0.5, 0.0, 0.9), gamma=(0.5, 5.0)), product=True, tolerance=0.01)
"""
from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from ..testing import builders
from ..testing.verdict import Verdict
from .budget import budget as as_budget
from .registry import register
from .run import ClaimRun
from .sources import Measured, check_statistic, is_source, positive, read, source_name, sources_of
from .theories import name_of, theory_point, theory_values

__all__ = ["Claim", "Agreement", "Ordering", "Identity", "Paired", "Joint", "Check", "claim"]


@dataclass(frozen=True, kw_only=True)
class Claim(ABC):
    """A paper's statement and its check. ``quote``: the paper's words ("" with
    ``derived_by_varlab``); ``statement``: what varlab tests; ``note``: where the test is
    stronger or weaker than the words, one line.

    Examples
    --------
    Every kind is a Claim; ``paper`` comes from the id:

    >>> from varlab.claims import Claim, Identity
    >>> one = Identity(id="varlab.smith2026.one", source="arithmetic", derived_by_varlab=True,
    ...                statement="1 = 1", compute=lambda: (True, "exact", []))
    >>> isinstance(one, Claim), one.paper
    (True, 'smith2026')
    """

    id: str
    source: str
    quote: str = ""
    statement: str
    note: str = ""
    derived_by_varlab: bool = False
    origin: str = field(default="", compare=False, repr=False)
    registered: bool = field(default=True, compare=False, repr=False)

    def __post_init__(self):
        if not self.registered:
            return
        if not self.quote and not self.derived_by_varlab:
            raise ValueError(f"claim {self.id!r}: quote the paper's words, or declare "
                             f"derived_by_varlab=True for varlab's own statement")
        if not self.origin:
            object.__setattr__(self, "origin", _caller_module())
        register(self)

    @classmethod
    def part(cls, **fields) -> "Claim":
        """A declaration of this kind that is a part of a :class:`Joint`: not registered, and
        without words of its own (its verdict carries the joint claim's id and words, its seeds
        come from the joint claim's id).

        Examples
        --------
        >>> from varlab.claims import Identity
        >>> Identity.part(compute=lambda: (True, "", [])).registered
        False
        """
        return cls(id="", source="", statement="", registered=False, **fields)

    @property
    def paper(self) -> str:
        """The paper's key, from the id."""
        from .registry import paper_of

        return paper_of(self.id)

    @abstractmethod
    def check(self, run: ClaimRun) -> Verdict:
        """The Verdict at ``run``'s budget (each kind defines it)."""

    def run(self, budget_name="quick") -> Verdict:
        """Run the check at a budget (a name of ``BUDGETS`` or a Budget)."""
        verdict = self.check(ClaimRun(self, as_budget(budget_name)))
        if not isinstance(verdict, Verdict) or verdict.id != self.id:
            raise TypeError(f"claim {self.id!r}: the check must return its run's Verdict")
        return verdict


def _caller_module() -> str:
    """The module that declared the claim (the first frame outside this package)."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(("varlab.claims", "dataclasses")):
            return name
        frame = frame.f_back
    return ""


@dataclass(frozen=True, kw_only=True)
class _OverGrid(Claim, ABC):
    """What the simulated kinds share: the statistic judged (none for a Measured source, which
    names its own quantity), and the k grid and parameter grid of the models they simulate for
    themselves (``product``: every combination; ``share``: a part of the budget)."""

    statistic: str = ""
    k: tuple = ()
    grid: Mapping = field(default_factory=dict)
    product: bool = False
    share: int = 1

    def __post_init__(self):
        measured = any(isinstance(getattr(self, name, None), Measured)
                       for name in ("model", "lower", "upper"))
        if measured and self.statistic:
            raise ValueError(f"claim {self.id}: a Measured source names its own quantity; give no "
                             f"statistic")
        if not measured:
            check_statistic(self.statistic)
        super().__post_init__()


@dataclass(frozen=True, kw_only=True)
class Agreement(_OverGrid):
    """``statistic`` of ``model`` equals ``theory`` at every grid point and k.

    ``model``: a model name (simulated for this claim over ``grid`` and ``k``), a shared
    :class:`Simulation`, a :class:`Difference`, or a tuple of these (their points
    concatenated; with shared simulations, ``k`` selects the k values judged); or a
    :class:`Measured` source, whose Measurement carries its theory (``theory`` and
    ``statistic`` stay unset). ``theory``: a Formula or ``theory(k, **point)``
    (the convention of ``varlab.claims.theories``; a callable also gets the
    simulation's options that it names, e.g. ``kernel``, and ``model``). ``tolerance``:
    relative to |theory| if ``relative``, else in the statistic's units, or, with ``scale`` (a
    theory of the same form, e.g. V_MC), in units of ``scale``: estimate, standard error and
    theory are divided by it before deciding (``relative`` must then be False); ``units`` names
    them in the verdict.

    Examples
    --------
    >>> from varlab.claims import Agreement, Budget
    >>> from varlab.theory import rff
    >>> def variance(k, rho, gamma):
    ...     return rff.variance(rho=rho, gamma=gamma) / k
    >>> claim = Agreement(id="doc.rff.variance", source="000, Thm 2, Eq. (18)", quote="Var = V/k",
    ...                   statement="The RFF variance is V/k within 5%.", model="rff",
    ...                   theory=variance, statistic="variance", k=(1, 4),
    ...                   grid=dict(rho=(0.0, 0.5), gamma=1.0), tolerance=0.05)
    >>> verdict = claim.run(Budget("doc", 20_000))
    >>> verdict.outcome, verdict.resolution <= verdict.tolerance
    ('confirmed', True)
    """

    model: object
    theory: Callable | None = None
    tolerance: float
    relative: bool = True
    label: str = ""
    scale: Callable | None = None
    units: str = ""

    def __post_init__(self):
        if self.scale is not None and self.relative:
            raise ValueError(f"claim {self.id}: a scale states the tolerance's units; pass "
                             f"relative=False with it")
        if (self.theory is None) != isinstance(self.model, Measured):
            raise ValueError(f"claim {self.id}: give a theory, except for a Measured model (its "
                             f"Measurement carries the theory)")
        if isinstance(self.model, Measured) and self.scale is not None:
            raise ValueError(f"claim {self.id}: a Measured model is in its own units (no scale)")
        super().__post_init__()

    def check(self, run: ClaimRun) -> Verdict:
        if isinstance(self.model, Measured):
            return _measured_agreement(self, run)
        sources = sources_of(run.claim.id, self.model, self.label or self.statistic, self.k,
                             self.grid, self.product, self.share)
        shared = not isinstance(self.model, str)
        functions = (self.theory,) + (() if self.scale is None else (self.scale,))
        estimate, error, rows, n, values = read(sources, run.budget, self.statistic,
                                                self.k if shared else (), *functions)
        theory, unit = values[0], (positive(values[1], self) if self.scale is not None else 1.0)
        models = ", ".join(dict.fromkeys(source_name(source, run.budget) for source in sources))
        quantity = f"{self.statistic} of {models}" + (
            "" if self.scale is None else f", in units of {name_of(self.scale)}")
        return builders.agreement(run, theory=theory / unit, estimate=estimate / unit,
                                  standard_error=error / unit, parameters=rows, quantity=quantity,
                                  tolerance=self.tolerance, relative=self.relative,
                                  n_repetitions=n, units=self.units or None)


def _measured_agreement(claim: Agreement, run: ClaimRun) -> Verdict:
    """An Agreement over a Measured source: the measurement against its own theory."""
    measurement = claim.model.measure(run)
    if measurement.theory is None:
        raise ValueError(f"claim {run.claim.id}: the Measurement of an Agreement carries its theory")
    verdict = builders.agreement(run, theory=measurement.theory, estimate=measurement.estimate,
                                 standard_error=measurement.standard_error,
                                 parameters=list(measurement.rows), quantity=claim.model.quantity,
                                 tolerance=claim.tolerance, relative=claim.relative,
                                 degrees_of_freedom=measurement.degrees_of_freedom,
                                 units=claim.units or None)
    return _remarked(verdict, measurement.remark, measurement.details)


def _remarked(verdict: Verdict, remark: str, details=()) -> Verdict:
    """``verdict`` with ``remark`` appended to its reason and ``details`` to its rows."""
    if remark:
        verdict.reason += f"; {remark}"
    verdict.rows += [dict(row) for row in details]
    return verdict


@dataclass(frozen=True, kw_only=True)
class Ordering(_OverGrid):
    """``statistic`` of ``lower`` is below that of ``upper`` at every point and k: each a model
    name simulated independently over the grid, or (as for :class:`Agreement`) a shared
    :class:`Simulation`, a :class:`Difference` or a tuple of these, on matching grids; or one
    side exact, a theory (Formula or ``f(k, **point)``, or a number) evaluated at the other
    side's points; or a :class:`Measured` side (its standard errors and degrees of freedom,
    against an exact side). ``effect_size``: the violation the statement cares about, in the
    statistic's units (with ``scale``, a theory, both sides and the effect size are in its
    units, which ``units`` names); ``strict``: "below" (seen below everywhere) or, if False,
    "not above by more than the effect size"; ``names``: the sides' names in the verdict
    (default: the models').

    Examples
    --------
    Features without a phase have a lower variance than random-phase ones:

    >>> from varlab.claims import Budget, Ordering
    >>> lower = Ordering(id="doc.no_phase.below", source="varlab", derived_by_varlab=True,
    ...                  statement="Var(no phase) < Var(random phase)", lower="rff_no_phase",
    ...                  upper="rff", statistic="variance", effect_size=0.1, k=(1, 8),
    ...                  grid=dict(rho=0.5, gamma=1.0))
    >>> lower.run(Budget("doc", 20_000)).outcome
    'confirmed'
    """

    lower: object
    upper: object
    effect_size: float
    strict: bool = True
    scale: Callable | None = None
    units: str = ""
    names: tuple = ()

    def __post_init__(self):
        if isinstance(self.lower, Measured) and isinstance(self.upper, Measured):
            raise ValueError(f"claim {self.id}: at most one Measured side (measure B - A as one "
                             f"source against 0 instead)")
        super().__post_init__()

    def check(self, run: ClaimRun) -> Verdict:
        sides, remarks, details, dof = [], [], [], None
        for side, tag in ((self.lower, "A"), (self.upper, "B")):
            if isinstance(side, Measured):
                if self.scale is not None:
                    raise ValueError(f"claim {run.claim.id}: a Measured side is in its own units "
                                     f"(no scale)")
                m = side.measure(run)
                sides.append((np.asarray(m.estimate, float), np.asarray(m.standard_error, float),
                              list(m.rows), None, side.quantity, None))
                remarks.append(m.remark)
                details += list(m.details)
                dof = m.degrees_of_freedom
            elif is_source(side):
                sources = sources_of(run.claim.id, side, f"{tag}:{side}", self.k, self.grid,
                                     self.product, self.share)
                extra = () if self.scale is None else (self.scale,)
                selected = () if isinstance(side, str) else self.k
                value, error, rows, n, scale = read(sources, run.budget, self.statistic, selected,
                                                    *extra)
                name = ", ".join(dict.fromkeys(source_name(s, run.budget) for s in sources))
                sides.append((value, error, rows, scale, name, n))
            else:
                sides.append(side)
        if not any(isinstance(side, tuple) for side in sides):
            raise ValueError(f"claim {run.claim.id}: at least one side must be simulated or "
                             f"measured")
        simulated = next(side for side in sides if isinstance(side, tuple))
        rows = simulated[2]
        for index, side in enumerate(sides):           # an exact side: a formula at the rows
            if not isinstance(side, tuple):
                values = _exact_side(side, rows)
                sides[index] = (values, np.zeros_like(values), rows, simulated[3],
                                f"{name_of(side)} (exact)", None)
        (a, se_a, rows_a, scale, name_a, n_a), (b, se_b, rows_b, _, name_b, n_b) = sides
        if len(rows_a) != len(rows_b):
            raise ValueError(f"claim {run.claim.id}: A and B are simulated on different grids "
                             f"({len(rows_a)} and {len(rows_b)} points)")
        rows = [{**row_a, **{f"{key} (B)": value for key, value in row_b.items()
                             if row_a.get(key) != value}} for row_a, row_b in zip(rows_a, rows_b)]
        unit = positive(scale[0], self) if scale else 1.0
        quantity = self.statistic + ("" if self.scale is None else
                                     f", in units of {name_of(self.scale)}") or simulated[4]
        simulated_n = [n for n in (n_a, n_b) if n is not None]
        n = None if dof is not None or not simulated_n else np.min(simulated_n, axis=0)
        verdict = builders.ordering(run, lower=a / unit, upper=b / unit,
                                    standard_error=np.hypot(se_a, se_b) / unit, parameters=rows,
                                    quantity=quantity, effect_size=self.effect_size,
                                    strict=self.strict, names=self.names or (name_a, name_b),
                                    n_repetitions=n, degrees_of_freedom=dof,
                                    units=self.units or None)
        return _remarked(verdict, "; ".join(remark for remark in remarks if remark), details)


def _exact_side(side, rows) -> np.ndarray:
    """An exact side of an Ordering at the other side's rows: a number, or a theory evaluated
    at each row's k and parameters."""
    if isinstance(side, (int, float)):
        return np.full(len(rows), float(side))
    return np.array([theory_values(side, np.array([row["k"]]), theory_point(
        side, {}, {key: value for key, value in row.items() if key != "k"}))[0] for row in rows])

@dataclass(frozen=True, kw_only=True)
class Identity(Claim):
    """An exact computation: ``compute()`` returns (holds, reason, rows) — sympy's
    ``simplify(a - b) == 0``, exact rationals, or floating point within a bound (then give
    ``error`` <= ``tolerance``, in ``units``).

    Examples
    --------
    >>> import sympy
    >>> from varlab.claims import Identity
    >>> x = sympy.Symbol("x")
    >>> double_angle = Identity(
    ...     id="doc.double_angle", source="trigonometry", quote="cos 2x = 2 cos^2 x - 1",
    ...     statement="cos(2x) - (2 cos(x)^2 - 1) simplifies to 0 (sympy).",
    ...     compute=lambda: (sympy.simplify(sympy.cos(2 * x) - 2 * sympy.cos(x) ** 2 + 1) == 0,
    ...                      "sympy", []))
    >>> double_angle.run("test").outcome
    'confirmed'
    """

    compute: Callable
    tolerance: float = 0.0
    error: float = 0.0
    units: str = "exact"
    #: ``accuracy(rows)``: the absolute accuracy of the row columns that floating point makes
    #: coarser than 1e-12 relative (``Verdict.accuracy``); None: every column to 1e-12
    accuracy: Callable | None = None

    def check(self, run: ClaimRun) -> Verdict:
        holds, reason, rows = self.compute()
        return builders.exact(run, bool(holds), reason, rows=rows, tolerance=self.tolerance,
                              error=self.error, units=self.units,
                              accuracy=None if self.accuracy is None else self.accuracy(rows))


@dataclass(frozen=True, kw_only=True)
class Paired(Claim):
    """A below B over independent trials: ``trials(run)`` returns {cell label: (A values,
    B values)}, one value per trial; at each cell the mean of B - A and its standard error
    sd / sqrt(n) are judged with the t quantile of n - 1 degrees of freedom (``strict`` and
    ``effect_size`` as for :class:`Ordering`, in the values' units).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.claims import Paired
    >>> errors = np.random.default_rng(0).normal(0.20, 0.01, size=(2, 20))
    >>> paired = Paired(id="doc.paired", source="a table", quote="B beats A",
    ...                 statement="The error of A is below that of B by 0.05 on every split.",
    ...                 trials=lambda run: {"split": (errors[0], errors[1] + 0.05)},
    ...                 effect_size=0.03, quantity="test error")
    >>> paired.run("test").outcome
    'confirmed'
    """

    trials: Callable
    effect_size: float
    quantity: str
    strict: bool = True
    names: tuple = ("A", "B")

    def check(self, run: ClaimRun) -> Verdict:
        cells = self.trials(run)
        lower, upper, errors, dof, parameters = [], [], [], [], []
        for label, (a, b) in cells.items():
            a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
            if a.shape != b.shape or a.size < 2:
                raise ValueError(f"claim {self.id}: cell {label!r} needs paired trials (>= 2) of "
                                 f"A and B, got shapes {a.shape} and {b.shape}")
            difference = b - a
            lower.append(a.mean())
            upper.append(b.mean())
            spread = difference.std(ddof=1)
            # no spread over a few trials is no evidence of none (ties): an unknown error
            errors.append(spread / np.sqrt(difference.size) if spread > 0 else np.inf)
            dof.append(difference.size - 1)
            parameters.append({"cell": label, "trials": difference.size})
        return builders.ordering(run, lower=lower, upper=upper, standard_error=errors,
                                 parameters=parameters, quantity=self.quantity,
                                 effect_size=self.effect_size, strict=self.strict,
                                 degrees_of_freedom=np.asarray(dof), names=self.names)


@dataclass(frozen=True, kw_only=True)
class Joint(Claim):
    """One statement joining parts with "and" (e.g. an exact law and its simulation): each part
    a declaration made with ``Kind.part(...)``, checked with this claim's run (seeds from its id);
    the verdict is contradicted if one part is, else inconclusive if one is, else confirmed
    (``varlab.testing.builders.combined``). ``remark(run) -> str``, if given, is appended to the reason.

    Examples
    --------
    An exact law and its simulation, one statement:

    >>> from varlab.claims import Agreement, Budget, Identity, Joint
    >>> from varlab.theory import rff
    >>> def variance(k, rho, gamma):
    ...     return rff.variance(rho=rho, gamma=gamma) / k
    >>> law = Identity.part(compute=lambda: (bool(rff.variance(rho=1.0, gamma=1.0) == 0.5),
    ...                                      "V = 1/2 at rho = 1", []))
    >>> simulated = Agreement.part(model="rff", theory=variance, statistic="variance", k=(1,),
    ...                            grid=dict(rho=0.5, gamma=1.0), tolerance=0.05)
    >>> joint = Joint(id="doc.joint", source="000, Thm 2", quote="V = ...",
    ...               statement="V = 1/2 at rho = 1, and the simulated variance is V.",
    ...               parts=(law, simulated))
    >>> joint.run(Budget("doc", 20_000)).outcome
    'confirmed'
    """

    parts: tuple
    remark: Callable | None = None

    def __post_init__(self):
        if not self.parts or any(part.registered for part in self.parts):
            raise ValueError(f"claim {self.id}: a Joint needs parts made with Kind.part(...)")
        super().__post_init__()

    def check(self, run: ClaimRun) -> Verdict:
        verdict = builders.combined(run, [part.check(run) for part in self.parts])
        return _remarked(verdict, self.remark(run) if self.remark else "")


@dataclass(frozen=True, kw_only=True)
class Check(Claim):
    """A claim whose check is code (``function(run) -> Verdict``); see :func:`claim`.

    Examples
    --------
    >>> from varlab.claims import Check
    >>> from varlab.testing import builders
    >>> check = Check(id="doc.check", source="s", quote="q", statement="always holds",
    ...               function=lambda run: builders.exact(run, True, "by construction"))
    >>> check.run("test").outcome
    'confirmed'
    """

    function: Callable

    def check(self, run: ClaimRun) -> Verdict:
        return self.function(run)


def claim(claim_id: str, *, source: str, statement: str, quote: str = "", note: str = "",
          derived_by_varlab: bool = False):
    """Decorator: declare the claim ``claim_id`` checked by the decorated ``function(run)``.

    Examples
    --------
    >>> from varlab.claims import claim
    >>> from varlab.testing import builders
    >>> @claim("doc.decorated", source="s", quote="q", statement="holds")
    ... def decorated(run):
    ...     return builders.exact(run, True, "by construction")
    >>> callable(decorated)
    True
    """
    def register_check(function):
        Check(id=claim_id, source=source, quote=quote, statement=statement, note=note,
              derived_by_varlab=derived_by_varlab, function=function, origin=function.__module__)
        return function
    return register_check
