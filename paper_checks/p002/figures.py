"""Figures of paper 002 (AsK-RFF). Fig. 1 recomputes the trials of claim ``002.eq12`` with the
same seeds (the numbers are that claim's)."""
from __future__ import annotations

import numpy as np

from varlab.claims import Claim, ClaimRun
from varlab.plotting import figure, finish_axes, plt

from .claims import FIG1_LOG2M, KERNELS, fig1_trials

_PARTS = (("real_positive", "real pos", "C0"), ("real_negative", "real neg", "C1"),
          ("imaginary_positive", "imaginary", "C2"))


@figure("002_fig1", source="002 Figure 1 (estimated vs exact total masses, Eq. 12, Ns = 10)")
def figure1(budget):
    run = ClaimRun(Claim("002.eq12", "", "", None), budget)
    trials, exact = fig1_trials(run)
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, kernel in zip(axes, KERNELS):
        for index, (part, label, colour) in enumerate(_PARTS):
            values = np.array([trials[(int(l), kernel)][:, index] for l in FIG1_LOG2M])
            ax.errorbar(FIG1_LOG2M + 0.1 * (index - 1), values.mean(1), yerr=values.std(1, ddof=1),
                        fmt="o", color=colour, capsize=3, label=label)
            ax.axhline(exact[kernel][part], color=colour, ls="--", lw=1, label=f"true {label}")
        ax.set(xlabel="log2(M/d)", ylabel="total mass", title=kernel)
        finish_axes(ax, legend_size=7)
    fig.suptitle("002 Fig. 1: Eq. (12) estimates (mean ± sd over 10 trials, 2000 N(0,1) points, "
                 "Ns = 10, sigma = 2) and exact 1-D masses (dashed)")
    fig.tight_layout()
    return fig
