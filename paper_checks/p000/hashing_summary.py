"""Paper 000 §5: summaries of the hashing records (best-C accuracies, the k each method needs,
paired differences) and their markdown table."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from varlab.claims import Budget, t_threshold
from varlab.mc.stats import z_score

from . import svm
from .hashing_units import (HashingSlice, hashing_records, kernel_records, methods, slice_for, split_caps,
                            storage_bits)

#: A method within this many accuracy points (percentage points of test accuracy: the "1%" of
#: the issue and of 000 §5) of its target counts as having reached it.
WITHIN = 1.0


def accuracy_grid(records, dataset, method, slice_: HashingSlice, repetitions=None):
    """Accuracies (%) of shape (repetitions, k, C) (default: the slice's ``repetitions``)."""
    index = {(r["repetition"], r["k"], r["C"]): r for r in records
             if r["dataset"] == dataset and r["method"] == method}
    return np.array([[[100 * index[(rep, k, C)]["accuracy"] for C in slice_.Cs] for k in slice_.ks]
                     for rep in range(repetitions or slice_.repetitions)])


def best_c_accuracies(records, dataset, method, k, repetitions, Cs) -> np.ndarray:
    """Best-C test accuracies (%) of repetitions 0..repetitions-1 at one k."""
    index = {(r["repetition"], r["C"]): r["accuracy"] for r in records
             if r["dataset"] == dataset and r["method"] == method and r["k"] == k}
    return np.array([max(100 * index[(rep, C)] for C in Cs) for rep in range(repetitions)])


def fit_seconds(records, dataset, method, k, repetitions) -> float:
    """Median fit CPU time over the C grid and repetitions 0..repetitions-1."""
    return float(np.median([r["fit_cpu_seconds"] for r in records if r["dataset"] == dataset
                            and r["method"] == method and r["k"] == k and r["repetition"] < repetitions]))


def k_needed(best_by_k: np.ndarray, ks, target: float):
    """The smallest k whose accuracy is >= target - WITHIN (None: not reached on the grid)."""
    reached = np.flatnonzero(np.asarray(best_by_k) >= target - WITHIN)
    return int(ks[reached[0]]) if reached.size else None


def _k_text(values, k_max):
    if not values:
        return ""
    shown = [f">{k_max}" if v is None else str(v) for v in values]
    return shown[0] if len(set(shown)) == 1 else f"{min(shown, key=_order)}..{max(shown, key=_order)}"


def _order(text):
    return float(text[1:]) + 0.5 if text.startswith(">") else float(text)


def dataset_summary(budget: Budget, dataset: str, records=None, svm_recs=None, scaling=None) -> dict:
    """Per dataset: kernel SVM accuracies; for GCWS (b = 8) and NRFF the k needed to come within
    WITHIN points of their own kernel SVM and of the common target (mean of the repetitions'
    best-C accuracies, and the range over single repetitions); and GCWS(k/2) - NRFF(k) with its
    paired SE and t at the k where t is lowest (``gcws_half_k_not_behind_nrff``: that t is above
    minus the threshold); ``scaling``: of :func:`slice_for` on features so scaled."""
    slice_ = slice_for(budget, scaling)
    records = hashing_records(budget, scaling=scaling) if records is None else records
    best = svm.best_results(kernel_records(budget, scaling=scaling) if svm_recs is None else svm_recs)
    gmm, rbf, linear = (100 * best[(dataset, m)]["accuracy"] for m in ("gmm", "rbf", "linear"))
    target = min(gmm, rbf)
    ks = np.array(slice_.ks)
    data = svm.prepared(dataset, *split_caps(dataset, slice_))
    out = dict(dataset=dataset, train_test=f"{len(data.y_train)}/{len(data.y_test)}", linear_svm=linear,
               gmm_svm=gmm, rbf_svm=rbf,
               rbf_gamma=best[(dataset, "rbf")]["gamma"], target=target)
    for method, own in (("gcws_b8", gmm), ("nrff", rbf)):
        per_rep = accuracy_grid(records, dataset, method, slice_, slice_.paired).max(axis=2)   # (reps, k)
        mean = per_rep.mean(axis=0)
        out[f"{method}_k_common"] = k_needed(mean, ks, target)
        out[f"{method}_k_common_reps"] = _k_text([k_needed(row, ks, target) for row in per_rep], ks[-1])
        out[f"{method}_k_own"] = k_needed(mean, ks, own)
        out[f"{method}_k_own_reps"] = _k_text([k_needed(row, ks, own) for row in per_rep], ks[-1])
        out[f"{method}_acc_kmax"] = mean[-1]
        out[f"{method}_se_kmax"] = per_rep[:, -1].std(ddof=1) / np.sqrt(len(per_rep))
        out[f"{method}_bits_kmax"] = storage_bits(method, int(ks[-1]))
        out[f"{method}_fit_s_kmax"] = fit_seconds(records, dataset, method, int(ks[-1]), slice_.repetitions)
        out[f"_{method}_per_rep"] = per_rep
    halves = half_k_differences(out.pop("_gcws_b8_per_rep"), out.pop("_nrff_per_rep"), ks)
    threshold = float(t_threshold(slice_.paired - 1))
    out["gcws_half_k_vs_nrff"] = "; ".join(f"k={h['k']}: {h['difference']:+.2f} +- {h['standard_error']:.2f}"
                                          for h in halves)
    worst = min(halves, key=lambda h: h["t"])
    out["gcws_half_minus_nrff_at_lowest_t"] = worst["difference"]
    out["gcws_half_minus_nrff_at_lowest_t_se"] = worst["standard_error"]
    out["gcws_half_minus_nrff_at_lowest_t_k"] = worst["k"]
    out["gcws_half_minus_nrff_at_lowest_t_t"] = worst["t"]
    out["gcws_half_k_not_behind_nrff"] = worst["t"] >= -threshold
    return out


def paired_t(differences: np.ndarray):
    """Mean, SE and t = mean / SE of paired differences over repetitions (axis 0, >= 2 of them);
    t as :func:`varlab.mc.stats.z_score` (+-inf for a zero SE, 0 if the mean is 0 too)."""
    if len(differences) < 2:
        raise ValueError(f"a paired SE needs >= 2 repetitions, got {len(differences)}")
    mean = differences.mean(axis=0)
    se = differences.std(axis=0, ddof=1) / np.sqrt(len(differences))
    return mean, se, z_score(mean, 0.0, se)


def half_k_differences(gcws_per_rep: np.ndarray, nrff_per_rep: np.ndarray, ks) -> list[dict]:
    """Per k of the grid whose k/2 is on it: GCWS(k/2) - NRFF(k) of the best-C accuracies (arrays
    (repetitions, k)), paired by repetition (the repetitions are independent; within one the two
    methods draw their own features), with its SE and t."""
    ks = list(ks)
    pairs = [(k, ks.index(k // 2), i) for i, k in enumerate(ks) if k % 2 == 0 and k // 2 in ks]
    if not pairs:
        raise ValueError(f"the k grid {ks} has no k with k/2 on it")
    difference = np.stack([gcws_per_rep[:, half] - nrff_per_rep[:, i] for _, half, i in pairs], axis=1)
    mean, se, t = paired_t(difference)
    return [dict(k=int(k), difference=float(m), standard_error=float(s), t=float(tt))
            for (k, _, _), m, s, tt in zip(pairs, mean, se, t)]


def split_sizes(dataset, slice_: HashingSlice) -> str:
    """"<train rows>/<test rows>" of ``dataset`` at the slice, noting a stratified cap."""
    caps = split_caps(dataset, slice_)
    data = svm.prepared(dataset, *caps)
    capped = " (stratified cap)" if any(cap is not None for cap in caps) else ""
    return f"{len(data.y_train)}/{len(data.y_test)}{capped}"


def write_table(budget: Budget, records, svm_recs, path, datasets=None, scaling=None) -> None:
    """Markdown: per dataset and k, the mean best-C accuracy (+- SE over repetitions) of every
    method, with storage (bits per example) and median fit time; then the k each method needs.
    ``scaling``: the records are of :func:`slice_for` on features so scaled."""
    slice_ = slice_for(budget, scaling)
    datasets = slice_.datasets if datasets is None else datasets
    lines = [f"# Paper 000, Figs. 10-16: GCWS vs NRFF into LinearSVC (slice `{slice_.name}`)", "",
             *([f"Features scaled to [-1, 1] over the training rows as LIBSVM's svm-scale does ({scaling}), "
                "then rows to unit l2 norm; NRFF at the best RBF gamma and targets from the kernel SVMs on the "
                "same scaled features.", ""] if scaling else []),
             f"k in {list(slice_.ks)}, C in {list(slice_.Cs)}, {slice_.repetitions} repetitions; accuracy (%) "
             f"= mean over repetitions of the best-C test accuracy (+- SE); bits = storage per example; "
             f"s = median LinearSVC fit CPU time (seconds, this machine). Train/test rows: "
             + ", ".join(f"{d} {split_sizes(d, slice_)}" for d in datasets) + ".", ""]
    names = methods(slice_)
    lines += ["| dataset | k | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for dataset in datasets:
        grids = {m: accuracy_grid(records, dataset, m, slice_).max(axis=2) for m in names}
        for column, k in enumerate(slice_.ks):
            cells = []
            for m in names:
                values = grids[m][:, column]
                se = values.std(ddof=1) / np.sqrt(len(values))
                cells.append(f"{values.mean():.2f} +- {se:.2f} ({storage_bits(m, k)} b, "
                             f"{fit_seconds(records, dataset, m, k, slice_.repetitions):.2f} s)")
            lines.append(f"| {dataset} | {k} | " + " | ".join(cells) + " |")
    ours = [r for r in records if r["dataset"] in datasets and r["k"] in slice_.ks and r["C"] in slice_.Cs
            and r["repetition"] < slice_.repetitions]
    unconverged = [r for r in ours if not r["converged"]]
    best: dict = {}
    for r in ours:
        slot = (r["dataset"], r["method"], r["repetition"], r["k"])
        if slot not in best or r["accuracy"] > best[slot]["accuracy"]:
            best[slot] = r
    best_unconverged = sum(not r["converged"] for r in best.values())
    lines += ["", f"LIBLINEAR stopped at max_iter on {len(unconverged)} of {len(ours)} units "
                  f"(C values: {sorted({r['C'] for r in unconverged})}); {best_unconverged} of the best-C "
                  f"accuracies above come from such a unit."]
    lines += ["", f"k needed to come within {WITHIN:g} accuracy point of a target (GCWS b=8 and NRFF: mean of "
                  f"{slice_.paired} repetitions; in brackets the range over single repetitions):", "",
              "| dataset | linear SVM | GMM SVM | RBF SVM (gamma) | GCWS b=8 -> GMM SVM | NRFF -> RBF SVM | "
              "target min(GMM, RBF) | GCWS b=8 | NRFF | GCWS(k/2) - NRFF(k) at its lowest t (+- SE) |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    k_max = max(slice_.ks)

    def shown(v):
        return f">{k_max}" if v is None else str(v)

    for dataset in datasets:
        s = dataset_summary(budget, dataset, records, svm_recs, scaling)
        lines.append(f"| {dataset} | {s['linear_svm']:.2f} | {s['gmm_svm']:.2f} | {s['rbf_svm']:.2f} "
                     f"({s['rbf_gamma']:g}) | {shown(s['gcws_b8_k_own'])} [{s['gcws_b8_k_own_reps']}] | "
                     f"{shown(s['nrff_k_own'])} [{s['nrff_k_own_reps']}] | {s['target']:.2f} | "
                     f"{shown(s['gcws_b8_k_common'])} [{s['gcws_b8_k_common_reps']}] | "
                     f"{shown(s['nrff_k_common'])} [{s['nrff_k_common_reps']}] | "
                     f"{s['gcws_half_minus_nrff_at_lowest_t']:+.2f} +- {s['gcws_half_minus_nrff_at_lowest_t_se']:.2f} "
                     f"(k = {s['gcws_half_minus_nrff_at_lowest_t_k']}, t = {s['gcws_half_minus_nrff_at_lowest_t_t']:.1f}) |")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n")
