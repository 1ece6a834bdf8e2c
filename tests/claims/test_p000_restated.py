"""Paper 000's claims restated for issue 34 (items 4, 8, 9): each says what it tests, decides by the one
rule (the claim kinds, varlab.testing.decision), and can fail.

* 000.eq13.zero_bit on real data rows, and varlab's own low-dimensional / rescaled counterexamples;
* 000.thm4.region: the O(1/k^2) term against varlab's V2, decided by decide_agreement on exact values;
* 000.tables12.gmm_beats_rbf(_scaled): per data set, the test rows as paired trials;
* varlab.000.nrff.mse_second_order: MSE - V_n/k by a first-order control variate against c2/k^2.
"""
import numpy as np
import pytest

from test_reports import verdict_of
from varlab import claims, mc
from varlab.claims import CONFIRMED, CONTRADICTED, Z_MAX, ClaimRun, Measured
from varlab.testing.decision import MARGIN, noise_level
from varlab.theory import nrff, rff

from paper_checks.p000 import gcws as p000_gcws
from paper_checks.p000 import rff as p000_rff
from paper_checks.p000 import svm


def _claim(claim_id):
    return next(c for c in claims.claims("000") if c.id == claim_id)


# --- item 4: the 0-bit approximation --------------------------------------------------------------

def test_zero_bit_claim_tests_real_data_rows_in_the_papers_words():
    claim = _claim("000.eq13.zero_bit")
    assert "intensive empirical observations" in claim.quote and "safely ignore t*" in claim.quote
    assert "real data" in claim.statement and "training rows" in claim.statement
    verdict = verdict_of(claim.id, "test")
    sets = {(row["dataset"], row["scaling"]) for row in verdict.rows}
    assert sets == {(name, scaling) for name in svm.PAPER_TABLE for scaling in ("shipped", "libsvm")}
    assert len(verdict.rows) == 2 * len(svm.PAPER_TABLE) * p000_gcws.ZERO_BIT_PAIRS_PER_SET
    # the pairs are rows of the data as the SVMs see them (unit l2 norm), distinct rows of one set
    pairs, rows = p000_gcws.real_data_pairs(ClaimRun(claim, claims.budget("test")))
    for (u, v), row in zip(pairs, rows):
        first, second = (int(i) for i in row["rows"].split(", "))
        X = svm.prepared(row["dataset"], scaling=None if row["scaling"] == "shipped" else row["scaling"]).X_train
        assert first != second and np.array_equal(u, X[first]) and np.array_equal(v, X[second])
        assert abs(np.linalg.norm(u) - 1) < 1e-12


def test_the_zero_bit_rule_contradicts_the_constructed_pairs():
    """The real-data claim's rule, on varlab's constructed pairs, is contradicted: it can fail."""
    claim = _claim("varlab.000.eq13.zero_bit_low_dimension")
    run = ClaimRun(claim, claims.budget("test"))
    pairs, labels = p000_gcws.constructed_pairs(run)

    def rates(run):
        return p000_gcws.zero_bit_measurement(pairs, [dict(case=label) for label in labels], 4_000,
                                              run.seed("zero_bit_hashes"))

    same_rule = claims.Agreement.part(model=Measured(rates, "0-bit rate"), tolerance=p000_gcws.ZERO_BIT_TOLERANCE,
                                      relative=False)
    assert same_rule.check(run).outcome == CONTRADICTED
    # v = 10 u: GMM = 1/10 exactly
    truth = [p000_gcws._gmm(u, v) for u, v in pairs]
    assert truth[labels.index("v = 10 u")] == pytest.approx(0.1, abs=1e-12)


def test_the_counterexample_claim_is_varlabs_own_and_can_fail():
    claim = _claim("varlab.000.eq13.zero_bit_low_dimension")
    assert claim.derived_by_varlab and not claim.quote
    assert all(label in claim.statement for label in p000_gcws.LOW_DIMENSION_PAIRS)
    assert claim.run("test").outcome != CONTRADICTED
    # identical rows have no 0-bit bias (rate = GMM = 1): as counterexamples they are contradicted

    def no_bias(run):
        u = np.array([1.0, 2.0, 3.0])
        measured = p000_gcws.zero_bit_measurement([(u, u)] * 3, [dict(case="u = v")] * 3, 4_000,
                                                  run.seed("zero_bit_hashes"))
        return claims.Measurement(estimate=np.asarray(measured.estimate) - np.asarray(measured.theory),
                                  standard_error=measured.standard_error, rows=measured.rows)

    not_counterexamples = claims.Ordering.part(lower=claim.lower, upper=Measured(no_bias, "0-bit bias"),
                                               effect_size=claim.effect_size)
    assert not_counterexamples.check(ClaimRun(claim, claims.budget("test"))).outcome == CONTRADICTED


# --- item 8: Theorem 4's O(1/k^2) ------------------------------------------------------------------

def test_region_decides_by_the_one_rule_and_a_wrong_limit_is_contradicted():
    rows = p000_gcws.asymptotic_region()
    assert p000_gcws.region_decision(rows).outcome == CONFIRMED
    assert max(row[f"accuracy_k{k}"] for row in rows for k in p000_gcws.REGION_TESTED_K) < p000_gcws.REGION_ERROR

    def off_by_a_millionth(rho, gamma):                 # V_g 1e-6 too large: k^2 (Var - V_g/k) ~ -1e-6 V_g k
        return 1.000001 * p000_gcws.gcws.asymptotic_variance(rho=rho, gamma=gamma)

    wrong = p000_gcws.region_decision(p000_gcws.asymptotic_region(asymptotic=off_by_a_millionth))
    assert wrong.outcome == CONTRADICTED, wrong.reason


# --- item 9: Tables 1-2 per data set ------------------------------------------------------------------

def test_gmm_beats_rbf_is_decided_per_data_set_on_test_rows():
    claim = _claim("000.tables12.gmm_beats_rbf")
    assert "On each shipped set" in claim.statement and "test rows" in claim.statement
    # the sets: those where the paper's own tables print GMM above RBF (all but letter)
    assert set(svm.paper_gmm_wins()) == set(svm.PAPER_TABLE) - {"letter"}
    run = ClaimRun(claim, claims.budget("test"))
    cells = svm.gmm_rbf_trials(run)
    assert list(cells) == ["segment", "vowel"]            # the test slice's sets
    best = svm.best_results(svm.svm_records(run.budget))
    for name, (rbf, gmm) in cells.items():
        # the refitted best units reproduce their records' accuracies, row by row
        assert rbf.mean() == pytest.approx(100 * best[(name, "rbf")]["accuracy"], abs=1e-9)
        assert gmm.mean() == pytest.approx(100 * best[(name, "gmm")]["accuracy"], abs=1e-9)
        assert set(np.unique(np.concatenate([rbf, gmm]))) <= {0.0, 100.0}
    verdict = claim.run("test")
    assert [row["cell"] for row in verdict.rows] == ["segment", "vowel"] and verdict.method == "trials"
    assert [row["trials"] for row in verdict.rows] == [len(cells["segment"][0]), len(cells["vowel"][0])]


def test_the_per_set_rule_can_confirm_and_contradict():
    """The Paired rule on test rows: GMM right on every row where RBF is wrong (2% of 20,000 rows)
    confirms; the reverse contradicts."""
    claim = _claim("000.tables12.gmm_beats_rbf")
    run = ClaimRun(claim, claims.budget("test"))
    rows = np.random.default_rng(0).random(20_000) < 0.98
    rbf, gmm = 100.0 * rows, np.full(rows.size, 100.0)
    kind = dict(effect_size=claim.effect_size, quantity=claim.quantity, names=claim.names)
    assert claims.Paired.part(trials=lambda run: {"set": (rbf, gmm)}, **kind).check(run).outcome == CONFIRMED
    assert claims.Paired.part(trials=lambda run: {"set": (gmm, rbf)}, **kind).check(run).outcome == CONTRADICTED


# --- item 8/9: NRFF's second-order term --------------------------------------------------------------

def test_the_control_variate_has_mean_vn_over_k():
    """E L^2 = V_n/k: L is the mean of k i.i.d. X Y - t X^2/2 - t Y^2/2, of mean 0 and variance V_n."""
    rng = np.random.default_rng(0)
    for rho, gamma in ((0.75, 1.0), (0.0, 1.0), (0.99, 10.0)):
        x = rng.standard_normal(1_000_000)
        y = rho * x + np.sqrt(1 - rho * rho) * rng.standard_normal(x.size)
        w = rng.uniform(0, 2 * np.pi, x.size)
        X, Y = np.sqrt(2) * np.cos(np.sqrt(gamma) * x + w), np.sqrt(2) * np.cos(np.sqrt(gamma) * y + w)
        t = rff.mean(rho=rho, gamma=gamma)
        term = X * Y - t * X * X / 2 - t * Y * Y / 2
        assert abs(term.mean()) < Z_MAX * term.std() / np.sqrt(x.size)
        squared = (term - term.mean()) ** 2
        variance, error = squared.mean(), squared.std() / np.sqrt(x.size)
        assert abs(variance - nrff.asymptotic_variance(rho=rho, gamma=gamma)) < Z_MAX * error


def test_the_control_variate_simulation_does_not_depend_on_n_jobs():
    rho, gamma = p000_rff.points(p000_rff.SECOND_ORDER_PANELS[:2])
    runs = [mc.simulate(p000_rff.NRFFSecondOrderModel(), k=[50], rho=rho, gamma=gamma, n_repetitions=2_000,
                        random_state=1, n_jobs=n_jobs, progress=False) for n_jobs in (1, 2)]
    np.testing.assert_array_equal(runs[0].mean, runs[1].mean)
    np.testing.assert_array_equal(runs[0].se_mean, runs[1].se_mean)


def test_second_order_claim_is_an_agreement_on_resolvable_panels():
    claim = _claim("varlab.000.nrff.mse_second_order")
    assert isinstance(claim, claims.Agreement) and claim.relative and claim.tolerance == p000_rff.C2_TOLERANCE
    assert (0.5, 10.0) not in p000_rff.SECOND_ORDER_PANELS and len(p000_rff.SECOND_ORDER_PANELS) == 5
    verdict = verdict_of(claim.id, "test")
    assert verdict.outcome != CONTRADICTED
    # decidable at a stated budget: a finite factor; every |z| is within the noise level of its
    # points, so the advice is the resolution's (noise is not read as a departure: issue 34)
    assert verdict.budget_factor is not None and np.isfinite(verdict.budget_factor)
    assert all(abs(row["z"]) <= noise_level(len(verdict.rows)) for row in verdict.rows)
    margin = (verdict.threshold + MARGIN) / verdict.threshold
    assert verdict.budget_factor == pytest.approx((margin * verdict.resolution / verdict.tolerance) ** 2, rel=1e-6)
    for row in verdict.rows:
        assert row["theory"] == pytest.approx(p000_rff.second_order_term(row["k"], row["rho"], row["gamma"]))
