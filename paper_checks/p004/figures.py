"""Figures of paper 004: the variance-reduction figure, (a) the polynomial kernel on the sphere
(a = 3, m = 1) with varlab's finite shell measure (the printed transforms have infinite mass in
these dimensions: claim 004.polynomial.finite_measure) and (b) the delta-Gaussian (a = (1, -1),
sigma = (1, 10)): theory lines (varlab's exact variances) and the simulated points of the claims'
runs, as ratios to GRFF's exact variance."""
from __future__ import annotations

import numpy as np

from varlab.plotting import figure, finish_axes, legend_below, plt
from varlab.spectral.polynomial import PolynomialSphere
from varlab.spectral.signed import DeltaGaussian
from varlab.theory import polynomial as polynomial_theory
from varlab.theory import signed as theory

from .claims import (DIMENSIONS, DISTANCES, POLY_A, POLY_DEGREE, POLY_DISTANCES, POLY_MODELS, POLYNOMIAL, SIGNED,
                     sizes)

_STYLES = (("grff", "iid", "C0"), ("gorf", "mutual", "C1"), ("gorf_separate", "separate", "C2"))
_POLY_MODEL = dict(zip((model for model, _, _ in _STYLES), POLY_MODELS))
#: the two columns of ``sizes(d)`` shown, with their line style and marker
_COLUMNS = ((0, "s = d/2", "-", "o"), (2, "s = 2d", "--", "^"))


def _panel(ax, d, distances, points, variance, result):
    """Theory lines and simulated points (±1 SE), as ratios to GRFF's exact variance, for s = d/2
    (solid, circles) and s = 2d (dashed, triangles). A line equal at both s (GRFF's 1, and GORF's
    mutual ratio, which does not depend on s) is drawn once, solid, labelled with both."""
    for model, kind, colour in _STYLES:
        lines = {}
        for column, label, style, marker in _COLUMNS:
            s = sizes(d)[column]
            base = variance(distances, s, "iid")
            lines[label] = (variance(distances, s, kind) / base, style)
            simulated = result(model)[d]
            base_points = variance(points, s, "iid")
            ax.errorbar(points, simulated.variance[:, column] / base_points,
                        yerr=simulated.se_variance[:, column] / base_points, fmt=marker, color=colour, ms=3.5,
                        mfc="none" if marker == "^" else colour)
        (first, _), (second, _) = lines.values()
        if np.allclose(first, second, rtol=1e-9, atol=0.0):
            ax.plot(distances, first, "-", color=colour, label=f"{model}, s = {sizes(d)[0]}")
        else:
            for (ratio, style), column in zip(lines.values(), (0, 2)):
                ax.plot(distances, ratio, style, color=colour, label=f"{model}, s = {sizes(d)[column]}")
    ax.set(xlabel="|z|", ylabel="Var / Var(GRFF)")


def _polynomial_panel(ax, d, budget):
    measure = PolynomialSphere(POLY_A, POLY_DEGREE, d)
    _panel(ax, d, np.linspace(0.02, 2.0, 60), np.asarray(POLY_DISTANCES, dtype=float),
           lambda r, s, kind: polynomial_theory.estimator_variance(measure, d, r, float(s), kind)[:, 0],
           lambda model: {d: POLYNOMIAL[_POLY_MODEL[model], d].result(budget)})
    ax.set_title(f"(a) polynomial (a = 3, m = 1), d = {d}; s = {sizes(d)[0]}, {sizes(d)[2]}")


def _delta_panel(ax, d, budget):
    measure = DeltaGaussian()
    _panel(ax, d, np.linspace(0.05, 5.0, 60), np.asarray(DISTANCES, dtype=float),
           lambda r, s, kind: np.array([float(theory.estimator_variance(measure, d, float(x), s, kind)) for x in r]),
           lambda model: {d: SIGNED[model, d].result(budget)})
    ax.set_title(f"(b) delta-Gaussian, d = {d}; s = {sizes(d)[0]}, {sizes(d)[2]}")


def _legend_entries():
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color="C0", label="grff (theory: 1 at both s)"),
               Line2D([], [], color="C1", label="gorf, mutual (theory: one ratio at both s)"),
               Line2D([], [], color="C2", label="gorf_separate, s = d/2 (theory)"),
               Line2D([], [], color="C2", ls="--", label="gorf_separate, s = 2d (theory)"),
               Line2D([], [], color="grey", marker="o", ls="none", label="simulated ± SE, s = d/2"),
               Line2D([], [], color="grey", marker="^", mfc="none", ls="none", label="simulated ± SE, s = 2d")]
    return handles, [h.get_label() for h in handles]


@figure("004_fig_variance", source="004 'Variance Reduction' figure: (a) polynomial kernel on the sphere a=3, m=1 "
                                   "(varlab's shell measure), (b) delta-Gaussian a=(1,-1), sigma=(1,10)",
        simulates=True)
def variance_reduction(budget):
    """Var(GORF)/Var(GRFF) (mutual and separate) against |z| for s = d/2 and s = 2d, one column per
    d, row (a) the polynomial kernel, row (b) the delta-Gaussian: theory lines, simulated points
    with ±1 SE bars (divided by GRFF's exact variance). GRFF's line (1) and GORF's mutual ratio
    are the same at both s, so each is one solid line."""
    fig, axes = plt.subplots(2, len(DIMENSIONS), figsize=(4 * len(DIMENSIONS), 7.2))
    for ax, d in zip(axes[0], DIMENSIONS):
        _polynomial_panel(ax, d, budget)
    for ax, d in zip(axes[1], DIMENSIONS):
        _delta_panel(ax, d, budget)
    for ax in axes.ravel():
        ax.title.set_fontsize(9)
    finish_axes(*axes.ravel(), legend_size=0)
    handles, labels = _legend_entries()
    legend_below(fig, ncol=3, fontsize=8, handles=handles, labels=labels)
    return fig
