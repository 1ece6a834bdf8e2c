"""Paper 004's figure claims (paper_checks/p004/figure_claims.py): the related-work points and
estimates, Fig. 3's trials, the pairs each claim judges and its outcomes on made-up trials."""
from __future__ import annotations

import numpy as np
import pytest

from paper_checks.p004 import approximation, classification, figure_claims
from varlab import claims
from varlab.claims import CONFIRMED, CONTRADICTED, Budget, ClaimRun

BUDGET = Budget("unit-004-figures", 400)


def _claim(claim_id):
    return next(c for c in claims.claims("004") if c.id == claim_id)


def test_the_new_claims_are_registered_after_the_others():
    ids = [c.id for c in claims.claims("004")]
    assert ids[-3:] == ["004.related_work.unbiased", "004.fig2.delta_gorf_lowest", "004.fig3"]


def test_sphere_pairs_are_unit_points_at_the_distances():
    X = figure_claims._sphere_pairs(ClaimRun(_claim("004.related_work.unbiased"), BUDGET))
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(X[1:] - X[0], axis=1), figure_claims.UNBIASED_DISTANCES, rtol=1e-12)


def test_dot_product_estimates_are_within_their_errors_of_the_kernel():
    """RM and TS at a small budget: every estimate within 4.5 SE of the kernel (both are unbiased)."""
    m = figure_claims._dot_product_estimates(ClaimRun(_claim("004.related_work.unbiased"), BUDGET))
    assert len(m.rows) == 2 * len(figure_claims.UNBIASED_DEGREES) * len(figure_claims.UNBIASED_DISTANCES)
    z = (np.asarray(m.estimate) - np.asarray(m.theory)) / np.asarray(m.standard_error)
    assert np.all(np.asarray(m.standard_error) > 0) and np.max(np.abs(z)) < 4.5
    assert m.theory[0] == pytest.approx(1.0 - 0.25 / 9.0, rel=1e-12)            # m = 1, |x - y| = 0.5


def test_fig3_trial_is_seeded_and_scores_every_method_and_s(monkeypatch):
    monkeypatch.setitem(classification.SETTINGS, "unit-004-fig3", (2, 60, (0.5,), (0,), 2))
    unit = dict(budget="unit-004-fig3", random_state=3, kernel="polynomial_sphere", dataset="optdigits", trial=1)
    first = classification.run_trial(unit)
    assert set(first) == {f"{method}/32" for method in classification.METHODS["polynomial_sphere"]}
    assert all(0.0 <= value <= 100.0 for value in first.values())
    assert classification.run_trial(unit) == first


def _fig3(gorf_gain):
    """Made-up Fig. 3 results: every method at 80 + noise, GORF gorf_gain points above."""
    trials = np.arange(8)
    out = {}
    for kname, methods in classification.METHODS.items():
        for name in classification.DATASETS:
            cell = {"s": [8, 16]}
            for index, method in enumerate(methods):
                base = 80.0 + 0.1 * np.cos(trials + index)[:, None] + np.zeros((1, 2))
                cell[method] = base + (gorf_gain if method == "GORF" else 0.0)
            out[(kname, name)] = cell
    return out


@pytest.mark.parametrize("gain, outcome", [(0.0, CONFIRMED), (-5.0, CONTRADICTED)])
def test_fig3_on_made_up_trials(monkeypatch, gain, outcome):
    monkeypatch.setattr(classification, "fig3_results", lambda budget: _fig3(gain))
    verdict = _claim("004.fig3").run(BUDGET)
    assert verdict.outcome == outcome
    assert len(verdict.rows) == 2 * 2 * (3 + 1)             # (data, s) x the other methods of each kernel


@pytest.mark.parametrize("gap, outcome", [(0.05, CONFIRMED), (-0.05, CONTRADICTED)])
def test_delta_gorf_lowest_on_made_up_trials(monkeypatch, gap, outcome):
    """GORF's errors gap below GRFF's (made up): confirmed, and contradicted when above."""
    def errors(budget_name, random_state, kernel, name):
        assert kernel == "delta_gaussian"
        grff = 0.3 + 0.01 * np.cos(np.arange(10))[:, None] + np.zeros((1, 5))
        return {"s": [8, 16, 32, 64, 128], "d": 16, "GRFF": grff,
                "GORF": grff - gap + 1e-4 * np.sin(np.arange(10))[:, None]}
    monkeypatch.setattr(approximation, "errors", errors)
    assert _claim("004.fig2.delta_gorf_lowest").run(BUDGET).outcome == outcome
