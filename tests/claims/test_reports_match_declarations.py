"""Every committed report holds records of today's declarations: each record's id is a registered
claim whose words (source, quote, statement, note, derived_by_varlab) and declared tolerance are
the record's, and a paper's report holds every claim of the paper. A report written before a
declaration changed fails here until it is regenerated."""
import json
from pathlib import Path

import pytest

from varlab import claims

ROOT = Path(__file__).resolve().parents[2]
#: reports that hold every claim of their paper: the quick and test budgets', and the full
#: budget's (simulations/full_budget.py: 000, 001, beyond; simulations/pNNN_full.py: 002-004)
FULL = sorted((ROOT / "simulations" / "full" / "reports").glob("*/report.json")) + \
    sorted((ROOT / "simulations").glob("p00[2-4]/report.json"))
COMPLETE = sorted((ROOT / "paper_checks" / "reports").glob("*/report.json")) + \
    sorted((ROOT / "tests" / "reports").glob("*/report.json")) + FULL
#: reports of a slice of a paper's claims (the real-data experiments' own reports)
PARTIAL = [path for path in sorted((ROOT / "simulations").glob("**/report.json")) if path not in COMPLETE]
WORDS = ("source", "quote", "statement", "note", "derived_by_varlab")


def _name(path) -> str:
    return str(path.relative_to(ROOT))


def _paper(path) -> str:
    """The paper of a report: its folder's name ("002"), without the "p" of simulations/p002."""
    return path.parent.name.removeprefix("p")


def _declarations() -> dict:
    return {claim.id: claim for claim in claims.claims()}


@pytest.mark.parametrize("path", COMPLETE + PARTIAL, ids=_name)
def test_every_record_is_a_current_declaration(path):
    declared = _declarations()
    for record in json.loads(path.read_text())["claims"]:
        assert record["id"] in declared, f"{_name(path)}: {record['id']} is not a declared claim"
        claim = declared[record["id"]]
        for word in WORDS:
            assert record[word] == getattr(claim, word), f"{_name(path)}: {record['id']}.{word}"
        if isinstance(getattr(claim, "tolerance", None), float):
            assert record["tolerance"] == claim.tolerance, f"{_name(path)}: {record['id']}.tolerance"


@pytest.mark.parametrize("path", COMPLETE, ids=_name)
def test_a_papers_report_holds_every_claim_of_the_paper(path):
    recorded = [record["id"] for record in json.loads(path.read_text())["claims"]]
    assert sorted(recorded) == sorted(claim.id for claim in claims.claims(_paper(path)))


def test_every_paper_has_a_full_budget_report():
    assert sorted(_paper(path) for path in FULL) == sorted(claims.papers())
