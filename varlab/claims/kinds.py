"""Claim kinds as declarations: each claim is a data object with its id, source, the paper's
words (``quote``), what varlab tests (``statement``), and what to simulate and compare. Declaring
one registers it.

* :class:`Agreement`: a model statistic equals a formula over a grid (relative or absolute
  tolerance);
* :class:`Ordering`: a statistic of A is below that of B over a grid (effect size);
* :class:`Rate`: a statistic falls as k^slope (a log-log slope against the expected one);
* :class:`Identity`: an exact (symbolic or exact-number) computation;
* :class:`Paired`: A below B over independent trials (the real-data tables);
* :func:`claim`: a decorator for the few checks that need code of their own (they build their
  Verdict with the run's ``agreement`` / ``ordering`` / ``exact`` / ``combined``).

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

from ..testing.agreement import theory_values
from ..testing.grid import broadcast_shape, product_grid
from ..testing.simulation import STATISTICS
from .budget import budget as as_budget
from .registry import register
from .run import ClaimRun, points, simulate_for
from .verdict import Verdict

__all__ = ["Claim", "Simulation", "Agreement", "Ordering", "Rate", "Identity", "Paired", "Check",
           "claim"]


@dataclass(frozen=True)
class Simulation:
    """A named simulation shared by claims and figures: ``model`` over ``grid`` and ``k``, seeded
    by (``owner``, ``label``) (see ``varlab.claims.seed_for``); ``result(budget)`` runs it once
    per budget and process.

    ``grid`` broadcasts like ``mc.simulate``'s, or is a Cartesian product with ``product``;
    ``share`` divides the budget (an expensive model at a part of it)."""

    owner: str
    label: str
    model: str
    k: tuple
    grid: Mapping
    product: bool = False
    share: int = 1

    def arguments(self) -> dict:
        """The grid as ``mc.simulate`` keyword arguments (an open mesh with ``product``)."""
        grid = dict(self.grid)
        if self.product:
            from .. import mc

            declared = mc.model_class(self.model).parameters
            axes = product_grid(**{name: value for name, value in grid.items() if name in declared})
            grid.update(axes)
        broadcast_shape({name: value for name, value in grid.items() if not isinstance(value, str)})
        return grid

    def result(self, budget):
        """The SimulationResult at ``budget`` (a Budget or its name)."""
        return simulate_for(self.owner, as_budget(budget).part(self.share), self.model,
                            label=self.label, k=np.asarray(self.k), **self.arguments())


@dataclass(frozen=True, kw_only=True)
class Claim(ABC):
    """A paper's statement and its check. ``quote``: the paper's words ("" with
    ``derived_by_varlab``); ``statement``: what varlab tests; ``note``: where the test is
    stronger or weaker than the words, one line."""

    id: str
    source: str
    quote: str = ""
    statement: str
    note: str = ""
    derived_by_varlab: bool = False
    origin: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        if not self.quote and not self.derived_by_varlab:
            raise ValueError(f"claim {self.id!r}: quote the paper's words, or declare "
                             f"derived_by_varlab=True for varlab's own statement")
        if not self.origin:
            object.__setattr__(self, "origin", _caller_module())
        register(self)

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


def _simulation(claim: Claim, source, label: str, k, grid, product: bool, share: int) -> Simulation:
    if isinstance(source, Simulation):
        return source
    return Simulation(claim.id, label, source, tuple(k), grid, product, share)


def _columns(k_grid, selected) -> np.ndarray:
    """The indices of ``selected`` k values in ``k_grid`` (all when none are selected)."""
    if not len(selected):
        return np.arange(k_grid.size)
    missing = sorted(set(selected) - set(k_grid.tolist()))
    if missing:
        raise ValueError(f"k = {missing} is not on the shared simulation's k grid")
    return np.array([int(np.flatnonzero(k_grid == kk)[0]) for kk in selected])


def _check_statistic(statistic: str) -> None:
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {list(STATISTICS)}, got {statistic!r}")


@dataclass(frozen=True, kw_only=True)
class Agreement(Claim):
    """``statistic`` of ``model`` (a model name, or a shared :class:`Simulation`) equals
    ``theory`` at every grid point and k. ``theory``: a Formula or ``theory(k, **point)`` (the
    convention of ``varlab.testing.check_agreement``); ``tolerance``: relative to |theory| if
    ``relative``, else in the statistic's units."""

    model: object
    theory: Callable
    statistic: str
    tolerance: float
    k: tuple = ()
    grid: Mapping = field(default_factory=dict)
    relative: bool = True
    product: bool = False
    share: int = 1
    label: str = ""

    def __post_init__(self):
        _check_statistic(self.statistic)
        super().__post_init__()

    def check(self, run: ClaimRun) -> Verdict:
        simulation = _simulation(self, self.model, self.label or self.statistic, self.k,
                                 self.grid, self.product, self.share)
        result = simulation.result(run.budget)
        columns = _columns(result.k, self.k if isinstance(self.model, Simulation) else ())
        k = result.k[columns]
        theory = np.stack([theory_values(self.theory, k, result.point(p))
                           for p in range(result.n_points)])
        return run.agreement(theory=theory, estimate=getattr(result, self.statistic)[:, columns],
                             standard_error=getattr(result, STATISTICS[self.statistic])[:, columns],
                             parameters=points(result, k),
                             quantity=f"{self.statistic} of {result.model}",
                             tolerance=self.tolerance, relative=self.relative)


@dataclass(frozen=True, kw_only=True)
class Ordering(Claim):
    """``statistic`` of ``lower`` is below that of ``upper`` (each a model name simulated
    independently over the grid, or a shared :class:`Simulation` on the same grid) at every
    point and k. ``effect_size``: the violation the statement cares about, in the statistic's
    units; ``strict``: "below" (seen below everywhere) or, if False, "not above by more than the
    effect size"."""

    lower: object
    upper: object
    statistic: str
    effect_size: float
    k: tuple = ()
    grid: Mapping = field(default_factory=dict)
    strict: bool = True
    product: bool = False
    share: int = 1

    def __post_init__(self):
        _check_statistic(self.statistic)
        super().__post_init__()

    def check(self, run: ClaimRun) -> Verdict:
        a = _simulation(self, self.lower, f"A:{self.lower}", self.k, self.grid, self.product,
                        self.share).result(run.budget)
        b = _simulation(self, self.upper, f"B:{self.upper}", self.k, self.grid, self.product,
                        self.share).result(run.budget)
        if a.mean.shape != b.mean.shape:
            raise ValueError(f"claim {self.id}: A and B are simulated on different grids "
                             f"({a.mean.shape} and {b.mean.shape})")
        se = STATISTICS[self.statistic]
        return run.ordering(lower=getattr(a, self.statistic), upper=getattr(b, self.statistic),
                            standard_error=np.hypot(getattr(a, se), getattr(b, se)),
                            parameters=points(a), quantity=self.statistic,
                            effect_size=self.effect_size, strict=self.strict,
                            names=(a.model, b.model))


@dataclass(frozen=True, kw_only=True)
class Rate(Claim):
    """``statistic`` of ``model`` falls (or grows) as k^``slope`` over the k grid: at each point,
    the weighted least-squares slope of log(statistic) on log(k) (weights from the standard
    errors, delta method) equals ``slope`` within ``tolerance`` (absolute, in slope units)."""

    model: object
    statistic: str
    slope: float
    tolerance: float
    k: tuple = ()
    grid: Mapping = field(default_factory=dict)
    product: bool = False
    share: int = 1

    def __post_init__(self):
        _check_statistic(self.statistic)
        super().__post_init__()

    def check(self, run: ClaimRun) -> Verdict:
        result = _simulation(self, self.model, f"rate:{self.statistic}", self.k, self.grid,
                             self.product, self.share).result(run.budget)
        value = np.abs(getattr(result, self.statistic))
        log_se = getattr(result, STATISTICS[self.statistic]) / value
        x = np.log(result.k.astype(float))
        slopes, errors = [], []
        for y, s in zip(np.log(value), log_se):
            weight = 1.0 / s ** 2
            design = np.stack([np.ones_like(x), x], axis=1)
            covariance = np.linalg.inv(design.T @ (design * weight[:, None]))
            slopes.append((covariance @ (design.T @ (weight * y)))[1])
            errors.append(np.sqrt(covariance[1, 1]))
        parameters = [result.point(p) for p in range(result.n_points)]
        return run.agreement(theory=np.full(len(slopes), self.slope), estimate=slopes,
                             standard_error=errors, parameters=parameters,
                             quantity=f"log-log slope of the {self.statistic} of {result.model} "
                                      f"over k = {result.k.min()}..{result.k.max()}",
                             tolerance=self.tolerance)


@dataclass(frozen=True, kw_only=True)
class Identity(Claim):
    """An exact computation: ``compute()`` returns (holds, reason, rows) — sympy's
    ``simplify(a - b) == 0``, exact rationals, or floating point within a bound (then give
    ``error`` <= ``tolerance``, in ``units``)."""

    compute: Callable
    tolerance: float = 0.0
    error: float = 0.0
    units: str = "exact"

    def check(self, run: ClaimRun) -> Verdict:
        holds, reason, rows = self.compute()
        return run.exact(bool(holds), reason, rows=rows, tolerance=self.tolerance,
                         error=self.error, units=self.units)


@dataclass(frozen=True, kw_only=True)
class Paired(Claim):
    """A below B over independent trials: ``trials(run)`` returns {cell label: (A values,
    B values)}, one value per trial; at each cell the mean of B - A and its standard error
    sd / sqrt(n) are judged with the t quantile of n - 1 degrees of freedom (``strict`` and
    ``effect_size`` as for :class:`Ordering`, in the values' units)."""

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
            errors.append(difference.std(ddof=1) / np.sqrt(difference.size))
            dof.append(difference.size - 1)
            parameters.append({"cell": label, "trials": difference.size})
        return run.ordering(lower=lower, upper=upper, standard_error=errors,
                            parameters=parameters, quantity=self.quantity,
                            effect_size=self.effect_size, strict=self.strict,
                            degrees_of_freedom=np.asarray(dof), names=self.names)


@dataclass(frozen=True, kw_only=True)
class Check(Claim):
    """A claim whose check is code (``function(run) -> Verdict``); see :func:`claim`."""

    function: Callable

    def check(self, run: ClaimRun) -> Verdict:
        return self.function(run)


def claim(claim_id: str, *, source: str, statement: str, quote: str = "", note: str = "",
          derived_by_varlab: bool = False):
    """Decorator: declare the claim ``claim_id`` checked by the decorated ``function(run)``."""
    def register_check(function):
        Check(id=claim_id, source=source, quote=quote, statement=statement, note=note,
              derived_by_varlab=derived_by_varlab, function=function, origin=function.__module__)
        return function
    return register_check
