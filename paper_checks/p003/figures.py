"""Figures of paper 003: Figs. 1-2 (relative Gram error vs m), Fig. 3 (vs bandwidth), Table 1
(principal component regression) and varlab's figure of V_MM / V_CV* and the MM bias vs m.

Sizes follow the budget (``experiments.SIZES``): "test"/"quick" are a small slice (few
repetitions, a few hundred points; Table 1 with the paper's m = 4096 features on 1000 training
rows at quick); "full" uses the paper's 100 repetitions (Figs. 1-3) on more points and Table 1
on up to 8000 training rows, on the data sets that fitted its run (simulations/p003/report.md). Datasets: the synthetic LR500 recipe (``experiments.lr500``) and
varlab.datasets sets of comparable dimension; the paper's YP90, QM274 and MNIST300 are not
available offline.
"""
from __future__ import annotations

import numpy as np

from varlab.plotting import figure, finish_axes, legend_below, plt, table_figure
from varlab.theory import moment_matching as theory

from . import claims as claim_module
from . import experiments as E

def _gram_repetitions(budget) -> str:
    size = E.sizes(budget)
    return f"{size['reps']} repetitions on {size['n']} points"


def _mm_repetitions(budget) -> str:
    shares = {d: max(50, budget.n_repetitions // share) for d, _, _, share in claim_module.COR2_CASES}
    return (f"{budget.n_repetitions:,} repetitions (left panel: " +
            ", ".join(f"d = {d}: {n:,}" for d, n in shares.items()) + ")")


def _table_trials(budget) -> str:
    return f"{E.sizes(budget)['table'][3]} trials"


#: each sampler's colour, marker and line style: CV2 and MM (and Sobol and SSobol) nearly coincide
#: on lr500, so the second of each pair is dashed with open markers, drawn over the solid first
STYLE = {"MC": dict(color="k", marker="o", ls="-"), "Sobol": dict(color="b", marker="s", ls="-"),
         "SSobol": dict(color="c", marker="^", ls="--", mfc="none"), "Anti": dict(color="g", marker="v", ls="-"),
         "CV1": dict(color="y", marker="d", ls="-."), "CV2": dict(color="m", marker="x", ls="-"),
         "MM": dict(color="r", marker="o", ls="--", mfc="none", ms=6)}

#: the samplers' points are drawn at x (1 + DODGE (j - 3)), j their index in STYLE, so that the
#: seven bars at one x do not hide each other
DODGE = 0.015

#: fewer repetitions than this give no ±1 SE bars: an SE from a handful of repetitions is itself
#: too uncertain to show (its standard deviation is 60% of the true SE at 2 repetitions, 23% at 10)
MIN_BAR_REPETITIONS = 10


def _with_bars(ax, x, mean, se, sampler, repetitions) -> bool:
    """The sampler's mean errors against x with ±1 SE bars (none below ``MIN_BAR_REPETITIONS``
    repetitions, nor where the SE is NaN: a stored piece without standard errors), dodged along x
    by ``DODGE``; whether any bar was drawn."""
    se = np.asarray(se, dtype=float)
    bars = np.isfinite(se) & np.isfinite(mean) & (repetitions >= MIN_BAR_REPETITIONS)
    x = np.asarray(x, dtype=float) * (1 + DODGE * (list(STYLE).index(sampler) - 3))
    ax.errorbar(x, mean, yerr=np.where(bars, se, 0.0) if bars.any() else None, elinewidth=0.9, capsize=2.5,
                label=sampler, **{"ms": 4, **STYLE[sampler]})
    return bool(bars.any())


def _bars_note(drawn: bool, repetitions: int) -> str:
    if drawn:
        return "±1 SE bars"
    if repetitions < MIN_BAR_REPETITIONS:
        return f"no SE bars: {repetitions} repetitions are too few for a standard error"
    return "no standard errors stored, no bars"


def _gram_figure(budget, which: int, title: str):
    data = E.gram_vs_m(budget)
    size = E.sizes(budget)
    fig, axes = plt.subplots(1, len(data), figsize=(5 * len(data), 4), squeeze=False)
    drawn = False
    for ax, (name, (m, errors)) in zip(axes[0], data.items()):
        for sampler, values in errors.items():
            drawn |= _with_bars(ax, m, values[which], values[which + 2], sampler, size["reps"])
        ax.set(title=f"{name}", xlabel="m (number of features)", ylabel="relative error")
        ax.set_xscale("log")
        ax.set_yscale("log")
        finish_axes(ax, legend_size=0)
    legend_below(fig, axes[0, 0], ncol=len(E.SAMPLERS))
    fig.suptitle(f"{title} (mean of {size['reps']} repetitions; n = {size['n']}; MM needs m >= d + 1)\n"
                 f"{_bars_note(drawn, size['reps'])}; the paper's YP90, QM274 and MNIST300 are not available "
                 "offline", fontsize=10)
    return fig


@figure("003_fig1", source="003 Figure 1 (Gram error, Frobenius norm, vs m)",
        repetitions=_gram_repetitions)
def figure1(budget):
    """Relative Gram error in the Frobenius norm against m for each sampler: the mean over the
    repetitions with ±1 SE bars (the SE of that mean; none below 10 repetitions, as at the quick
    budget's 2, where an SE is too uncertain to show, nor from the full run's stored pieces, which
    kept means only). The samplers' points are shifted by up to ±4.5% along m so that their bars
    do not hide each other; MM (dashed, open circles) lies on CV2 on lr500."""
    return _gram_figure(budget, 0, "003 Fig. 1: ||K - K^||_F / ||K||_F")


@figure("003_fig2", source="003 Figure 2 (Gram error, spectral norm, vs m)",
        repetitions=_gram_repetitions)
def figure2(budget):
    """Relative Gram error in the spectral norm against m for each sampler: the mean over the
    repetitions with ±1 SE bars from 10 repetitions on (as in Fig. 1), shifted along m as in
    Fig. 1."""
    return _gram_figure(budget, 1, "003 Fig. 2: ||K - K^||_2 / ||K||_2")


@figure("003_fig3", source="003 Figure 3 (Gram error vs bandwidth)",
        repetitions=_gram_repetitions)
def figure3(budget):
    """Relative Gram error against the bandwidth (multiples of sigma_10NN) at fixed m: the mean
    over the repetitions with ±1 SE bars from 10 repetitions on (as in Fig. 1), shifted along
    sigma as in Fig. 1."""
    size = E.sizes(budget)
    data = E.gram_vs_bandwidth(budget)
    fig, axes = plt.subplots(2, len(data), figsize=(5 * len(data), 8), squeeze=False)
    drawn = False
    for column, (name, (sigmas, rows)) in enumerate(data.items()):
        for row, label in enumerate(("Frobenius", "spectral")):
            ax = axes[row, column]
            for sampler in E.SAMPLERS:
                drawn |= _with_bars(ax, sigmas, [r[sampler][row][0] for r in rows],
                                    [r[sampler][row + 2][0] for r in rows], sampler, size["reps"])
            ax.set_yscale("log")
            ax.set(title=f"{name}: {label} norm, m = {size['m3']}", xlabel="bandwidth sigma",
                   ylabel="relative error")
            finish_axes(ax, legend_size=0)
    legend_below(fig, axes[0, 0], ncol=len(E.SAMPLERS))
    fig.suptitle(f"003 Fig. 3: Gram error vs bandwidth (sigma_10NN x "
                 f"{', '.join(f'{f:g}' for f in E.BANDWIDTH_FACTORS)}; mean of {size['reps']} repetitions; "
                 f"n = {size['n']})\n{_bars_note(drawn, size['reps'])}")
    return fig


#: the PC numbers of the paper's Table 1 rows (003 Table 1, "PC #"), beside ours: all, and 512
PAPER_TABLE1_PCS = (4096, 512)


@figure("003_table1", source="003 Table 1 (principal component regression; m = 4096 features at the "
                             "quick and full budgets)", repetitions=_table_trials)
def table1(budget):
    """Table 1: relative test error (%) of principal component regression on the features, mean ±
    SE over trials per sampler, each row of LR500 followed by the paper's row (its n_train = 8000;
    at m = 4096, the paper's m) with each sampler's number in that sampler's column."""
    n, m, components, trials = E.sizes(budget)["table"]
    rows = []
    for name, errors in E.table1(budget).items():
        for j, p in enumerate(components):
            pcs = f"{p}" if p < 2 * m else f"all ({p})"
            rows.append([name, pcs] + [f"{100 * errors[s][:, j].mean():.2f} ± "
                                       f"{100 * errors[s][:, j].std(ddof=1) / np.sqrt(trials):.2f}"
                                       if s in errors else "n/a" for s in E.FEATURE_SAMPLERS])
            if name == "lr500" and m == 4096:
                rows.append(["LR500, the paper", f"{PAPER_TABLE1_PCS[j]}"] + [f"{E.PAPER_TABLE1_LR500[s][j]:.2f}"
                                                         for s in E.FEATURE_SAMPLERS])
    columns = ["data", "PCs"] + [f"{s} (mean ± SE)" for s in E.FEATURE_SAMPLERS]
    return table_figure(rows, columns, f"003 Table 1: PCR relative test error (%), m = {m} features ([cos, sin] "
                        f"-> {2 * m} columns), n_train = {n} (paper: 8000), {trials} trials; the paper's LR500 "
                        f"(rows 'LR500, the paper') is another draw of the recipe")


BEATS_CLAIMS = claim_module.BEATS_CLAIMS
#: the colour of the legend's marker entries, whose points take the colour of their line (s, or the
#: kind of features)
NEUTRAL = "0.35"


@figure("003_mm_variance", source="varlab: V_MM / V_CV*, the MM bias vs m, and MSE_MM / MSE_MC for "
                                  "complex, cosine and random-phase features (exact law and simulation)",
        repetitions=_mm_repetitions)
def mm_variance(budget):
    """Left: V_MM / V_CV* (exact, d-free) with the simulated ratios of claim 003.cor2.eq15 for
    d = 5, 50, 500. Middle: m |bias| / k of E_MM against m for both divisors. Right: MSE_MM / MSE_MC
    against s at m = d + 1 and 2(d + 1) (d = 5) for the three kinds of features, exact and as
    simulated by the claims "MM beats MC"."""
    m = np.unique(np.round(np.logspace(np.log10(3), 4, 60)).astype(int))
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(16, 4.4))
    for s, colour in zip(claim_module.S_GRID, ("C0", "C1", "C2")):
        ratio = theory.mm_moments(s, m, "m-1")["variance"] / theory.cv_optimal_variance(scaled_distance=s, m=m)
        left.semilogx(m, ratio, "-", color=colour, label=f"exact, s = {s:g}")
        for divisor, style in (("m-1", "-"), ("m", "--")):
            bias = theory.mm_moments(s, m, divisor)["bias"] / theory.kernel(scaled_distance=s)
            middle.semilogx(m, m * bias, style, color=colour, label=f"s = {s:g}, divisor {divisor}")
    for (d, k, s_values, share), marker in zip(claim_module.COR2_CASES, ("o", "s", "^")):
        r = claim_module.COR2_SIMULATIONS[d].result(budget)
        for i, s in enumerate(s_values):
            cv = theory.cv_optimal_variance(scaled_distance=s, m=np.asarray(k))
            colour = f"C{claim_module.S_GRID.index(s)}"
            left.errorbar(k, r.variance[i] / cv, yerr=r.se_variance[i] / cv, fmt=marker, color=colour, ms=4)
        left.plot([], [], marker, color=NEUTRAL, label=f"simulated d = {d} (colour: s)")
    left.axhline(1.0, color="k", lw=0.8)
    left.set(xlabel="m", ylabel="V_MM / V_CV*", title="V_MM / V_CV* (Cor. 2): exact law, any d <= m-1")
    for divisor, marker in (("m-1", "o"), ("m", "s")):
        r = claim_module.BIAS_SIMULATIONS[divisor].result(budget)
        k = np.asarray(claim_module.UNBIASED_K)
        for i, s in enumerate(claim_module.UNBIASED_S):
            scale = k / theory.kernel(scaled_distance=s)
            middle.errorbar(k, scale * r.bias[i], yerr=scale * r.se_mean[i], fmt=marker, ms=3,
                            color=f"C{claim_module.S_GRID.index(s)}")
        middle.plot([], [], marker, color=NEUTRAL, label=f"simulated (d = 1), divisor {divisor} (colour: s)")
    middle.axhline(0.0, color="k", lw=0.8)
    middle.set(xlabel="m", ylabel="m x bias / k", title="bias of E_MM is O(1/m): exact law, simulated")
    b = claim_module.BEATS_SIMULATED
    s_line = np.linspace(0.05, 5.0, 100)
    for features, colour in zip(BEATS_CLAIMS, ("C3", "C4", "C5")):
        r = claim_module.BEATS_SIMULATIONS[features].result(budget)
        for j, (k, style) in enumerate(zip(b["k"], ("-", ":"))):
            mc_line = claim_module.MC_VARIANCE[features](scaled_distance=s_line, m=k)
            exact = theory.mm_moments(s_line, k, "m-1", features)["mse"] / mc_line
            right.plot(s_line, exact, style, color=colour, label=f"{features}, m = {k}")
            mc = claim_module.MC_VARIANCE[features](scaled_distance=np.asarray(b["s"]), m=k)
            right.errorbar(b["s"], r.mse[:, j] / mc, yerr=r.se_mse[:, j] / mc, fmt="os"[j], color=colour, ms=3,
                           mfc="none" if j else colour)
    for j, k in enumerate(b["k"]):
        right.plot([], [], "os"[j], color=NEUTRAL, mfc="none" if j else NEUTRAL, label=f"simulated, m = {k}")
    right.axhline(1.0, color="k", lw=0.8)
    right.set(xlabel="s = |c| / sigma", ylabel="MSE_MM / MSE_MC",
              title=f"MM vs MC at m = d + 1, 2(d + 1) (d = {b['d']}; points: simulated)")
    finish_axes(left, middle, right, legend_size=7)
    fig.tight_layout()
    return fig
