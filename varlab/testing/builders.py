"""The builders of a Verdict: agreement, ordering, an exact computation, and statements joined by
"and"; they decide through ``decision`` at ``outcomes.threshold`` (one rule) and take the words
from the run's claim.

``run`` is what a check gets (``varlab.claims.ClaimRun``): its ``claim`` gives the words (id,
source, quote, statement, note; empty for a user's own check) and its ``budget`` the name.

Examples
--------
>>> from varlab.claims import Budget, ClaimRun, Identity
>>> from varlab.testing import builders
>>> claim = Identity(id="doc.builders", source="s", quote="q", statement="s",
...                  compute=lambda: (True, "", []))
>>> run = ClaimRun(claim, Budget("doc", 1_000))
>>> verdict = builders.agreement(run, theory=[1.0, 2.0], estimate=[1.01, 1.98],
...                              standard_error=[0.01, 0.01], parameters=[{"x": 1}, {"x": 2}],
...                              quantity="f(x)", tolerance=0.1, n_repetitions=1_000)
>>> verdict.outcome, verdict.id, round(verdict.threshold, 3)
('confirmed', 'doc.builders', 4.524)
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .decision import decide_agreement, decide_ordering
from .outcomes import CONFIRMED, CONTRADICTED, INCONCLUSIVE, threshold
from .verdict import Verdict, format_point

__all__ = ["verdict", "agreement", "ordering", "exact", "combined", "trials_needed"]


def verdict(run, outcome: str, reason: str, *, method: str, resolution: float, tolerance: float,
            units: str, rows: Sequence[dict] = (), budget_factor: float | None = None,
            accuracy: dict | None = None, threshold: float | None = None,
            n_repetitions: int | None = None, significant_departure: float | None = None) -> Verdict:
    """A Verdict of ``run``'s claim, its words taken from the declaration.

    Examples
    --------
    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> from varlab.testing import builders
    >>> claim = Identity(id="doc.verdict", source="s", quote="q", statement="holds",
    ...                  compute=lambda: (True, "", []))
    >>> record = builders.verdict(ClaimRun(claim, Budget("doc", 100)), "confirmed", "by hand",
    ...                           method="exact", resolution=0.0, tolerance=0.0, units="exact")
    >>> record.id, record.budget, record.statement
    ('doc.verdict', 'doc', 'holds')
    """
    c = run.claim
    return Verdict(c.id, c.source, c.quote, c.statement, outcome, method, float(resolution),
                   float(tolerance), units, reason, run.budget.name, c.note, budget_factor,
                   c.derived_by_varlab, [dict(row) for row in rows],
                   {key: float(value) for key, value in (accuracy or {}).items()},
                   None if threshold is None else float(threshold),
                   None if n_repetitions is None else int(n_repetitions),
                   significant_departure=significant_departure)


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
        return threshold(n) / np.sqrt(n)

    target = scale(n_trials) / np.sqrt(factor)
    high = n_trials
    while scale(high) > target:
        high *= 2
    low = max(n_trials, high // 2)
    while low < high:
        middle = (low + high) // 2
        low, high = (middle + 1, high) if scale(middle) > target else (low, middle)
    return int(high)


class _Rule:
    """The significance of a check's points: from ``n_repetitions`` (a simulation's repetitions
    per point), from ``degrees_of_freedom`` (few independent trials per point: method "trials"),
    or, with neither, a large-sample standard error (n = inf, the limit Z_MAX)."""

    def __init__(self, size: int, n_repetitions, degrees_of_freedom):
        if n_repetitions is not None and degrees_of_freedom is not None:
            raise ValueError("give n_repetitions (a simulation) or degrees_of_freedom (trials), "
                             "not both")
        self.trials = degrees_of_freedom is not None
        if self.trials:
            n = np.asarray(degrees_of_freedom, dtype=float) + 1
        else:
            n = np.inf if n_repetitions is None else n_repetitions
        self.n = np.broadcast_to(np.asarray(n, dtype=float), (size,))
        self.threshold = np.asarray(threshold(self.n), dtype=float).reshape(size)
        self.method = "trials" if self.trials else "simulation"
        self.n_repetitions = (int(np.min(self.n)) if n_repetitions is not None and size else None)

    def words(self) -> str:
        """The rule in words where the trials set it."""
        if not self.trials:
            return ""
        low, high = float(np.min(self.threshold)), float(np.max(self.threshold))
        span = f"{low:.2f}" if np.isclose(low, high) else f"{low:.2f} to {high:.2f}"
        return f" (threshold: t quantile {span}, few independent trials)"

    def budget_text(self):
        """For standard errors from few trials: the budget factor in trials, from the trials of the
        cell that sets it (issue 34: not the fewest cell's)."""
        if not self.trials:
            return None

        def text(factor, index):
            n_trials = int(self.n[index])
            return f"about {trials_needed(n_trials, factor):,} trials (now {n_trials}) would resolve it"

        return text

    def budget_factor(self, decision) -> float | None:
        """The decision's budget factor in this rule's budget: for trials, the trials that would
        resolve it over the trials now, at the cell that sets it (the decision's factor holds the
        threshold fixed, while the t quantile falls as trials grow)."""
        factor = decision.budget_factor
        if not self.trials or factor is None or not np.isfinite(factor):
            return factor
        n_trials = int(self.n[decision.worst])
        return trials_needed(n_trials, factor) / n_trials

    def fields(self) -> dict:
        return dict(method=self.method, threshold=float(np.max(self.threshold)),
                    n_repetitions=self.n_repetitions)


def _flat(arrays: dict, parameters) -> list:
    """The arrays flattened, one entry per point of ``parameters`` (else a ValueError naming
    them)."""
    flat = [np.asarray(value, dtype=float).ravel() for value in arrays.values()]
    if any(array.size != len(parameters) for array in flat):
        raise ValueError(f"{', '.join(arrays)} and parameters must have one entry per point")
    return flat


def agreement(run, *, theory, estimate, standard_error, parameters: Sequence[dict], quantity: str,
              tolerance: float, relative: bool = False, n_repetitions=None,
              degrees_of_freedom=None, units: str | None = None) -> Verdict:
    """"estimate equals theory" at every point, decided by ``decide_agreement`` at the threshold
    of the repetitions (``n_repetitions``) or trials (``degrees_of_freedom``) per point;
    ``tolerance`` relative to |theory| if ``relative``, else in the quantity's units (``units``
    names them; default "relative" or "absolute").

    Examples
    --------
    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> from varlab.testing import builders
    >>> run = ClaimRun(Identity.part(compute=lambda: (True, "", [])), Budget("doc", 100))
    >>> verdict = builders.agreement(run, theory=[1.0], estimate=[1.02], standard_error=[0.01],
    ...                              parameters=[{"x": 1}], quantity="f", tolerance=0.1,
    ...                              n_repetitions=50)
    >>> verdict.outcome, round(verdict.threshold, 2), round(verdict.resolution, 4)
    ('confirmed', 5.04, 0.0504)
    """
    theory, estimate, standard_error = _flat(
        dict(theory=theory, estimate=estimate, standard_error=standard_error), parameters)
    rule = _Rule(len(parameters), n_repetitions, degrees_of_freedom)
    decision = decide_agreement(estimate=estimate, reference=theory, error=standard_error,
                                threshold=rule.threshold, tolerance=tolerance, relative=relative,
                                labels=[format_point(p) for p in parameters],
                                describe_budget=rule.budget_text())
    rows = [dict(point, theory=t, estimate=e, SE=s, z=z) for point, t, e, s, z in
            zip(parameters, theory, estimate, standard_error, decision.z)]
    return verdict(run, decision.outcome, f"{quantity}: {decision.reason}{rule.words()}",
                   resolution=decision.resolution, tolerance=tolerance,
                   units=units or ("relative" if relative else "absolute"), rows=rows,
                   budget_factor=rule.budget_factor(decision), significant_departure=decision.significant,
                   **rule.fields())


def ordering(run, *, lower, upper, standard_error, parameters: Sequence[dict], quantity: str,
             effect_size: float, strict: bool = True, n_repetitions=None,
             degrees_of_freedom=None, names=("A", "B"), units: str | None = None) -> Verdict:
    """"lower < upper" at every point (``standard_error``: that of upper - lower), decided by
    ``decide_ordering`` with ``effect_size`` in the quantity's units (``units`` names them;
    default "absolute"); the threshold as for :func:`agreement`.

    Examples
    --------
    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> from varlab.testing import builders
    >>> run = ClaimRun(Identity.part(compute=lambda: (True, "", [])), Budget("doc", 100))
    >>> verdict = builders.ordering(run, lower=[0.8], upper=[1.0], standard_error=[0.01],
    ...                             parameters=[{"x": 1}], quantity="f", effect_size=0.1,
    ...                             degrees_of_freedom=[9], names=("ours", "theirs"))
    >>> verdict.outcome, verdict.method, list(verdict.rows[0])
    ('confirmed', 'trials', ['x', 'ours', 'theirs', 'theirs - ours', 'SE', 'z'])
    """
    lower, upper, standard_error = _flat(
        dict(lower=lower, upper=upper, standard_error=standard_error), parameters)
    rule = _Rule(len(parameters), n_repetitions, degrees_of_freedom)
    decision = decide_ordering(lower=lower, upper=upper, error=standard_error,
                               threshold=rule.threshold, effect_size=effect_size, strict=strict,
                               labels=[format_point(p) for p in parameters],
                               describe_budget=rule.budget_text())
    a, b = names
    rows = [{**point, a: lo, b: up, f"{b} - {a}": up - lo, "SE": s, "z": z} for
            point, lo, up, s, z in zip(parameters, lower, upper, standard_error, decision.z)]
    reason = decision.reason.replace("B - A", f"{b} - {a}").replace("A - B", f"{a} - {b}")
    return verdict(run, decision.outcome, f"{quantity} (A = {a}, B = {b}): {reason}{rule.words()}",
                   resolution=decision.resolution, tolerance=effect_size,
                   units=units or "absolute", rows=rows, budget_factor=rule.budget_factor(decision),
                   **rule.fields())


def exact(run, holds: bool, reason: str, *, rows: Sequence[dict] = (), tolerance: float = 0.0,
          error: float = 0.0, units: str = "exact", accuracy: dict | None = None) -> Verdict:
    """The outcome of an exact computation (symbolic, exact numbers, or floating point with a
    bound ``error`` <= ``tolerance``): confirmed if ``holds``, else contradicted; its resolution
    is the computation's error bound; ``accuracy``: the absolute accuracy of row columns coarser
    than 1e-12 relative (``Verdict.accuracy``).

    Examples
    --------
    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> from varlab.testing import builders
    >>> run = ClaimRun(Identity.part(compute=lambda: (True, "", [])), Budget("doc", 100))
    >>> builders.exact(run, 2 + 2 == 4, "integers").outcome
    'confirmed'
    >>> builders.exact(run, True, "floats", error=1e-9, tolerance=1e-12)
    Traceback (most recent call last):
    ...
    ValueError: an exact check needs its error bound 1e-09 <= its tolerance 1e-12
    """
    if error > tolerance:
        raise ValueError(f"an exact check needs its error bound {error:g} <= its tolerance "
                         f"{tolerance:g}")
    return verdict(run, CONFIRMED if holds else CONTRADICTED, reason, method="exact",
                   resolution=error, tolerance=tolerance, units=units, rows=rows,
                   accuracy=accuracy)


def combined(run, parts: Sequence[Verdict], reason_prefix: str = "") -> Verdict:
    """One Verdict of several checks that the statement joins with "and": contradicted if one
    is, else inconclusive if one is, else confirmed; the resolution and tolerance are those of
    the part with the largest resolution / tolerance; rows concatenated; the largest threshold
    and fewest repetitions of the parts.

    Examples
    --------
    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> from varlab.testing import builders
    >>> run = ClaimRun(Identity.part(compute=lambda: (True, "", [])), Budget("doc", 100))
    >>> law = builders.exact(run, True, "the law")
    >>> simulated = builders.agreement(run, theory=[1.0], estimate=[1.0], standard_error=[0.1],
    ...                                parameters=[{}], quantity="f", tolerance=0.1,
    ...                                n_repetitions=100)
    >>> both = builders.combined(run, [law, simulated])
    >>> both.outcome, both.n_repetitions, both.reason.startswith("the law | f: resolution")
    ('inconclusive', 100, True)
    """
    order = {CONTRADICTED: 0, INCONCLUSIVE: 1, CONFIRMED: 2}
    outcome = min((part.outcome for part in parts), key=order.get)
    units = {part.units for part in parts}
    tightest = max(parts, key=lambda part: part.resolution / part.tolerance
                   if part.tolerance > 0 else (np.inf if part.resolution > 0 else 0.0))
    factors = [part.budget_factor for part in parts if part.outcome == INCONCLUSIVE]
    factor = (None if outcome != INCONCLUSIVE or None in factors else max(factors))
    accuracy = {}
    for part in parts:
        for column, bound in part.accuracy.items():
            accuracy[column] = max(bound, accuracy.get(column, 0.0))
    thresholds = [part.threshold for part in parts if part.threshold is not None]
    repetitions = [part.n_repetitions for part in parts if part.n_repetitions is not None]
    significant = [part.significant_departure for part in parts
                   if part.significant_departure is not None
                   and (part.units, part.tolerance) == (tightest.units, tightest.tolerance)]
    return verdict(run, outcome, reason_prefix + " | ".join(part.reason for part in parts),
                   method="exact" if all(p.method == "exact" for p in parts) else
                   "trials" if any(p.method == "trials" for p in parts) else "simulation",
                   resolution=tightest.resolution, tolerance=tightest.tolerance,
                   units=units.pop() if len(units) == 1 else tightest.units,
                   rows=[row for part in parts for row in part.rows], budget_factor=factor,
                   accuracy=accuracy, threshold=max(thresholds, default=None),
                   n_repetitions=min(repetitions, default=None),
                   significant_departure=max(significant, key=abs, default=None) if outcome == CONFIRMED else None)
