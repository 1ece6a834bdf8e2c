"""``--until-decided``: a pilot run, then one deciding run with fresh seeds at the budget the pilot
advises; the pilot's seeds are never reused, only the deciding run decides, both are recorded."""
import numpy as np
import pytest

from varlab import cli
from varlab.claims import (CONFIRMED, INCONCLUSIVE, Agreement, Budget, Measured, Measurement,
                           UntilDecided, run_claims, store_for, stored_verdicts, write_report)


def _recording_coin(seen: list):
    """A fair coin's heads rate over the budget's flips (three coins), recording the budget and
    the seed entropy of every run."""
    def measure(run):
        n = run.budget.n_repetitions
        seed = run.seed("flips")
        seen.append((run.budget.name, run.budget.random_state, tuple(seed.entropy), n))
        heads = np.random.default_rng(seed).binomial(n, 0.5, size=3)
        return Measurement(estimate=heads / n, standard_error=np.full(3, np.sqrt(0.25 / n)),
                           theory=np.full(3, 0.5), rows=[{"coin": i} for i in range(3)])
    return Measured(measure, "heads rate")


def _coin_claim(claim_id, seen):
    return Agreement(id=claim_id, source="unit", quote="a fair coin", statement="s",
                     model=_recording_coin(seen), tolerance=0.02, relative=False, registered=False)


def test_the_deciding_run_never_reuses_the_pilots_seeds_and_records_both(tmp_path):
    seen = []
    budget = Budget("unit-decide", 10_000, store=str(tmp_path))
    claim = _coin_claim("unit.decide.coin", seen)
    pilot = run_claims([claim], budget, log=lambda line: None)[0]
    assert pilot.outcome == INCONCLUSIVE and 1 < pilot.budget_factor < 10
    seen.clear()
    verdict = run_claims([claim], budget, log=lambda line: None, until_decided=UntilDecided())[0]
    # the pilot came from the store; exactly one deciding run, at the advice (margin 1)
    factor = max(2, int(np.ceil(pilot.budget_factor)))
    assert len(seen) == 1
    name, random_state, entropy, n = seen[0]
    assert (name, n) == (f"unit-decidex{factor}", 10_000 * factor)
    assert random_state != budget.random_state and entropy[0] == random_state
    # the pilot's seeds (recomputed from its budget) share nothing with the deciding run's
    pilot_seen = []
    _coin_claim("unit.decide.coin", pilot_seen).run(budget)
    assert pilot_seen[0][2] != entropy and pilot_seen[0][1] == budget.random_state
    # only the deciding run decides; the pilot is kept
    assert verdict.outcome == CONFIRMED
    assert verdict.rows[0]["SE"] == pytest.approx(np.sqrt(0.25 / (10_000 * factor)), rel=1e-12)
    assert verdict.pilot["outcome"] == INCONCLUSIVE and verdict.pilot["budget"] == "unit-decide"
    assert verdict.pilot["random_state"] == budget.random_state
    assert verdict.pilot["budget_factor"] == pytest.approx(pilot.budget_factor)
    assert f"a second run at {factor}x" in verdict.reason
    # resumable: both runs are in the store, nothing is recomputed
    seen.clear()
    again = run_claims([claim], budget, log=lambda line: None, until_decided=UntilDecided())[0]
    assert seen == [] and again == verdict
    assert stored_verdicts([claim], budget, decided=True) == {"unit.decide.coin": verdict}
    assert stored_verdicts([claim], budget)["unit.decide.coin"].pilot is None
    write_report([verdict], tmp_path / "report", budget=budget, title="t")
    text = (tmp_path / "report" / "report.md").read_text()
    assert f"**Pilot run** (budget `unit-decide`, random_state {budget.random_state}" in text
    assert "its seeds are not reused" in text
    # a later run that decides nothing (or other claims), even forced, keeps the decision
    for policy in (None, UntilDecided(only=["unit.other"])):
        kept = run_claims([claim], budget, log=lambda line: None, force=True, until_decided=policy)[0]
        assert kept == verdict


def test_a_claim_beyond_the_cap_is_left_inconclusive_and_says_why():
    seen = []
    budget = Budget("unit-capped", 1_000)
    verdict = run_claims([_coin_claim("unit.decide.capped", seen)], budget, log=lambda line: None,
                         until_decided=UntilDecided(max_factor=10))[0]
    assert len(seen) == 1 and verdict.outcome == INCONCLUSIVE and verdict.pilot is None
    assert "[not rerun: about" in verdict.reason and "beyond the cap of 10x" in verdict.reason
    timed = run_claims([_coin_claim("unit.decide.timed", [])], Budget("unit-timed", 10_000),
                       log=lambda line: None, until_decided=UntilDecided(max_seconds=1e-9))[0]
    assert timed.outcome == INCONCLUSIVE and "beyond the cap of 1e-09 s" in timed.reason


def test_the_policy_refuses_settings_that_cannot_decide():
    with pytest.raises(ValueError, match="max_factor >= 2"):
        UntilDecided(max_factor=1)
    with pytest.raises(ValueError, match="max_seconds must be positive"):
        UntilDecided(max_seconds=0)


def test_the_command_line_needs_until_decided_for_its_caps(capsys):
    assert cli.main(["check", "--paper", "001", "--budget", "test", "--max-factor", "4"]) != 0
    assert "--max-factor and --max-seconds need --until-decided" in capsys.readouterr().err


def test_a_stored_verdict_of_an_older_declaration_is_run_again(tmp_path):
    import dataclasses

    seen = []
    budget = Budget("unit-current", 10_000, store=str(tmp_path))
    claim = _coin_claim("unit.decide.current", seen)
    run_claims([claim], budget, log=lambda line: None)
    run_claims([claim], budget, log=lambda line: None)
    assert len(seen) == 1                                       # the second run read the store
    for change in (dict(statement="another statement"), dict(tolerance=0.03)):
        changed = dataclasses.replace(claim, **change)
        verdict = run_claims([changed], budget, log=lambda line: None)[0]
        assert all(getattr(verdict, name) == value for name, value in change.items())
    assert len(seen) == 3
    assert stored_verdicts([claim], budget) == {}              # the store's last record is the new one


def test_a_scaled_budget_sizes_real_data_experiments_as_its_base_with_more_trials():
    from paper_checks.p002 import classification
    from paper_checks.p003 import experiments as p003
    from paper_checks.p004 import approximation, experiments as p004
    from varlab.claims import BUDGETS, setting

    full, scaled = BUDGETS["full"], BUDGETS["full"].scaled(3).fresh("until-decided")
    assert (scaled.base, scaled.factor) == ("full", 3)
    for module in (p004, approximation):
        assert module.settings(scaled.name) == dict(module.settings(full.name),
                                                    trials=3 * module.settings(full.name)["trials"])
    *sizes, trials = p003.sizes(full)["table"]
    assert p003.sizes(scaled)["table"] == (*sizes, 3 * trials)
    assert setting(classification.SETTINGS, scaled) == classification.SETTINGS["full"]


def test_only_the_named_claims_are_decided_and_a_forced_rerun_keeps_the_first_runs_cost(tmp_path):
    seen = []
    budget = Budget("unit-only", 10_000, store=str(tmp_path))
    claim = _coin_claim("unit.decide.only", seen)
    verdict = run_claims([claim], budget, log=lambda line: None,
                         until_decided=UntilDecided(only={"unit.decide.other"}))[0]
    assert len(seen) == 1 and verdict.outcome == INCONCLUSIVE and "not rerun" not in verdict.reason
    # the stored pilot took 1000 s when first computed; a forced rerun (cached, quick) still counts it
    from varlab.claims.runner import _key
    from varlab.claims.store import store_for

    store = store_for(budget, "verdicts")
    store.put(_key(budget, claim.id), dict(store.get(_key(budget, claim.id)), seconds=1000.0))
    forced = run_claims([claim], budget, log=lambda line: None, force=True,
                        until_decided=UntilDecided(max_seconds=500))[0]
    assert forced.outcome == INCONCLUSIVE and "beyond the cap of 500 s" in forced.reason
    # a report written from the store says why no deciding run was made
    assert "beyond the cap of 500 s" in stored_verdicts([claim], budget, decided=True)[claim.id].reason


def test_the_stored_decision_is_the_deciding_run_or_a_note_on_the_pilot_now_stored(tmp_path):
    """``stored_verdicts(decided=True)`` (what the full-budget scripts write their reports from)
    gives a claim's deciding run, or the "[not rerun: ...]" note only while it was made for the
    pilot now stored: a pilot rerun since (here: its reason changed) makes the note stale."""
    claim = _coin_claim("unit.decide.note", [])
    budget = Budget("unit-note", 1_000, store=str(tmp_path))
    noted = run_claims([claim], budget, log=lambda line: None, until_decided=UntilDecided(max_factor=10))[0]
    assert "[not rerun: " in noted.reason
    assert stored_verdicts([claim], budget, decided=True)["unit.decide.note"] == noted
    store = store_for(budget, "verdicts")
    pilot_key = f"unit-note-{budget.random_state}-unit.decide.note"
    assert pilot_key in store and pilot_key + "-until-decided" in store
    store.put(pilot_key, {**store.get(pilot_key), "reason": "a pilot rerun with other advice"})
    assert stored_verdicts([claim], budget, decided=True)["unit.decide.note"].reason == \
        "a pilot rerun with other advice"
