"""Paper 002 claims of issue 34: each decided by the one rule (varlab.testing.decision), each able to
fail, and each statement saying what is tested."""
from __future__ import annotations

import numpy as np
import pytest

from paper_checks.p002 import classification
from paper_checks.p002 import claims as C
from varlab import claims
from varlab.claims import CONFIRMED, CONTRADICTED, INCONCLUSIVE, Budget

DECLARED = {c.id: c for c in claims.claims("002")}
TINY = Budget("tiny", 10)


def _fake_ns_trials(bias):
    """ns_trials with every fit at the exact masses times (1 + bias), plus a little spread."""
    def fake(run):
        exact = {kernel: np.array([1.0, 0.5, 0.25]) for kernel in C.KERNELS}
        noise = np.random.default_rng(0).normal(0.0, 1e-3, (50, 3))
        return {(kernel, ns): exact[kernel] * (1 + bias) + noise for kernel in C.KERNELS
                for ns in C.NS_VALUES}, exact
    return fake


@pytest.mark.parametrize("bias, outcome", [(0.0, CONFIRMED), (0.2, CONTRADICTED)])
def test_eq12_ns_is_the_five_percent_agreement_and_can_fail(monkeypatch, bias, outcome):
    """'Valid' is judged at the module's tolerance for 'equals', set before the data (no factor
    picked from the observed ratios), and a biased fit is contradicted."""
    claim = DECLARED["002.eq12.ns"]
    assert isinstance(claim, claims.Agreement) and claim.tolerance == C.RELATIVE_TOLERANCE == 0.05
    assert "within 5%" in claim.statement and "stabilize around the accurate" in claim.quote
    assert "factor 2" not in claim.statement and "twice" not in claim.statement
    monkeypatch.setattr(C, "ns_trials", _fake_ns_trials(bias))
    assert claim.run(TINY).outcome == outcome


def test_eq12_sign_is_decided_over_fits_by_the_one_rule(monkeypatch):
    """The printed sign's fits are averaged over independent fits through decide_agreement: the real
    printed sign is contradicted, a fit that recovers ||I+|| confirms."""
    claim = DECLARED["002.eq12.sign"]
    assert isinstance(claim, claims.Agreement) and claim.tolerance == 0.5 and "within 0.5" in claim.statement
    verdict = claim.run("test")
    assert verdict.outcome == CONTRADICTED and verdict.method == "trials"
    assert all(row["estimate"] == pytest.approx(1.0) for row in verdict.rows if "estimate" in row)
    real = C.estimate_total_masses
    monkeypatch.setattr(C, "estimate_total_masses",
                        lambda ask, X, printed_sign=False: real(ask, X, printed_sign=False))
    assert claim.run(TINY).outcome == CONFIRMED          # 20 fits (quick's number)


def test_prop6_can_fail_and_few_trials_without_failures_do_not_confirm(monkeypatch):
    """002.prop6 is an Ordering of the failure rate at the bound against delta: a bound far too
    small is contradicted; at a bound with no failures, 50 trials (binomial SE at delta) cannot
    confirm a failure rate within delta."""
    claim = DECLARED["002.prop6"]
    assert isinstance(claim, claims.Ordering) and not claim.strict and claim.effect_size == C.PROP6_DELTA
    real = C.theory.prop6_features
    monkeypatch.setattr(C.theory, "prop6_features", lambda *a: (4.0, real(*a)[1]))
    assert claim.run(TINY).outcome == CONTRADICTED
    monkeypatch.setattr(C.theory, "prop6_features", lambda *a: (2048.0, real(*a)[1]))
    verdict = claim.run(TINY)
    assert verdict.outcome == INCONCLUSIVE and verdict.resolution > verdict.tolerance


def test_term_sums_recurrence_equals_direct_trig():
    rng = np.random.default_rng(1)
    w, grid = rng.normal(0.0, 4.0, (3, 500)), np.linspace(-1.0, 1.0, 201)
    for trig in (np.cos, np.sin):
        assert np.allclose(C._term_sums(w, grid, trig), trig(w[:, :, None] * grid).sum(axis=1), atol=1e-9)
    with pytest.raises(ValueError, match="uniform"):
        C._term_sums(w, np.array([0.0, 0.1, 0.3]), np.cos)


@pytest.mark.parametrize("kernel", list(C.KERNELS))
def test_sec53_compares_with_rff_on_the_symmetric_part(kernel):
    """B of 002.sec5.3 is RFF of (K + K^T)/2 (Table 1's Sym), the symmetric part of AsK-RFF's own
    estimate (its sine term is antisymmetric), not the exact symmetric part."""
    claim = DECLARED["002.sec5.3"]
    assert "RFF on the kernel's symmetric part" in claim.statement and claim.names[1] == "RFF on Sym"
    seed = np.random.SeedSequence(3)
    X, ask, K = C._sec53_fit(seed, seed, kernel, n_components=64)
    estimate = ask.kernel_estimate(X)
    assert np.allclose(C._sym_rff_gram(ask, X), 0.5 * (estimate + estimate.T), atol=1e-12)
    assert not np.allclose(C._sym_rff_gram(ask, X), 0.5 * (K + K.T), atol=1e-3)


def test_table1_equal_width_gives_sym_as_many_columns_as_asy():
    """002.table1.equal_width: Sym with 2M frequencies per part has Asy's 8M columns, on the same
    training rows as 002.table1's trial."""
    claim = DECLARED["002.table1.equal_width"]
    base = DECLARED["002.table1"]
    assert isinstance(claim, claims.Paired) and claim.effect_size == base.effect_size and not claim.strict
    assert "equal width" in claim.statement and "8M columns" in claim.statement
    X = classification.normalised("spambase")[0][:80]
    for kernel in C.KERNELS:
        asy = classification.features(kernel, X, np.random.default_rng(0))
        sym = classification.features(kernel, X, np.random.default_rng(0), per_dimension=4)
        assert sym.symmetric_features(X).shape[1] == asy.concatenated(X).shape[1] == 8 * asy.n_components
    setting = classification.SETTINGS["test"]
    rows = classification._training_rows("letter", 1, setting[1], 7)[1]
    assert np.array_equal(rows, classification._training_rows("letter", 1, setting[1], 7)[1])


def test_sym_equal_width_units_have_keys_of_their_own(tmp_path, monkeypatch):
    monkeypatch.setitem(classification.SETTINGS, "tiny-width", (2, {"spambase": 60, "letter": 60}, (0,), 2, 1))
    budget = Budget("tiny-width", 10).stored_in(tmp_path)
    wide = classification.sym_equal_width(budget)
    assert set(wide) == set(classification.DATASETS)
    assert all(values.shape == (2,) for cell in wide.values() for values in cell.values())
