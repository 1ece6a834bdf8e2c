"""The claims core: three outcomes through one decision rule, the declaration kinds (each can
confirm, contradict and stay inconclusive), the store and runner, the entry-point discovery, the
reports. Unit claims here are registered under the paper key "unit" (not an entry point, so
they are never part of a paper's report)."""
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from varlab import claims
from varlab.claims import (CONFIRMED, CONTRADICTED, INCONCLUSIVE, OUTCOMES, Z_MAX, Agreement,
                           Budget, ClaimRun, Identity, Joint, Measured, Measurement, Ordering, Paired,
                           Store, Verdict, t_threshold, write_report)
from varlab.testing import builders
from varlab.testing.decision import MARGIN
from varlab.theory import rff

REPORTS = Path(__file__).resolve().parents[2] / "paper_checks" / "reports"
FULL_REPORTS = Path(__file__).resolve().parents[2] / "simulations"
GRID = dict(rho=(0.0, 0.5), gamma=1.0)


def _run(**words) -> ClaimRun:
    claim = claims.Check(id="unit.run", source="src", statement="stmt", quote="q",
                         function=lambda run: None, **words)
    return ClaimRun(claim, Budget("unit", 10))


def _variance(k, rho, gamma):
    return rff.variance(rho=rho, gamma=gamma) / k


def _agreement(claim_id, theory, tolerance=0.05):
    return Agreement(id=claim_id, source="unit", quote="Var = V/k", statement="the RFF variance",
                     model="rff", theory=theory, statistic="variance", k=(1, 4), grid=GRID,
                     tolerance=tolerance)


# --- one decision rule ------------------------------------------------------------------------

@pytest.mark.parametrize("z, expected", [(Z_MAX - 0.01, CONFIRMED), (-(Z_MAX - 0.01), CONFIRMED),
                                         (Z_MAX + 0.01, INCONCLUSIVE)])
def test_the_threshold_is_z_max(z, expected):
    """A departure just past Z_MAX SE, neither shown within the tolerance nor beyond it, is
    inconclusive."""
    verdict = builders.agreement(_run(), theory=[1.0, 2.0], estimate=[1.0, 2.0 + z * 0.01],
                                 standard_error=[0.01, 0.01], parameters=[{}, {}], quantity="q",
                                 tolerance=0.05)
    assert Z_MAX == 4.5 and verdict.outcome == expected
    assert verdict.resolution == pytest.approx(Z_MAX * 0.01)


def test_contradicted_needs_a_departure_significantly_beyond_the_tolerance():
    run = _run()
    beyond = builders.agreement(run, theory=[1.0], estimate=[1.2], standard_error=[0.01], parameters=[{}],
                                quantity="q", tolerance=0.1)
    assert beyond.outcome == CONTRADICTED and beyond.budget_factor is None
    near = builders.agreement(run, theory=[1.0], estimate=[1.12], standard_error=[0.01], parameters=[{}],
                              quantity="q", tolerance=0.1)
    assert near.outcome == INCONCLUSIVE            # 2 SE beyond the tolerance: not significant
    assert near.budget_factor == pytest.approx(((Z_MAX + MARGIN) * 0.01 / 0.02) ** 2)   # with the advice's margin
    shown = builders.agreement(run, theory=[1.0], estimate=[1.05], standard_error=[0.01], parameters=[{}],
                               quantity="q", tolerance=0.1)
    assert shown.outcome == CONFIRMED and "shown within the tolerance" in shown.reason


def test_confirmed_needs_the_resolution_within_the_tolerance():
    verdict = builders.agreement(_run(), theory=[1.0], estimate=[1.0], standard_error=[0.1], parameters=[{}],
                                 quantity="q", tolerance=0.1)
    assert verdict.outcome == INCONCLUSIVE
    assert verdict.resolution == pytest.approx(0.45)
    assert verdict.budget_factor == pytest.approx((4.5 + MARGIN) ** 2)
    assert "budget would resolve it" in verdict.reason


def test_claims_and_user_checks_share_one_threshold_rule_at_the_repetitions_used():
    """A user's check_agreement at n repetitions and a claim over a shared Simulation that gets n
    of its budget's 4n (share=4), or a Difference of two such, judge at one threshold, the t
    quantile of n - 1 (5.04 at n = 50, not Z_MAX = 4.5), in their decision as in their record."""
    from varlab.testing import check_agreement
    from varlab.testing.outcomes import threshold

    n, grid = 50, dict(rho=0.5, gamma=1.0)
    user = check_agreement("rff", rff.mean, statistic="mean", k=[4], n_repetitions=n, random_state=0,
                           tolerance=0.5, relative=False, **grid)
    shared = claims.Simulation("unit.threshold", "shared", "rff", (4,), grid, share=4)
    claim = Agreement(id="unit.threshold.shared", source="unit", quote="q", statement="s", model=shared,
                      theory=rff.mean, statistic="mean", k=(4,), tolerance=0.5, relative=False)
    gap = claims.Difference(shared, claims.Simulation("unit.threshold", "other", "rff_no_phase", (4,),
                                                      grid, share=2))
    difference = Agreement(id="unit.threshold.gap", source="unit", quote="q", statement="s", model=gap,
                           theory=lambda k, rho, gamma: 0.0 * k, statistic="mean", k=(4,),
                           tolerance=1.0, relative=False)
    budget = Budget("unit", 4 * n)
    for verdict in (user, claim.run(budget), difference.run(budget)):
        assert verdict.n_repetitions == n and verdict.method == "simulation"
        assert verdict.threshold == threshold(n) == pytest.approx(5.04, abs=0.005)
        assert verdict.resolution == pytest.approx(threshold(n) * verdict.rows[0]["SE"], rel=1e-12)
    assert threshold(4 * n) < threshold(n)


@pytest.mark.parametrize("df", [7, 19, 49])
def test_few_unit_standard_errors_use_the_t_quantile(df):
    threshold = float(t_threshold(df))
    assert scipy_stats.t.sf(threshold, df) == pytest.approx(scipy_stats.norm.sf(Z_MAX), rel=1e-6)
    run = _run()
    tolerance = 1.1 * threshold
    inside = builders.agreement(run, theory=[0.0], estimate=[threshold - 0.01], standard_error=[1.0],
                                parameters=[{}], quantity="q", tolerance=tolerance,
                                degrees_of_freedom=df)
    assert inside.outcome == CONFIRMED and inside.method == "trials"
    assert inside.resolution == pytest.approx(threshold) and "t quantile" in inside.reason
    assert builders.agreement(run, theory=[0.0], estimate=[threshold - 0.01], standard_error=[1.0],
                              parameters=[{}], quantity="q",
                              tolerance=tolerance).outcome == INCONCLUSIVE


def test_zero_standard_error_is_judged_exactly():
    run = _run()
    assert builders.agreement(run, theory=[0.0], estimate=[1e-300], standard_error=[0.0], parameters=[{}],
                              quantity="q", tolerance=1e-3).outcome == CONFIRMED
    assert builders.agreement(run, theory=[0.0], estimate=[1.0], standard_error=[0.0], parameters=[{}],
                              quantity="q", tolerance=1e-3).outcome == CONTRADICTED
    assert builders.agreement(run, theory=[0.5], estimate=[0.5], standard_error=[0.0], parameters=[{}],
                              quantity="q", tolerance=1e-3).outcome == CONFIRMED


def test_ordering_strict_and_not_strict():
    run = _run()
    common = dict(standard_error=[0.01, 0.01], parameters=[{"x": 1}, {"x": 2}], quantity="q",
                  effect_size=0.1)
    assert builders.ordering(run, lower=[1.0, 1.0], upper=[1.2, 1.3], **common).outcome == CONFIRMED
    equal = dict(lower=[1.0, 1.0], upper=[1.2, 1.0], **common)
    assert builders.ordering(run, **equal).outcome == INCONCLUSIVE
    assert builders.ordering(run, **equal, strict=False).outcome == CONFIRMED
    slightly_above = dict(lower=[1.0, 1.02], upper=[1.2, 1.0], **common)   # above, by < effect
    assert builders.ordering(run, **slightly_above, strict=False).outcome == CONFIRMED
    assert builders.ordering(run, **slightly_above).budget_factor is None
    above = builders.ordering(run, lower=[1.0, 1.5], upper=[1.2, 1.0], **common)
    assert above.outcome == CONTRADICTED and "x = 2" in above.reason


def test_combined_takes_the_worst_outcome_and_the_coarsest_resolution():
    run = _run()
    fine = builders.agreement(run, theory=[1.0], estimate=[1.0], standard_error=[0.001], parameters=[{}],
                              quantity="a", tolerance=0.1)
    coarse = builders.agreement(run, theory=[1.0], estimate=[1.0], standard_error=[0.1], parameters=[{}],
                                quantity="b", tolerance=0.1)
    both = builders.combined(run, [fine, coarse])
    assert both.outcome == INCONCLUSIVE and both.resolution == coarse.resolution
    assert builders.combined(run, [fine, fine]).outcome == CONFIRMED


def test_exact_checks_carry_their_error_bound():
    run = _run()
    assert builders.exact(run, True, "sympy: 0").outcome == CONFIRMED
    assert builders.exact(run, False, "sympy: x").outcome == CONTRADICTED
    with pytest.raises(ValueError, match="error bound"):
        builders.exact(run, True, "r", error=1e-6, tolerance=1e-9)


def test_verdicts_refuse_unknown_outcomes_and_carry_the_words():
    verdict = builders.exact(_run(note="weaker"), True, "ok")
    assert (verdict.id, verdict.quote, verdict.statement, verdict.note) == (
        "unit.run", "q", "stmt", "weaker")
    with pytest.raises(ValueError, match="outcome"):
        Verdict("unit.x", "s", "q", "t", "holds", "exact", 0.0, 0.0, "exact", "r", "unit")
    assert Verdict.from_json(verdict.to_json()) == verdict


# --- the declaration kinds: right confirmed, wrong contradicted, small budget inconclusive -----

def test_agreement_declaration_three_outcomes():
    right = _agreement("unit.agree.right", _variance)
    wrong = _agreement("unit.agree.wrong", lambda k, rho, gamma: 1.1 * _variance(k, rho, gamma))
    assert right.run(Budget("unit", 50_000)).outcome == CONFIRMED
    assert wrong.run(Budget("unit", 50_000)).outcome == CONTRADICTED
    small = right.run(Budget("unit", 2_000))
    assert small.outcome == INCONCLUSIVE and small.budget_factor > 1
    assert small.resolution > small.tolerance


def test_ordering_declaration_three_outcomes():
    def ordering(claim_id, lower, upper):
        return Ordering(id=claim_id, source="unit", quote="A below B", statement="s",
                        lower=lower, upper=upper, statistic="variance", effect_size=0.1,
                        k=(1, 8), grid=dict(rho=0.5, gamma=1.0))

    budget = Budget("unit", 20_000)
    assert ordering("unit.order.right", "rff_no_phase", "rff").run(budget).outcome == CONFIRMED
    assert ordering("unit.order.wrong", "rff", "rff_no_phase").run(budget).outcome == CONTRADICTED
    small = ordering("unit.order.small", "rff_no_phase", "rff").run(Budget("unit", 100))
    assert small.outcome == INCONCLUSIVE


def test_identity_and_paired_declarations():
    identity = Identity(id="unit.identity", source="unit", quote="1 + 1 = 2", statement="s",
                        compute=lambda: (1 + 1 == 2, "exact integers", []))
    assert identity.run("test").method == "exact"
    rng = np.random.default_rng(0)
    a = rng.normal(0.80, 0.01, 30)

    def trials(shift):
        return lambda run: {"set": (a, a + shift + rng.normal(0, 0.001, 30))}

    def paired(claim_id, shift):
        return Paired(id=claim_id, source="unit", quote="B beats A", statement="s",
                      trials=trials(shift), effect_size=0.01, quantity="accuracy")

    assert paired("unit.paired.right", 0.05).run("test").outcome == CONFIRMED
    assert paired("unit.paired.wrong", -0.05).run("test").outcome == CONTRADICTED
    small = Paired(id="unit.paired.small", source="unit", quote="q", statement="s",
                   trials=trials(0.0002), effect_size=0.0001, quantity="accuracy").run("test")
    assert small.outcome == INCONCLUSIVE and "trials (now 30) would resolve it" in small.reason


def _coin_rates(p_true):
    """A Measured source: the heads rate of a fair coin over the budget's flips, in binomial SEs,
    against the theory ``p_true``; seeded from the run."""
    def measure(run):
        n = run.budget.n_repetitions
        heads = np.random.default_rng(run.seed("flips")).binomial(n, 0.5, size=3)
        return Measurement(estimate=heads / n, standard_error=np.full(3, np.sqrt(0.25 / n)),
                           theory=np.full(3, p_true), rows=[{"coin": i} for i in range(3)],
                           remark="three coins", details=[{"flips": n}])
    return Measured(measure, "heads rate")


def test_measured_agreement_three_outcomes():
    def agreement(claim_id, p_true):
        return Agreement(id=claim_id, source="unit", quote="a fair coin", statement="s",
                         model=_coin_rates(p_true), tolerance=0.01, relative=False)

    right = agreement("unit.measured.right", 0.5).run(Budget("unit", 400_000))
    assert right.outcome == CONFIRMED and right.reason.endswith("; three coins")
    assert right.rows[-1] == {"flips": 400_000} and right.reason.startswith("heads rate")
    assert agreement("unit.measured.wrong", 0.55).run(Budget("unit", 400_000)).outcome == CONTRADICTED
    small = agreement("unit.measured.small", 0.5).run(Budget("unit", 1_000))
    assert small.outcome == INCONCLUSIVE and small.budget_factor > 1


def test_measured_ordering_against_a_number_with_degrees_of_freedom():
    def slopes(value):
        return Measured(lambda run: Measurement(estimate=[value, value], standard_error=[0.01, 0.01],
                                                rows=[{"fit": 1}, {"fit": 2}], degrees_of_freedom=[8, 8]),
                        "slope")

    def ordering(claim_id, value):
        return Ordering(id=claim_id, source="unit", quote="it falls", statement="s",
                        lower=slopes(value), upper=0.0, effect_size=0.25, names=("slope", "0"))

    falls = ordering("unit.slope.falls", -0.5).run("test")
    assert falls.outcome == CONFIRMED and falls.method == "trials" and "t quantile" in falls.reason
    assert ordering("unit.slope.rises", 0.6).run("test").outcome == CONTRADICTED


def test_joint_parts_share_the_claims_id_and_words():
    coin = Agreement.part(model=_coin_rates(0.5), tolerance=0.01, relative=False)
    exact = Identity.part(compute=lambda: (True, "1 + 1 = 2", [{"n": 2}]))
    joint = Joint(id="unit.joint", source="unit", quote="fair, and arithmetic", statement="s",
                  parts=(exact, coin), remark=lambda run: "a remark")
    assert not coin.registered and coin.id == ""
    verdict = joint.run(Budget("unit", 400_000))
    assert verdict.id == "unit.joint" and verdict.outcome == CONFIRMED and verdict.method == "simulation"
    assert verdict.reason.startswith("1 + 1 = 2 | heads rate") and verdict.reason.endswith("; a remark")
    same_seed = Agreement(id="unit.joint", source="unit", quote="q", statement="s",
                          model=_coin_rates(0.5), tolerance=0.01, relative=False, registered=False)
    assert same_seed.check(ClaimRun(joint, Budget("unit", 400_000))).rows == verdict.rows[1:]
    wrong = Joint(id="unit.joint.wrong", source="unit", quote="q", statement="s",
                  parts=(exact, Agreement.part(model=_coin_rates(0.6), tolerance=0.01, relative=False)))
    assert wrong.run(Budget("unit", 400_000)).outcome == CONTRADICTED
    with pytest.raises(ValueError, match="Kind.part"):
        Joint(id="unit.joint.bad", source="unit", quote="q", statement="s",
              parts=(_agreement("unit.joint.registered", _variance),))


def test_measured_sources_carry_their_theory_and_quantity():
    with pytest.raises(ValueError, match="Measured"):
        Agreement(id="unit.m1", source="unit", quote="q", statement="s", model=_coin_rates(0.5),
                  theory=_variance, tolerance=0.01)
    with pytest.raises(ValueError, match="theory"):
        Agreement(id="unit.m2", source="unit", quote="q", statement="s", model="rff",
                  statistic="mean", tolerance=0.01)
    with pytest.raises(ValueError, match="no statistic|give no"):
        Agreement(id="unit.m3", source="unit", quote="q", statement="s", model=_coin_rates(0.5),
                  statistic="mean", tolerance=0.01)
    with pytest.raises(ValueError, match="no scale"):
        Agreement(id="unit.m5", source="unit", quote="q", statement="s", model=_coin_rates(0.5),
                  tolerance=0.01, relative=False, scale=_variance)
    with pytest.raises(ValueError, match="at most one Measured side"):
        Ordering(id="unit.m6", source="unit", quote="q", statement="s", lower=_coin_rates(0.5),
                 upper=_coin_rates(0.5), effect_size=0.1)
    not_a_measurement = Agreement(id="unit.m4", source="unit", quote="q", statement="s",
                                  model=Measured(lambda run: [0.5], "x"), tolerance=0.01)
    with pytest.raises(TypeError, match="Measurement"):
        not_a_measurement.run("test")


def test_a_claim_without_the_papers_words_is_refused():
    with pytest.raises(ValueError, match="quote"):
        Identity(id="unit.unquoted", source="unit", statement="s", compute=lambda: (True, "", []))
    with pytest.raises(ValueError, match="statistic"):
        Agreement(id="unit.bad", source="unit", quote="q", statement="s", model="rff",
                  theory=_variance, statistic="median", tolerance=0.1)
    with pytest.raises(ValueError, match="PAPER"):
        claims.paper_of("nodots")


# --- store, runner, discovery ------------------------------------------------------------------

def test_store_resumes_and_cuts_a_partial_line(tmp_path):
    path = tmp_path / "s.jsonl"
    store = Store(path)
    store.put("a", {"value": 1.0})
    with open(path, "a") as handle:
        handle.write('{"key": "b", "val')               # a killed writer
    again = Store(path)
    assert "a" in again and "b" not in again and again.get("a")["value"] == 1.0
    calls = []
    assert again.remember("b", lambda: calls.append(1) or {"value": 2})["value"] == 2
    assert Store(path).remember("b", lambda: calls.append(1) or {"value": 3})["value"] == 2
    assert calls == [1]


def test_runner_resumes_from_the_budgets_store(tmp_path):
    claim = Identity(id="unit.runner", source="unit", quote="q", statement="s",
                     compute=lambda: (True, "computed", []))
    budget = Budget("unit", 10).stored_in(tmp_path)
    first = claims.run_claims([claim], budget, log=lambda message: None)
    assert (tmp_path / "verdicts.jsonl").exists()
    messages = []
    second = claims.run_claims([claim], budget, log=messages.append)
    assert first == second and "(stored)" in messages[0]


def test_one_store_keeps_each_budgets_verdicts_apart(tmp_path):
    """`varlab check --checkpoint C` keeps every budget's verdicts in one file: a second budget
    in the same store runs its own check (the stored key holds the budget's name)."""
    calls = []
    claim = Identity(id="unit.two_budgets", source="unit", quote="q", statement="s",
                     compute=lambda: (calls.append(1) or True, f"computed {len(calls)}", []))
    test, quick = Budget("test", 10).stored_in(tmp_path), Budget("quick", 10).stored_in(tmp_path)
    first = claims.run_claims([claim], test, log=lambda message: None)[0]
    second = claims.run_claims([claim], quick, log=lambda message: None)[0]
    assert calls == [1, 1] and (first.budget, second.budget) == ("test", "quick")
    assert second.reason == "computed 2"
    assert set(claims.stored_verdicts([claim], test)) == {"unit.two_budgets"}
    assert claims.stored_verdicts([claim], test)["unit.two_budgets"].reason == "computed 1"


def test_the_last_record_of_a_key_wins_on_reload(tmp_path):
    """A forced rerun writes a key twice: the newer record is the one a reload keeps."""
    path = tmp_path / "s.jsonl"
    store = Store(path)
    store.put("a", {"value": 1.0})
    store.put("a", {"value": 2.0})
    assert store.get("a")["value"] == 2.0 and Store(path).get("a")["value"] == 2.0


def test_papers_come_from_the_entry_point_group():
    from importlib import metadata

    names = sorted(entry.name for entry in metadata.entry_points(group=claims.GROUP))
    assert claims.papers() == names and names[:5] == ["000", "001", "002", "003", "004"]
    assert claims.paper_of("varlab.003.cosine") == "003"


def test_claims_do_not_import_paper_checks():
    import varlab.claims

    package = Path(varlab.claims.__file__).parent
    for module in package.glob("*.py"):
        assert "paper_checks" not in module.read_text(), module


# --- reports ------------------------------------------------------------------------------------

def test_report_lists_problems_first_and_keeps_every_field(tmp_path):
    run = _run()
    verdicts = [builders.exact(run, True, "fine"),
                builders.agreement(run, theory=[1.0], estimate=[np.float64(2.0)], standard_error=[0.01],
                                   parameters=[dict(rho=np.float64(0.5))], quantity="q", tolerance=0.1)]
    write_report(verdicts, tmp_path, title="T", budget=Budget("unit", 10))
    payload = json.loads((tmp_path / "report.json").read_text())
    for record in payload["claims"]:
        assert {"outcome", "resolution", "tolerance", "quote", "statement", "rows"} <= set(record)
    text = (tmp_path / "report.md").read_text()
    assert text.index("| **contradicted** |") < text.index("| **confirmed** |")
    assert "np.float64" not in text and "{'" not in text
    assert "rho = 0.5" in text and "| 0.5 |" in (tmp_path / "points.md").read_text()
    before = {name: (tmp_path / name).read_text() for name in ("report.md", "points.md", "report.json")}
    claims.rewrite_report(tmp_path)
    assert before == {name: (tmp_path / name).read_text() for name in before}


def test_report_table_escapes_the_bars_of_a_joint_reason(tmp_path):
    """A Joint reason joins its parts with " | ": unescaped, it would split the table's row."""
    run = _run()
    joint = builders.combined(run, [builders.exact(run, True, "part one |x| = 1"),
                                    builders.exact(run, True, "part two")])
    assert " | " in joint.reason
    write_report([joint], tmp_path, title="T", budget=Budget("unit", 10))
    rows = [line for line in (tmp_path / "report.md").read_text().splitlines()
            if line.startswith("| ") and "part one" in line]
    assert len(rows) == 1 and "part one \\|x\\| = 1 \\| part two" in rows[0]
    cells = [cell for cell in rows[0].replace("\\|", "").split("|")[1:-1]]
    header = next(line for line in (tmp_path / "report.md").read_text().splitlines() if line.startswith("| "))
    assert len(cells) == header.count("|") - 1


ROOT = REPORTS.parents[1]


def _report_files():
    return sorted(REPORTS.glob("*/report.json")) + sorted(FULL_REPORTS.glob("**/report.json"))


def _name(path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", _report_files(), ids=_name)
def test_committed_records_have_three_outcomes_and_no_unresolved_confirmation(path):
    records = json.loads(path.read_text()).get("claims", [])
    assert records, _name(path)
    for record in records:
        assert record["outcome"] in OUTCOMES, record["id"]
        # a check with no standard error at all (e.g. one repetition per cell) resolves nothing:
        # its resolution is "inf" (JSON), and it can only be inconclusive
        assert isinstance(record["resolution"], (int, float)) or (
            record["resolution"] == "inf" and record["outcome"] == INCONCLUSIVE), record["id"]
        assert isinstance(record["tolerance"], (int, float)), record["id"]
        if record["outcome"] == CONFIRMED:
            assert record["resolution"] <= record["tolerance"], record["id"]
        assert record["quote"] or record["derived_by_varlab"], record["id"]


# --- each kind's arithmetic, pinned directly (not only through a paper's record) ---------------

def test_a_difference_is_the_differences_with_root_sum_of_squares_errors():
    from varlab.claims import Difference, Simulation

    grid = dict(rho=[0.3, 0.8], gamma=1.0)
    first = Simulation("unit.difference", "a", "rff", (1, 4), grid)
    second = Simulation("unit.difference", "b", "rff_no_phase", (1, 4), grid)
    budget = Budget("unit", 200)
    a, b, gap = first.result(budget), second.result(budget), Difference(first, second).result(budget)
    for statistic in ("mean", "variance", "mse"):
        np.testing.assert_array_equal(getattr(gap, statistic), getattr(a, statistic) - getattr(b, statistic))
        np.testing.assert_array_equal(getattr(gap, f"se_{statistic}"),
                                      np.hypot(getattr(a, f"se_{statistic}"), getattr(b, f"se_{statistic}")))
    assert gap.model == "rff - rff_no_phase" and gap.point(1) == a.point(1)


def test_an_agreement_in_units_of_a_scale_divides_estimate_error_and_theory_by_it():
    """With scale = twice the theory the rows hold the simulation's estimate / scale, SE / scale
    and theory / scale = 1/2 (the simulation read directly, with the claim's seed): a 1 % slip
    in the division fails."""
    def theory(k, rho, gamma):
        return rff.variance(rho=rho, gamma=gamma) / k

    def twice(k, rho, gamma):
        return 2 * theory(k, rho, gamma)

    budget = Budget("unit", 300)
    scaled = Agreement(id="unit.scale", source="unit", quote="q", statement="s", model="rff",
                       statistic="variance", k=(1, 4), grid=dict(rho=[0.5], gamma=1.0), theory=theory,
                       tolerance=0.5, relative=False, scale=twice).run(budget)
    raw = claims.simulate_for("unit.scale", budget, "rff", label="variance", k=[1, 4], rho=[0.5], gamma=1.0)
    for row, estimate, error, k in zip(scaled.rows, raw.variance[0], raw.se_variance[0], (1, 4)):
        unit = twice(k, 0.5, 1.0)
        assert row["estimate"] == pytest.approx(estimate / unit, rel=1e-12)
        assert row["SE"] == pytest.approx(error / unit, rel=1e-12)
        assert row["theory"] == pytest.approx(0.5, rel=1e-12)


def test_paired_trials_use_the_mean_difference_and_its_sample_standard_error():
    """At one cell: B - A's mean, sd(ddof=1) / sqrt(n), and the t quantile of n - 1."""
    a = np.array([0.80, 0.82, 0.79, 0.81, 0.80])
    b = a + np.array([0.05, 0.06, 0.04, 0.05, 0.07])
    verdict = Paired(id="unit.paired.arithmetic", source="unit", quote="q", statement="s",
                     trials=lambda run: {"set": (a, b)}, effect_size=0.01, quantity="accuracy").run("test")
    row = verdict.rows[0]
    difference = b - a
    assert row["trials"] == 5
    assert row["B - A"] == pytest.approx(difference.mean(), rel=1e-12)
    assert row["SE"] == pytest.approx(difference.std(ddof=1) / np.sqrt(5), rel=1e-12)
    assert row["z"] == pytest.approx(difference.mean() / (difference.std(ddof=1) / np.sqrt(5)), rel=1e-12)
    assert verdict.resolution == pytest.approx(t_threshold(4) * row["SE"], rel=1e-12)


def test_run_units_gives_a_stored_record_that_predates_the_units_fields_those_fields(tmp_path):
    """A committed store's record written before records carried their unit's fields (e.g. 002's
    converted full-budget Table 1 trials) is returned with them, so callers may select by field."""
    from varlab.claims import run_units

    store = Store(tmp_path / "units.jsonl")
    store.put("trial-a-0", {"accuracy": 0.5})                    # the old form: results only
    records = run_units([{"dataset": "a", "trial": 0}], store, lambda unit: {"accuracy": -1.0},
                        key=lambda unit: f"trial-{unit['dataset']}-{unit['trial']}")
    assert records[0]["dataset"] == "a" and records[0]["accuracy"] == 0.5
