"""Fig. 3 of paper 002 (§5.3): LinearSVC test accuracy on AsK-RFF's concatenated map ("Asy", as
in Table 1: ``classification``) against the number of frequencies M = d 2^l, with the linear
classifier on the raw data as the reference (the figure's dashed line), which claims 002.fig3.growth and 002.fig3.above_linear read; masses by Eq. (12) on
N_s = 50 training points (Algorithm 2), r = 2/d 1, sigma = 2, beta = 0.5 pi/d 1, C by stratified
CV. Data: spambase and letter (``varlab.datasets``, min-max scaled); ijcnn1 and cod-RNA are not
shipped offline.

The figure's x-axis values of log2(M/d) are not in the text; its sentence "better than the linear
classifier when M >= d" implies some M below d, so varlab's grid starts at M = d/4. Each trial
draws a training subset and, for each kernel and M, its own frequencies.
"""
from __future__ import annotations

import functools

import numpy as np
from threadpoolctl import threadpool_limits

from varlab.claims import factor_of, run_units, setting, store_for
from varlab.features import AsKRFF
from varlab.plotting import figure, finish_axes, legend_below, plt
from varlab.seeding import derive_seed

from .classification import _accuracy
from .gram_error import KERNELS, N_SUBSET, SIGMA, kernel_vector, normalised

DATASETS = ("spambase", "letter")
#: budget -> (trials, training rows per data set, log2(M/d) grid, log2 C grid, CV folds). The paper:
#: 10 trials, all rows, C = 2^-5..2^5 with 5 folds. Letter is the cost (26 one-vs-rest problems
#: on 8M columns: 16 s for one CV at M = 8d on 400 rows, measured), hence fewer rows, C values and
#: folds than the paper's, and M up to 4d (quick: every other power of 2, with the paper's 10 trials,
#: which the paired t tests need; full: every power of 2 from d/4; the paper's 8d level alone costs
#: about as much as all the others together, and saturation is reached before it)
SETTINGS = {
    "test": (3, 200, (-1, 0, 1), (-3, 3), 2),
    "quick": (10, 400, (-2, 0, 2), (-3, 1, 5), 3),
    "full": (10, 1000, (-2, -1, 0, 1, 2), (-5, -2, 1, 4), 3),
}


def settings(budget_name: str) -> tuple:
    """The setting of a budget by its base name, with factor x the trials for a scaled budget."""
    trials, *rest = setting(SETTINGS, budget_name)
    return (trials * factor_of(budget_name), *rest)


def components(d: int, log2_ratio: int) -> int:
    """M = d 2^l, at least 1."""
    return max(1, int(round(d * 2.0 ** log2_ratio)))


@threadpool_limits.wrap(limits=1)
def run_trial(unit: dict) -> dict:
    """{"<kernel>/<l>": Asy accuracy % at M = d 2^l, "Linear": accuracy %} of one unit (budget,
    random_state, dataset, trial), on its own seed."""
    _, rows, grid, log2_c, folds = settings(unit["budget"])
    X_train, y_train, X_test, y_test = normalised(unit["dataset"])
    rng = np.random.default_rng(derive_seed(unit["random_state"], f"002.fig3-{unit['dataset']}", unit["trial"]))
    keep = np.sort(rng.choice(X_train.shape[0], size=min(rows, X_train.shape[0]), replace=False))
    Xt, yt = X_train[keep], y_train[keep]
    d = Xt.shape[1]
    accuracy = {"Linear": _accuracy(Xt, yt, X_test, y_test, log2_c, folds, 1)}
    for kernel in KERNELS:
        for level in grid:
            ask = AsKRFF(components(d, level), kernel=kernel, gamma=1.0 / (2.0 * SIGMA ** 2), masses="estimated",
                         n_subset=N_SUBSET, random_state=rng, **{KERNELS[kernel]: kernel_vector(kernel, d)}).fit(Xt)
            accuracy[f"{kernel}/{level}"] = _accuracy(ask.concatenated(Xt), yt, ask.concatenated(X_test), y_test,
                                                      log2_c, folds, 1)
    return accuracy


@functools.lru_cache(maxsize=None)
def fig3_results(budget) -> dict:
    """{dataset: {"grid": log2(M/d) values, "Linear": (trials,), kernel: (trials, levels)}} accuracies
    in %; each (data set, trial) a unit of ``varlab.claims.run_units`` in the budget's store "units"."""
    trials, _, grid, _, _ = settings(budget.name)
    units = [dict(experiment="002.fig3", budget=budget.name, random_state=budget.random_state, dataset=name,
                  trial=trial) for name in DATASETS for trial in range(trials)]
    records = run_units(units, store_for(budget, "units"), run_trial, description="002 Fig. 3 trials")
    out = {}
    for name in DATASETS:
        runs = [record for record in records if record["dataset"] == name]
        out[name] = {"grid": grid, "Linear": np.array([r["Linear"] for r in runs]),
                     **{kernel: np.array([[r[f"{kernel}/{level}"] for level in grid] for r in runs])
                        for kernel in KERNELS}}
    return out


_COLOURS = {"shift_gaussian": "C0", "sinh_gaussian": "C1", "cosh_gaussian": "C2"}


@figure("002_fig3", source="002 Figure 3 (accuracy panels; spambase, letter): LinearSVC accuracy vs M, linear "
                           "classifier dashed (sampling times: benchmarks)",
        repetitions=lambda budget: f"{settings(budget.name)[0]} trials")
def figure3(budget):
    """LinearSVC test accuracy (%) on AsK-RFF's concatenated map against log2(M/d) (mean ± sd over
    the trials of claims 002.fig3.growth and 002.fig3.above_linear), one panel per data set; the
    linear classifier's mean dashed."""
    results = fig3_results(budget)
    fig, axes = plt.subplots(1, len(DATASETS), figsize=(5.5 * len(DATASETS), 4))
    for ax, name in zip(axes, DATASETS):
        cell = results[name]
        grid = np.asarray(cell["grid"], dtype=float)
        for index, (kernel, colour) in enumerate(_COLOURS.items()):
            values = cell[kernel]
            ax.errorbar(grid + 0.05 * (index - 1), values.mean(0), yerr=values.std(0, ddof=1), fmt="o-",
                        color=colour, capsize=3, label=kernel)
        ax.axhline(cell["Linear"].mean(), color="k", ls="--", lw=1, label="linear classifier")
        ax.axvline(0.0, color="grey", ls=":", lw=1)
        ax.set(xlabel="log2(M/d)", ylabel="test accuracy (%)", title=name)
        finish_axes(ax, legend_size=0)
    trials, rows, _, log2_c, folds = settings(budget.name)
    fig.suptitle(f"002 Fig. 3: LinearSVC accuracy vs M (mean ± sd over {trials} trials; {rows} training rows, "
                 f"{len(log2_c)} C values, {folds}-fold CV; dotted: M = d)")
    legend_below(fig, axes[0], ncol=4, fontsize=9)
    return fig
