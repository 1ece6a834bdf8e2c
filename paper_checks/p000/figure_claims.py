"""Claims of paper 000 on its figures and sentences that no other claim reads: Fig. 1 (where
normalization helps most), Fig. 2 (a) (NRFF against RFF at finite k, over the figure's own
simulations), Fig. 3 (Var/E^2 of RFF and NRFF against GCWS's), §3 (the almost-sure convergence
of GMM), the linear column of Tables 1-2 (over the tables' own records), and two sentences of §5
on the hashing records (letter at k = 16 against linear; b = 4 against b = 8), which 001 §4 states
in the same or like words.
"""
from __future__ import annotations

import numpy as np

from varlab import kernels
from varlab.claims import Agreement, Identity, Measured, Measurement, Ordering, Paired, Simulation
from varlab.testing.verdict import format_number
from varlab.theory import gcws, nrff, rff

from . import svm
from .hashing_features import run_hashing_unit
from .hashing_summary import WITHIN
from .hashing_units import PROTOCOL, SLICES, split_caps
from .figures import FIGURE1_GAMMAS
from .gcws import LIMIT_DIMENSIONS, LIMIT_RHOS, LIMIT_TOLERANCE, limit_pairs
from .rff import FIGURE2_K, FIGURE2_NRFF, FIGURE2_PANELS, pair_grid

# --- Fig. 1: V_n / V against rho ----------------------------------------------------------------

#: rho grid of the Fig. 1 and Fig. 3 identities (the figure's own resolution, 801 points, refined)
FIGURE1_RHO = np.linspace(-1.0, 1.0, 4001)
#: a rise of V_n/V between neighbouring grid points below this is floating point (V_n/V <= 1)
ROUNDING = 1e-12
#: "significant": V_n / V at most this (normalization removes 90% of the variance or more)
SIGNIFICANT_RATIO = 0.1


def _figure1():
    """V_n/V non-increasing in rho at each gamma of Fig. 1, 0 at rho = 1; the rho from which it
    is <= SIGNIFICANT_RATIO, per gamma."""
    rows, rise = [], 0.0
    for gamma in FIGURE1_GAMMAS:
        ratio = nrff.variance_ratio(rho=FIGURE1_RHO, gamma=gamma)
        rise = max(rise, float(np.max(np.diff(ratio))))
        significant = FIGURE1_RHO[ratio <= SIGNIFICANT_RATIO]
        rows.append(dict(gamma=gamma, ratio_at_rho_minus_1=float(ratio[0]), ratio_at_rho_0=float(ratio[2000]),
                         ratio_at_rho_1=float(ratio[-1]), ratio_at_most_0_1_from_rho=float(significant.min())))
    at_one = max(row["ratio_at_rho_1"] for row in rows)
    reason = (f"largest rise of V_n/V between neighbouring rho (of {FIGURE1_RHO.size} in [-1, 1]) over gamma in "
              f"{', '.join(map(str, FIGURE1_GAMMAS))}: {format_number(rise)} (<= {ROUNDING:g}: non-increasing); "
              f"V_n/V at rho = 1: {format_number(at_one)}; V_n/V <= {SIGNIFICANT_RATIO:g} from rho = "
              + ", ".join(f"{row['ratio_at_most_0_1_from_rho']:.3f}" for row in rows) + " (per gamma)")
    return rise <= ROUNDING and at_one == 0.0, reason, rows


Identity(
    id="000.fig1", source="000, §2 after Thm 3, and Fig. 1",
    quote="Figure 1 plots V_{n,rho,gamma}/V_{gamma,gamma} to visualize the improvement due to normalization, which is "
          "most significant when rho is close to 1.",
    statement="At each gamma of Fig. 1 (0.1 to 10), V_n/V (Thm 3 over Thm 2) does not increase with rho over "
              "[-1, 1] and is 0 at rho = 1: the improvement 1 - V_n/V is largest as rho -> 1 (floating point, "
              f"{FIGURE1_RHO.size} rho per gamma; the rho from which V_n/V <= {SIGNIFICANT_RATIO:g} in the rows).",
    note="Stronger than the words: monotone in rho over the whole range, not only largest near 1. The paper's "
         "V_{gamma,gamma} (here and in Fig. 1's caption) is a typo for V_{rho,gamma}, Eq. (21).",
    compute=_figure1, error=ROUNDING, tolerance=ROUNDING, units="ratio")

# --- Fig. 2 (a): NRFF against RFF at finite k --------------------------------------------------

#: The RFF simulation of Fig. 2 (owner "000_fig2", label "rff": the one the figure draws, same
#: cache key), shared by the figure and :data:`SUBSTANTIAL_PANELS`' claim.
FIGURE2_RFF = Simulation("000_fig2", "rff", "rff", tuple(int(k) for k in FIGURE2_K), pair_grid(FIGURE2_PANELS))
#: "substantial": NRFF's MSE below this fraction of RFF's
SUBSTANTIAL_FRACTION = 0.5
#: the panels of Fig. 2 where Thm 3 puts V_n/V below SUBSTANTIAL_FRACTION (rho = 0.99 at both gammas,
#: rho = 0.75 at gamma = 1); on the others V_n/V is 0.88 to 1.0
SUBSTANTIAL_PANELS = tuple(index for index, (rho, gamma) in enumerate(FIGURE2_PANELS)
                           if nrff.variance_ratio(rho=rho, gamma=gamma) < SUBSTANTIAL_FRACTION)
#: k of Fig. 2's grid judged: above 10, where the paper calls NRFF's variance formula accurate
SUBSTANTIAL_K = tuple(int(k) for k in FIGURE2_K if k > 10)


def _substantial_gap(run):
    """(MSE(RFF)/2 - MSE(NRFF)) / (V/k) on the substantial panels at k > 10, from the figure's two
    simulations (independent seeds: the SEs add in quadrature)."""
    nrff_result, rff_result = FIGURE2_NRFF.result(run.budget), FIGURE2_RFF.result(run.budget)
    columns = np.flatnonzero(np.isin(nrff_result.k, SUBSTANTIAL_K))
    estimates, errors, rows = [], [], []
    for panel in SUBSTANTIAL_PANELS:
        rho, gamma = FIGURE2_PANELS[panel]
        for column in columns:
            k = int(nrff_result.k[column])
            unit = rff.variance(rho=rho, gamma=gamma) / k
            n, r = nrff_result.mse[panel, column], rff_result.mse[panel, column]
            estimates.append((SUBSTANTIAL_FRACTION * r - n) / unit)
            errors.append(float(np.hypot(nrff_result.se_mse[panel, column],
                                         SUBSTANTIAL_FRACTION * rff_result.se_mse[panel, column])) / unit)
            rows.append(dict(rho=rho, gamma=gamma, k=k, nrff_over_rff_mse=float(n / r)))
    return Measurement(estimate=estimates, standard_error=errors, rows=rows,
                       remark=f"MSE(NRFF)/MSE(RFF) from {format_number(min(r['nrff_over_rff_mse'] for r in rows))} "
                              f"to {format_number(max(r['nrff_over_rff_mse'] for r in rows))} on these panels")


Ordering(
    id="000.fig2.substantial", source="000, §2 and Fig. 2",
    quote="Figure 2 presents the simulated mean square error (MSE) results for estimating the RBF kernel "
          "e^{-gamma(1-rho)}, confirming that a): the improvement due to normalization can be substantial",
    statement=f"On the Fig. 2 panels where Thm 3 puts V_n/V below {SUBSTANTIAL_FRACTION:g} (rho = 0.99 at gamma = 1 "
              f"and 10, rho = 0.75 at gamma = 1), at every k > 10 of the figure's grid, the simulated MSE of NRFF is "
              f"below {SUBSTANTIAL_FRACTION:g} x the simulated MSE of RFF (the figure's own two simulations), resolved "
              "to 0.1 V/k.",
    note="'Can be substantial' read as NRFF's MSE under half RFF's on some panels: the panels are chosen by "
         "Thm 3's ratio, not by the simulation; on the other three (V_n/V 0.88 to 1) the paper claims no "
         "substantial gain.",
    lower=0.0, upper=Measured(_substantial_gap, "(MSE(RFF)/2 - MSE(NRFF)) in units of V/k"), effect_size=0.1,
    names=("0", "(MSE(RFF)/2 - MSE(NRFF))"))

# --- Fig. 3: Var/E^2 of RFF, NRFF and GCWS -------------------------------------------------------

#: E grid of the Fig. 3 identity; "E not large": E <= NOT_LARGE_E; "substantially": at least
#: SUBSTANTIAL_FACTOR times GCWS's Var/E^2 there
FIGURE3_E = np.linspace(1e-3, 1.0, 9991)
NOT_LARGE_E = 0.5
SUBSTANTIAL_FACTOR = 2.0
#: "approach zero": below this at the grid's largest E < 1
NEAR_ZERO = 1e-3


def _figure3():
    """GCWS's (1 - E)/E against RFF's and NRFF's Var/E^2 as functions of E."""
    E = FIGURE3_E[:-1]
    g = gcws.relative_variance_of_mean(E=E)
    r, n = rff.relative_variance_of_mean(E=E), nrff.relative_variance_of_mean(E=E)
    low = E <= NOT_LARGE_E
    factor_rff, factor_nrff = float(np.min(r[low] / g[low])), float(np.min(n[low] / g[low]))
    below = np.flatnonzero(n < g)
    crossover = f"E = {E[below[0]]:.4f}" if below.size else "nowhere"
    last = dict(E=float(E[-1]), gcws=float(g[-1]), nrff=float(n[-1]))
    rows = [dict(E=float(e), rff=float(a), nrff=float(b), gcws=float(c)) for e, a, b, c in zip(
        E[::1110], r[::1110], n[::1110], g[::1110])]
    holds = (bool(np.all(r > g)) and factor_rff >= SUBSTANTIAL_FACTOR and factor_nrff >= SUBSTANTIAL_FACTOR
             and max(last["gcws"], last["nrff"]) < NEAR_ZERO)
    reason = (f"RFF's Var/E^2 above GCWS's at every E of {E.size} in (0, 1); for E <= {NOT_LARGE_E:g} RFF's is at least "
              f"{format_number(factor_rff)} x and NRFF's at least {format_number(factor_nrff)} x GCWS's; NRFF's falls "
              f"below GCWS's from {crossover}; at E = {last['E']:.4f} GCWS's is {format_number(last['gcws'])} "
              f"and NRFF's {format_number(last['nrff'])}")
    return holds, reason, rows


Identity(
    id="000.fig3", source="000, §2 and Fig. 3",
    quote="Figure 3 shows that the relative variance of GCWS is substantially smaller than that of the original RFF and "
          "the normalized RFF (NRFF), especially when E is not large. For the very high similarity region (i.e., "
          "E -> 1), the variances of both GCWS and NRFF approach zero.",
    statement=f"As functions of E, GCWS's Var/E^2 = (1 - E)/E is below RFF's at every E in (0, 1), at most "
              f"1/{SUBSTANTIAL_FACTOR:g} of RFF's and of NRFF's (Thm 3, asymptotic) for E <= {NOT_LARGE_E:g}, and "
              f"GCWS's and NRFF's are both below {NEAR_ZERO:g} as E -> 1 (floating point, {FIGURE3_E.size - 1} E).",
    note=f"'Substantially' read as a factor {SUBSTANTIAL_FACTOR:g} and 'E not large' as E <= {NOT_LARGE_E:g}; "
         "NRFF's is the asymptotic (large-k) form the figure plots; the reason gives the E above which NRFF's "
         "falls below GCWS's (the paper's 'very high similarity region').",
    compute=_figure3, error=1e-12, tolerance=1e-10, units="relative")

# --- §3: the almost-sure convergence of GMM -------------------------------------------------------

#: centred, equal-scale elliptical laws of the coordinate pairs with a first moment: (name, degrees
#: of freedom of the bivariate t, None for the normal); t with 2 df has no variance
ELLIPTICAL_LAWS = (("centred bivariate normal (the model of 000.eq22)", None), ("bivariate t, 3 df", 3.0),
                   ("bivariate t, 2 df (first moment, no variance)", 2.0))


def elliptical_coordinates(rng, degrees_of_freedom, rho: float, size: int):
    """(x, y) i.i.d. coordinate pairs of a centred bivariate normal with correlation rho, or of the
    bivariate t with that shape (both coordinates of a pair divided by one sqrt(chi2_df / df))."""
    z1, z2 = rng.standard_normal(size), rng.standard_normal(size)
    x, y = z1, rho * z1 + np.sqrt(1 - rho * rho) * z2
    if degrees_of_freedom is None:
        return x, y
    scale = np.sqrt(rng.chisquare(degrees_of_freedom, size) / degrees_of_freedom)
    return x / scale, y / scale


def _path_deviation(run):
    """Mean over independent coordinate sequences of |GMM(first D coordinates) - g(rho)| at the
    largest D, per law and rho; the mean over laws and rho at every D of the same sequences is
    remarked."""
    rng = np.random.default_rng(run.seed("paths"))
    n_sequences, last = limit_pairs(run.budget), LIMIT_DIMENSIONS[-1]
    estimates, errors, rows, by_dimension = [], [], [], np.zeros(len(LIMIT_DIMENSIONS))
    for name, degrees_of_freedom in ELLIPTICAL_LAWS:
        for rho in LIMIT_RHOS:
            g = float(gcws.g_of_rho(rho=rho))
            deviations = np.empty((n_sequences, len(LIMIT_DIMENSIONS)))
            for sequence in range(n_sequences):
                x, y = elliptical_coordinates(rng, degrees_of_freedom, rho, last)
                deviations[sequence] = [abs(float(kernels.gmm(x[None, :d], y[None, :d])[0, 0]) - g)
                                        for d in LIMIT_DIMENSIONS]
            by_dimension += deviations.mean(axis=0)
            estimates.append(float(deviations[:, -1].mean()))
            errors.append(float(deviations[:, -1].std(ddof=1) / np.sqrt(n_sequences)))
            rows.append(dict(law=name, rho=rho, D=last, sequences=n_sequences))
    by_dimension /= len(rows)
    return Measurement(estimate=estimates, standard_error=errors, theory=[0.0] * len(rows), rows=rows,
                       degrees_of_freedom=[n_sequences - 1] * len(rows),
                       remark="mean |GMM - g| over laws and rho along the same sequences: " + ", ".join(
                           f"D = {d}: {format_number(v)}" for d, v in zip(LIMIT_DIMENSIONS, by_dimension)))


Agreement(
    id="000.sec3.almost_sure", source="000, §3 around Eq. (22) (the model of [19], Li and Zhang)",
    quote="As proved in a technical report following this paper [19], under mild model assumption, as the "
          "dimension D becomes large, the GMM kernel converges to a function of the true data correlation: "
          "GMM -> (1 - sqrt((1-rho)/2)) / (1 + sqrt((1-rho)/2)) = g. The convergence holds almost surely for data "
          "with bounded first moment.",
    statement="For pairs whose coordinates are i.i.d. draws of a centred, equal-scale elliptical law with a first "
              "moment (bivariate normal; bivariate t with 3 and with 2 degrees of freedom, the latter without a "
              "variance), GMM of the first D coordinates of one sequence converges to g(rho): at D = "
              f"{LIMIT_DIMENSIONS[-1]} its mean distance from g over independent sequences is 0 within "
              f"{LIMIT_TOLERANCE:g} (t quantile of the sequences), at rho = 0, 0.5, 0.9.",
    note="Weaker than 'almost surely': no finite simulation tells a.s. from in-probability convergence; varlab tests "
         "E|GMM_D - g| -> 0, which a.s. convergence of the bounded GMM implies. The model is the paper's 'mild "
         "model assumption' (elliptical data, in [19]'s abstract, not in 000): outside it (Laplace, uniform or "
         "skewed coordinates, unequal scales, non-centred) GMM tends to L != g (varlab.000.eq22.beyond_model), "
         "which the sentence, conditioned on the model, does not contradict. The t with 1.5 df (a first moment "
         "too) converges as D^(-1/3): mean |GMM - g| of about 0.02, 0.008 and 0.005 at D = 1e3, 1e4, 1e5 "
         "(measured, 20 sequences), not resolved to 0.005 at D = 1e5, so not tested.",
    model=Measured(_path_deviation, f"mean |GMM - g| at D = {LIMIT_DIMENSIONS[-1]} along single sequences"),
    tolerance=LIMIT_TOLERANCE, relative=False)

# --- Tables 1-2: the linear column ---------------------------------------------------------------

#: "substantially": by more than the table claims' effect size (one accuracy point; below it two
#: classifiers are comparable, svm.EFFECT_SIZE)
SUBSTANTIAL_POINTS = svm.EFFECT_SIZE


def linear_trials(run) -> dict:
    """{"<dataset>, <kernel>": (linear + SUBSTANTIAL_POINTS, kernel) per test row, 100 if right else 0}
    for GMM and RBF on each set of the budget's slice: each method's best unit (its record) refitted
    and the test rows paired (the trials of the Paired claim; as ``svm.gmm_rbf_trials``)."""
    best = svm.best_results(svm.svm_records(run.budget))
    cells = {}
    for name in dict.fromkeys(dataset for dataset, _ in best):
        linear = svm.correct_test_rows(_unit(best[(name, "linear")])) + SUBSTANTIAL_POINTS
        for method in ("gmm", "rbf"):
            cells[f"{name}, {method.upper()}"] = (linear, svm.correct_test_rows(_unit(best[(name, method)])))
    return cells


def _unit(record: dict) -> dict:
    """The fields of a stored unit's record that identify it (its results left out)."""
    return {key: record[key] for key in svm.UNIT_FIELDS if key in record}


Paired(
    id="000.tables12.kernels_beat_linear", source="000, Tables 1-2 and Figs. 5-8 (captions)",
    quote="Both the GMM kernel and RBF kernel substantially improve linear SVM.",
    statement=f"On each shipped set of Tables 1-2 (those of the budget's slice), the GMM kernel SVM at its best C "
              f"and the RBF kernel SVM at its best (gamma, C) are each more accurate than the linear SVM at its best "
              f"C by more than {SUBSTANTIAL_POINTS:g} accuracy point: per set and kernel, the mean over the test rows "
              f"of kernel right - linear right - {SUBSTANTIAL_POINTS:g} (paired by row, t quantile of rows - 1 df) "
              f"exceeds 0, resolved to {svm.EFFECT_SIZE:g} point; shipped feature values, rows scaled to unit l2 norm.",
    note=f"'Substantially' read as more than {SUBSTANTIAL_POINTS:g} accuracy point on each set, the sets' test rows "
         "as trials (so each set is decided by its own test size; vowel's 264 rows resolve only a few points); like "
         "the paper, each method is tuned on the test rows. The paper's words caption Figs. 5-8, whose sets varlab "
         "ships only in part; the per-set accuracies are in the Tables 1-2 table of simulations/p000_experiments.py.",
    trials=linear_trials, effect_size=svm.EFFECT_SIZE,
    quantity="test accuracy (%) of the best units, per test row",
    names=(f"(linear + {SUBSTANTIAL_POINTS:g})", "kernel"))

# --- §5 (and 001 §4): GCWS hashing against linear SVM, and b = 4 against b = 8 ---------------

#: letter's split in the hashing slices: stratified 1000/1000 (quick's table slice, full's cap),
#: and the same at the test budget (whose slice has no letter)
LETTER_CAPS = (1000, 1000)


def _caps(dataset, slice_):
    return LETTER_CAPS if dataset == "letter" else split_caps(dataset, slice_)


def gcws_accuracies(budget, dataset: str, b: int, k: int) -> np.ndarray:
    """Best-C test accuracies (%) of 0-bit GCWS with b bits at k, one per repetition of the budget's
    hashing slice: the slice's own units (the same keys, so the stored records are read) or, where
    the slice has none (test: no letter, no b = 4), computed in the slice's store."""
    name = svm.slice_name(budget)
    slice_ = SLICES[name]
    train_cap, test_cap = _caps(dataset, slice_)
    units = [dict(dataset=dataset, train_cap=train_cap, test_cap=test_cap, method=f"gcws_b{b}", k=k, C=C,
                  repetition=repetition, protocol=PROTOCOL, random_state=budget.random_state, gamma=None)
             for repetition in range(slice_.repetitions) for C in slice_.Cs]
    records = svm.run_units(units, svm.unit_store("hashing", name, svm.default_directory(name)), run_hashing_unit,
                            progress=False)
    accuracy = np.array([100 * r["accuracy"] for r in records]).reshape(slice_.repetitions, len(slice_.Cs))
    return accuracy.max(axis=1)


def linear_accuracy(budget, dataset: str) -> float:
    """The linear SVM's best-C test accuracy (%) on the hashing slice's split of ``dataset`` (the
    table slice's units, or the targets' store where the split is capped otherwise)."""
    name = svm.slice_name(budget)
    table = svm.SLICES[name]
    split = (dataset, *_caps(dataset, SLICES[name]))
    units = [unit for unit in svm.svm_units(svm.TableSlice(name, (split,), (), table.Cs)) if unit["method"] == "linear"]
    kind = "svm" if split in table.datasets else "svm_targets"
    records = svm.run_units(units, svm.unit_store(kind, name, svm.default_directory(name)), svm.run_svm_unit,
                            progress=False)
    return max(100 * r["accuracy"] for r in records)


#: the sample size and codings of the letter sentence (001: b = 4; 000 Fig. 10: b >= 4)
LETTER_K, LETTER_BS = 16, (4, 8)


def letter_trials(run) -> dict:
    """{"letter, k = 16, b": (linear, GCWS b) best-C accuracies (%)}: GCWS per repetition, the
    linear SVM's one accuracy repeated (its split is fixed)."""
    linear = linear_accuracy(run.budget, "letter")
    cells = {}
    for b in LETTER_BS:
        gcws_ = gcws_accuracies(run.budget, "letter", b, LETTER_K)
        cells[f"letter, k = {LETTER_K}, b = {b}"] = (np.full(gcws_.shape, linear), gcws_)
    return cells


Paired(
    id="000.sec5.letter_k16_beats_linear", source="000, §5 and Fig. 10 (001, §4 and Fig. 4, in the same words)",
    quote="From the left panels of Figure 10, we can see that with merely k=16 samples, GCWS already produces "
          "better results than the original linear method.",
    statement=f"On letter (stratified {LETTER_CAPS[0]}/{LETTER_CAPS[1]} split, as the hashing slices run it), "
              f"0-bit GCWS with k = {LETTER_K} and b = 4 and 8 (LinearSVC at its best C) is more accurate than the "
              f"linear SVM at its best C on the original features: the mean over repetitions of GCWS - linear "
              f"exceeds 0 (t quantile of repetitions - 1 df), resolved to {WITHIN:g} accuracy point.",
    note="The paper's letter has 15000 training rows; no slice hashes letter at that size (hashing_units: ~100 "
         "times the capped cost). Measured once on the full 15000/5000 split (2026-11-28, repetition 0): GCWS "
         "k = 16, b = 8 reaches 41.4% at C = 1 and 100, against the linear SVM's 70.78% (full Tables 1-2), so the "
         "cap is not what separates them. The linear accuracy is one split's (no spread).",
    trials=letter_trials, effect_size=WITHIN,
    quantity="best-C test accuracy (%) of linear SVM and GCWS k = 16", names=("linear", "GCWS"))


def b4_trials(run) -> dict:
    """{(dataset, k) label: (b = 8, b = 4) best-C accuracies (%) per repetition, paired over the
    same hashes}, at every dataset and k of the budget's hashing slice."""
    slice_ = SLICES[svm.slice_name(run.budget)]
    return {f"{dataset}, k = {k}": (gcws_accuracies(run.budget, dataset, 8, k),
                                    gcws_accuracies(run.budget, dataset, 4, k))
            for dataset in slice_.datasets for k in slice_.ks}


Paired(
    id="000.sec5.b4_close_to_b8", source="000, §5 (Figs. 14-15); 001, §4 (Fig. 7): \"The results for b = 4 do not "
                                        "differ much from the results for b = 8.\"",
    quote="Again, for GCWS, the results do not differ much once we use b >= 4.",
    statement=f"At every dataset and k of the hashing slice (the shipped sets; at quick letter, segment, vowel, "
              f"magic and k = 16 to 128), the best-C accuracy of 0-bit GCWS with b = 4 is not below that with "
              f"b = 8 by more than {WITHIN:g} accuracy point (paired over the same hashes, t quantile of "
              f"repetitions - 1 df).",
    note=f"SEMG1, M-Rotate (000) and PAMAP101/103 (001) are not shipped: the shipped sets of the hashing slices "
         f"stand in. b = 4 against b = 8 only (000.sec5.b8_close_to_full: b = 8 against the full code); one-sided "
         f"(b = 8 keeps more of i*); effect size {WITHIN:g} point for 'do not differ much', as there.",
    trials=b4_trials, effect_size=WITHIN, strict=False,
    quantity="best-C test accuracy (%) of GCWS b = 8 and b = 4", names=("GCWS b=8", "GCWS b=4"))
