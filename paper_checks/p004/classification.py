"""Fig. 3 of paper 004 (slides, "SVM classification problem"): test accuracy of a linear SVM on
random features of the polynomial kernel on the sphere (a = 3, m = 1) and the delta-Gaussian
(a = (1, -1), sigma = (1, 10)), against s.

Data: letter (16-d) as on the slides and optdigits (64-d) in place of usps (256-d; both digit
images, the shipped one smaller), rows scaled to unit l2 norm (the polynomial kernel is
stationary only on the sphere); ijcnn1 and usps are not shipped offline. Each trial draws a
training subset (the whole test split is scored) and, per method and s, its own features.
Methods: the feature maps of ``experiments._regression_features`` (GRFF's real left map, 4s
columns: the slides' psi with the i dropped, as in the regression tables; Random Maclaurin and
TensorSketch with 4s columns for the polynomial kernel, which RM and TS need as a dot-product
kernel); SRF and DIGMM are out of scope. Classifier: scikit-learn's LinearSVC (LIBLINEAR), C by
stratified CV (as paper 002's Table 1); the slides name neither the solver nor C. Claim 004.fig3 and the figure read the same trials.
"""
from __future__ import annotations

import functools

import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from varlab import datasets
from varlab.claims import factor_of, run_units, setting, store_for
from varlab.plotting import figure, finish_axes, plt
from varlab.seeding import derive_seed

from . import experiments as E

DATASETS = ("letter", "optdigits")
#: kernel -> the methods compared (GORF first: the slides' method)
METHODS = {"polynomial_sphere": ("GORF", "GRFF", "RM", "TS"), "delta_gaussian": ("GORF", "GRFF")}
#: budget -> (trials (the slides' 10 from quick on: the paired t tests need them), training rows,
#: s / d factors, log2 C grid, CV folds); letter's 26 classes
#: on 4s columns are the cost (6 s for one CV of 512 columns on 400 rows, measured); full stops at
#: s = 2d: its s = 4d level alone costs about as much as the others together
SETTINGS = {
    "test": (3, 200, (0.5, 1), (-3, 3), 2),
    "quick": (10, 400, (0.5, 1, 2), (-3, 1, 5), 3),
    "full": (10, 1000, (0.5, 1, 2), (-5, -2, 1, 4), 3),
}


def settings(budget_name: str) -> tuple:
    """The setting of a budget by its base name, with factor x the trials for a scaled budget."""
    trials, *rest = setting(SETTINGS, budget_name)
    return (trials * factor_of(budget_name), *rest)


def accuracy(F_train, y_train, F_test, y_test, log2_c, folds) -> float:
    """Test accuracy (%) of LinearSVC in the primal, C picked from 2^log2_c by stratified ``folds``-fold
    CV (unshuffled: the same splits for every C and method)."""
    search = GridSearchCV(LinearSVC(dual=False, max_iter=2000), {"C": list(2.0 ** np.asarray(log2_c))}, cv=folds)
    return 100.0 * search.fit(F_train, y_train).score(F_test, y_test)


@functools.lru_cache(maxsize=None)
def _unit_norm_split(name):
    data = datasets.load(name)
    return (E.unit_rows(data.X_train), np.asarray(data.y_train), E.unit_rows(data.X_test),
            np.asarray(data.y_test))


@threadpool_limits.wrap(limits=1)
def run_trial(unit: dict) -> dict:
    """{"<method>/<s>": test accuracy %} of one unit (budget, random_state, kernel, dataset, trial)."""
    _, rows, factors, log2_c, folds = settings(unit["budget"])
    name, kname, trial = unit["dataset"], unit["kernel"], unit["trial"]
    X_train, y_train, X_test, y_test = _unit_norm_split(name)
    rng = np.random.default_rng(derive_seed(unit["random_state"], f"004.fig3-{name}", trial))
    keep = np.sort(rng.choice(X_train.shape[0], size=min(rows, X_train.shape[0]), replace=False))
    Xt, yt = X_train[keep], y_train[keep]
    scores = {}
    for method in METHODS[kname]:
        for s in E.sizes(Xt.shape[1], factors):
            seed = E._seed(unit["random_state"], "004.fig3", kname, name, method, s, trial)
            transform = E._regression_features(E.KERNELS[kname], method, s, Xt, seed)
            scores[f"{method}/{s}"] = accuracy(transform(Xt), yt, transform(X_test), y_test, log2_c, folds)
    return scores


@functools.lru_cache(maxsize=None)
def fig3_results(budget) -> dict:
    """{(kernel, data set): {"s": s values, method: (trials, len(s)) accuracies in %}}; each
    (kernel, data set, trial) a unit of ``varlab.claims.run_units`` in the budget's store "units"."""
    trials, _, factors, _, _ = settings(budget.name)
    units = E._units(budget, "004.fig3", kernel=METHODS, dataset=DATASETS, trial=range(trials))
    records = run_units(units, store_for(budget, "units"), run_trial, description="004 Fig. 3 trials")
    out = {}
    for kname, methods in METHODS.items():
        for name in DATASETS:
            runs = [r for r in records if (r["kernel"], r["dataset"]) == (kname, name)]
            s_values = E.sizes(datasets.load(name).n_features, factors)
            out[(kname, name)] = {"s": s_values, **{method: np.array([[r[f"{method}/{s}"] for s in s_values]
                                                                       for r in runs]) for method in methods}}
    return out


_COLOURS = {"GRFF": "C0", "GORF": "C1", "RM": "C3", "TS": "C4"}


@figure("004_fig3", source="004 Fig. 3 (SVM accuracy vs s; letter, optdigits for usps; SRF, DIGMM out of scope)",
        repetitions=lambda budget: f"{settings(budget.name)[0]} trials")
def figure3(budget):
    """LinearSVC test accuracy (%) on each method's random features against s (mean ± sd over the
    trials of claim 004.fig3), one row per kernel, one column per data set."""
    results = fig3_results(budget)
    fig, axes = plt.subplots(len(METHODS), len(DATASETS), figsize=(5.2 * len(DATASETS), 3.8 * len(METHODS)))
    for row, (kname, methods) in zip(axes, METHODS.items()):
        for ax, name in zip(row, DATASETS):
            cell = results[(kname, name)]
            s = np.asarray(cell["s"], dtype=float)
            for index, method in enumerate(methods):
                values = cell[method]
                ax.errorbar(s * (1 + 0.03 * (index - 1)), values.mean(0), yerr=values.std(0, ddof=1), fmt="o-",
                            ms=4, capsize=2, color=_COLOURS[method], label=method)
            ax.set(xscale="log", xlabel="s (frequencies per part; RM/TS: 4s features)", ylabel="test accuracy (%)",
                   title=f"{name}: {E.KERNELS[kname].label}")
            ax.set_xticks(s, [str(int(v)) for v in s])
            ax.minorticks_off()
            ax.title.set_fontsize(9)
    finish_axes(*axes.ravel(), legend_size=7)
    trials, rows, _, log2_c, folds = settings(budget.name)
    fig.suptitle(f"004 Fig. 3: LinearSVC accuracy (mean ± sd over {trials} trials; {rows} training rows, "
                 f"{len(log2_c)} C values, {folds}-fold CV)", fontsize=10)
    fig.tight_layout()
    return fig
