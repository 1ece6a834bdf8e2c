"""Figures of paper 004: the variance-reduction figure, (a) the polynomial kernel on the sphere
(a = 3, m = 1) with varlab's finite shell measure (the printed transforms have infinite mass in
these dimensions: claim 004.polynomial.finite_measure) and (b) the delta-Gaussian (a = (1, -1),
sigma = (1, 10)): theory lines (varlab's exact variances) and the simulated points of the claims'
runs, as ratios to GRFF's exact variance."""
from __future__ import annotations

import numpy as np

from varlab.plotting import figure, finish_axes, plt
from varlab.spectral.polynomial import PolynomialSphere
from varlab.spectral.signed import DeltaGaussian
from varlab.theory import polynomial as polynomial_theory
from varlab.theory import signed as theory

from .claims import (DIMENSIONS, DISTANCES, POLY_A, POLY_DEGREE, POLY_DISTANCES, POLY_MODELS, POLYNOMIAL, SIGNED,
                     sizes)

_STYLES = (("grff", "iid", "C0"), ("gorf", "mutual", "C1"), ("gorf_separate", "separate", "C2"))


def _polynomial_panel(ax, d, budget):
    measure = PolynomialSphere(POLY_A, POLY_DEGREE, d)
    r = np.linspace(0.02, 2.0, 60)
    for column, style in ((0, "-"), (2, "--")):
        s = float(sizes(d)[column])
        base = polynomial_theory.estimator_variance(measure, d, r, s, "iid")[:, 0]
        base_points = polynomial_theory.estimator_variance(measure, d, POLY_DISTANCES, s, "iid")[:, 0]
        for (label, kind, colour), model in zip(_STYLES, POLY_MODELS):
            line = polynomial_theory.estimator_variance(measure, d, r, s, kind)[:, 0]
            ax.plot(r, line / base, style, color=colour, label=f"{label}, s = {int(s)}")
            result = POLYNOMIAL[model, d].result(budget)
            ax.errorbar(POLY_DISTANCES, result.variance[:, column] / base_points,
                        yerr=result.se_variance[:, column] / base_points, fmt="o", color=colour, ms=3)
    ax.set(xlabel="|z|", ylabel="Var / Var(GRFF)", title=f"(a) polynomial (a = 3, m = 1), d = {d}")


def _delta_panel(ax, d, budget):
    measure = DeltaGaussian()
    r = np.linspace(0.05, 5.0, 60)
    for column, style in ((0, "-"), (2, "--")):
        s = sizes(d)[column]
        base = np.array([float(theory.estimator_variance(measure, d, x, s, "iid")) for x in r])
        base_points = np.array([float(theory.estimator_variance(measure, d, float(x), s, "iid")) for x in DISTANCES])
        for model, kind, colour in _STYLES:
            line = np.array([float(theory.estimator_variance(measure, d, x, s, kind)) for x in r])
            ax.plot(r, line / base, style, color=colour, label=f"{model}, s = {s}")
            result = SIGNED[model, d].result(budget)
            ax.errorbar(DISTANCES, result.variance[:, column] / base_points,
                        yerr=result.se_variance[:, column] / base_points, fmt="o", color=colour, ms=3)
    ax.set(xlabel="|z|", ylabel="Var / Var(GRFF)", title=f"(b) delta-Gaussian, d = {d}")


@figure("004_fig_variance", source="004 'Variance Reduction' figure: (a) polynomial kernel on the sphere a=3, m=1 "
                                   "(varlab's shell measure), (b) delta-Gaussian a=(1,-1), sigma=(1,10)",
        simulates=True)
def variance_reduction(budget):
    """Var(GORF)/Var(GRFF) (mutual and separate) against |z| for s = d/2 and s = 2d, one column per
    d, row (a) the polynomial kernel, row (b) the delta-Gaussian: theory lines, simulated points
    with 1-SE bars (divided by GRFF's exact variance)."""
    fig, axes = plt.subplots(2, len(DIMENSIONS), figsize=(4 * len(DIMENSIONS), 7.2))
    for ax, d in zip(axes[0], DIMENSIONS):
        _polynomial_panel(ax, d, budget)
    for ax, d in zip(axes[1], DIMENSIONS):
        _delta_panel(ax, d, budget)
    for ax in axes.ravel():
        ax.title.set_fontsize(9)
    finish_axes(*axes.ravel(), legend_size=6)
    fig.tight_layout()
    return fig
