"""Figure recipes: each builds one paper figure from varlab's theory and simulations and
returns a matplotlib Figure (never calls plt.show). ``FIGURES`` maps a figure id to its recipe,
the paper figure it regenerates and whether it simulates (then the budget matters).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import mc  # noqa: E402
from .claims import Budget  # noqa: E402
from .theory import gcws, nrff, rff  # noqa: E402

FIGURE1_GAMMAS = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
#: The six panels of Fig. 2: high/medium/low similarity x small/large gamma.
FIGURE2_PANELS = ((0.99, 1.0), (0.75, 1.0), (0.0, 1.0), (0.99, 10.0), (0.9, 10.0), (0.5, 10.0))
#: k grid of Fig. 2 and the finite-k claims: 1..1000, ~30 log-spaced values.
FIGURE2_K = np.unique(np.round(np.logspace(0, 3, 31)).astype(int))


def figure_000_1(budget: Budget):
    """000 Fig. 1: V_n / V (Thm 3) against rho for several gamma."""
    rho = np.linspace(-1, 1, 801)
    fig, ax = plt.subplots(figsize=(5, 4))
    for gamma in FIGURE1_GAMMAS:
        ax.plot(rho, nrff.variance_ratio(rho=rho, gamma=gamma), label=f"gamma = {gamma:g}")
    ax.set(xlabel="rho", ylabel="V_n / V", title="000 Fig. 1: NRFF / RFF variance ratio",
           ylim=(0, 1.02))
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def figure2_simulations(budget: Budget):
    """The RFF and NRFF simulations behind Figure 2 (one engine call each).

    The k > 10 claim (``paper_checks.rff_section.check_nrff_k_threshold``) runs its own NRFF
    simulation with 10x the repetitions on the part of this k grid up to 200, so its numbers are
    not these."""
    rho = np.array([p[0] for p in FIGURE2_PANELS])
    gamma = np.array([p[1] for p in FIGURE2_PANELS])
    results = {}
    for salt, model in enumerate(("rff", "nrff")):
        results[model] = mc.simulate(model, k=FIGURE2_K, rho=rho, gamma=gamma,
                                     n_repetitions=budget.n_repetitions,
                                     random_state=np.random.SeedSequence([budget.random_state, 200 + salt]),
                                     n_jobs=budget.n_jobs)
    return results


def figure_000_2(budget: Budget):
    """000 Fig. 2: simulated MSE of RFF and NRFF against k, theory V/k and V_n/k dashed, and
    varlab's second-order V_n/k + c2/k^2 dotted."""
    results = figure2_simulations(budget)
    k = FIGURE2_K.astype(float)
    fig, axes = plt.subplots(2, 3, figsize=(13, 8))
    for index, (ax, (r, g)) in enumerate(zip(axes.ravel(), FIGURE2_PANELS)):
        ax.loglog(k, results["rff"].mse[index], "r-", lw=1.5, label="RFF MSE (simulated)")
        ax.loglog(k, results["nrff"].mse[index], "b-", lw=1.5, label="NRFF MSE (simulated)")
        ax.loglog(k, rff.variance(rho=r, gamma=g) / k, "r--", lw=1, label="V/k (Thm 2)")
        vn = nrff.asymptotic_variance(rho=r, gamma=g) / k
        ax.loglog(k, vn, "b--", lw=1, label="V_n/k (Thm 3)")
        ax.loglog(k, nrff.mse_expansion(rho=r, gamma=g, k=k), "k:", lw=1.2,
                  label="V_n/k + c2/k^2 (varlab)")
        ax.set(title=f"rho = {r:g}, gamma = {g:g}", xlabel="k", ylabel="MSE")
        ax.grid(alpha=0.3, which="both")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"000 Fig. 2: MSE of RFF and NRFF ({budget.n_repetitions:,} repetitions per k)")
    fig.tight_layout()
    return fig


def figure_000_3(budget: Budget):
    """000 Fig. 3: Var/E^2 against E for RFF, NRFF (asymptotic) and GCWS ((1 - E)/E)."""
    E = np.linspace(0.01, 1.0, 500)
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.semilogy(E, rff.relative_variance_of_mean(E=E), "r-", label="RFF")
    ax.semilogy(E, nrff.relative_variance_of_mean(E=E), "b-", label="NRFF")
    ax.semilogy(E[:-1], gcws.relative_variance_of_mean(E=E[:-1]), "k-", label="GCWS (1-E)/E")
    ax.set(xlabel="E", ylabel="Var / E^2", title="000 Fig. 3: relative variance")
    ax.legend()
    ax.grid(alpha=0.3, which="both")
    return fig


def figure_001_1(budget: Budget):
    """001 Fig. 1: Var/E^2 of RFF against rho (left) and against E with GCWS (right)."""
    rho = np.linspace(-1, 1, 801)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for gamma, style, width in ((0.5, "-", 4.0), (1.0, "--", 2.5), (5.0, ":", 1.5)):
        left.semilogy(rho, rff.relative_variance(rho=rho, gamma=gamma), label=f"gamma = {gamma:g}")
        E = rff.mean(rho=rho, gamma=gamma)
        right.loglog(E, rff.relative_variance(rho=rho, gamma=gamma), style, lw=width,
                     label=f"RFF, gamma = {gamma:g}")
    E = np.logspace(np.log10(np.exp(-10.0)), 0, 400)[:-1]
    right.loglog(E, gcws.relative_variance_of_mean(E=E), "k--", label="GCWS (1-E)/E")
    left.set(xlabel="rho", ylabel="Var / E^2", title="001 Fig. 1 (left)")
    right.set(xlabel="E", ylabel="Var / E^2",
              title="001 Fig. 1 (right): RFF curves coincide (E only)")
    for ax in (left, right):
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


FIGURE4_GAMMAS = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
FIGURE4_FINITE_K = (10, 100)
FIGURE4_FINITE_GAMMAS = (1.0, 5.0)


def figure_000_4(budget: Budget):
    """000 Fig. 4: V_n / V_g (Thm 3 over Thm 4) against rho (left); beside it the same ratio
    with finite-k variances (right): NRFF's simulated by the engine, GCWS's exact binomial one."""
    rho = np.linspace(-0.99, 0.999, 800)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for gamma in FIGURE4_GAMMAS:
        left.semilogy(rho, gcws.variance_ratio(rho=rho, gamma=gamma), label=f"gamma = {gamma:g}")
    left.axhline(1.0, color="k", lw=0.8)
    left.set(xlabel="rho", ylabel="V_n / V_g", title="000 Fig. 4 (asymptotic, Thm 3 / Thm 4)")
    left.legend(fontsize=7)
    grid = np.linspace(-0.8, 0.99, 19)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, gamma in enumerate(FIGURE4_FINITE_GAMMAS):
        colour = colours[index]
        right.semilogy(rho, gcws.variance_ratio(rho=rho, gamma=gamma), color=colour, lw=1,
                       label=f"asymptotic, gamma = {gamma:g}")
        simulated = mc.simulate("nrff", k=list(FIGURE4_FINITE_K), rho=grid, gamma=gamma,
                                n_repetitions=budget.n_repetitions, n_jobs=budget.n_jobs,
                                random_state=np.random.SeedSequence([budget.random_state, 400 + index]))
        exact = gcws.exact_variance(rho=grid[:, None], gamma=gamma, k=np.array(FIGURE4_FINITE_K)[None, :])
        for column, (k, marker) in enumerate(zip(FIGURE4_FINITE_K, ("o", "s"))):
            ratio = simulated.variance[:, column] / exact[:, column]
            error = simulated.se_variance[:, column] / exact[:, column]
            right.errorbar(grid, ratio, yerr=error, fmt=marker, ms=3.5, color=colour, mfc="none",
                           label=f"finite k = {k}, gamma = {gamma:g}")
    right.axhline(1.0, color="k", lw=0.8)
    right.set(xlabel="rho", ylabel="Var NRFF / Var GCWS",
              title=f"finite k: NRFF simulated ({budget.n_repetitions:,} reps), GCWS exact")
    right.legend(fontsize=6)
    for ax in (left, right):
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


@dataclass(frozen=True)
class FigureRecipe:
    id: str
    build: Callable[[Budget], "plt.Figure"]
    paper_figure: str
    simulates: bool


FIGURES = {recipe.id: recipe for recipe in (
    FigureRecipe("000_fig1", figure_000_1, "000 Figure 1 (V_n/V, Thm 3)", False),
    FigureRecipe("000_fig2", figure_000_2, "000 Figure 2 (MSE of RFF and NRFF vs k)", True),
    FigureRecipe("000_fig3", figure_000_3, "000 Figure 3 (Var/E^2 vs E: RFF, NRFF, GCWS)", False),
    FigureRecipe("000_fig4", figure_000_4, "000 Figure 4 (V_n/V_g) with finite-k variance ratios", True),
    FigureRecipe("001_fig1", figure_001_1, "001 Figure 1 (Var/E^2 vs rho and vs E)", False),
)}
