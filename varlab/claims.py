"""Claims: a statement of a paper + the formula that expresses it + the simulation that tests
it + the domain where it should hold -> a Verdict with the numbers.

A claim's ``check(budget)`` runs its simulation at the budget's repetition count and returns
a :class:`Verdict`. Agreement between theory and simulation is judged in the engine's own
standard errors: a point agrees when |estimate - theory| <= ``Z_MAX`` standard errors.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

import numpy as np

#: Agreement threshold in standard errors (DESIGN.md: "|estimate - theory| <= 4.5 SE").
Z_MAX = 4.5

CONFIRMED = "confirmed"
CONTRADICTED = "contradicted"
VERDICTS = (CONFIRMED, CONTRADICTED)


@dataclass(frozen=True)
class Budget:
    """How much simulation a check or figure may spend."""

    name: str
    n_repetitions: int
    random_state: int = 20161122
    n_jobs: int = 1


BUDGETS = {
    "test": Budget("test", 4_000),
    "quick": Budget("quick", 20_000),
    "full": Budget("full", 100_000),
}


def budget(name_or_budget) -> Budget:
    """A Budget from its name ('test', 'quick', 'full') or a Budget."""
    if isinstance(name_or_budget, Budget):
        return name_or_budget
    if name_or_budget not in BUDGETS:
        raise ValueError(f"budget must be one of {sorted(BUDGETS)}, got {name_or_budget!r}")
    return BUDGETS[name_or_budget]


@dataclass
class Verdict:
    """The outcome of one claim; ``theory``/``estimate``/``standard_error`` are the worst point."""

    id: str
    source: str
    statement: str
    verdict: str
    theory: float | None
    estimate: float | None
    standard_error: float | None
    summary: str
    budget: str
    details: list = field(default_factory=list)
    derived_by_varlab: bool = False

    def to_json(self) -> dict:
        """A JSON-serialisable dict (numpy scalars to Python, non-finite floats to strings)."""
        return _jsonable(asdict(self))


def _jsonable(value):
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if np.isfinite(value) else str(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


@dataclass(frozen=True)
class Claim:
    """A paper's statement and the check that confronts it with simulation."""

    id: str
    source: str
    statement: str
    check: Callable[[Budget], Verdict]
    derived_by_varlab: bool = False

    def run(self, budget_name="quick") -> Verdict:
        """Run the check at a budget (a name of ``BUDGETS`` or a ``Budget``) and return its Verdict."""
        verdict = self.check(budget(budget_name))
        verdict.derived_by_varlab = self.derived_by_varlab
        return verdict


def agreement(claim_id: str, source: str, statement: str, *, theory, estimate, standard_error,
              parameters: Sequence[dict], budget: Budget, quantity: str) -> Verdict:
    """Verdict of "estimate == theory" at every point, judged within ``Z_MAX`` standard errors.

    ``parameters`` gives one dict per point (rho, gamma, k, ...) for the report's details.
    """
    theory = np.asarray(theory, dtype=float).ravel()
    estimate = np.asarray(estimate, dtype=float).ravel()
    standard_error = np.asarray(standard_error, dtype=float).ravel()
    if not (theory.size == estimate.size == standard_error.size == len(parameters)):
        raise ValueError("theory, estimate, standard_error and parameters must have one entry per point")
    difference = estimate - theory
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(standard_error > 0, difference / standard_error,
                     np.where(difference == 0, 0.0, np.inf))
    worst = int(np.argmax(np.abs(z)))
    ok = bool(np.all(np.abs(z) <= Z_MAX))
    details = [dict(point, quantity=quantity, theory=t, estimate=e, standard_error=s, z=zz)
               for point, t, e, s, zz in zip(parameters, theory, estimate, standard_error, z)]
    summary = (f"{quantity}: {theory.size} points, max |z| = {abs(z[worst]):.2f} "
               f"(threshold {Z_MAX}) at {parameters[worst]}")
    return Verdict(claim_id, source, statement, CONFIRMED if ok else CONTRADICTED,
                   float(theory[worst]), float(estimate[worst]), float(standard_error[worst]),
                   summary, budget.name, details)


def write_report(verdicts: Sequence[Verdict], directory, *, title: str, budget: Budget) -> None:
    """Write ``report.md`` and ``report.json`` (one record per claim) into ``directory``."""
    from pathlib import Path

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    records = [verdict.to_json() for verdict in verdicts]
    payload = {"title": title, "budget": asdict(budget), "claims": records}
    (directory / "report.json").write_text(json.dumps(payload, indent=1) + "\n")
    counts = {name: sum(v.verdict == name for v in verdicts) for name in VERDICTS}
    lines = [f"# {title}", "",
             f"Budget `{budget.name}`: {budget.n_repetitions:,} repetitions per simulated point, "
             f"random_state {budget.random_state}. Agreement threshold: {Z_MAX} standard errors.",
             f"Claims: {len(verdicts)}; confirmed {counts[CONFIRMED]}, "
             f"contradicted {counts[CONTRADICTED]}.", "",
             "| id | source | verdict | theory | estimate | SE | summary |",
             "|---|---|---|---|---|---|---|"]
    for verdict in verdicts:
        label = verdict.id + (" (varlab's own)" if verdict.derived_by_varlab else "")
        lines.append(f"| {label} | {verdict.source} | **{verdict.verdict}** | "
                     f"{_fmt(verdict.theory)} | {_fmt(verdict.estimate)} | "
                     f"{_fmt(verdict.standard_error)} | {verdict.summary} |")
    lines.append("")
    for verdict in verdicts:
        lines += [f"## {verdict.id}", "", f"*{verdict.source}* — {verdict.statement}", "",
                  f"Verdict: **{verdict.verdict}**. {verdict.summary}", ""]
        if verdict.details:
            keys = list(verdict.details[0])
            lines.append("| " + " | ".join(keys) + " |")
            lines.append("|" + "---|" * len(keys))
            for row in verdict.details:
                lines.append("| " + " | ".join(_fmt(row.get(key)) for key in keys) + " |")
            lines.append("")
    (directory / "report.md").write_text("\n".join(lines) + "\n")


def _fmt(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (float, np.floating)):
        return f"{value:.6g}"
    return str(value)
