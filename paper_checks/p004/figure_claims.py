"""Claims of paper 004 on what ``claims``, ``experiments`` and ``approximation`` leave out: the
related-work table's unbiasedness of RM and TS, Fig. 2's bottom row (delta-Gaussian) and Fig. 3
(SVM classification). The figures' orderings read the trials the figures show
(``approximation.errors``, ``classification.fig3_results``), computed once per budget.
"""
from __future__ import annotations

import math

import numpy as np
from sklearn.kernel_approximation import PolynomialCountSketch

from varlab.claims import Agreement, Measured, Measurement, Paired
from varlab.features import RandomMaclaurin
from varlab.spectral.polynomial import polynomial_kernel

from . import approximation, classification
from . import experiments as E

#: the related-work check: dimension, distances on the unit sphere, degrees m of
#: (1 - |x - y|^2/a^2)^m (the slides' m = 1, and m = 3 where RM draws orders 0..3), a = 3
UNBIASED_DIMENSION, UNBIASED_DISTANCES, UNBIASED_DEGREES, UNBIASED_A = 8, (0.5, 1.0, 1.5, 2.0), (1, 3), 3.0
#: TensorSketch's columns per draw; its draws and RM's columns per repetition of the budget
TS_COMPONENTS, TS_DRAWS_PER_REPETITION, RM_COLUMNS_PER_REPETITION = 64, 0.25, 10
#: "unbiased": a departure of 0.02 in kernel units matters (2% of k(0) = 1; the kernel is 0.17..0.97
#: here, and RM's m = 3 products are heavy-tailed where it is smallest)
UNBIASED_TOLERANCE = 0.02
#: "GORF's accuracy is not below": a deficit of 1 accuracy point matters
ACCURACY_EFFECT = 1.0


def _sphere_pairs(run):
    """x and the points y at UNBIASED_DISTANCES from it on the unit sphere (a seeded rotation)."""
    rotation = np.linalg.qr(np.random.default_rng(run.seed("rotation")).standard_normal(
        (UNBIASED_DIMENSION, UNBIASED_DIMENSION)))[0]
    angles = [2.0 * math.asin(r / 2.0) for r in UNBIASED_DISTANCES]       # |x - y| = 2 sin(angle / 2)
    plane = np.array([[1.0, 0.0]] + [[math.cos(a), math.sin(a)] for a in angles])
    return plane @ rotation[:2]


def _dot_product_estimates(run):
    """Z(x).Z(y) of Random Maclaurin (varlab.features, i.i.d. columns: one map of many columns) and
    TensorSketch (scikit-learn's PolynomialCountSketch: independent maps of 64 columns) against the
    kernel, at |x - y| in UNBIASED_DISTANCES for each degree."""
    X = _sphere_pairs(run)
    n = run.budget.n_repetitions
    estimate, error, theory, rows = [], [], [], []
    for degree in UNBIASED_DEGREES:
        gamma, coef0 = 2.0 / UNBIASED_A ** 2, 1.0 - 2.0 / UNBIASED_A ** 2
        columns = RM_COLUMNS_PER_REPETITION * n
        Z = RandomMaclaurin(columns, degree=degree, gamma=gamma, coef0=coef0,
                            random_state=run.seed(f"rm-{degree}")).fit(X).transform(X) * math.sqrt(columns)
        draws = int(TS_DRAWS_PER_REPETITION * n)
        seeds = run.seed(f"ts-{degree}").generate_state(draws)
        sketches = np.array([(lambda S: S[1:] @ S[0])(PolynomialCountSketch(
            degree=degree, gamma=gamma, coef0=coef0, n_components=TS_COMPONENTS,
            random_state=int(seed % 2 ** 31)).fit(X).transform(X)) for seed in seeds])
        for method, products, units in (("RM", Z[1:] * Z[0], columns), ("TS", sketches.T, draws)):
            for r, values in zip(UNBIASED_DISTANCES, products):
                estimate.append(values.mean())
                error.append(values.std(ddof=1) / math.sqrt(units))
                theory.append(float(polynomial_kernel(r, UNBIASED_A, degree)))
                rows.append({"method": method, "m": degree, "|x - y|": r, "draws": units})
    return Measurement(estimate=estimate, standard_error=error, theory=theory, rows=rows)


Agreement(
    id="004.related_work.unbiased", source="004, 'Related Work' table (RM [1], TS [2]: Polynomial, Unbiasedness ✓)",
    quote="Random Maclaurin (RM) [1] Polynomial ✓ ... Tensor Sketch (TS) [2] Polynomial ✓",
    statement="Random Maclaurin (varlab.features.RandomMaclaurin) and TensorSketch (scikit-learn's "
              "PolynomialCountSketch, 64 columns) are unbiased for the polynomial kernel on the unit sphere "
              "(1 - |x - y|^2/9)^m = ((2/9) <x, y> + 7/9)^m, m = 1 and 3, d = 8: the mean of Z(x).Z(y) over "
              "independent draws equals the kernel within 0.02 (k(0) = 1) at |x - y| = 0.5, 1, 1.5, 2.",
    note="The table's 'Variance' column (big-O tail bounds with constants R, L, C_Omega, t, p the slides do not "
         "define) is not checked: no simulation can contradict an O() with unstated constants. RM's columns are "
         "i.i.d. (one map of 10 columns per repetition); TS's are not (hash collisions), so TS draws independent "
         "maps (a quarter per repetition).",
    model=Measured(_dot_product_estimates, "mean of Z(x).Z(y) over independent draws"),
    tolerance=UNBIASED_TOLERANCE, relative=False, units="kernel units")


def _delta_gaussian_pairs(run):
    """{data / s: (GORF errors, GRFF errors)} of Fig. 2's bottom row (its own trials)."""
    cells = {}
    for name in approximation.DATASETS:
        cell = approximation.errors(run.budget.name, run.budget.random_state, "delta_gaussian", name)
        cells.update({f"{name} / s = {s}": (cell["GORF"][:, j], cell["GRFF"][:, j]) for j, s in enumerate(cell["s"])})
    return cells


Paired(id="004.fig2.delta_gorf_lowest", source="004, Fig. 2 (bottom: delta-Gaussian kernel)",
       quote="Comparisons of various algorithms for kernel approximation in terms of approximation error across two "
             "typical stationary indefinite kernels and three datasets with different dimensions. Top: polynomial "
             "kernel on the unit sphere. Below: delta-gaussian kernel",
       statement="For the delta-Gaussian (a = (1, -1), sigma = (1, 10)), GORF's relative Frobenius Gram error is below "
                 "GRFF's at every s = d/2, d, 2d, 4d, 8d of Fig. 2 (letter, optdigits), judged per cell over the "
                 "figure's trials with the t quantile of n - 1 degrees of freedom; effect size 0.001 (relative "
                 "Frobenius error, the rule of 004.table2).",
       note="Stronger than the caption, which only plots the curves. The bottom row's other methods, SRF and DIGMM, "
            "are not implemented in varlab (RM and TS need a dot-product kernel: they do not apply); s = 4d is "
            "beyond Table II's columns.",
       trials=_delta_gaussian_pairs, effect_size=E.TABLE2_EFFECT, quantity="relative Frobenius error",
       names=("GORF", "GRFF"))


def _classification_pairs(run):
    """{kernel / data / s / method: (method's accuracies, GORF's)} over Fig. 3's trials."""
    return {f"{kname} / {name} / s = {s} / {method}": (cell[method][:, j], cell["GORF"][:, j])
            for (kname, name), cell in classification.fig3_results(run.budget).items()
            for method in classification.METHODS[kname][1:] for j, s in enumerate(cell["s"])}


Paired(id="004.fig3", source="004, Fig. 3 (SVM classification; letter, optdigits in place of usps)",
       quote="Comparisons of various algorithms for SVM classification task in terms of accuracy across two typical "
             "stationary indefinite kernels and three datasets with different dimensions.",
       statement="A linear SVM (LinearSVC, C by CV) on GORF's features is not less accurate than on GRFF's, or (for the "
                 "polynomial kernel on the sphere) on Random Maclaurin's or TensorSketch's with as many columns, by "
                 "more than 1 accuracy point, at each s of classification.SETTINGS on letter and optdigits (paired "
                 "trials: the same training subset for every method).",
       note="The slides state no ordering for Fig. 3; varlab reads the comparison as 'GORF is not worse' (not-strict, "
            "effect size 1 point), the weakest reading of their message that GORF's lower variance pays off "
            "('Unbiased estimation + Lower variance = Lower approximation error'). SRF and DIGMM are not implemented; "
            "ijcnn1 and usps are not shipped offline (optdigits stands in for usps: digit images, 64-d).",
       trials=_classification_pairs, effect_size=ACCURACY_EFFECT, strict=False, quantity="test accuracy (%)",
       names=("other", "GORF"))
