"""Figures of paper 003: Figs. 1-2 (relative Gram error vs m), Fig. 3 (vs bandwidth), Table 1
(principal component regression) and varlab's figure of V_MM / V_CV* and the MM bias vs m.

Sizes follow the budget (``SIZES``): "test"/"quick" are a small slice (few repetitions, a few
hundred points); "full" uses the paper's 100 repetitions (Figs. 1-3) on more points and the
paper's m = 4096 features with 512 components (Table 1). Datasets: the synthetic LR500 recipe
(``experiments.lr500``) and varlab.datasets sets of comparable dimension; the paper's YP90,
QM274 and MNIST300 are not available offline.
"""
from __future__ import annotations

import numpy as np

from varlab.claims import ClaimRun, claims
from varlab.plotting import figure, finish_axes, plt
from varlab.theory import moment_matching as theory

from . import claims as claim_module
from . import experiments as E

#: budget name -> (Gram points n, repetitions, data sets, Fig. 3 m, Table 1 (n, m, components))
SIZES = {
    "test": dict(n=200, reps=1, sets=("lr500", "texture"), m3=512, table=(600, 512, (1024, 128))),
    "quick": dict(n=300, reps=2, sets=("lr500", "texture"), m3=512, table=(1000, 1024, (2048, 256))),
    "full": dict(n=1000, reps=100, sets=("lr500", "texture", "satimage", "spambase", "optdigits"),
                 m3=2048, table=(8000, 4096, (8192, 512))),
}
STYLE = {"MC": "k-o", "Sobol": "b-s", "SSobol": "c-^", "Anti": "g-v", "CV1": "y-d", "CV2": "m-x", "MM": "r-*"}


def _sizes(budget):
    return SIZES.get(budget.name.split("/")[0], SIZES["quick"])


def _m_grid(d):
    return [512, 1024, 2048] if d >= 256 else [32, 64, 128, 256, 512, 1024, 2048]


_CACHE: dict = {}


def gram_vs_m(budget):
    """{set: (m grid, errors)} for Figs. 1-2 (cached for both figures)."""
    key = ("m", budget.name)
    if key not in _CACHE:
        size = _sizes(budget)
        out = {}
        for name in size["sets"]:
            X = E.load(name, size["n"], random_state=budget.random_state % 2 ** 32)[0]
            m = _m_grid(X.shape[1])
            out[name] = (m, E.gram_errors(X, E.bandwidth_10nn(X), m, size["reps"], budget.random_state))
        _CACHE[key] = out
    return _CACHE[key]


def _gram_figure(budget, which: int, title: str):
    data = gram_vs_m(budget)
    fig, axes = plt.subplots(1, len(data), figsize=(5 * len(data), 4), squeeze=False)
    for ax, (name, (m, errors)) in zip(axes[0], data.items()):
        for sampler, values in errors.items():
            ax.loglog(m, values[which], STYLE[sampler], ms=4, label=sampler)
        ax.set(title=f"{name}", xlabel="m (number of features)", ylabel="relative error")
        finish_axes(ax)
    fig.suptitle(f"{title} ({_sizes(budget)['reps']} repetitions, n = {_sizes(budget)['n']}; "
                 "MM needs m >= d + 1)")
    fig.tight_layout()
    return fig


@figure("003_fig1", source="003 Figure 1 (Gram error, Frobenius norm, vs m)")
def figure1(budget):
    return _gram_figure(budget, 0, "003 Fig. 1: ||K - K^||_F / ||K||_F")


@figure("003_fig2", source="003 Figure 2 (Gram error, spectral norm, vs m)")
def figure2(budget):
    return _gram_figure(budget, 1, "003 Fig. 2: ||K - K^||_2 / ||K||_2")


BANDWIDTH_FACTORS = (0.5, 1.0, 2.0, 4.0)


@figure("003_fig3", source="003 Figure 3 (Gram error vs bandwidth)")
def figure3(budget):
    size = _sizes(budget)
    sets = size["sets"][:2]
    fig, axes = plt.subplots(2, len(sets), figsize=(5 * len(sets), 8), squeeze=False)
    for column, name in enumerate(sets):
        X = E.load(name, size["n"], random_state=budget.random_state % 2 ** 32)[0]
        sigma0 = E.bandwidth_10nn(X)
        rows = [E.gram_errors(X, sigma0 * f, [size["m3"]], size["reps"], budget.random_state + i)
                for i, f in enumerate(BANDWIDTH_FACTORS)]
        sigmas = sigma0 * np.asarray(BANDWIDTH_FACTORS)
        for row, label in enumerate(("Frobenius", "spectral")):
            ax = axes[row, column]
            for sampler in E.SAMPLERS:
                ax.semilogy(sigmas, [r[sampler][row][0] for r in rows], STYLE[sampler], ms=4, label=sampler)
            ax.set(title=f"{name}: {label} norm, m = {size['m3']}", xlabel="bandwidth sigma",
                   ylabel="relative error")
            finish_axes(ax, legend_size=7 if row == 0 else 0)
    fig.suptitle("003 Fig. 3: Gram error vs bandwidth (sigma_10NN x 0.5, 1, 2, 4)")
    fig.tight_layout()
    return fig


#: the paper's Table 1 row (d): LR500, MC / Sobol / SSobol / MM, 4096 and 512 components (%)
PAPER_TABLE1_LR500 = {"MC": (30.62, 24.34), "Sobol": (30.07, 23.63), "SSobol": (29.30, 24.44),
                      "MM": (29.30, 23.00)}


@figure("003_table1", source="003 Table 1 (principal component regression)")
def table1(budget):
    n, m, components = _sizes(budget)["table"]
    rows = []
    for name in _sizes(budget)["sets"][:2]:
        data = E.load(name, n, random_state=budget.random_state % 2 ** 32)
        errors = E.pcr_errors(data, E.bandwidth_10nn(data[0][:1000]), m, components, 1,
                              budget.random_state)
        for j, p in enumerate(components):
            paper = [f"{PAPER_TABLE1_LR500[s][j]:.2f}" if name == "lr500" and m == 4096 else "-"
                     for s in E.FEATURE_SAMPLERS]
            rows.append([name, f"{p}"] + [f"{100 * errors[s][j]:.2f}" if s in errors else "n/a"
                                          for s in E.FEATURE_SAMPLERS] + ["/".join(paper)])
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.4 * len(rows)))
    ax.axis("off")
    ax.table(cellText=rows, colLabels=["data", "PCs"] + list(E.FEATURE_SAMPLERS) + ["paper (LR500)"],
             loc="center")
    ax.set_title(f"003 Table 1: PCR relative test error (%), m = {m} features ([cos, sin] -> 2m "
                 f"columns), n_train = {n}")
    fig.tight_layout()
    return fig


@figure("003_mm_variance", source="varlab: V_MM / V_CV* and the MM bias vs m (exact law and simulation)")
def mm_variance(budget):
    """Left: V_MM / V_CV* (exact, d-free) with the simulated ratios of claim 003.cor2.eq15 for
    d = 5, 50, 500. Right: m |bias| / k of E_MM against m for both divisors."""
    claim = next(c for c in claims("003") if c.id == "003.cor2.eq15")
    run = ClaimRun(claim, budget)
    m = np.unique(np.round(np.logspace(np.log10(3), 4, 60)).astype(int))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for s, colour in zip(claim_module.S_GRID, ("C0", "C1", "C2")):
        ratio = theory.mm_moments(s, m, "m-1")["variance"] / theory.cv_optimal_variance(scaled_distance=s, m=m)
        left.semilogx(m, ratio, "-", color=colour, label=f"exact, s = {s:g}")
        for divisor, style in (("m-1", "-"), ("m", "--")):
            bias = theory.mm_moments(s, m, divisor)["bias"] / theory.kernel(scaled_distance=s)
            right.semilogx(m, m * bias, style, color=colour, label=f"s = {s:g}, divisor {divisor}")
    for (d, k, s_values, share), marker in zip(claim_module.COR2_CASES, ("o", "s", "^")):
        r = claim_module.mm_simulation(run, d, k, s_values, divisor_budget=share, label=f"d{d}")
        for i, s in enumerate(s_values):
            cv = theory.cv_optimal_variance(scaled_distance=s, m=np.asarray(k))
            colour = f"C{claim_module.S_GRID.index(s)}"
            left.errorbar(k, r.variance[i] / cv, yerr=r.se_variance[i] / cv, fmt=marker, color=colour,
                          ms=4, label=f"simulated d = {d}" if i == 0 else None)
    left.axhline(1.0, color="k", lw=0.8)
    left.set(xlabel="m", ylabel="V_MM / V_CV*", title="V_MM / V_CV* (Cor. 2): exact law, any d <= m-1")
    right.axhline(0.0, color="k", lw=0.8)
    right.set(xlabel="m", ylabel="m x bias / k", title="bias of E_MM is O(1/m)")
    finish_axes(left, right, legend_size=7)
    fig.tight_layout()
    return fig
