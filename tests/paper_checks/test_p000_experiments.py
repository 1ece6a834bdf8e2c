"""Paper 000's real-data experiments (paper_checks/p000/svm.py, hashing_*.py and
simulations/p000_experiments.py): the resumable store survives SIGKILL and gives the same
accuracies, the feature codings mean what the claims say, the paper's grids are typed right."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")

from paper_checks.p000 import hashing_features, hashing_summary, hashing_units  # noqa: E402
from paper_checks.p000 import svm  # noqa: E402
from varlab import claims, kernels  # noqa: E402
from varlab.claims import BUDGETS, Store  # noqa: E402
from varlab.features import GCWS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "simulations" / "p000_experiments.py"


def test_paper_gamma_grid_has_the_58_printed_values():
    g = svm.PAPER_GAMMAS
    assert len(g) == len(set(g)) == 58
    assert g[:4] == (0.001, 0.01, 0.1, 0.2) and 2.0 in g and 2.5 in g and 20.0 in g and 25.0 in g
    assert g[-6:] == (120.0, 150.0, 200.0, 300.0, 500.0, 1000.0) and 21.0 not in g


def test_slices_fall_back_by_repetitions():
    from varlab.claims import Budget

    assert svm.slice_name(BUDGETS["quick"]) == "quick"
    assert svm.slice_name(Budget("figure-test", 200)) == "test"
    assert svm.slice_name(Budget("big", 100_000)) == "full"
    for name, hashing_slice in hashing_units.SLICES.items():
        table = {d for d, _, _ in svm.SLICES[name].datasets}
        assert set(hashing_slice.datasets) <= table


def test_store_cuts_a_partial_last_line_and_resumes(tmp_path):
    path = tmp_path / "units.jsonl"
    store = Store(path)
    store.put(svm.unit_key(a=1), {"accuracy": 0.5})
    with open(path, "a") as handle:
        handle.write('{"key": "half a reco')                      # a writer killed mid-line
    again = Store(path)
    assert list(again.records) == [svm.unit_key(a=1)]
    again.put(svm.unit_key(a=2), {"accuracy": 0.25})
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["accuracy"] in (0.5, 0.25) for line in lines)


def test_rbf_svc_on_unit_rows_is_the_correlation_rbf_kernel():
    from sklearn.svm import SVC

    data = svm.prepared("segment", None, 300)
    gamma = 5.0
    on_the_fly = SVC(kernel="rbf", gamma=gamma / 2, C=10, tol=1e-9).fit(data.X_train, data.y_train)
    gram = SVC(kernel="precomputed", C=10, tol=1e-9).fit(kernels.rbf_correlation(data.X_train, gamma=gamma), data.y_train)
    test_gram = kernels.rbf_correlation(data.X_test, data.X_train, gamma=gamma)
    np.testing.assert_allclose(on_the_fly.decision_function(data.X_test), gram.decision_function(test_gram),
                               atol=1e-6)


def test_gcws_prefix_is_gcws_with_fewer_samples_and_full_code_counts_collisions():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 6))
    seed = np.random.SeedSequence(5)
    i_big, t_big = GCWS(n_components=64, random_state=seed).fit(X).hash(X)
    i_small, t_small = GCWS(n_components=16, random_state=seed).fit(X).hash(X)
    np.testing.assert_array_equal(i_big[:, :16], i_small)
    np.testing.assert_array_equal(t_big[:, :16], t_small)
    Z = hashing_features.full_code(i_big, t_big)
    collisions = ((i_big[:, None, :] == i_big[None]) & (t_big[:, None, :] == t_big[None])).sum(axis=2)
    np.testing.assert_array_equal((Z @ Z.T).toarray(), collisions)
    assert np.all(np.diff(Z.indptr) == 64)
    assert hashing_units.storage_bits("gcws_b4", 128) == 512 and hashing_units.storage_bits("nrff", 128) == 4096


def _run(out, *extra, **kwargs):
    return subprocess.Popen([sys.executable, str(SCRIPT), "--budget", "test", "--out", str(out),
                             "--no-progress", *extra], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, **kwargs)


def _records(out):
    return {name: [json.loads(line) for line in (out / f"{name}_test.jsonl").read_text().splitlines()]
            for name in ("svm", "hashing")}


def test_a_sigkilled_run_resumes_in_parallel_without_recomputing_and_gives_the_same_accuracies(tmp_path):
    out = tmp_path / "killed"
    store = out / "hashing_test.jsonl"
    process = _run(out)
    deadline = time.time() + 120
    while time.time() < deadline and (not store.exists() or len(store.read_text().splitlines()) < 6):
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    before = {r["key"]: r for r in json.loads("[" + ",".join(
        line for line in store.read_text().splitlines() if line.endswith("}")) + "]")}
    assert 6 <= len(before)
    assert _run(out, "--n-jobs", "2").wait(timeout=300) == 0            # resumed by two workers
    after = _records(out)
    keys = [r["key"] for r in after["hashing"]]
    assert len(keys) == len(set(keys))                       # nothing was computed twice
    for record in after["hashing"]:
        if record["key"] in before:                          # finished units were kept as they were
            assert record == before[record["key"]]
    # the same accuracies as an uninterrupted in-process run of the test slice
    budget = BUDGETS["test"]
    fresh = {r["key"]: r["accuracy"] for r in hashing_units.hashing_records(budget, directory=None)}
    fresh.update({r["key"]: r["accuracy"] for r in svm.svm_records(budget, directory=None)})
    resumed = {r["key"]: r["accuracy"] for name in after for r in after[name]}
    assert resumed == fresh
    table = (out / "test" / "svm_table.md").read_text()
    assert "varlab's choice: the paper prints none" in table and "Fits stopped at max_iter:" in table
    assert "scaled to [-1, 1]" in (out / "test" / "svm_table_scaled.md").read_text()
    assert (out / "svm_libsvm_test.jsonl").exists()
    assert (out / "hashing_libsvm_test.jsonl").exists()
    assert "Features scaled to [-1, 1]" in (out / "test" / "hashing_table_scaled.md").read_text()
    assert "k needed to come within 1 accuracy point" in (out / "test" / "hashing_table.md").read_text()


def test_a_record_computed_on_other_data_is_refused_not_reused(tmp_path):
    store = Store(tmp_path / "units.jsonl")
    unit = dict(dataset="segment", method="linear", C=1.0)
    calls = []
    first = svm.run_units([unit, unit], store, lambda u: calls.append(u) or dict(accuracy=0.5))[:1]
    assert first[0]["data"] == svm.data_fingerprint("segment") and len(calls) == 1     # once, though listed twice
    assert svm.run_units([unit], Store(tmp_path / "units.jsonl"), calls.append) == first
    key = svm.unit_key(**unit)
    store.records[key] = dict(store.records[key], data="0" * 16)       # as if the loader changed
    with pytest.raises(ValueError, match="other data"):
        svm.run_units([unit], store, calls.append)
    assert len(calls) == 1


def test_libsvm_scaling_maps_each_training_feature_onto_minus_one_to_one():
    rng = np.random.default_rng(3)
    X_train, X_test = rng.normal(size=(50, 4)) * [1, 10, 100, 0], rng.normal(size=(20, 4))
    X_train[:, 3] = 7.0                                           # constant feature -> 0
    train, test = svm.libsvm_scale(X_train, X_test)
    np.testing.assert_allclose(train[:, :3].min(axis=0), -1.0)
    np.testing.assert_allclose(train[:, :3].max(axis=0), 1.0)
    assert np.all(train[:, 3] == 0.0) and np.all(test[:, 3] == 0.0)
    low, high = X_train[:, :3].min(axis=0), X_train[:, :3].max(axis=0)
    np.testing.assert_allclose(test[:, :3], 2 * (X_test[:, :3] - low) / (high - low) - 1)
    scaled = svm.prepared("segment", None, 300, "libsvm")
    np.testing.assert_allclose(np.linalg.norm(scaled.X_train, axis=1), 1.0)
    with pytest.raises(ValueError, match="scaling"):
        svm.prepared("segment", None, 300, "zscore")
    unit = next(svm.svm_units(svm.SLICES["test"], "libsvm"))
    assert unit["scaling"] == "libsvm" and "scaling" not in next(svm.svm_units(svm.SLICES["test"]))


def test_k_needed_is_the_first_k_within_one_point_and_its_range_over_repetitions():
    ks = [16, 32, 64, 128]
    assert hashing_summary.WITHIN == 1.0
    assert hashing_summary.k_needed(np.array([80.0, 88.9, 89.0, 95.0]), ks, 90.0) == 64     # 89.0 >= 90 - 1
    assert hashing_summary.k_needed(np.array([80.0, 88.0, 88.5, 88.99]), ks, 90.0) is None  # not reached
    per_rep = [hashing_summary.k_needed(row, ks, 90.0) for row in
               ([89.0, 90, 90, 90], [0, 0, 89.5, 90], [0, 0, 0, 0])]
    assert per_rep == [16, 64, None]
    assert hashing_summary._k_text(per_rep, 128) == "16..>128"
    assert hashing_summary._k_text([32, 32], 128) == "32" and hashing_summary._k_text([None, None], 128) == ">128"


def test_hashing_units_carry_their_protocol_and_bbit_features_code_i_star_only():
    budget = BUDGETS["test"]
    unit = next(u for u in hashing_units.hashing_units(budget, hashing_units.SLICES["test"], None) if u["method"] == "gcws_b8")
    assert json.loads(svm.unit_key(**unit))["protocol"] == hashing_units.PROTOCOL == 2
    assert json.loads(svm.unit_key(dataset="segment", method="gmm"))["protocol"] == svm.PROTOCOL == 1
    linear = next(u for u in svm.svm_units(svm.SLICES["test"]) if u["method"] == "linear")
    assert json.loads(svm.unit_key(**linear))["protocol"] == svm.LINEAR_PROTOCOL == 2
    assert svm.linear_svc(1.0).dual is False      # the primal solver for every linear SVM
    train, test = hashing_features.features(unit)
    i_star, _ = hashing_features._hashes(unit["dataset"], unit["train_cap"], unit["test_cap"], unit["k"],
                                unit["repetition"], unit["random_state"])
    n = train.shape[0]
    # segment has 2 x 19 < 2^8 coordinates: b = 8 keeps all of i*, and t* plays no part (000 §1.4)
    collisions = (i_star[:n, None, :] == i_star[None, n:, :]).sum(axis=2)
    np.testing.assert_array_equal((train @ test.T).toarray(), collisions)


def test_dropping_columns_empty_in_training_leaves_the_fit_unchanged():
    data = svm.prepared("segment", None, 600)
    both = np.vstack([data.X_train, data.X_test])
    i_star, _ = GCWS(n_components=32, random_state=3).fit(both).hash(both)
    Z = GCWS(n_components=32, b=8, zero_bit=True).code(i_star)
    n = len(data.y_train)
    used = np.unique(Z[:n].indices)
    assert len(used) < Z.shape[1] / 4
    full = svm.linear_svc(1.0).set_params(tol=1e-8).fit(Z[:n], data.y_train)
    small = svm.linear_svc(1.0).set_params(tol=1e-8).fit(Z[:n][:, used], data.y_train)
    np.testing.assert_allclose(small.decision_function(Z[n:][:, used]), full.decision_function(Z[n:]), atol=1e-5)
    unused = np.setdiff1d(np.arange(Z.shape[1]), used)
    assert np.abs(full.coef_[:, unused]).max() < 1e-8


def test_half_k_differences_pair_gcws_at_half_k_with_nrff_by_repetition():
    ks = (16, 32, 64)
    gcws = np.array([[50.0, 60.0, 70.0], [52.0, 61.0, 73.0], [54.0, 62.0, 70.0]])    # (reps, k)
    nrff = np.array([[40.0, 55.0, 61.0], [40.0, 52.0, 60.0], [40.0, 53.0, 65.0]])
    halves = hashing_summary.half_k_differences(gcws, nrff, ks)
    assert [h["k"] for h in halves] == [32, 64]
    d32 = gcws[:, 0] - nrff[:, 1]                                    # GCWS(16) - NRFF(32) per repetition
    assert halves[0]["difference"] == pytest.approx(d32.mean())
    assert halves[0]["standard_error"] == pytest.approx(d32.std(ddof=1) / np.sqrt(3))
    assert halves[0]["t"] == pytest.approx(d32.mean() / (d32.std(ddof=1) / np.sqrt(3)))
    with pytest.raises(ValueError, match="no k with k/2"):
        hashing_summary.half_k_differences(gcws[:, :1], nrff[:, :1], (16,))


def test_paired_t_of_a_zero_se_is_infinitely_resolved():
    _, se, t = hashing_summary.paired_t(np.array([[1.0, 2.0], [1.0, 4.0]]))
    assert se[0] == 0 and t[0] == np.inf and t[1] == pytest.approx(3.0)


def test_gap_units_add_repetitions_of_b8_and_full_gcws_at_the_small_k_only():
    from dataclasses import replace

    budget = BUDGETS["test"]
    base = hashing_units.SLICES["test"]
    slice_ = replace(base, gap_ks=(16,), gap_repetitions=5)
    units = list(hashing_units.hashing_units(budget, slice_, None))
    extra = [u for u in units if u["repetition"] >= base.repetitions]
    assert [u for u in units if u["repetition"] < base.repetitions] == list(hashing_units.hashing_units(budget, base, None))
    assert {(u["method"], u["k"]) for u in extra} == {("gcws_b8", 16), ("gcws_full", 16)}
    assert sorted({u["repetition"] for u in extra}) == [2, 3, 4]
    assert len(extra) == 2 * 3 * len(base.Cs) * len(base.datasets)
    assert max(i for i, u in enumerate(units) if u["repetition"] >= 2) < min(i for i, u in enumerate(units) if u["k"] == 32)
    with pytest.raises(ValueError, match="gap_repetitions"):
        replace(base, gap_ks=(16,), gap_repetitions=1)
    with pytest.raises(ValueError, match=">= 2 repetitions"):
        replace(base, repetitions=1)
    with pytest.raises(ValueError, match=">= 2 repetitions"):
        hashing_summary.paired_t(np.ones((1, 3)))


#: The outcomes of the real-data claims on the committed quick stores (see the 000 report): on the 6
#: sets where the paper prints GMM above RBF, GMM - RBF per set (test rows as paired trials) is
#: -8.3 points on vowel's 264 rows (z = -4.7, short of contradicting by more than 1 point) and within
#: about 2 SE of 0 or below on the others (scaled: +1.8 on segment, 0 on vowel and magic):
#: inconclusive; NRFF(k) is above
#: GCWS(k/2) by 13 points (letter, k = 128) and 5 points scaled (letter, k = 64), both beyond the
#: 1-point effect size: contradicted; b = 8 is significantly below full GCWS but by less than 1
#: point at letter, k = 32 (100 repetitions): inconclusive under the not-strict ordering.
QUICK_VERDICTS = {"000.tables12.gmm_beats_rbf": "inconclusive", "000.tables12.gmm_beats_rbf_scaled": "inconclusive",
                  "000.sec5.gcws_fewer_samples": "contradicted", "000.sec5.gcws_fewer_samples_scaled": "contradicted",
                  "000.sec5.b8_close_to_full": "inconclusive"}


def test_committed_quick_stores_are_complete_and_give_the_reported_verdicts():
    budget = BUDGETS["quick"]
    stores = {kind: Store(svm.RESULTS / f"{kind}_quick.jsonl")
              for kind in ("svm", "svm_libsvm", "hashing", "hashing_libsvm")}
    missing = [u for u in svm.svm_units(svm.SLICES["quick"]) if svm.unit_key(**u) not in stores["svm"]]
    missing += [u for u in svm.svm_units(svm.SLICES["quick"], "libsvm") if svm.unit_key(**u) not in stores["svm_libsvm"]]
    missing += [u for u in hashing_units.hashing_units(budget, hashing_units.SLICES["quick"], svm.RESULTS)
                if svm.unit_key(**u) not in stores["hashing"]]
    missing += [u for u in hashing_units.hashing_units(budget, hashing_units.SCALED_SLICES["quick"], svm.RESULTS, "libsvm")
                if svm.unit_key(**u) not in stores["hashing_libsvm"]]
    assert not missing, f"{len(missing)} quick units are not in the committed stores, e.g. {missing[0]}"
    committed = {c["id"]: c.get("outcome") for c in json.loads(
        (ROOT / "paper_checks" / "reports" / "000" / "report.json").read_text())["claims"]}
    for claim in claims.claims("000"):
        if claim.id in QUICK_VERDICTS:
            verdict = claim.run(budget)
            assert verdict.outcome == QUICK_VERDICTS[claim.id], verdict.reason
            # the committed report, once regenerated with three outcomes, says the same
            assert committed.get(claim.id) in (None, verdict.outcome), (claim.id, committed.get(claim.id))


def _started_at(unit):
    time.sleep(0.2)
    return dict(accuracy=0.5, started=time.monotonic() - 0.2)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_no_unit_starts_after_the_deadline_and_the_finished_ones_stay(tmp_path, n_jobs):
    store = Store(tmp_path / "units.jsonl")
    units = [dict(dataset="segment", method="linear", C=float(C)) for C in range(12)]
    svm.run_units(units[:1], store, _started_at)
    deadline = time.monotonic() + 0.5
    with pytest.raises(claims.DeadlineReached):
        svm.run_units(units, store, _started_at, n_jobs=n_jobs, deadline=deadline)
    stored = Store(tmp_path / "units.jsonl").records
    assert svm.unit_key(**units[0]) in stored and len(stored) < len(units)
    assert all(record["started"] < deadline for record in list(stored.values())[1:])


def test_kernel_svm_records_do_not_depend_on_n_jobs():
    units = list(svm.svm_units(svm.SLICES["test"]))
    assert {u["method"] for u in units} == {"linear", "rbf", "gmm"}
    runs = [svm.run_units(units, Store(), svm.run_svm_unit, n_jobs=n_jobs) for n_jobs in (1, 2)]
    measured = ("fit_seconds", "fit_cpu_seconds", "seconds")
    assert [{k: v for k, v in r.items() if k not in measured} for r in runs[0]] == \
           [{k: v for k, v in r.items() if k not in measured} for r in runs[1]]


def test_scaled_hashing_units_hash_the_scaled_features_with_nrff_at_the_scaled_gamma():
    budget = BUDGETS["test"]
    assert hashing_units.SCALED_SLICES["full"].ks == tuple(k for k in hashing_units.FULL_KS if k <= 512)
    assert hashing_units.slice_for(budget, "libsvm").gap_ks == ()
    quick = hashing_units.SCALED_SLICES["quick"]
    extra = [u for u in hashing_units.hashing_units(BUDGETS["quick"], quick, svm.RESULTS, "libsvm")
             if u["repetition"] >= quick.repetitions]
    assert quick.paired == 40 and {u["method"] for u in extra} == set(hashing_units.PAIR_METHODS)
    assert len(extra) == len(quick.datasets) * len(quick.ks) * 30 * 2 * len(quick.Cs)
    units = list(hashing_units.hashing_units(budget, hashing_units.slice_for(budget, "libsvm"), None, "libsvm"))
    plain = list(hashing_units.hashing_units(budget, hashing_units.slice_for(budget), None))
    assert all(u["scaling"] == "libsvm" for u in units) and all("scaling" not in u for u in plain)
    scaled_rbf = svm.best_results(hashing_units.kernel_records(budget, None, scaling="libsvm"))[("segment", "rbf")]
    assert {u["gamma"] for u in units if u["method"] == "nrff"} == {scaled_rbf["gamma"]}
    unit = next(u for u in units if u["method"] == "gcws_b8")
    data = svm.prepared("segment", unit["train_cap"], unit["test_cap"], "libsvm")
    i_star, t_star = hashing_features._hashes("segment", unit["train_cap"], unit["test_cap"], unit["k"], unit["repetition"],
                                     unit["random_state"], "libsvm")
    seed = hashing_features._seed(unit["random_state"], "gcws", "segment", unit["repetition"])
    both = np.vstack([data.X_train, data.X_test])
    expected = GCWS(n_components=unit["k"], random_state=seed).fit(both).hash(both)
    np.testing.assert_array_equal(i_star, expected[0])
    assert not np.array_equal(i_star, hashing_features._hashes("segment", unit["train_cap"], unit["test_cap"], unit["k"],
                                                      unit["repetition"], unit["random_state"])[0])
