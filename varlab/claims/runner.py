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
from .until_decided import UntilDecided, decided, is_undecided, left_undecided

__all__ = ["run_claims", "stored_verdicts", "check"]


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _key(budget: Budget, claim_id: str) -> str:
    return f"{budget.name}-{budget.random_state}-{claim_id}"


def _decided_key(budget: Budget, claim_id: str) -> str:
    """The store key of a claim's verdict decided by a second run (``until_decided``)."""
    return _key(budget, claim_id) + "-until-decided"


#: the words of a declaration that its stored verdicts repeat
DECLARED = ("source", "quote", "statement", "note", "derived_by_varlab")


def is_current(record: dict, item) -> bool:
    """Whether a stored verdict ``record`` is of ``item``'s declaration as it is today: the same
    words and, where the declaration has one, the same tolerance (a record of an older
    declaration is run again rather than reused).

    Examples
    --------
    >>> from varlab.claims import Identity
    >>> example = Identity(id="doc.current", source="s", quote="q", statement="1 = 1",
    ...                    compute=lambda: (True, "exact", []))
    >>> record = example.run("test").to_json()
    >>> is_current(record, example), is_current({**record, "statement": "1 == 1"}, example)
    (True, False)
    """
    tolerance = getattr(item, "tolerance", None)
    return all(record.get(word) == getattr(item, word) for word in DECLARED) and (
        not isinstance(tolerance, float) or record.get("tolerance") == tolerance)


def _from_record(record: dict) -> Verdict:
    return Verdict.from_json({name: value for name, value in record.items()
                              if name not in ("key", "seconds")})


def stored_verdicts(items, budget: Budget, *, decided: bool = False) -> dict[str, Verdict]:
    """{claim id: Verdict} of the ``items`` that the budget's store holds for their current
    declarations (``is_current``; runs nothing); with
    ``decided``, what ``until_decided`` stored for it where that is current: its deciding run, or
    the note that none was made for the stored pilot.

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
    found = {}
    for item in items:
        key = _key(budget, item.id)
        earlier = _earlier_decision(item, budget, store) if decided else None
        if earlier is not None:
            found[item.id] = earlier
        elif key in store and is_current(store.get(key), item):
            found[item.id] = _from_record(store.get(key))
    return found


def run_claims(items, budget: Budget, *, force: bool = False, log=_log,
               until_decided: UntilDecided | None = None) -> list[Verdict]:
    """The verdicts of ``items`` (claims) at ``budget``: from its store where a previous run
    finished them for their current declarations (``is_current``; unless ``force``), else run
    and stored as each finishes. With
    ``until_decided`` (a ``varlab.claims.UntilDecided``), an inconclusive claim gets one deciding
    run with fresh seeds at the budget its pilot advises (``varlab.claims.until_decided``); a claim
    not being decided keeps the verdict of its earlier deciding run, if any.

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
        verdict, seconds, note = _run(item, budget, store, force)
        if until_decided is not None and until_decided.wants(item.id) and is_undecided(verdict):
            factor, why = until_decided.factor(verdict.budget_factor, seconds)
            if factor is None:
                verdict = left_undecided(verdict, why)
                store.put(_decided_key(budget, item.id), verdict.to_json())     # the report says why
            else:
                log(f"[{item.paper}] {item.id}: {verdict.outcome} ({note}); deciding at {factor}x "
                    f"with fresh seeds")
                deciding_budget = budget.scaled(factor).fresh("until-decided")
                deciding, _, note = _run(item, deciding_budget, store, force)
                verdict = decided(verdict, deciding, factor, budget.random_state)
                store.put(_decided_key(budget, item.id), verdict.to_json())
        elif is_undecided(verdict):
            verdict = _earlier_decision(item, budget, store) or verdict
        verdicts.append(verdict)
        log(f"[{item.paper}] {item.id}: {verdict.outcome} ({note}) {verdict.reason[:140]}")
    return verdicts


def _earlier_decision(item, budget: Budget, store) -> Verdict | None:
    """The verdict ``until_decided`` stored for ``item``'s current declaration, None if there is
    none: an earlier deciding run, or the note that none was made for the pilot now stored (a note
    on an older pilot is stale). A run that is not deciding the claim keeps its decision."""
    key, pilot_key = _decided_key(budget, item.id), _key(budget, item.id)
    record = store.get(key) if key in store else None
    if record is None or not is_current(record, item):
        return None
    if record.get("pilot") is None and not (
            pilot_key in store and record["reason"].startswith(store.get(pilot_key)["reason"] + " [not rerun: ")):
        return None
    return _from_record(record)


def _run(item, budget: Budget, store, force: bool) -> tuple[Verdict, float | None, str]:
    """The verdict of ``item`` at ``budget`` (stored, or run and stored), its seconds (the larger
    of this run's and a stored earlier run's, so that a rerun from cached simulations does not
    understate what the computation costs) and a note."""
    key = _key(budget, item.id)
    if key in store and not force and is_current(store.get(key), item):
        record = store.get(key)
        return _from_record(record), record.get("seconds"), "stored"
    first = store.get(key).get("seconds") if key in store else None
    began = time.perf_counter()
    verdict = item.run(budget)
    seconds = time.perf_counter() - began
    store.put(key, dict(verdict.to_json(), seconds=round(seconds, 1)))
    # a rerun that reads cached simulations is quicker than the computation: the slower one counts
    return verdict, max(seconds, first or 0.0), f"{seconds:.1f} s"


def check(selected=None, budget="quick", out=None, *, force: bool = False,
          log=_log, until_decided: UntilDecided | None = None) -> dict[str, list[Verdict]]:
    """Run the claims of the ``selected`` papers (default: all) and write
    ``<out>/<paper>/report.md|points.md|report.json`` (with the paper's not-checked results);
    returns {paper: verdicts}. ``out`` defaults to nothing written; ``until_decided``: see
    :func:`run_claims`.

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
        results[paper] = run_claims(claims(paper), budget, force=force, log=log,
                                    until_decided=until_decided)
        if out is not None:
            write_report(results[paper], Path(out) / paper, budget=budget, not_checked=not_checked(paper),
                         title=f"Paper {paper}: {paper_title(paper)} - claims checked by varlab")
    return results
