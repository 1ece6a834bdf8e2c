"""Paper 002 experiments: Fig. 2's one-pass Gram errors equal the AsKRFF Gram; the part Grams and
Eq. (12) helper; the on-disk store of finished trials."""
from __future__ import annotations

import numpy as np
import pytest

from paper_checks.p002 import classification, gram_error
from varlab.claims import Budget
from varlab.features import AsKRFF
from varlab.features.asymmetric import asymmetric_gram, estimate_total_masses, fit_total_masses


def test_normalised_data_in_unit_cube():
    X_train, _, X_test, _ = gram_error.normalised("letter")
    assert X_train.min() >= 0 and X_train.max() <= 1 and X_test.min() >= 0 and X_test.max() <= 1


@pytest.mark.parametrize("kernel", list(gram_error.KERNELS))
def test_one_pass_errors_equal_the_feature_map_gram(kernel):
    X = gram_error.normalised("letter")[0][:60]
    d = X.shape[1]
    _, exact_errors, masses = gram_error.gram_errors(X, kernel, 2, np.random.default_rng(4))
    gamma = 1.0 / (2.0 * gram_error.SIGMA ** 2)                 # 002's sigma as scikit-learn's gamma
    ask = AsKRFF(n_components=4 * d, kernel=kernel, gamma=gamma, random_state=np.random.default_rng(4),
                 **{gram_error.KERNELS[kernel]: gram_error.kernel_vector(kernel, d)}).fit(X)
    assert ask.sigma == gram_error.SIGMA
    K = asymmetric_gram(kernel, X, X, gram_error.SIGMA, ask.vector_)
    assert exact_errors[-1] == pytest.approx(np.linalg.norm(ask.kernel_estimate(X) - K) / np.linalg.norm(K),
                                             rel=1e-10)
    assert masses.shape == (2, 3) and np.all(masses >= 0)


def test_fit_total_masses_validates_shapes():
    with pytest.raises(ValueError, match="one shape"):
        fit_total_masses(np.eye(3), 1.0, np.eye(3), np.eye(2), np.eye(3))


def test_part_grams_are_the_feature_map_products():
    """gram_error.part_grams (used by claim 002.eq12.ns) = the products of AsKRFF's Eq. (8) maps,
    and Eq. (12) on them = estimate_total_masses."""
    X = np.random.default_rng(0).standard_normal((30, 2))
    ask = AsKRFF(n_components=40, kernel="shift_gaussian", gamma=0.5, shift=0.8, random_state=1).fit(X)   # sigma = 1
    A1, A2, A3 = gram_error.part_grams(X, ask.frequencies_)
    phi, psi = ask.blocks(X)
    np.testing.assert_allclose(A1, phi["real_positive"] @ phi["real_positive"].T, atol=1e-13)
    np.testing.assert_allclose(A2, phi["real_negative"] @ phi["real_negative"].T, atol=1e-13)
    np.testing.assert_allclose(A3, phi["imaginary_positive"] @ psi.T, atol=1e-13)
    K = asymmetric_gram("shift_gaussian", X, X, 1.0, ask.vector_)
    k0 = float(ask.measure_.exact_kernel(np.zeros(2)))
    fitted, direct = fit_total_masses(K, k0, A1, A2, A3), estimate_total_masses(ask, X)
    assert fitted == pytest.approx(direct, rel=1e-9)


def test_units_are_kept_in_the_budgets_store_and_resume(tmp_path, monkeypatch):
    """Fig. 2's trials go to the budget's store "units" (``<store>/units.jsonl``): a second run
    with the same stored budget reads them back instead of recomputing."""
    calls = []
    original = gram_error._trial

    def counted(*args):
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(gram_error, "_trial", counted)
    monkeypatch.setitem(gram_error.SETTINGS, "unit-p002", (40, 1, 2))
    budget = Budget("unit-p002", 10).stored_in(tmp_path)
    first = gram_error.fig2_results(budget)
    assert len(calls) == 2 * 3 * 2 and (tmp_path / "units.jsonl").exists()
    gram_error.fig2_results.cache_clear()
    from varlab.claims import store as store_module
    monkeypatch.setattr(store_module, "_STORES", {})                 # a new process: read the file
    again = gram_error.fig2_results(budget)
    assert len(calls) == 2 * 3 * 2                                   # stored: not recomputed
    for key in first:
        np.testing.assert_array_equal(again[key][0], first[key][0])


def test_a_run_resumes_from_a_partial_store_with_the_same_numbers(tmp_path, monkeypatch):
    """A run killed after some of Fig. 2's trials (a store holding only them, its last line cut
    short) computes only the others and gives the numbers of an uninterrupted run."""
    monkeypatch.setitem(gram_error.SETTINGS, "partial-p002", (40, 2, 2))
    whole = gram_error.fig2_results(Budget("partial-p002", 10))          # in memory, uninterrupted
    gram_error.fig2_results(Budget("partial-p002", 10).stored_in(tmp_path / "full"))
    lines = (tmp_path / "full" / "units.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "partial").mkdir()
    (tmp_path / "partial" / "units.jsonl").write_text("".join(lines[:5]) + lines[5][:20])   # killed mid-line
    calls = []
    original = gram_error._trial
    monkeypatch.setattr(gram_error, "_trial", lambda *args: calls.append(args) or original(*args))
    resumed = gram_error.fig2_results(Budget("partial-p002", 10).stored_in(tmp_path / "partial"))
    assert len(calls) == len(lines) - 5
    for key in whole:
        for part, again in zip(whole[key], resumed[key]):
            np.testing.assert_array_equal(again, part)


def test_the_committed_full_budget_units_are_read_from_the_store():
    """The full-budget trials (simulations/p002/units.jsonl, converted from the former per-file
    units) are found under the keys fig2_results and table1 ask for."""
    from pathlib import Path

    from varlab.claims import BUDGETS, Store

    out = Path(__file__).resolve().parents[2] / "simulations" / "p002"
    store = Store(out / "units.jsonl")
    budget = BUDGETS["full"]
    for name in gram_error.DATASETS:
        for kernel in gram_error.KERNELS:
            for trial in range(gram_error.SETTINGS["full"][2]):
                record = store.get(gram_error.trial_key(dict(budget="full", random_state=budget.random_state,
                                                             dataset=name, kernel=kernel, trial=trial)))
                assert len(record["estimated"]) == len(record["exact"]) == gram_error.SETTINGS["full"][1]
        for trial in range(10):
            assert classification.trial_key(dict(budget="full", random_state=budget.random_state, dataset=name,
                                                 trial=trial)) in store
