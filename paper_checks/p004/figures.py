"""Figures of paper 004: the variance-reduction figure (b), delta-Gaussian kernel: theory lines
(varlab's exact variances) and the simulated points of the claims' runs. Panel (a), the
polynomial kernel on the sphere, is not drawn: its signed measure has infinite total mass for
d >= 2m + 1 (varlab.spectral.signed.polynomial_total_variation_finite)."""
from __future__ import annotations

import numpy as np

from varlab.plotting import figure, finish_axes, plt
from varlab.spectral.signed import DeltaGaussian
from varlab.theory import signed as theory

from .claims import DIMENSIONS, DISTANCES, signed, sizes


@figure("004_fig_variance", source="004 'Variance Reduction' figure (b): delta-Gaussian a=(1,-1), sigma=(1,10)",
        simulates=True)
def variance_reduction(budget):
    """Var(GORF)/Var(GRFF) (mutual and separate) against |z| for s = d/2 and s = 2d, one panel
    per d: theory lines, simulated points with 1-SE bars (divided by GRFF's exact variance)."""
    measure = DeltaGaussian()
    fig, axes = plt.subplots(1, len(DIMENSIONS), figsize=(4 * len(DIMENSIONS), 3.6))
    r = np.linspace(0.05, 5.0, 60)
    for ax, d in zip(axes, DIMENSIONS):
        for column, style in ((0, "-"), (2, "--")):
            s = sizes(d)[column]
            base = np.array([float(theory.estimator_variance(measure, d, x, s, "iid")) for x in r])
            base_points = np.array([float(theory.estimator_variance(measure, d, float(x), s, "iid")) for x in DISTANCES])
            for model, kind, colour in (("grff", "iid", "C0"), ("gorf", "mutual", "C1"),
                                        ("gorf_separate", "separate", "C2")):
                line = np.array([float(theory.estimator_variance(measure, d, x, s, kind)) for x in r])
                ax.plot(r, line / base, style, color=colour, label=f"{model}, s = {s}")
                result = signed(budget, model)[d]
                ax.errorbar(DISTANCES, result.variance[:, column] / base_points,
                            yerr=result.se_variance[:, column] / base_points, fmt="o", color=colour, ms=3)
        ax.set(xlabel="|z|", ylabel="Var / Var(GRFF)", title=f"d = {d}")
    finish_axes(*axes)
    fig.tight_layout()
    return fig
