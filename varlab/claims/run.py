"""What a check gets: the budget, seeds derived from the claim's id, cached simulations, the
run's stores, and the builders of its Verdict (agreement, ordering, exact, combined), which
decide through ``varlab.testing.decision`` (the three outcomes, defined once)."""
from __future__ import annotations

import json
from typing import Sequence

import numpy as np

from ..seeding import derive_seed
from ..mc.stats import Z_MAX, t_threshold
from ..testing.decision import decide_agreement, decide_ordering
from ..testing.outcomes import CONFIRMED, CONTRADICTED, INCONCLUSIVE
from ..testing.verdict import format_point
from .budget import Budget
from .store import store_for
from .verdict import Verdict

__all__ = ["ClaimRun", "simulate_for", "seed_for", "points", "trials_needed"]

_SIMULATIONS: dict = {}


def seed_for(claim_id: str, budget: Budget, label: str = "") -> np.random.SeedSequence:
    """A SeedSequence from the budget's random_state, the claim's id and ``label`` (stable hashes
    of the strings; no hand-picked salts).

    Examples
    --------
    >>> from varlab.claims import budget, seed_for
    >>> seed = seed_for("000.thm1", budget("test"), "pairs")
    >>> seed.entropy == seed_for("000.thm1", budget("test"), "pairs").entropy
    True
    """
    return derive_seed(budget.random_state, claim_id, label)


def simulate_for(claim_id: str, budget: Budget, model, *, label: str = "",
                 repetition_factor: int = 1, **arguments):
    """``mc.simulate`` of ``model`` at ``budget`` (x ``repetition_factor``), seeded by
    ``seed_for(claim_id, budget, label)``; cached in-process, so that claims and figures that
    ask for the same simulation share it.

    Examples
    --------
    >>> from varlab.claims import budget, simulate_for
    >>> result = simulate_for("doc.simulate", budget("test"), "rff", k=[1, 4], rho=0.5, gamma=1.0)
    >>> result is simulate_for("doc.simulate", budget("test"), "rff", k=[1, 4], rho=0.5, gamma=1.0)
    True
    """
    from .. import mc

    key = (claim_id, budget.name, budget.n_repetitions, budget.random_state, label,
           repetition_factor, model,
           json.dumps({name: np.asarray(value).tolist() for name, value in arguments.items()},
                      sort_keys=True))
    if key not in _SIMULATIONS:
        _SIMULATIONS[key] = mc.simulate(model, n_repetitions=budget.n_repetitions * repetition_factor,
                                        random_state=seed_for(claim_id, budget, label),
                                        n_jobs=budget.n_jobs, **arguments)
    return _SIMULATIONS[key]


def points(result, k=None) -> list[dict]:
    """One dict per (point, k) of a SimulationResult, in the engine's (point, k) order: the
    point's declared parameters and k (``k``: the k values, default the result's).

    Examples
    --------
    >>> from varlab.claims import budget, points, simulate_for
    >>> result = simulate_for("doc.points", budget("test"), "rff", k=[1, 4], rho=(0.0, 0.5), gamma=1.0)
    >>> points(result)[:2]
    [{'rho': 0.0, 'gamma': 1.0, 'k': 1}, {'rho': 0.0, 'gamma': 1.0, 'k': 4}]
    """
    k = result.k if k is None else k
    return [{**result.point(p), "k": int(kk)} for p in range(result.n_points) for kk in k]


def _rule(threshold, degrees_of_freedom) -> str:
    """The significance rule in words where it is not Z_MAX."""
    if degrees_of_freedom is None:
        return ""
    low, high = float(np.min(threshold)), float(np.max(threshold))
    span = f"{low:.2f}" if np.isclose(low, high) else f"{low:.2f} to {high:.2f}"
    return f" (threshold: t quantile {span}, few independent trials)"


def trials_needed(n_trials: int, factor: float) -> int:
    """The trials at which t(n' - 1) / sqrt(n') falls to t(n - 1) / sqrt(n) / sqrt(factor): the
    trials that shrink the resolution of a mean over n trials by sqrt(factor), counting that the
    t quantile falls as the trials grow (``factor`` is the budget factor at a fixed threshold).

    Examples
    --------
    >>> trials_needed(30, 1.0)
    30
    >>> trials_needed(3, 4.0) < 12
    True
    """
    def scale(n):
        return float(t_threshold(n - 1)) / np.sqrt(n)

    target = scale(n_trials) / np.sqrt(factor)
    high = n_trials
    while scale(high) > target:
        high *= 2
    low = max(n_trials, high // 2)
    while low < high:
        middle = (low + high) // 2
        low, high = (middle + 1, high) if scale(middle) > target else (low, middle)
    return int(high)


def _trials_text(degrees_of_freedom):
    """For standard errors from few trials: the budget factor in trials (the fewest cell's)."""
    if degrees_of_freedom is None:
        return None
    n_trials = int(np.min(degrees_of_freedom)) + 1
    return lambda factor: (f"about {trials_needed(n_trials, factor):,} trials (now {n_trials}) "
                           f"would resolve it")


def _per_point(arrays: dict, parameters, degrees_of_freedom) -> list:
    """The arrays flattened (one entry per point of ``parameters``, else a ValueError naming
    them) and the threshold per point: Z_MAX, or the t quantile of ``degrees_of_freedom``."""
    flat = [np.asarray(value, dtype=float).ravel() for value in arrays.values()]
    if any(array.size != len(parameters) for array in flat):
        raise ValueError(f"{', '.join(arrays)} and parameters must have one entry per point")
    size = len(parameters)
    threshold = (np.full(size, Z_MAX) if degrees_of_freedom is None else
                 np.broadcast_to(t_threshold(degrees_of_freedom), (size,)).astype(float))
    return flat + [threshold]


class ClaimRun:
    """What a check gets (see the module docstring).

    Examples
    --------
    A check written as code builds its Verdict with the run's builders:

    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> claim = Identity(id="doc.run", source="s", quote="q", statement="s",
    ...                  compute=lambda: (True, "", []))
    >>> run = ClaimRun(claim, Budget("doc", 1_000))
    >>> verdict = run.agreement(theory=[1.0, 2.0], estimate=[1.01, 1.98], standard_error=[0.01, 0.01],
    ...                         parameters=[{"x": 1}, {"x": 2}], quantity="f(x)", tolerance=0.1)
    >>> verdict.outcome, verdict.id
    ('confirmed', 'doc.run')
    """

    def __init__(self, claim, budget: Budget):
        self.claim = claim
        self.budget = budget

    def seed(self, label: str = "") -> np.random.SeedSequence:
        """The claim's SeedSequence for ``label`` (see :func:`seed_for`)."""
        return seed_for(self.claim.id, self.budget, label)

    def part(self, divisor: int) -> Budget:
        """A part of the run's budget (``Budget.part``)."""
        return self.budget.part(divisor)

    def simulate(self, model, *, label: str = "", share: int = 1, repetition_factor: int = 1,
                 **arguments):
        """``simulate_for`` of this claim at its budget (divided by ``share``)."""
        return simulate_for(self.claim.id, self.part(share), model, label=label,
                            repetition_factor=repetition_factor, **arguments)

    def store(self, name: str):
        """The run's resumable store ``name`` (``varlab.claims.store_for``)."""
        return store_for(self.budget, name)

    # --- verdict builders ---------------------------------------------------------------------

    def verdict(self, outcome: str, reason: str, *, method: str, resolution: float,
                tolerance: float, units: str, rows: Sequence[dict] = (),
                budget_factor: float | None = None, accuracy: dict | None = None) -> Verdict:
        """A Verdict of this claim, its words taken from the declaration."""
        c = self.claim
        return Verdict(c.id, c.source, c.quote, c.statement, outcome, method, float(resolution),
                       float(tolerance), units, reason, self.budget.name, c.note, budget_factor,
                       c.derived_by_varlab, [dict(row) for row in rows],
                       {key: float(value) for key, value in (accuracy or {}).items()})

    def agreement(self, *, theory, estimate, standard_error, parameters: Sequence[dict],
                  quantity: str, tolerance: float, relative: bool = False,
                  degrees_of_freedom=None, units: str | None = None) -> Verdict:
        """"estimate equals theory" at every point, decided by ``decide_agreement``: threshold
        ``Z_MAX`` (or the t quantile of ``degrees_of_freedom`` per point, for an SE from few
        independent units); ``tolerance`` relative to |theory| if ``relative``, else in the
        quantity's units (``units`` names them; default "relative" or "absolute")."""
        theory, estimate, standard_error, threshold = _per_point(
            dict(theory=theory, estimate=estimate, standard_error=standard_error), parameters,
            degrees_of_freedom)
        decision = decide_agreement(estimate=estimate, reference=theory, error=standard_error,
                                    threshold=threshold, tolerance=tolerance, relative=relative,
                                    labels=[format_point(p) for p in parameters],
                                    describe_budget=_trials_text(degrees_of_freedom))
        rows = [dict(point, theory=t, estimate=e, SE=s, z=z) for point, t, e, s, z in
                zip(parameters, theory, estimate, standard_error, decision.z)]
        reason = f"{quantity}: {decision.reason}{_rule(threshold, degrees_of_freedom)}"
        return self.verdict(decision.outcome, reason,
                            method="simulation" if degrees_of_freedom is None else "trials",
                            resolution=decision.resolution, tolerance=tolerance,
                            units=units or ("relative" if relative else "absolute"), rows=rows,
                            budget_factor=decision.budget_factor)

    def ordering(self, *, lower, upper, standard_error, parameters: Sequence[dict],
                 quantity: str, effect_size: float, strict: bool = True,
                 degrees_of_freedom=None, names=("A", "B"), units: str | None = None) -> Verdict:
        """"lower < upper" at every point (``standard_error``: that of upper - lower), decided by
        ``decide_ordering`` with ``effect_size`` in the quantity's units (``units`` names them;
        default "absolute")."""
        lower, upper, standard_error, threshold = _per_point(
            dict(lower=lower, upper=upper, standard_error=standard_error), parameters,
            degrees_of_freedom)
        decision = decide_ordering(lower=lower, upper=upper, error=standard_error,
                                   threshold=threshold, effect_size=effect_size, strict=strict,
                                   labels=[format_point(p) for p in parameters],
                                   describe_budget=_trials_text(degrees_of_freedom))
        a, b = names
        rows = [{**point, a: lo, b: up, f"{b} - {a}": up - lo, "SE": s, "z": z} for
                point, lo, up, s, z in zip(parameters, lower, upper, standard_error, decision.z)]
        reason = decision.reason.replace("B - A", f"{b} - {a}").replace("A - B", f"{a} - {b}")
        reason = f"{quantity} (A = {a}, B = {b}): {reason}{_rule(threshold, degrees_of_freedom)}"
        return self.verdict(decision.outcome, reason,
                            method="simulation" if degrees_of_freedom is None else "trials",
                            resolution=decision.resolution, tolerance=effect_size,
                            units=units or "absolute", rows=rows,
                            budget_factor=decision.budget_factor)

    def exact(self, holds: bool, reason: str, *, rows: Sequence[dict] = (),
              tolerance: float = 0.0, error: float = 0.0, units: str = "exact",
              accuracy: dict | None = None) -> Verdict:
        """The outcome of an exact computation (symbolic, exact numbers, or floating point with
        a bound ``error`` <= ``tolerance``): confirmed if ``holds``, else contradicted; its
        resolution is the computation's error bound; ``accuracy``: the absolute accuracy of row
        columns coarser than 1e-12 relative (``Verdict.accuracy``)."""
        if error > tolerance:
            raise ValueError(f"an exact check needs its error bound {error:g} <= its tolerance "
                             f"{tolerance:g}")
        return self.verdict(CONFIRMED if holds else CONTRADICTED, reason, method="exact",
                            resolution=error, tolerance=tolerance, units=units, rows=rows,
                            accuracy=accuracy)

    def combined(self, parts: Sequence[Verdict], reason_prefix: str = "") -> Verdict:
        """One Verdict of several checks that the statement joins with "and": contradicted if
        one is, else inconclusive if one is, else confirmed; the resolution and tolerance are
        those of the part with the largest resolution / tolerance; rows concatenated."""
        order = {CONTRADICTED: 0, INCONCLUSIVE: 1, CONFIRMED: 2}
        outcome = min((part.outcome for part in parts), key=order.get)
        units = {part.units for part in parts}
        tightest = max(parts, key=lambda part: part.resolution / part.tolerance
                       if part.tolerance > 0 else (np.inf if part.resolution > 0 else 0.0))
        factors = [part.budget_factor for part in parts if part.outcome == INCONCLUSIVE]
        factor = (None if outcome != INCONCLUSIVE or None in factors else max(factors))
        reason = reason_prefix + " | ".join(part.reason for part in parts)
        rows = [row for part in parts for row in part.rows]
        accuracy = {}
        for part in parts:
            for column, bound in part.accuracy.items():
                accuracy[column] = max(bound, accuracy.get(column, 0.0))
        return self.verdict(outcome, reason,
                            method="exact" if all(p.method == "exact" for p in parts) else
                            "trials" if any(p.method == "trials" for p in parts) else "simulation",
                            resolution=tightest.resolution, tolerance=tightest.tolerance,
                            units=units.pop() if len(units) == 1 else tightest.units, rows=rows,
                            budget_factor=factor, accuracy=accuracy)
