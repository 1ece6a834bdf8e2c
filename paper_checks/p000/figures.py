"""Figures of paper 000, regenerated from varlab's theory and simulations.

Fig. 2 reads the NRFF simulation of claim ``000.thm3.eq20`` (which the NRFF claims on the Fig. 2
panels share), so a reproduce run simulates it once.
"""
from __future__ import annotations

import numpy as np

from varlab.claims import simulate_for
from varlab.plotting import figure, finish_axes, legend_below, plt
from varlab.theory import gcws, nrff, rff

from .rff import FIGURE2_K, FIGURE2_PANELS, figure2_nrff, points

FIGURE1_GAMMAS = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
FIGURE4_GAMMAS = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
FIGURE4_FINITE_K = (10, 100)
FIGURE4_FINITE_GAMMAS = (1.0, 5.0)


#: the line styles that, with a colour of a sequential map, tell neighbouring gamma lines apart
GAMMA_LINESTYLES = ("-", "--", "-.", ":")


def gamma_styles(gammas) -> list[dict]:
    """Line properties for increasing ``gammas``: colours of viridis, evenly spread (its pale
    yellow end left out), and alternating line styles, so that neighbours differ in both."""
    colours = plt.cm.viridis(np.linspace(0.0, 0.85, len(gammas)))
    return [dict(color=colour, ls=GAMMA_LINESTYLES[i % len(GAMMA_LINESTYLES)], lw=1.6)
            for i, colour in enumerate(colours)]


@figure("000_fig1", source="000 Figure 1 (V_n/V, Thm 3)", simulates=False)
def figure1(budget):
    """V_n / V (Thm 3) against rho for several gamma."""
    rho = np.linspace(-1, 1, 801)
    fig, ax = plt.subplots(figsize=(5, 4))
    for gamma, style in zip(FIGURE1_GAMMAS, gamma_styles(FIGURE1_GAMMAS)):
        ax.plot(rho, nrff.variance_ratio(rho=rho, gamma=gamma), label=f"gamma = {gamma:g}", **style)
    ax.set(xlabel="rho", ylabel="V_n / V", title="000 Fig. 1: NRFF / RFF variance ratio",
           ylim=(0, 1.02))
    finish_axes(ax, which="major")
    return fig


def figure2_rff(budget):
    """The RFF simulation of Fig. 2 (no claim shows these numbers; seeded from the figure id)."""
    rho, gamma = points(FIGURE2_PANELS)
    return simulate_for("000_fig2", budget, "rff", label="rff", k=FIGURE2_K, rho=rho, gamma=gamma)


@figure("000_fig2", source="000 Figure 2 (MSE of RFF and NRFF vs k)")
def figure2(budget):
    """MSE of RFF and NRFF against k: simulated points with ±1 SE bars over the theory lines V/k
    (Thm 2) and V_n/k (Thm 3), and varlab's second-order V_n/k + c2/k^2 dotted."""
    simulated = {"rff": figure2_rff(budget), "nrff": figure2_nrff(budget)}
    k = FIGURE2_K
    fig, axes = plt.subplots(2, 3, figsize=(13, 8.4))
    for index, (ax, (r, g)) in enumerate(zip(axes.ravel(), FIGURE2_PANELS)):
        ax.loglog(k, rff.variance(rho=r, gamma=g) / k, "-", color="tab:red", lw=2.5, alpha=0.45, label="V/k (Thm 2)")
        ax.loglog(k, nrff.asymptotic_variance(rho=r, gamma=g) / k, "-", color="tab:blue", lw=2.5, alpha=0.45,
                  label="V_n/k (Thm 3)")
        ax.loglog(k, nrff.mse_expansion(rho=r, gamma=g, k=k), "k:", lw=1.2, label="V_n/k + c2/k^2 (varlab)")
        for name, label, marker, colour in (("rff", "RFF", "o", "tab:red"), ("nrff", "NRFF", "s", "tab:blue")):
            result = simulated[name]
            ax.errorbar(k, result.mse[index], yerr=result.se_mse[index], fmt=marker, ms=3, mfc="none",
                        color=colour, elinewidth=0.8, capsize=1.5, label=f"{label} MSE (simulated ± SE)")
        ax.set(title=f"rho = {r:g}, gamma = {g:g}", xlabel="k", ylabel="MSE")
        finish_axes(ax, legend_size=0)
    fig.suptitle(f"000 Fig. 2: MSE of RFF and NRFF ({budget.n_repetitions:,} repetitions per k)")
    legend_below(fig, axes[0, 0], ncol=5, fontsize=9)
    return fig


@figure("000_fig3", source="000 Figure 3 (Var/E^2 vs E: RFF, NRFF, GCWS)", simulates=False)
def figure3(budget):
    """Var/E^2 against E for RFF, NRFF (asymptotic) and GCWS ((1 - E)/E)."""
    E = np.linspace(0.01, 1.0, 500)
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.semilogy(E, rff.relative_variance_of_mean(E=E), "r-", label="RFF")
    ax.semilogy(E, nrff.relative_variance_of_mean(E=E), "b-", label="NRFF")
    ax.semilogy(E[:-1], gcws.relative_variance_of_mean(E=E[:-1]), "k-", label="GCWS (1-E)/E")
    ax.set(xlabel="E", ylabel="Var / E^2", title="000 Fig. 3: relative variance")
    finish_axes(ax, legend_size=10)
    return fig


FIGURE4_GRID = np.linspace(-0.8, 0.99, 19)


def figure4_nrff(budget, gamma):
    """NRFF simulated on Fig. 4's finite-k grid at one gamma (seeded from the figure id)."""
    return simulate_for("000_fig4", budget, "nrff", label=f"gamma={gamma:g}", k=list(FIGURE4_FINITE_K),
                        rho=FIGURE4_GRID, gamma=gamma)


@figure("000_fig4", source="000 Figure 4 (V_n/V_g) with finite-k variance ratios")
def figure4(budget):
    """V_n / V_g (Thm 3 over Thm 4) against rho (left); beside it the same ratio with finite-k
    variances (right): NRFF's simulated by the engine, GCWS's exact binomial one."""
    rho = np.linspace(-0.99, 0.999, 800)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for gamma, style in zip(FIGURE4_GAMMAS, gamma_styles(FIGURE4_GAMMAS)):
        left.semilogy(rho, gcws.variance_ratio(rho=rho, gamma=gamma), label=f"gamma = {gamma:g}", **style)
    left.axhline(1.0, color="k", lw=0.8)
    left.set(xlabel="rho", ylabel="V_n / V_g", title="000 Fig. 4 (asymptotic, Thm 3 / Thm 4)")
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, gamma in enumerate(FIGURE4_FINITE_GAMMAS):
        colour = colours[index]
        right.semilogy(rho, gcws.variance_ratio(rho=rho, gamma=gamma), color=colour, lw=1,
                       label=f"asymptotic, gamma = {gamma:g}")
        simulated = figure4_nrff(budget, gamma)
        exact = gcws.exact_variance(rho=FIGURE4_GRID[:, None], gamma=gamma,
                                    k=np.array(FIGURE4_FINITE_K)[None, :])
        for column, (k, marker) in enumerate(zip(FIGURE4_FINITE_K, ("o", "s"))):
            right.errorbar(FIGURE4_GRID, simulated.variance[:, column] / exact[:, column],
                           yerr=simulated.se_variance[:, column] / exact[:, column], fmt=marker,
                           ms=3.5, color=colour, mfc="none", label=f"finite k = {k}, gamma = {gamma:g}")
    right.axhline(1.0, color="k", lw=0.8)
    right.set(xlabel="rho", ylabel="Var NRFF / Var GCWS",
              title=f"finite k: NRFF simulated ({budget.n_repetitions:,} reps), GCWS exact")
    finish_axes(left, legend_size=7)
    finish_axes(right, legend_size=6)
    fig.tight_layout()
    return fig
