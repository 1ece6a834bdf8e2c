"""Issue 35: every paper's report lists, after its decided claims, the results that no claim decides
("Not checked"), each with the paper's words, where they are and why; the headline counts them."""
import json
import shutil
from pathlib import Path

import pytest

from varlab import claims
from varlab.claims import NotChecked
from varlab.claims.report import headline
from varlab.testing.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2]
TEST_REPORTS = ROOT / "tests" / "reports"
PAPERS = Path("/work/shared/papers")
#: the papers' own keys (``beyond`` holds varlab's own claims only: no paper, no section)
PAPER_KEYS = [paper for paper in claims.papers() if paper != "beyond"]


def _normalized(text: str) -> str:
    return " ".join(text.split())


def test_the_issues_second_list_is_declared():
    """Issue 35's "Results varlab cannot compute today", each in its paper's list (by location)."""
    where = {paper: " | ".join(entry.where for entry in claims.not_checked(paper)) for paper in PAPER_KEYS}
    for location in ("Fig. 11", "Fig. 12", "Fig. 13", "Fig. 14", "Fig. 15", "Fig. 17", "Table 3", "Table 4",
                     "Figs. 5-8", "Fig. 9", "Fig. 18"):
        assert location in where["000"], location
    for location in ("Table 1 and Figs. 2-3", "Fig. 5", "Fig. 6", "Fig. 7", "Fig. 8", "Fig. 9", "Table 2"):
        assert location in where["001"], location
    for location in ("Table II (the ijcnn1 rows)", "Table II (the usps rows)", "Table III (the SRF and DIGMM rows)",
                     "Table IV (the SRF row)"):
        assert location in where["004"], location
    usps = next(entry for entry in claims.not_checked("004") if entry.id == "004.table2.usps")
    assert "optdigits" in usps.stand_in and "004.table2" in usps.stand_in
    assert "training" in next(e for e in claims.not_checked("000") if "Fig. 18" in e.where).reason.lower()


@pytest.mark.parametrize("paper", PAPER_KEYS)
def test_every_entry_has_a_verbatim_quote_a_location_and_a_reason(paper):
    """Each quote is the paper's words (its parts joined by " ... " each verbatim, up to spacing)."""
    entries = claims.not_checked(paper)
    assert len({entry.id for entry in entries}) == len(entries)
    text = None
    if PAPERS.is_dir():
        text = _normalized(next(PAPERS.glob(f"{paper}_*.txt")).read_text())
    for entry in entries:
        assert entry.paper == paper and entry.where.strip() and entry.reason.strip() and entry.quote.strip()
        assert entry.where.startswith(f"{paper},"), entry.id
        assert entry.id not in {c.id for c in claims.claims(paper)}
        if text is not None:
            for part in entry.quote.split(" ... "):
                assert _normalized(part) in text, (entry.id, part)


def _rewritten(paper, tmp_path) -> Path:
    """The paper's test-budget report written again with its registered not-checked results."""
    folder = tmp_path / paper
    shutil.copytree(TEST_REPORTS / paper, folder)
    claims.rewrite_report(folder, not_checked=claims.not_checked(paper))
    return folder


@pytest.mark.parametrize("paper", PAPER_KEYS)
def test_each_written_report_ends_with_its_not_checked_section(paper, tmp_path):
    folder = _rewritten(paper, tmp_path)
    text = (folder / "report.md").read_text()
    payload = json.loads((folder / "report.json").read_text())
    entries = claims.not_checked(paper)
    assert payload["not_checked"] == [entry.to_json() for entry in entries]
    section = text.index("\n## Not checked\n")
    assert all(text.index(f"\n## {record['id']}\n") < section for record in payload["claims"])
    tail = text[section:]
    blocks = {block.split("\n", 1)[0]: block for block in tail.split("\n### ")[1:]}
    assert list(blocks) == [entry.id for entry in entries]
    for entry in entries:
        block = blocks[entry.id]
        assert f"*{entry.where}*" in block and f"> {entry.quote}" in block
        assert f"**Not checked:** {entry.reason}" in block
        assert (f"**Stand-in:** {entry.stand_in}" in block) == bool(entry.stand_in)
    if not entries:
        assert "No result of the paper is declared not checked." in tail
    # read back from report.json alone, the report is the same
    before = text
    claims.rewrite_report(folder)
    assert (folder / "report.md").read_text() == before


def test_check_writes_the_papers_not_checked_results(tmp_path):
    """The runner (``varlab check``) passes the paper's registered results to its report."""
    claims.check(["001"], claims.Budget("unit-not-checked", 200), tmp_path, log=lambda line: None)
    payload = json.loads((tmp_path / "001" / "report.json").read_text())
    assert payload["not_checked"] == [entry.to_json() for entry in claims.not_checked("001")] != []
    text = (tmp_path / "001" / "report.md").read_text()
    assert "of the paper's results checked" in text and text.count("\n### 001.") == len(payload["not_checked"])


@pytest.mark.parametrize("paper", PAPER_KEYS)
def test_the_headline_counts_results_checked_of_all_and_varlabs_own_apart(paper, tmp_path):
    folder = _rewritten(paper, tmp_path)
    payload = json.loads((folder / "report.json").read_text())
    records = payload["claims"]
    papers_claims = [r for r in records if not r["derived_by_varlab"]]
    own = len(records) - len(papers_claims)
    left = len(claims.not_checked(paper))
    line = headline([Verdict.from_json(r) for r in records], claims.not_checked(paper))
    assert line.startswith(f"{len(papers_claims)} of {len(papers_claims) + left} of the paper's results checked (")
    assert f"), {left} not checked" in line
    assert (f"varlab's own claims: {own} (" in line) == (own > 0)
    assert f"**{line}.**" in (folder / "report.md").read_text()


def test_a_report_of_varlabs_own_claims_has_no_section(tmp_path):
    shutil.copytree(TEST_REPORTS / "beyond", tmp_path / "beyond")
    claims.rewrite_report(tmp_path / "beyond", not_checked=[])
    text = (tmp_path / "beyond" / "report.md").read_text()
    assert "## Not checked" not in text and " of the paper's results" not in text


# --- the registry --------------------------------------------------------------------------------

def _declare(**fields):
    return NotChecked(**{**dict(id="unit.fig1.left", where="unit, Fig. 1", quote="Figure 1.",
                                reason="not shipped"), **fields})


@pytest.mark.parametrize("field", ["reason", "quote", "where"])
def test_an_empty_field_is_refused_by_name(field):
    with pytest.raises(ValueError, match=f"not-checked result 'unit.empty.{field}': give its {field} "
                                         r"\(it is empty\)"):
        _declare(id=f"unit.empty.{field}", **{field: " \n"})


def test_a_duplicate_is_refused_with_both_origins():
    first = _declare(id="unit.twice")
    assert _declare(id="unit.twice") == first          # the same declaration again (a module re-imported)
    with pytest.raises(ValueError, match=r"'unit.twice' is declared twice \(.*test_not_checked and .*\)"):
        _declare(id="unit.twice", reason="another reason")
    with pytest.raises(ValueError, match=r"'unit.twice' is declared twice \(.*test_not_checked and elsewhere\)"):
        _declare(id="unit.twice", origin="elsewhere")


def test_a_claims_id_cannot_be_declared_not_checked_nor_the_reverse():
    from varlab.claims import Identity

    taken = claims.claims("004")[0].id
    with pytest.raises(ValueError, match=f"'{taken}' is a claim's id"):
        _declare(id=taken)
    _declare(id="unit.left.out")
    with pytest.raises(ValueError, match="'unit.left.out' is also declared not checked"):
        Identity(id="unit.left.out", source="unit", quote="q", statement="s", compute=lambda: (True, "", []))


def test_a_record_is_read_back_without_registering_and_refuses_unknown_fields():
    record = dict(id="unit.record", where="unit, Table 1", quote="Table 1.", reason="r")
    NotChecked.from_json(record)
    assert _declare(id="unit.record", reason="another").reason == "another"     # nothing registered before
    with pytest.raises(ValueError, match=r"unknown fields \['colour'\]"):
        NotChecked.from_json(dict(record, colour="red"))


def test_the_docs_paper_pages_show_the_section():
    """docs/conf.py generates papers/NNN.md (as the Sphinx build does): each includes its committed
    report, which ends with the paper's not-checked results, and says so."""
    import runpy

    runpy.run_path(str(ROOT / "docs" / "conf.py"), run_name="docs_conf")["_paper_pages"]()
    for paper in PAPER_KEYS:
        page = (ROOT / "docs" / "papers" / f"{paper}.md").read_text()
        assert f"```{{include}} ../../paper_checks/reports/{paper}/report.md" in page
        assert "Its last section, *Not checked*, lists the paper's results that no claim decides" in page
        report = (ROOT / "paper_checks" / "reports" / paper / "report.md").read_text()
        section = report[report.index("\n## Not checked\n"):]
        assert all(f"\n### {entry.id}\n" in section for entry in claims.not_checked(paper))
