"""Claims: a statement of a paper + the check that confronts it with theory and simulation ->
a Verdict with the numbers.

A claim is declared once, with its id, source and statement, by decorating its check::

    @claim("000.thm2.eq16", source="000, Thm 2, Eq. (16)",
           statement="E[sqrt2 cos(...) sqrt2 cos(...)] = exp(-gamma (1 - rho)).")
    def rff_mean(run):
        result = run.simulate("rff", k=[1, 10], rho=..., gamma=...)
        return run.agreement(theory=..., estimate=result.mean, standard_error=result.se_mean,
                             parameters=[...], quantity="mean of the k-sample RFF estimator")

The check receives a :class:`ClaimRun`: the budget, seeds derived from the claim's id by a stable
hash (``run.seed(label)``), ``run.simulate`` (``mc.simulate`` at the budget, seeded, cached so that
figures showing the same numbers reuse it) and verdict builders that fill in the id, source and
statement. Claims register on definition; papers live in ``paper_checks/pNNN`` packages and are
discovered (``papers()``, ``claims(paper)``).

Agreement is judged in the engine's standard errors: |estimate - theory| <= ``Z_MAX`` SE, or the
matching t quantile when an SE comes from few independent units.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

import numpy as np

from . import _random
from .mc.stats import Z_MAX, t_threshold, z_score
from .testing.outcomes import CONFIRMED, CONTRADICTED

__all__ = ["Z_MAX", "CONFIRMED", "CONTRADICTED", "Budget", "BUDGETS", "budget", "Verdict", "Claim",
           "ClaimRun", "claim", "claims", "papers", "paper_title", "t_threshold", "write_report"]

VERDICTS = (CONFIRMED, CONTRADICTED)


@dataclass(frozen=True)
class Budget:
    """How much simulation a check or figure may spend."""

    name: str
    n_repetitions: int
    random_state: int = 20161122
    n_jobs: int = 1

    def scaled(self, factor: int) -> "Budget":
        """The same budget with ``factor`` times the repetitions."""
        return Budget(self.name, self.n_repetitions * int(factor), self.random_state, self.n_jobs)


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


_SIMULATIONS: dict = {}


class ClaimRun:
    """What a check gets: the budget, seeds derived from the claim id, and verdict builders."""

    def __init__(self, claim: "Claim", budget: Budget):
        self.claim = claim
        self.budget = budget

    def seed(self, label: str = "") -> np.random.SeedSequence:
        """A SeedSequence from the budget's random_state, the claim's id and ``label`` (stable
        hashes of the strings; no hand-picked salts)."""
        return np.random.SeedSequence([self.budget.random_state, _random.stable_hash(self.claim.id),
                                       _random.stable_hash(label)])

    def simulate(self, model, *, label: str = "", repetition_factor: int = 1, **arguments):
        """``mc.simulate`` at this budget's repetitions (x ``repetition_factor``), seeded by
        ``seed(label)``; cached in-process, so a figure that asks for the same simulation of the
        same claim reuses it."""
        return simulate_for(self.claim.id, self.budget, model, label=label,
                            repetition_factor=repetition_factor, **arguments)

    def verdict(self, holds: bool, summary: str, *, theory=None, estimate=None,
                standard_error=None, details: Sequence[dict] = ()) -> Verdict:
        """A Verdict of this claim: confirmed if ``holds``."""
        return Verdict(self.claim.id, self.claim.source, self.claim.statement,
                       CONFIRMED if holds else CONTRADICTED,
                       None if theory is None else float(theory),
                       None if estimate is None else float(estimate),
                       None if standard_error is None else float(standard_error),
                       summary, self.budget.name, list(details), self.claim.derived_by_varlab)

    def agreement(self, *, theory, estimate, standard_error, parameters: Sequence[dict],
                  quantity: str, degrees_of_freedom=None, extra_summary: str = "",
                  also_holds: bool = True) -> Verdict:
        """Verdict of "estimate == theory" at every point: |z| <= Z_MAX (or the t quantile of
        ``degrees_of_freedom`` per point). ``also_holds`` ands in a further condition that the
        statement makes (explained in ``extra_summary``)."""
        theory = np.asarray(theory, dtype=float).ravel()
        estimate = np.asarray(estimate, dtype=float).ravel()
        standard_error = np.asarray(standard_error, dtype=float).ravel()
        if not (theory.size == estimate.size == standard_error.size == len(parameters)):
            raise ValueError("theory, estimate, standard_error and parameters must have one entry "
                             "per point")
        z = z_score(estimate, theory, standard_error)
        threshold = (np.full(theory.size, Z_MAX) if degrees_of_freedom is None else
                     np.broadcast_to(t_threshold(degrees_of_freedom), theory.shape).ravel())
        worst = int(np.argmax(np.abs(z) / threshold))
        ok = bool(np.all(np.abs(z) <= threshold)) and also_holds
        details = [dict(point, quantity=quantity, theory=t, estimate=e, standard_error=s, z=zz)
                   for point, t, e, s, zz in zip(parameters, theory, estimate, standard_error, z)]
        rule = (f"threshold {Z_MAX}" if degrees_of_freedom is None else
                f"threshold: t quantile, {threshold.min():.2f} to {threshold.max():.2f}")
        summary = (f"{quantity}: {theory.size} points, max |z| = {abs(z[worst]):.2f} ({rule}) at "
                   f"{parameters[worst]}" + (f"; {extra_summary}" if extra_summary else ""))
        return self.verdict(ok, summary, theory=theory[worst], estimate=estimate[worst],
                            standard_error=standard_error[worst], details=details)


def simulate_for(claim_id: str, budget_: Budget, model, *, label: str = "",
                 repetition_factor: int = 1, **arguments):
    """The (cached) simulation ``label`` of claim ``claim_id`` at ``budget_``."""
    from . import mc

    key = (claim_id, budget_, label, repetition_factor, model,
           json.dumps({name: np.asarray(value).tolist() for name, value in arguments.items()},
                      sort_keys=True))
    if key not in _SIMULATIONS:
        seed = ClaimRun(Claim(claim_id, "", "", None), budget_).seed(label)
        _SIMULATIONS[key] = mc.simulate(model, n_repetitions=budget_.n_repetitions * repetition_factor,
                                        random_state=seed, n_jobs=budget_.n_jobs, **arguments)
    return _SIMULATIONS[key]


@dataclass(frozen=True)
class Claim:
    """A paper's statement and the check that confronts it with simulation."""

    id: str
    source: str
    statement: str
    check: Callable[[ClaimRun], Verdict] | None
    derived_by_varlab: bool = False

    @property
    def paper(self) -> str:
        """The paper's number ("000"): the id's prefix, or the check's ``paper_checks.pNNN``."""
        module = getattr(self.check, "__module__", "") or ""
        parts = module.split(".")
        if len(parts) > 1 and parts[0] == "paper_checks" and parts[1].startswith("p"):
            return parts[1][1:]
        return self.id.split(".")[0]

    def run(self, budget_name="quick") -> Verdict:
        """Run the check at a budget (a name of ``BUDGETS`` or a Budget)."""
        verdict = self.check(ClaimRun(self, budget(budget_name)))
        if not isinstance(verdict, Verdict) or verdict.id != self.id:
            raise TypeError(f"claim {self.id!r}: the check must return its run's Verdict")
        return verdict


_CLAIMS: dict[str, Claim] = {}


def claim(claim_id: str, *, source: str, statement: str, derived_by_varlab: bool = False):
    """Decorator: declare and register the claim ``claim_id`` checked by the decorated function."""
    def register(check):
        new = Claim(claim_id, source, statement, check, derived_by_varlab)
        old = _CLAIMS.get(claim_id)
        if old is not None and (old.check.__module__, old.check.__qualname__) != (
                check.__module__, check.__qualname__):
            raise ValueError(f"claim id {claim_id!r} is declared twice ({old.check.__module__} and "
                             f"{check.__module__})")
        _CLAIMS[claim_id] = new
        return check
    return register


def _discover() -> dict[str, object]:
    """Import every ``paper_checks.pNNN`` package (which registers its claims and figures)."""
    import paper_checks

    found = {}
    for info in sorted(pkgutil.iter_modules(paper_checks.__path__), key=lambda info: info.name):
        if info.ispkg and info.name.startswith("p") and info.name[1:].isdigit():
            found[info.name[1:]] = importlib.import_module(f"paper_checks.{info.name}")
    return found


def papers() -> list[str]:
    """The papers with a ``paper_checks`` package ("000", "001", ...)."""
    return list(_discover())


def paper_title(paper: str) -> str:
    """The title a paper's package declares (its ``TITLE``)."""
    modules = _discover()
    if paper not in modules:
        raise ValueError(f"paper must be one of {list(modules)}, got {paper!r}")
    return getattr(modules[paper], "TITLE", f"Paper {paper}")


def claims(paper: str | None = None) -> list[Claim]:
    """The registered claims (of ``paper``), in declaration order."""
    known = _discover()
    if paper is not None and paper not in known:
        raise ValueError(f"paper must be one of {list(known)}, got {paper!r}")
    return [c for c in _CLAIMS.values() if paper is None or c.paper == paper]


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
             f"Budget `{budget.name}`: {budget.n_repetitions:,} repetitions per simulated point (the "
             f"real-data claims state their own repetitions in their summaries), "
             f"random_state {budget.random_state} (each claim's seed is derived from it and the "
             f"claim's id). Agreement threshold: {Z_MAX} standard errors (the matching t quantile "
             f"where an SE comes from few independent units).",
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
            keys = list(dict.fromkeys(key for row in verdict.details for key in row))
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
