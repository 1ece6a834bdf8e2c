"""The stored-record comparison (varlab.claims.compare) lets another CPU's last bits through and
still fails on every realistic change of a record: one more repetition, another seed, a
formula off by 1e-3 relative, a flipped outcome, another word; and each rule on its own."""
import copy
import json
from pathlib import Path

import pytest

from test_reports import verdict_of
from varlab.claims import Budget, budget
from varlab.claims.compare import compare_reports, differences

TEST_REPORTS = Path(__file__).resolve().parents[1] / "reports"
#: a simulation claim (RFF's mean over 60 points) and an exact one without standard errors
SIMULATED, EXACT = "000.thm2.eq16", "000.fig4"


def _stored(claim_id):
    paper = claim_id.split(".")[0]
    payload = json.loads((TEST_REPORTS / paper / "report.json").read_text())
    return next(record for record in payload["claims"] if record["id"] == claim_id)


def _regenerated(claim_id, at=None):
    return verdict_of(claim_id, at or "test").to_json()


def test_a_regeneration_matches_its_stored_record():
    for claim_id in (SIMULATED, EXACT):
        assert differences(_regenerated(claim_id), _stored(claim_id)) == []


def test_one_more_repetition_is_detected():
    test = budget("test")
    more = Budget(test.name, test.n_repetitions + 1, test.random_state)
    moved = differences(_regenerated(SIMULATED, more), _stored(SIMULATED))
    assert any(".estimate" in line for line in moved), moved


def test_another_seed_is_detected():
    test = budget("test")
    other = Budget(test.name, test.n_repetitions, test.random_state + 1)
    moved = differences(_regenerated(SIMULATED, other), _stored(SIMULATED))
    assert len(moved) > 10 and any(".estimate" in line for line in moved), moved


@pytest.mark.parametrize("claim_id, column", [(SIMULATED, "theory"), (EXACT, "min_ratio_for_rho_below_0_9")])
def test_a_formula_changed_by_1e3_relative_is_detected(claim_id, column):
    stored = _stored(claim_id)
    changed = copy.deepcopy(stored)
    changed["rows"][0][column] *= 1 + 1e-3
    moved = differences(_regenerated(claim_id), changed)
    assert moved and moved[0].startswith(f"rows[0].{column}:"), moved


def test_a_flipped_outcome_and_other_words_are_detected():
    stored = _stored(SIMULATED)
    for key, value in (("outcome", "contradicted"), ("statement", stored["statement"] + " (edited)"),
                       ("tolerance", stored["tolerance"] * 2), ("budget", "quick")):
        assert differences(_regenerated(SIMULATED), {**stored, key: value}) == [
            f"{key}: {_regenerated(SIMULATED)[key]!r} vs {value!r}"]
    reason = stored["reason"].replace("max |z|", "min |z|", 1)
    assert reason != stored["reason"]
    assert "words differ" in differences(_regenerated(SIMULATED), {**stored, "reason": reason})[0]


# --- each rule on a constructed record --------------------------------------------------------

def _record(method="simulation", **row):
    return {"id": "unit", "outcome": "inconclusive", "method": method, "resolution": 0.2,
            "tolerance": 0.05, "budget_factor": 16.0, "reason": "max |z| = 1.50 at 2 points",
            "rows": [{"k": 4, "label": "s = 8", "theory": 0.5, "estimate": 0.51, "SE": 0.01, "z": 1.0,
                      **row}]}


@pytest.mark.parametrize("method, change, passes", [
    ("simulation", {"estimate": 0.51 + 0.009 * 0.01}, True),      # 0.9 % of SE
    ("simulation", {"estimate": 0.51 + 0.011 * 0.01}, False),     # 1.1 % of SE
    ("trials", {"estimate": 0.51 + 0.09 * 0.01}, True),
    ("trials", {"estimate": 0.51 + 0.11 * 0.01}, False),
    ("simulation", {"SE": 0.01 * 1.009}, True),
    ("simulation", {"SE": 0.01 * 1.011}, False),
    ("simulation", {"z": 1.0 + 0.019}, True),                      # 1 % of 1 + |z|
    ("simulation", {"z": 1.0 + 0.021}, False),
    ("simulation", {"theory": 0.5 * (1 + 5e-13)}, True),
    ("simulation", {"theory": 0.5 * (1 + 1e-11)}, False),
    ("simulation", {"k": 5}, False),                                # an integer: equal
    ("simulation", {"label": "s = 16"}, False),                     # a row's text
    ("simulation", {"estimate": "nan"}, False),
])
def test_row_rules(method, change, passes):
    old = _record(method)
    new = _record(method, **change)
    assert (differences(new, old) == []) == passes, differences(new, old)


def test_rows_without_a_standard_error_are_exact_unless_a_column_declares_its_accuracy():
    old = {"method": "exact", "rows": [{"value": 2.0, "at_zero": 1e-20, "noisy": 1e-6}],
           "accuracy": {"noisy": 1e-9}}
    assert differences({**old, "rows": [{"value": 2.0 * (1 + 4e-13), "at_zero": 1.5e-20,
                                         "noisy": 1e-6 + 9e-10}]}, old) == []
    assert differences({**old, "rows": [{"value": 2.0 * (1 + 2e-12), "at_zero": 1e-20, "noisy": 1e-6}]}, old)
    assert differences({**old, "rows": [{"value": 2.0, "at_zero": 1e-20, "noisy": 1e-6 + 2e-9}]}, old)
    assert differences({**old, "rows": [{"value": 2.0, "at_zero": 3e-12, "noisy": 1e-6}]}, old)


@pytest.mark.parametrize("change, passes", [
    ({"resolution": 0.2 * 1.009}, True), ({"resolution": 0.2 * 1.011}, False),
    ({"budget_factor": 16.0 * 1.03}, True), ({"budget_factor": 16.0 * 1.05}, False),
    ({"budget_factor": None}, False),
    ({"reason": "max |z| = 1.51 at 2 points"}, True), ({"reason": "max |z| = 1.50 at 3 points"}, False),
    ({"rows": []}, False),
])
def test_record_rules(change, passes):
    old = _record()
    assert (differences({**old, **change}, old) == []) == passes


def test_compare_reports_names_each_claim_that_moved(tmp_path):
    for side in ("new", "old"):
        (tmp_path / side / "000").mkdir(parents=True)
    old = _record()
    moved = {**old, "id": "moved", "outcome": "confirmed"}
    (tmp_path / "old" / "000" / "report.json").write_text(json.dumps(
        {"claims": [old, {**old, "id": "moved"}, {**old, "id": "gone"}]}))
    (tmp_path / "new" / "000" / "report.json").write_text(json.dumps({"claims": [old, moved, {**old, "id": "added"}]}))
    found = compare_reports(tmp_path / "new", tmp_path / "old")
    assert found == {"moved": ["outcome: 'confirmed' vs 'inconclusive'"],
                     "gone": ["missing from the regenerated report"], "added": ["not in the stored report"]}
