"""Table 1 of paper 002 (§5.3-5.4): LinearSVC test accuracy on AsK-RFF's concatenated map
("Asy", §5.3, with its i dropped), on RFF of the kernel's symmetric part ("Sym", the omega and zeta
blocks), on RBF random features (bandwidth 2) and on the raw data ("Linear"); M = 2d frequencies,
r = 2/d 1, sigma = 2, beta = 0.5 pi/d 1, masses by Eq. (12) on N_s = 50 training points
(Algorithm 2); C chosen from 2^-5..2^5 by stratified k-fold CV (scikit-learn's LinearSVC is
LIBLINEAR, the paper's solver). Data: spambase and letter of ``varlab.datasets`` (min-max scaled to
[0, 1]^d); ijcnn1 and cod-RNA are not shipped offline.

Column counts: Asy 8M, Sym 4M (and Sym at Asy's width: 2M frequencies per part, 8M columns),
RBF M (scikit-learn style sqrt(2) cos(<w, x> + b) features of
varlab.features.RFF with n_components = M), Linear d.
"""
from __future__ import annotations

import functools

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from varlab.claims import run_units, setting, store_for
from varlab.features import RFF, AsKRFF
from varlab.seeding import derive_seed

from .gram_error import KERNELS, N_SUBSET, SIGMA, kernel_vector, normalised

DATASETS = ("spambase", "letter")
METHODS = tuple(f"{k}/{v}" for k in KERNELS for v in ("Asy", "Sym")) + ("RBF", "Linear")
#: budget -> (trials, training rows used per data set (None: all), log2 C grid, CV folds, jobs);
#: the paper (full): 10 trials, all rows, C = 2^-5..2^5, 5 folds. Letter is the cost (26 one-vs-rest
#: LIBLINEAR problems per fit: about 1 s per 1000 rows at C = 2^5 for Asy's 8M = 256 columns), so
#: full uses 3000 of its 15000 training rows and quick a cheaper slice with the same 10 trials (the
#: paired Asy - Sym test needs them: with 2 trials its t threshold is 9.4e4, no power at all)
SETTINGS = {
    "test": (3, {"spambase": 300, "letter": 300}, (-5, 0, 5), 3, 1),
    "quick": (10, {"spambase": 1000, "letter": 500}, (-3, 1, 5), 3, 1),
    "full": (10, {"spambase": None, "letter": 3000}, tuple(range(-5, 6)), 5, 2),
}
#: Table 1's data set rows as printed: (Dimension, #Train, #Test) under each column heading
PRINTED_STATISTICS = {"spambase": (57, 2760, 1841), "ijcnn1": (16, 12000, 6000), "letter": (22, 49990, 91701),
                      "cod-RNA": (8, 59535, 271617)}
#: Table 1's Linear row under the columns varlab cannot rerun
PRINTED_LINEAR = {"ijcnn1": 91.011, "cod-RNA": 91.618}
#: Table 1's accuracy rows as printed (mean, sd over 10 trials), the columns varlab can rerun
PAPER = {
    "spambase": {"shift_gaussian/Asy": (92.689, 0.207), "shift_gaussian/Sym": (92.591, 0.228),
                 "sinh_gaussian/Asy": (92.787, 0.351), "sinh_gaussian/Sym": (92.624, 0.247),
                 "cosh_gaussian/Asy": (92.787, 0.210), "cosh_gaussian/Sym": (92.520, 0.210),
                 "RBF": (92.461, 0.300), "Linear": (90.261, 0.120)},
    "letter": {"shift_gaussian/Asy": (80.631, 1.269), "shift_gaussian/Sym": (77.975, 1.229),
               "sinh_gaussian/Asy": (82.455, 0.851), "sinh_gaussian/Sym": (78.553, 0.806),
               "cosh_gaussian/Asy": (82.237, 1.206), "cosh_gaussian/Sym": (77.652, 1.585),
               "RBF": (77.547, 1.158), "Linear": (72.541, 0.029)},
}


def _accuracy(F_train, y_train, F_test, y_test, log2_c, folds, jobs):
    """Test accuracy (%) of LinearSVC (primal: dual=False, n >> columns) with C picked by stratified
    ``folds``-fold CV (the same splits for every C and method: StratifiedKFold without shuffling);
    ``jobs`` CV fits in parallel (deterministic fits: the same numbers for any ``jobs``)."""
    search = GridSearchCV(LinearSVC(dual=False, max_iter=2000), {"C": [2.0 ** c for c in log2_c]},
                          cv=StratifiedKFold(folds), n_jobs=jobs)
    search.fit(F_train, y_train)
    return 100.0 * search.score(F_test, y_test)


def features(kernel, X_train, random_state, per_dimension=2):
    """The fitted AsKRFF (M = 2d frequencies per part, or ``per_dimension`` d; masses by Eq. 12 on
    N_s = 50 rows of X_train)."""
    d = X_train.shape[1]
    return AsKRFF(per_dimension * d, kernel=kernel, gamma=1.0 / (2.0 * SIGMA ** 2), masses="estimated", n_subset=N_SUBSET,
                  random_state=random_state, **{KERNELS[kernel]: kernel_vector(kernel, d)}).fit(X_train)


def _training_rows(name, trial, rows, random_state):
    """(the trial's generator, its sorted training rows): the rows are the generator's first draw."""
    n_train = normalised(name)[0].shape[0]
    rng = np.random.default_rng(derive_seed(random_state, f"002.table1-{name}", trial))
    n = n_train if rows[name] is None else min(rows[name], n_train)
    return rng, np.sort(rng.choice(n_train, size=n, replace=False))


@threadpool_limits.wrap(limits=1)
def _trial(name, trial, setting, random_state):
    """{method: accuracy %} of one trial on data set ``name`` (its own seed)."""
    _, rows, log2_c, folds, jobs = setting
    X_train, y_train, X_test, y_test = normalised(name)
    d = X_train.shape[1]
    rng, keep = _training_rows(name, trial, rows, random_state)
    Xt, yt = X_train[keep], y_train[keep]
    score = lambda F_train, F_test: _accuracy(F_train, yt, F_test, y_test, log2_c, folds, jobs)
    acc = {}
    for kernel in KERNELS:
        ask = features(kernel, Xt, rng)
        acc[f"{kernel}/Asy"] = score(ask.concatenated(Xt), ask.concatenated(X_test))
        acc[f"{kernel}/Sym"] = score(ask.symmetric_features(Xt), ask.symmetric_features(X_test))
    rbf = RFF(2 * d, gamma=1.0 / (2.0 * SIGMA ** 2), kernel="gaussian", random_state=rng).fit(Xt)
    acc["RBF"] = score(rbf.transform(Xt), rbf.transform(X_test))
    acc["Linear"] = score(Xt, X_test)
    return acc


@threadpool_limits.wrap(limits=1)
def _equal_width_trial(name, trial, setting, random_state):
    """{kernel: accuracy %} of Sym at Asy's width in one trial: RFF of the symmetric part with 2M = 4d
    frequencies per part (8M columns, as Asy's concatenated map), on the trial's training rows (those
    of :func:`_trial`), frequencies from a seed of their own."""
    _, rows, log2_c, folds, jobs = setting
    X_train, y_train, X_test, y_test = normalised(name)
    _, keep = _training_rows(name, trial, rows, random_state)
    Xt, yt = X_train[keep], y_train[keep]
    rng = np.random.default_rng(derive_seed(random_state, f"002.table1.equal_width-{name}", trial))
    acc = {}
    for kernel in KERNELS:
        sym = features(kernel, Xt, rng, per_dimension=4)
        acc[kernel] = _accuracy(sym.symmetric_features(Xt), yt, sym.symmetric_features(X_test), y_test, log2_c,
                                folds, jobs)
    return acc


def run_trial(unit: dict) -> dict:
    """{method: accuracy %} of one unit (budget, random_state, dataset, trial) of :func:`table1`."""
    return _trial(unit["dataset"], unit["trial"], setting(SETTINGS, unit["budget"]), unit["random_state"])


def trial_key(unit: dict) -> str:
    """The store key of a :func:`table1` unit (as the committed full-budget records have it)."""
    return f"table1-{unit['budget']}-{unit['random_state']}-{unit['dataset']}-{unit['trial']}"


@functools.lru_cache(maxsize=None)
def table1(budget):
    """{dataset: {method: (trials,) accuracies in %}} at the budget's setting; each (data set,
    trial) is a unit of ``varlab.claims.run_units`` in the budget's store "units"
    (``varlab.claims.store_for``: kept on disk where the budget has a store, as in the
    full-budget run, so that a killed run resumes)."""
    trials = setting(SETTINGS, budget)[0] * budget.factor
    units = [dict(budget=budget.name, random_state=budget.random_state, dataset=name, trial=trial)
             for name in DATASETS for trial in range(trials)]
    records = run_units(units, store_for(budget, "units"), run_trial, key=trial_key,
                        description="002 Table 1 trials")
    return {name: {method: np.array([r[method] for r in records if r["dataset"] == name]) for method in METHODS}
            for name in DATASETS}


def run_equal_width_trial(unit: dict) -> dict:
    """{kernel: accuracy %} of one unit (budget, random_state, dataset, trial) of :func:`sym_equal_width`."""
    return _equal_width_trial(unit["dataset"], unit["trial"], setting(SETTINGS, unit["budget"]),
                              unit["random_state"])


@functools.lru_cache(maxsize=None)
def sym_equal_width(budget):
    """{dataset: {kernel: (trials,) accuracies in %}} of Sym at Asy's width (8M columns), the trials of
    :func:`table1` (the same training rows), units of the budget's store "units" (keys of their own)."""
    trials = setting(SETTINGS, budget)[0] * budget.factor
    units = [dict(budget=budget.name, random_state=budget.random_state, dataset=name, trial=trial)
             for name in DATASETS for trial in range(trials)]
    records = run_units(units, store_for(budget, "units"), run_equal_width_trial,
                        key=lambda unit: "equal-width-" + trial_key(unit), description="002 Table 1, Sym at Asy's width")
    return {name: {kernel: np.array([r[kernel] for r in records if r["dataset"] == name]) for kernel in KERNELS}
            for name in DATASETS}
