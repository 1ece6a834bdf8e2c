"""``n_repetitions="auto"``: a pilot, then one deciding run with a fresh seed (never the pilot's
draws) at the repetitions the pilot advises, within ``max_repetitions``; the verdict keeps both."""
import pytest

from varlab.testing import agreement, check_agreement, check_ordering
from varlab.testing.auto import PILOT_REPETITIONS
from varlab.theory import rff


def test_auto_decides_with_a_fresh_seed_and_keeps_the_pilot(monkeypatch):
    seeds = []
    original = agreement.user_simulation

    def recording(*args, random_state, **kwargs):
        seeds.append(random_state)
        return original(*args, random_state=random_state, **kwargs)

    monkeypatch.setattr(agreement, "user_simulation", recording)
    verdict = check_agreement("rff", rff.mean, statistic="mean", k=[10], n_repetitions="auto",
                              max_repetitions=400_000, random_state=0, tolerance=0.01,
                              rho=0.5, gamma=1.0)
    assert len(seeds) == 2
    pilot, deciding = seeds
    assert pilot.entropy == 0 and deciding.entropy != pilot.entropy and deciding.spawn_key == ()
    assert verdict.pilot["outcome"] == "inconclusive" and verdict.pilot["n_repetitions"] == PILOT_REPETITIONS
    assert verdict.outcome == "confirmed" and verdict.n_repetitions > PILOT_REPETITIONS
    assert verdict.n_repetitions % PILOT_REPETITIONS == 0 and verdict.n_repetitions <= 400_000
    assert "a second run at" in verdict.reason and "fresh seeds" in verdict.reason


def test_auto_leaves_a_check_beyond_its_cap_inconclusive_and_says_why():
    verdict = check_ordering("rff", "rff", statistic="variance", k=[1], n_repetitions="auto",
                             max_repetitions=4_000, random_state=0, effect_size=0.001,
                             rho=0.0, gamma=1.0)
    assert verdict.outcome == "inconclusive" and verdict.pilot is None
    assert "[not rerun: about" in verdict.reason and "beyond the cap of 2x" in verdict.reason


def test_an_integer_budget_runs_once_as_before():
    verdict = check_agreement("rff", rff.mean, statistic="mean", k=[10], n_repetitions=200,
                              random_state=0, tolerance=0.01, rho=0.5, gamma=1.0)
    assert verdict.pilot is None and verdict.n_repetitions == 200


@pytest.mark.parametrize("n_repetitions, max_repetitions, error", [
    ("lots", 10_000, ValueError), (2.5, 10_000, TypeError), ("auto", 3_000, ValueError)])
def test_bad_budgets_are_refused(n_repetitions, max_repetitions, error):
    with pytest.raises(error, match="n_repetitions|max_repetitions"):
        check_agreement("rff", rff.mean, statistic="mean", k=[10], n_repetitions=n_repetitions,
                        max_repetitions=max_repetitions, random_state=0, tolerance=0.01,
                        rho=0.5, gamma=1.0)
