"""Every paper claim run at the small 'test' budget (fixed seeds; tolerances in the engine's SEs).

Claims the simulation supports must come out confirmed; the claims varlab finds contradicted
(0-bit GCWS on rescaled pairs, Fig. 4's "except very high similarity", NRFF's "k > 10") must stay contradicted,
so that a change that silently flips a reported finding fails here.
"""
import json

import numpy as np
import pytest

import paper_checks
from varlab.claims import CONFIRMED, CONTRADICTED, Budget, Claim, Verdict, agreement, write_report

EXPECTED_CONTRADICTED = {"000.eq13.zero_bit", "000.fig4", "000.thm3.k_above_10"}
ALL_CLAIMS = [claim for paper in paper_checks.PAPERS for claim in paper_checks.claims(paper)]


@pytest.mark.parametrize("claim", ALL_CLAIMS, ids=[claim.id for claim in ALL_CLAIMS])
def test_claim_verdict_at_test_budget(claim):
    verdict = claim.run("test")
    expected = CONTRADICTED if claim.id in EXPECTED_CONTRADICTED else CONFIRMED
    assert verdict.verdict == expected, verdict.summary
    assert verdict.id == claim.id and verdict.budget == "test"
    json.dumps(verdict.to_json())


def test_claim_ids_are_unique():
    ids = [claim.id for claim in ALL_CLAIMS]
    assert len(ids) == len(set(ids))


def test_agreement_flags_a_wrong_theory():
    budget = Budget("unit", 10)
    parameters = [dict(point=i) for i in range(3)]
    good = agreement("x", "s", "t", theory=[1.0, 2.0, 3.0], estimate=[1.01, 2.0, 2.99],
                     standard_error=[0.01, 0.01, 0.01], parameters=parameters, budget=budget, quantity="q")
    bad = agreement("x", "s", "t", theory=[1.0, 2.0, 3.0], estimate=[1.0, 2.1, 3.0],
                    standard_error=[0.01, 0.01, 0.01], parameters=parameters, budget=budget, quantity="q")
    assert good.verdict == CONFIRMED and bad.verdict == CONTRADICTED
    assert bad.estimate == 2.1 and bad.theory == 2.0


def test_agreement_with_zero_standard_error_requires_equality():
    budget = Budget("unit", 10)
    verdict = agreement("x", "s", "t", theory=[0.0], estimate=[1e-300], standard_error=[0.0],
                        parameters=[{}], budget=budget, quantity="q")
    assert verdict.verdict == CONTRADICTED


def test_report_has_one_record_per_claim(tmp_path):
    budget = Budget("unit", 10)
    verdicts = [Verdict("a", "src", "stmt", CONFIRMED, 1.0, 1.0, 0.1, "fine", "unit"),
                Verdict("b", "src", "stmt", CONTRADICTED, np.float64(2.0), 3.0, 0.1, "off", "unit",
                        [dict(rho=np.float64(0.5), z=np.inf)])]
    write_report(verdicts, tmp_path, title="T", budget=budget)
    payload = json.loads((tmp_path / "report.json").read_text())
    assert [r["id"] for r in payload["claims"]] == ["a", "b"]
    for record in payload["claims"]:
        assert {"id", "source", "statement", "theory", "estimate", "standard_error", "verdict"} <= set(record)
    assert "contradicted 1" in (tmp_path / "report.md").read_text()


def test_unknown_budget_and_paper_are_rejected():
    with pytest.raises(ValueError, match="budget"):
        Claim("a", "s", "t", lambda b: None).run("huge")
    with pytest.raises(ValueError, match="paper"):
        paper_checks.claims("999")
