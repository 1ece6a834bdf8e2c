"""The one runner of claims: run them at a budget, keep each finished verdict in the budget's
store (so a killed run resumes), and write one report per paper. ``varlab check``,
``varlab reproduce`` and the scripts under ``simulations/`` all run claims through it."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from ..testing.verdict import Verdict
from .budget import Budget, budget as as_budget
from .registry import claims, not_checked, paper_title, papers
from .report import write_report
from .store import store_for

__all__ = ["run_claims", "stored_verdicts", "check"]


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _key(budget: Budget, claim_id: str) -> str:
    return f"{budget.name}-{budget.random_state}-{claim_id}"


def _from_record(record: dict) -> Verdict:
    return Verdict.from_json({name: value for name, value in record.items()
                              if name not in ("key", "seconds")})


def stored_verdicts(items, budget: Budget) -> dict[str, Verdict]:
    """{claim id: Verdict} of the ``items`` that the budget's store holds (runs nothing).

    Examples
    --------
    >>> from varlab.claims import Budget, Identity, run_claims, stored_verdicts
    >>> example = Identity(id="doc.stored.sum", source="an example", derived_by_varlab=True,
    ...                    statement="3 + 3 = 6.", compute=lambda: (3 + 3 == 6, "3 + 3 = 6 exactly", []))
    >>> budget = Budget("doc-stored", 100)        # no store directory: kept in memory
    >>> stored_verdicts([example], budget)        # nothing run yet
    {}
    >>> _ = run_claims([example], budget, log=lambda line: None)
    >>> {claim_id: verdict.outcome for claim_id, verdict in stored_verdicts([example], budget).items()}
    {'doc.stored.sum': 'confirmed'}
    """
    budget = as_budget(budget)
    store = store_for(budget, "verdicts")
    return {item.id: _from_record(store.get(_key(budget, item.id))) for item in items
            if _key(budget, item.id) in store}


def run_claims(items, budget: Budget, *, force: bool = False, log=_log) -> list[Verdict]:
    """The verdicts of ``items`` (claims) at ``budget``: from its store where a previous run
    finished them (unless ``force``), else run and stored as each finishes.

    Examples
    --------
    >>> import tempfile
    >>> from varlab.claims import Budget, Identity, run_claims
    >>> example = Identity(id="doc.runner.sum", source="an example", derived_by_varlab=True,
    ...                    statement="1 + 2 = 3.", compute=lambda: (1 + 2 == 3, "1 + 2 = 3 exactly", []))
    >>> with tempfile.TemporaryDirectory() as folder:       # doctest: +ELLIPSIS
    ...     budget = Budget("doc-runner", 100, store=folder)
    ...     first = run_claims([example], budget, log=print)
    ...     again = run_claims([example], budget, log=print)       # read from the store
    [doc] doc.runner.sum: confirmed (... s) 1 + 2 = 3 exactly
    [doc] doc.runner.sum: confirmed (stored) 1 + 2 = 3 exactly
    >>> again[0] == first[0]
    True
    """
    budget = as_budget(budget)
    store = store_for(budget, "verdicts")
    verdicts = []
    for item in items:
        key = _key(budget, item.id)
        began = time.perf_counter()
        if key in store and not force:
            verdict = _from_record(store.get(key))
            note = "stored"
        else:
            verdict = item.run(budget)
            store.put(key, dict(verdict.to_json(), seconds=round(time.perf_counter() - began, 1)))
            note = f"{time.perf_counter() - began:.1f} s"
        verdicts.append(verdict)
        log(f"[{item.paper}] {item.id}: {verdict.outcome} ({note}) {verdict.reason[:140]}")
    return verdicts


def check(selected=None, budget="quick", out=None, *, force: bool = False,
          log=_log) -> dict[str, list[Verdict]]:
    """Run the claims of the ``selected`` papers (default: all) and write
    ``<out>/<paper>/report.md|points.md|report.json`` (with the paper's not-checked results);
    returns {paper: verdicts}. ``out`` defaults to nothing written.

    Examples
    --------
    >>> import os, tempfile
    >>> from varlab.claims import OUTCOMES, Budget, check
    >>> with tempfile.TemporaryDirectory() as out:
    ...     results = check(["001"], Budget("doc-check", 200), out, log=lambda line: None)
    ...     print(sorted(os.listdir(os.path.join(out, "001"))))
    ['points.md', 'report.json', 'report.md']
    >>> list(results), all(verdict.outcome in OUTCOMES for verdict in results["001"])
    (['001'], True)
    """
    budget = as_budget(budget)
    known = papers()
    selected = list(selected or known)
    unknown = [paper for paper in selected if paper not in known]
    if unknown:
        raise ValueError(f"unknown paper(s) {unknown}; known: {known}")
    results = {}
    for paper in selected:
        results[paper] = run_claims(claims(paper), budget, force=force, log=log)
        if out is not None:
            write_report(results[paper], Path(out) / paper, budget=budget, not_checked=not_checked(paper),
                         title=f"Paper {paper}: {paper_title(paper)} - claims checked by varlab")
    return results
