"""Figures of paper 001 (analytic: no simulation)."""
from __future__ import annotations

import numpy as np

from varlab.plotting import figure, finish_axes, plt
from varlab.theory import gcws, rff

#: (gamma, line style, line width) of Fig. 1's RFF curves: widths differ so that the coinciding
#: curves of the right panel stay visible
FIGURE1_CURVES = ((0.5, "-", 4.0), (1.0, "--", 2.5), (5.0, ":", 1.5))


@figure("001_fig1", source="001 Figure 1 (Var/E^2 vs rho and vs E)", simulates=False)
def figure1(budget):
    """Var/E^2 of RFF against rho (left) and against E with GCWS (right)."""
    rho = np.linspace(-1, 1, 801)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for gamma, style, width in FIGURE1_CURVES:
        left.semilogy(rho, rff.relative_variance(rho=rho, gamma=gamma), label=f"gamma = {gamma:g}")
        right.loglog(rff.mean(rho=rho, gamma=gamma), rff.relative_variance(rho=rho, gamma=gamma),
                     style, lw=width, label=f"RFF, gamma = {gamma:g}")
    E = np.logspace(np.log10(np.exp(-10.0)), 0, 400)[:-1]
    right.loglog(E, gcws.relative_variance_of_mean(E=E), "k--", label="GCWS (1-E)/E")
    left.set(xlabel="rho", ylabel="Var / E^2", title="001 Fig. 1 (left)")
    right.set(xlabel="E", ylabel="Var / E^2", title="001 Fig. 1 (right): RFF curves coincide (E only)")
    finish_axes(left, right)
    fig.tight_layout()
    return fig
