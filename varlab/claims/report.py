"""Reports a reader can scan: ``report.md`` (one line per claim, contradicted and inconclusive
first, then one short section per claim, then the paper's results that no claim decides, "Not
checked"), ``points.md`` (the per-point tables) and ``report.json`` (every field of every Verdict
and every not-checked entry)."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Sequence

from ..testing.outcomes import CONFIRMED, CONTRADICTED, INCONCLUSIVE, OUTCOMES
from ..testing.verdict import Verdict, format_number
from .budget import Budget
from .unchecked import NotChecked

__all__ = ["write_report", "rewrite_report", "headline", "OUTCOME_ORDER"]

#: the order of the summary: what needs a reader's attention first
OUTCOME_ORDER = (CONTRADICTED, INCONCLUSIVE, CONFIRMED)

RULES = ("Outcomes: **confirmed** = no significant departure from the statement *and* a "
         "resolution (the smallest departure the check could have detected: threshold x the "
         "largest standard error) no coarser than the tolerance the statement cares about; "
         "**contradicted** = a departure significantly beyond the tolerance, or an exact "
         "computation that fails; **inconclusive** = neither (the reason says what budget would "
         "resolve it). Significance: |z| beyond the t quantile of the repetitions (or independent "
         "trials) a standard error rests on, at the two-sided tail of 4.5 standard deviations "
         "(4.5 for large samples; 5.04 at 50).")


def headline(verdicts: Sequence[Verdict], not_checked: Sequence[NotChecked] = ()) -> str:
    """The paper's results checked out of all it states (its claims and its not-checked results),
    their outcomes, and varlab's own claims counted apart (issues 34, 35).

    Examples
    --------
    >>> from varlab.claims import NotChecked, Verdict
    >>> make = lambda outcome, own: Verdict(id="x", source="", quote="", statement="", outcome=outcome,
    ...                                     method="exact", resolution=0.0, tolerance=0.0, units="exact",
    ...                                     reason="", budget="doc", derived_by_varlab=own)
    >>> left = NotChecked.from_json(dict(id="doc.fig2", where="Fig. 2", quote="q", reason="r"))
    >>> headline([make("confirmed", False), make("contradicted", True), make("inconclusive", False)], [left])
    "2 of 3 of the paper's results checked (1 confirmed, 0 contradicted, 1 inconclusive), 1 not checked; varlab's own claims: 1 (0 confirmed, 1 contradicted, 0 inconclusive)"
    >>> headline([make("confirmed", True)])
    "varlab's own claims: 1 (1 confirmed, 0 contradicted, 0 inconclusive)"
    """
    def counts(group):
        return ", ".join(f"{sum(v.outcome == name for v in group)} {name}" for name in OUTCOMES)

    papers = [v for v in verdicts if not v.derived_by_varlab]
    own = [v for v in verdicts if v.derived_by_varlab]
    parts = []
    if papers or not_checked:
        parts.append(f"{len(papers)} of {len(papers) + len(not_checked)} of the paper's results checked "
                     f"({counts(papers)}), {len(not_checked)} not checked")
    if own:
        parts.append(f"varlab's own claims: {len(own)} ({counts(own)})")
    return "; ".join(parts) or "no claims"


def _short(text: str, limit: int = 110) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _words(verdict: Verdict) -> str:
    return _short(verdict.quote) if verdict.quote else f"(varlab's own) {_short(verdict.statement)}"


def _resolution(verdict: Verdict) -> str:
    if verdict.method == "exact":
        return "exact" if verdict.resolution == 0 else (
            f"exact to {format_number(verdict.resolution)} ({verdict.units})")
    return (f"resolution {format_number(verdict.resolution)} / tolerance "
            f"{format_number(verdict.tolerance)} ({verdict.units})")


def _table(rows) -> list[str]:
    keys = list(dict.fromkeys(key for row in rows for key in row))
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(format_number(row.get(key)) for key in keys) + " |" for row in rows]
    return lines


def _not_checked_section(verdicts: Sequence[Verdict], not_checked: Sequence[NotChecked]) -> list[str]:
    """The section "Not checked" (none for a report of varlab's own claims alone)."""
    if not not_checked and all(v.derived_by_varlab for v in verdicts):
        return []
    lines = ["## Not checked", "", "The paper's results that no claim above decides, each with where it is "
             "in the paper and why it is not checked (declared beside the claims in the paper's package)."
             if not_checked else "No result of the paper is declared not checked.", ""]
    for entry in not_checked:
        lines += [f"### {entry.id}", "", f"*{entry.where}*", "", f"> {entry.quote}", "",
                  f"**Not checked:** {entry.reason}", ""]
        if entry.stand_in:
            lines += [f"**Stand-in:** {entry.stand_in}", ""]
    return lines


def write_report(verdicts: Sequence[Verdict], directory, *, title: str, budget: Budget,
                 not_checked: Sequence[NotChecked] = ()) -> None:
    """Write ``report.md``, ``points.md`` and ``report.json`` into ``directory``; ``not_checked``:
    the paper's results that no claim decides (``varlab.claims.not_checked(paper)``).

    Examples
    --------
    >>> import os, tempfile
    >>> from varlab.claims import Budget, Identity, run_claims, write_report
    >>> example = Identity(id="doc.report.sum", source="an example", derived_by_varlab=True,
    ...                    statement="1 + 1 = 2.", compute=lambda: (1 + 1 == 2, "1 + 1 = 2 exactly", []))
    >>> budget = Budget("doc-report", 100)
    >>> verdicts = run_claims([example], budget, log=lambda line: None)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_report(verdicts, folder, title="An example", budget=budget)
    ...     print(sorted(os.listdir(folder)))
    ...     with open(os.path.join(folder, "report.md")) as handle:
    ...         print(handle.readline().strip())
    ['points.md', 'report.json', 'report.md']
    # An example
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    payload = {"title": title, "budget": {key: value for key, value in asdict(budget).items()
                                          if key != "store"},
               "claims": [verdict.to_json() for verdict in verdicts],
               "not_checked": [entry.to_json() for entry in not_checked]}
    (directory / "report.json").write_text(json.dumps(payload, indent=1) + "\n")
    ordered = sorted(verdicts, key=lambda v: OUTCOME_ORDER.index(v.outcome))
    lines = [f"# {title}", "",
             f"Budget `{budget.name}`: {budget.n_repetitions:,} repetitions per simulated point "
             f"(a claim that runs at a part of it, or over trials, says so), random_state "
             f"{budget.random_state} (each claim's seed is derived from it and the claim's id).",
             "", RULES, "", f"**{headline(verdicts, not_checked)}.** Per-point data: "
             f"`points.md`, beside this file.", "",
             "| claim | the paper's words | outcome | reason |", "|---|---|---|---|"]
    for v in ordered:
        lines.append(f"| {v.id} | {_words(v)} | **{v.outcome_words}** | "
                     f"{_short(v.reason, 160)} ({_resolution(v)}) |")
    lines.append("")
    for v in ordered:
        lines += [f"## {v.id}", "", f"*{v.source}*" + (" — varlab's own statement" if
                                                      v.derived_by_varlab else ""), ""]
        if v.quote:
            lines += [f"> {v.quote}", ""]
        lines += [f"**Tested:** {v.statement}", ""]
        if v.note:
            lines += [f"**Note:** {v.note}", ""]
        factor = ("" if v.budget_factor is None or "resolve it" in v.reason else
                  f" About {format_number(v.budget_factor)}x this budget would resolve it.")
        how = _resolution(v) if v.method == "exact" else f"{v.method}; {_resolution(v)}"
        lines += [f"**Outcome: {v.outcome}** ({how}). {v.reason}{factor}", ""]
        if v.pilot:
            lines += [_pilot(v.pilot), ""]
    lines += _not_checked_section(verdicts, not_checked)
    (directory / "report.md").write_text("\n".join(lines) + "\n")
    detail = [f"# {title}: per-point data", "", f"Budget `{budget.name}`. One table per claim "
              f"(the claim's outcome and reason are in `report.md`, beside this file).", ""]
    for v in verdicts:
        if v.rows:
            detail += [f"## {v.id}", ""] + _table(v.rows) + [""]
    (directory / "points.md").write_text("\n".join(detail) + "\n")


def _pilot(pilot: dict) -> str:
    """The line of a verdict decided by a second run: what its pilot run found."""
    repetitions = "" if pilot["n_repetitions"] is None else f", {pilot['n_repetitions']:,} repetitions"
    return (f"**Pilot run** (budget `{pilot['budget']}`{repetitions}, random_state "
            f"{pilot['random_state']}; its seeds are not reused): {pilot['outcome']}. {pilot['reason']}")


def rewrite_report(directory, not_checked: Sequence[NotChecked] | None = None) -> None:
    """Write ``directory``'s report.md, points.md and report.json again from its report.json (for
    a change of the reports' format; no claim is run); ``not_checked``: the entries to list
    instead of report.json's.

    Examples
    --------
    >>> import os, tempfile
    >>> from varlab.claims import budget, rewrite_report, write_report
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_report([], folder, title="No claims yet", budget=budget("test"))
    ...     os.remove(os.path.join(folder, "report.md"))
    ...     rewrite_report(folder)                # from report.json alone; no claim is run
    ...     print(sorted(os.listdir(folder)))
    ['points.md', 'report.json', 'report.md']
    """
    directory = Path(directory)
    payload = json.loads((directory / "report.json").read_text())
    if not_checked is None:
        not_checked = [NotChecked.from_json(record) for record in payload.get("not_checked", [])]
    write_report([Verdict.from_json(record) for record in payload["claims"]], directory,
                 title=payload["title"], budget=Budget(**payload["budget"]), not_checked=not_checked)
