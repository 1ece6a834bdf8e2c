"""Claims of paper 002 on the sentences about its figures and Table 1 that ``claims`` leaves out:
Table 1 against the RBF and linear baselines and §5.4's gain on letter, Fig. 2's standard
deviations, Fig. 3's accuracy against M. Each reads the trials its figure shows (``classification``,
``gram_error``, ``accuracy_growth``), computed once per budget.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.stats

from varlab.claims import Agreement, Joint, Measured, Measurement, Ordering, Paired

from . import accuracy_growth, gram_error
from .claims import KERNELS, SLOPE_EFFECT

#: "higher accuracy" / "better than": a deficit of 1 accuracy point matters (about one trial sd
#: of Table 1's letter cells; the rule of claim 002.table1)
ACCURACY_EFFECT = 1.0
#: §5.4's "nearly 5% improvement on letter" (accuracy points), and how far from 5 is still "nearly"
LETTER_GAIN, LETTER_GAIN_TOLERANCE = 5.0, 1.0


def _table1(run):
    from . import classification                 # scikit-learn (extra "ml") only when run
    return classification.table1(run.budget)


def _baseline_pairs(run):
    """{data/kernel/baseline: (baseline accuracies, Asy accuracies)} over Table 1's paired trials."""
    return {f"{name}/{kernel}/{baseline}": (acc[baseline], acc[f"{kernel}/Asy"])
            for name, acc in _table1(run).items() for kernel in KERNELS for baseline in ("RBF", "Linear")}


Paired(
    id="002.table1.baselines", source="002, §5.4 and Table 1 (spambase, letter)",
    quote="Generally, Ask-RFFs output a higher classification accuracy than their symmetric parts, the RBF "
          "kernel, and the linear kernel.",
    statement="With M = 2d and LinearSVC (C by CV), AsK-RFF's concatenated map (Asy) is not less accurate than "
              "RBF random features (M columns, bandwidth 2) or the linear classifier on the raw data by more than "
              "1 accuracy point, for each kernel on spambase and letter (paired trials).",
    note="'Generally' read as not-strict, as in claim 002.table1 (the symmetric parts); effect size 1 accuracy "
         "point. Fewer training rows than the paper's (classification.SETTINGS); ijcnn1 and cod-RNA are not "
         "shipped offline.",
    trials=_baseline_pairs, effect_size=ACCURACY_EFFECT, strict=False, names=("baseline", "Asy"),
    quantity="test accuracy (%)")


def _letter_gains(run):
    """The mean paired gain Asy - RBF on letter (sinh and cosh kernels), its SE over the trials."""
    letter = _table1(run)["letter"]
    gains = {kernel: letter[f"{kernel}/Asy"] - letter["RBF"] for kernel in ("sinh_gaussian", "cosh_gaussian")}
    return Measurement(estimate=[g.mean() for g in gains.values()],
                       standard_error=[g.std(ddof=1) / math.sqrt(g.size) for g in gains.values()],
                       theory=[LETTER_GAIN] * len(gains), rows=[{"kernel": kernel} for kernel in gains],
                       degrees_of_freedom=[g.size - 1 for g in gains.values()])


Agreement(
    id="002.table1.letter_gain", source="002, §5.4 and Table 1 (letter)",
    quote="The better performance over RBF, especially there is nearly 5% improvement on “letter”",
    statement="On letter, the accuracy of the sinh- and cosh-Gaussian Asy maps (M = 2d) exceeds that of RBF random "
              "features by 5 accuracy points within 1 point (the mean of the paired gains over the trials).",
    note="'5%' read as accuracy points (Table 1: sinh 82.455 - 77.547 = 4.9, cosh 4.7; the shift-Gaussian's "
         "3.1 is not 'nearly 5'); tolerance 1 point. varlab trains on a subset of letter's rows "
         "(classification.SETTINGS), which lowers every accuracy and may move the gain.",
    model=Measured(_letter_gains, "mean paired accuracy gain Asy - RBF on letter (points)"),
    tolerance=LETTER_GAIN_TOLERANCE, relative=False, units="accuracy points")


def _log_sd_slope(errors: np.ndarray, log_m: np.ndarray) -> float:
    """The least-squares slope of log(sd over trials) against log M."""
    return scipy.stats.linregress(log_m, np.log(errors.std(axis=0, ddof=1))).slope


def _sd_slopes(run):
    """Per (data set, kernel) of Fig. 2: the log-log slope of the trials' sd of the Gram error
    against M, its jackknife SE over the trials (n - 1 degrees of freedom)."""
    slopes, errors, dof, rows = [], [], [], []
    for (name, kernel), (estimated, _, log2m) in gram_error.fig2_results(run.budget).items():
        log_m = log2m * math.log(2)
        n = estimated.shape[0]
        left_out = np.array([_log_sd_slope(np.delete(estimated, t, axis=0), log_m) for t in range(n)])
        slopes.append(_log_sd_slope(estimated, log_m))
        errors.append(math.sqrt((n - 1) / n * np.sum((left_out - left_out.mean()) ** 2)))
        dof.append(n - 1)
        rows.append({"data": name, "kernel": kernel})
    return Measurement(estimate=slopes, standard_error=errors, rows=rows, degrees_of_freedom=np.asarray(dof))


Ordering(
    id="002.fig2.sd", source="002, §5.2 and Fig. 2",
    quote="Furthermore, as M increases, the approximation performance becomes more stable, i.e., the standard "
          "deviations reduce significantly.",
    statement="The standard deviation over the trials of AsK-RFF's relative Gram error (masses by Eq. 12 on Ns = 50 "
              "points) decreases as M grows, on spambase and letter for the three kernels: its log-log slope against "
              "M is below 0.",
    note="Effect size 0.25 in slope units (half the Monte Carlo rate -0.5), as claim 002.fig2; the slope's SE is the "
         "jackknife over the trials (t quantile of trials - 1 df). 'Significantly' is read as a slope clearly "
         "below 0, not as a test the paper ran. The figure's trials (gram_error.SETTINGS).",
    lower=Measured(_sd_slopes, "log-log slope of the sd over trials of the Gram error against M"),
    upper=0.0, effect_size=SLOPE_EFFECT, names=("slope", "0"))


def _fig3(run):
    return accuracy_growth.fig3_results(run.budget)


def _ends(run):
    """{data/kernel: (accuracies at the smallest M, at the largest M)} over Fig. 3's trials."""
    return {f"{name}/{kernel}": (cell[kernel][:, 0], cell[kernel][:, -1])
            for name, cell in _fig3(run).items() for kernel in KERNELS}


def _steps(run):
    """{data/kernel/M: (accuracies at M, at the next M)} over Fig. 3's trials."""
    return {f"{name}/{kernel}/log2(M/d) = {cell['grid'][j]} -> {cell['grid'][j + 1]}":
            (cell[kernel][:, j], cell[kernel][:, j + 1])
            for name, cell in _fig3(run).items() for kernel in KERNELS for j in range(len(cell["grid"]) - 1)}


Joint(
    id="002.fig3.growth", source="002, §5.3 and Fig. 3 (spambase, letter)",
    quote="It also could be found that with more random features, the accuracy is generally higher until "
          "saturation",
    statement="LinearSVC's test accuracy on AsK-RFF's concatenated map is higher at the largest M than at the "
              "smallest (M = d 2^l over accuracy_growth.SETTINGS' grid), and it does not fall by more than 1 point "
              "from one M to the next, for each kernel on spambase and letter (paired trials).",
    note="'Until saturation' read as: no drop between neighbouring M (not-strict, effect size 1 point); 'higher' as "
         "the ends strictly ordered (effect size 1 point). The figure's M grid is not in the text (varlab: from d/4); "
         "fewer rows, C values and folds than the paper's (accuracy_growth.SETTINGS).",
    parts=(Paired.part(trials=_ends, effect_size=ACCURACY_EFFECT, strict=True,
                       names=("smallest M", "largest M"), quantity="test accuracy (%)"),
           Paired.part(trials=_steps, effect_size=ACCURACY_EFFECT, strict=False,
                       names=("M", "next M"), quantity="test accuracy (%)")))


def _above_linear(run):
    """{data/kernel/M: (linear accuracies, Asy accuracies)} over Fig. 3's trials, at each M >= d."""
    return {f"{name}/{kernel}/log2(M/d) = {level}": (cell["Linear"], cell[kernel][:, j])
            for name, cell in _fig3(run).items() for kernel in KERNELS
            for j, level in enumerate(cell["grid"]) if level >= 0}


Paired(
    id="002.fig3.above_linear", source="002, §5.3 and Fig. 3 (spambase, letter)",
    quote="the AsK-RFFs performs better than the linear classifier when M ≥ d",
    statement="At every M >= d of Fig. 3's grid, LinearSVC's test accuracy on AsK-RFF's concatenated map is above "
              "that of the linear classifier on the raw data, for each kernel on spambase and letter (paired trials).",
    note="Effect size 1 accuracy point; the linear classifier is fitted on the same training subset of each trial. "
         "Fewer rows, C values and folds than the paper's (accuracy_growth.SETTINGS).",
    trials=_above_linear, effect_size=ACCURACY_EFFECT, strict=True, names=("Linear", "Asy"),
    quantity="test accuracy (%)")
