"""Paper 002's figure claims (paper_checks/p002/figure_claims.py): Fig. 3's trials, the pairs each
claim judges (which side is which), and the claims' outcomes on made-up trials that hold or fail."""
from __future__ import annotations

import math

import numpy as np
import pytest

from paper_checks.p002 import accuracy_growth, classification, figure_claims, gram_error
from varlab import claims
from varlab.claims import CONFIRMED, CONTRADICTED, Budget

KERNELS = tuple(gram_error.KERNELS)
BUDGET = Budget("unit-002-figures", 10)


def _claim(claim_id):
    return next(c for c in claims.claims("002") if c.id == claim_id)


def test_the_new_claims_are_registered_after_the_others():
    ids = [c.id for c in claims.claims("002")]
    new = ["002.table1.baselines", "002.table1.letter_gain", "002.fig2.sd", "002.fig3.growth", "002.fig3.above_linear"]
    assert ids[-len(new):] == new


def test_components_start_below_d():
    assert [accuracy_growth.components(16, level) for level in (-2, -1, 0, 3)] == [4, 8, 16, 128]
    assert accuracy_growth.components(3, -3) == 1


def test_fig3_trial_is_seeded_and_scores_every_kernel_and_m(monkeypatch):
    monkeypatch.setitem(accuracy_growth.SETTINGS, "unit-002-fig3", (2, 60, (-1, 0), (0,), 2))
    unit = dict(budget="unit-002-fig3", random_state=3, dataset="spambase", trial=1)
    first = accuracy_growth.run_trial(unit)
    assert set(first) == {"Linear"} | {f"{k}/{level}" for k in KERNELS for level in (-1, 0)}
    assert all(0.0 <= value <= 100.0 for value in first.values())
    assert accuracy_growth.run_trial(unit) == first
    assert accuracy_growth.run_trial(dict(unit, trial=0)) != first


def _fig3(accuracy):
    """Made-up Fig. 3 results: accuracy(level, trial) + noise for every kernel, the linear classifier
    at 80 + noise."""
    grid = (-1, 0, 1, 2)
    trials = np.arange(10)
    return {name: {"grid": grid, "Linear": 80.0 + 0.2 * np.sin(trials),
                   **{k: np.array([[accuracy(level, t) + 0.1 * math.cos(t + level) for level in grid] for t in trials])
                      for k in KERNELS}}
            for name in accuracy_growth.DATASETS}


def _run(claim_id, monkeypatch, module, attribute, value):
    monkeypatch.setattr(module, attribute, lambda budget: value)
    return _claim(claim_id).run(BUDGET)


@pytest.mark.parametrize("accuracy, outcome", [
    (lambda level, t: 70.0 + 20.0 * min(level, 1), CONFIRMED),      # grows, then saturates
    (lambda level, t: 90.0 - 10.0 * max(level, 0), CONTRADICTED),  # falls
])
def test_fig3_growth_on_made_up_trials(monkeypatch, accuracy, outcome):
    assert _run("002.fig3.growth", monkeypatch, accuracy_growth, "fig3_results", _fig3(accuracy)).outcome == outcome


def test_fig3_steps_pair_each_m_with_the_next(monkeypatch):
    monkeypatch.setattr(accuracy_growth, "fig3_results", lambda budget: _fig3(lambda level, t: 10.0 * level + t))
    run = claims.ClaimRun(_claim("002.fig3.growth"), BUDGET)
    a, b = figure_claims._steps(run)["letter/sinh_gaussian/log2(M/d) = 0 -> 1"]
    np.testing.assert_allclose(b - a, 10.0, atol=0.2)
    assert set(figure_claims._above_linear(run)) == {f"{name}/{k}/log2(M/d) = {level}"
                                                    for name in accuracy_growth.DATASETS for k in KERNELS
                                                    for level in (0, 1, 2)}


@pytest.mark.parametrize("asy, outcome", [(95.0, CONFIRMED), (60.0, CONTRADICTED)])
def test_fig3_above_linear_on_made_up_trials(monkeypatch, asy, outcome):
    results = _fig3(lambda level, t: asy)
    assert _run("002.fig3.above_linear", monkeypatch, accuracy_growth, "fig3_results", results).outcome == outcome


def _table1(gain, baseline_gap):
    """Made-up Table 1 trials: RBF at 78 + noise, Asy at RBF + gain, Linear at Asy - baseline_gap."""
    noise = 0.2 * np.sin(np.arange(10))
    rbf = 78.0 + noise
    out = {}
    for name in classification.DATASETS:
        asy = rbf + gain + 0.1 * np.cos(np.arange(10))
        out[name] = {"RBF": rbf, "Linear": asy - baseline_gap + 0.1 * np.sin(2 * np.arange(10)),
                     **{f"{k}/{side}": asy for k in KERNELS for side in ("Asy", "Sym")}}
    return out


@pytest.mark.parametrize("gain, outcome", [(4.8, CONFIRMED), (8.0, CONTRADICTED), (2.0, CONTRADICTED)])
def test_letter_gain_on_made_up_trials(monkeypatch, gain, outcome):
    verdict = _run("002.table1.letter_gain", monkeypatch, classification, "table1", _table1(gain, 5.0))
    assert verdict.outcome == outcome


@pytest.mark.parametrize("gain, baseline_gap, outcome", [(3.0, 5.0, CONFIRMED), (-4.0, 5.0, CONTRADICTED),
                                                         (3.0, -4.0, CONTRADICTED)])
def test_table1_baselines_on_made_up_trials(monkeypatch, gain, baseline_gap, outcome):
    verdict = _run("002.table1.baselines", monkeypatch, classification, "table1", _table1(gain, baseline_gap))
    assert verdict.outcome == outcome


def _fig2(sd_exponent, trials=10, levels=5):
    """Made-up Fig. 2 errors whose sd over the trials is proportional to M^sd_exponent."""
    log2m = np.arange(1, levels + 1)
    spread = np.linspace(-1.0, 1.0, trials)[:, None]
    errors = 0.5 + 0.05 * spread * 2.0 ** (sd_exponent * log2m)[None, :]
    return {(name, kernel): (errors, errors, log2m) for name in gram_error.DATASETS for kernel in KERNELS}


def test_sd_slope_is_exact_with_no_jackknife_error_for_a_power_law(monkeypatch):
    monkeypatch.setattr(gram_error, "fig2_results", lambda budget: _fig2(-0.5))
    measurement = figure_claims._sd_slopes(claims.ClaimRun(_claim("002.fig2.sd"), BUDGET))
    np.testing.assert_allclose(measurement.estimate, -0.5, rtol=1e-12)
    np.testing.assert_allclose(measurement.standard_error, 0.0, atol=1e-12)
    assert list(measurement.degrees_of_freedom) == [9] * 6


@pytest.mark.parametrize("exponent, outcome", [(-0.5, CONFIRMED), (0.5, CONTRADICTED)])
def test_fig2_sd_on_made_up_trials(monkeypatch, exponent, outcome):
    noisy = {key: (errors * (1 + 0.001 * np.cos(np.arange(errors.size)).reshape(errors.shape)), exact, log2m)
             for key, (errors, exact, log2m) in _fig2(exponent).items()}
    assert _run("002.fig2.sd", monkeypatch, gram_error, "fig2_results", noisy).outcome == outcome
