"""Figures of paper 002 (AsK-RFF). Fig. 1 recomputes the trials of claim ``002.eq12`` with the
same seeds (the numbers are that claim's); Fig. 2 and Table 1 show the numbers of claims
``002.fig2`` and ``002.table1`` (same seeds, the budget's slice: see gram_error.SETTINGS and
classification.SETTINGS)."""
from __future__ import annotations

import numpy as np

from varlab.claims import setting
from varlab.plotting import figure, finish_axes, legend_below, plt

from .claims import FIG1_LOG2M, KERNELS, fig1_trials

_PARTS = (("real_positive", "real pos", "C0"), ("real_negative", "real neg", "C1"),
          ("imaginary_positive", "imaginary", "C2"))


@figure("002_fig1", source="002 Figure 1 (estimated vs exact total masses, Eq. 12, Ns = 10)",
        repetitions=lambda budget: "10 trials of 2000 points")
def figure1(budget):
    """Eq. (12)'s estimated total masses (mean ± sd over 10 trials) against log2(M/d), the exact
    1-D masses dashed."""
    trials, exact = fig1_trials(budget)
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, kernel in zip(axes, KERNELS):
        for index, (part, label, colour) in enumerate(_PARTS):
            values = np.array([trials[(int(l), kernel)][:, index] for l in FIG1_LOG2M])
            ax.errorbar(FIG1_LOG2M + 0.1 * (index - 1), values.mean(1), yerr=values.std(1, ddof=1),
                        fmt="o", color=colour, capsize=3, label=label)
            ax.axhline(exact[kernel][part], color=colour, ls="--", lw=1, label=f"true {label}")
        ax.set(xlabel="log2(M/d)", ylabel="total mass", title=kernel)
        finish_axes(ax, legend_size=0)
    fig.suptitle("002 Fig. 1: Eq. (12) estimates (mean ± sd over 10 trials, 2000 N(0,1) points, "
                 "Ns = 10, sigma = 2) and exact 1-D masses (dashed)")
    legend_below(fig, axes[0], ncol=6, fontsize=9)
    return fig


def _fig2_trials(budget) -> str:
    from . import gram_error
    n, _, trials = setting(gram_error.SETTINGS, budget)
    return f"{trials} trials on {n} training points"


def _table1_trials(budget) -> str:
    from . import classification
    trials = setting(classification.SETTINGS, budget)[0]
    return f"{trials} trials"


_KCOLOURS = {"shift_gaussian": "C0", "sinh_gaussian": "C1", "cosh_gaussian": "C2"}


@figure("002_fig2", source="002 Figure 2 (a)-(b): relative Frobenius error of the AsK-RFF Gram vs M "
                           "(spambase, letter; ijcnn1 and cod-RNA not shipped offline)",
        repetitions=lambda budget: _fig2_trials(budget))
def figure2(budget):
    """Relative Frobenius error of the AsK-RFF Gram matrix against M (mean ± sd over trials), with
    Eq. (12)'s estimated masses (points) and the exact masses (dashed)."""
    from . import gram_error
    results = gram_error.fig2_results(budget)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, name in zip(axes, gram_error.DATASETS):
        for kernel, colour in _KCOLOURS.items():
            est, exa, log2m = results[(name, kernel)]
            ax.errorbar(log2m, est.mean(0), yerr=est.std(0, ddof=1), fmt="o-", color=colour, capsize=3,
                        label=f"{kernel} (Eq. 12 masses)")
            ax.plot(log2m, exa.mean(0), ls="--", color=colour, lw=1, label=f"{kernel} (exact masses)")
        ax.set(xlabel="log2(M/d)", ylabel="||K - K~||_F / ||K||_F", yscale="log", title=name)
        finish_axes(ax, legend_size=7)
    n, _, trials = setting(gram_error.SETTINGS, budget)
    fig.suptitle(f"002 Fig. 2: AsK-RFF Gram error on {n} training points (mean ± sd over {trials} trials; "
                 "sigma = 2, r = 2/d, beta = 0.5 pi/d, Ns = 50)")
    fig.tight_layout()
    return fig


@figure("002_table1", source="002 Table 1 (spambase, letter): LinearSVC test accuracy, varlab vs printed",
        repetitions=_table1_trials)
def table1(budget):
    """LinearSVC test accuracy (%) on the AsK-RFF features and the baselines: varlab's mean ± sd
    over trials beside the paper's Table 1, bars from zero with their values written on top."""
    from . import classification
    results = classification.table1(budget)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    methods = classification.METHODS
    x = np.arange(len(methods))
    for ax, name in zip(axes, classification.DATASETS):
        ours = np.array([results[name][m].mean() for m in methods])
        sd = np.array([results[name][m].std(ddof=1) for m in methods])
        paper = np.array([classification.PAPER[name][m] for m in methods])
        for offset, values, errors, label, colour in ((-0.2, ours, sd, "varlab (mean ± sd)", "C0"),
                                                      (0.2, paper[:, 0], paper[:, 1], "paper (Table 1)", "C7")):
            bars = ax.bar(x + offset, values, 0.4, yerr=errors, capsize=3, label=label, color=colour)
            ax.bar_label(bars, fmt="%.1f", fontsize=6, padding=2, rotation=90)
        ax.set_xticks(x, [m.replace("_gaussian", "") for m in methods], rotation=45, ha="right", fontsize=8)
        ax.set(ylabel="test accuracy (%)", title=name, ylim=(0, 112))
        ax.set_yticks(range(0, 101, 20))
        finish_axes(ax, legend_size=0)
    trials, rows, log2_c, folds, _ = setting(classification.SETTINGS, budget)
    fig.suptitle(f"002 Table 1: LinearSVC accuracy, M = 2d ({trials} trials; training rows "
                 + ", ".join(f"{k} {'all' if v is None else v}" for k, v in rows.items())
                 + f"; {len(log2_c)} C values, {folds}-fold CV)")
    legend_below(fig, axes[0], ncol=2, fontsize=9)
    return fig
