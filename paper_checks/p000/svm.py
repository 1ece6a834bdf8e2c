"""Paper 000 §4 (Tables 1-2): linear, best-tuned RBF and GMM kernel SVMs on real data.

The paper takes Table 1's sets from the UCI repository and Table 2's from the LIBSVM website
and states no per-feature scaling beyond the unit rows; LIBSVM distributes copies of several of
these sets scaled to [-1, 1] per feature (splice's 1000/2175 is LIBSVM's split). The RBF kernel
on unit rows and, more, GMM (which splits each feature at 0, Eq. 7) depend on that scaling, so
the tables are run twice: on the shipped feature values, and with each feature first scaled to [-1, 1] over the
training rows (:func:`libsvm_scale`, units with ``scaling="libsvm"``), each with its own claim.

Each result is one *unit* — (dataset, method, gamma, C) -> test accuracy and fit time — kept in a
``varlab.claims.Store`` (in memory, or an append-only JSON-lines file that a killed run resumes from).
Preprocessing follows §5 of the paper: every row is scaled to unit l2 norm ("we always normalize
the input features to the unit l2 norm"), then

* linear: ``LinearSVC(C)`` (LIBLINEAR, as the paper's linear results) in the primal, as the
  hashed features of :mod:`.hashing_features` (:func:`linear_svc`);
* RBF: ``SVC(kernel="rbf", gamma=gamma / 2)`` on the unit rows, i.e. exp(-gamma (1 - rho))
  (000, Eq. 14; |u - v|^2 = 2 (1 - rho)), LIBSVM computing the kernel on the fly (memory bounded);
* GMM: ``SVC(kernel="precomputed")`` on the Gram of ``varlab.kernels.gmm`` (000, Eq. 8), as the
  paper's "LIBSVM pre-computed kernel".

Each method is reported at its best C (RBF: best (gamma, C)), as Tables 1-2 do. The budgets are
slices (:data:`SLICES`): "quick" runs the small sets whole and caps the larger training/test sets
(stratified subsamples), with the paper's 58 gammas (a coarser gamma grid under-tunes RBF and
flipped the scaled claim) and a coarse C grid; "full" is every set at its shipped size, the paper's 58
gammas and the C grid below (``simulations/p000_experiments.py``, resumable).
"""
from __future__ import annotations

import functools
import hashlib
import json
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from varlab import claims, datasets, kernels
from varlab.claims import Budget, Paired, Store, store_for

#: 000 §4: "58 different values of gamma in {0.001, 0.01, 0.1:0.1:2, 2.5, 3:1:20, 25:5:50,
#: 60:10:100, 120, 150, 200, 300, 500, 1000}".
PAPER_GAMMAS = tuple(float(g) for g in np.round(np.concatenate([
    [0.001, 0.01], np.arange(1, 21) / 10, [2.5], np.arange(3, 21), np.arange(25, 51, 5),
    np.arange(60, 101, 10), [120, 150, 200, 300, 500, 1000]]), 10))
assert len(PAPER_GAMMAS) == 58

#: The paper prints no C grid (Figs. 5-8 plot accuracy against C on a log axis); varlab uses
#: the decades 10^-2 .. 10^3 (its own choice, stated in the report).
FULL_CS = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)

#: Paper 000's numbers for the sets varlab ships: (paper's name, table, n_train, n_test, d,
#: linear, RBF, best gamma, GMM) typed from 000 Tables 1-2 (accuracies in %).
PAPER_TABLE = {
    "letter": ("Letter", "Table 2", 15000, 5000, 16, 61.66, 97.44, 11, 97.26),
    "magic": ("Magic", "Table 1", 9150, 9150, 10, 78.04, 84.43, 0.8, 87.02),
    "satimage": ("Satimage", "Table 1", 4435, 2000, 36, 72.45, 85.20, 200, 90.40),
    "spambase": ("SpamBase", "Table 1", 2301, 2300, 57, 85.91, 92.57, 0.2, 94.17),
    "splice": ("Splice", "Table 1", 1000, 2175, 60, 85.10, 90.02, 15, 95.22),
    "vowel": ("Vowel", "Table 1", 264, 264, 10, 39.39, 94.70, 45, 96.97),
    "segment": ("ImageSeg", "Table 1", 210, 2100, 19, 83.81, 91.38, 0.4, 95.05),
}


@dataclass(frozen=True)
class TableSlice:
    """What one budget runs: (dataset, train cap, test cap) (None: the whole split), the RBF
    gammas and the C grid."""

    name: str
    datasets: tuple
    gammas: tuple
    Cs: tuple


SLICES = {
    "test": TableSlice("test", (("segment", None, 600), ("vowel", None, None)), (0.5, 5.0), (1.0, 100.0)),
    "quick": TableSlice("quick", (("segment", None, None), ("vowel", None, None), ("splice", None, None),
                                  ("spambase", 1000, 1000), ("satimage", 1000, 1000),
                                  ("magic", 1000, 1000), ("letter", 1000, 1000)),
                        PAPER_GAMMAS, (0.1, 1.0, 10.0, 100.0, 1000.0)),
    "full": TableSlice("full", tuple((name, None, None) for name in
                                     ("segment", "vowel", "splice", "spambase", "satimage", "magic",
                                      "letter")), PAPER_GAMMAS, FULL_CS),
}


def slice_name(budget: Budget) -> str:
    """The experiment slice of a budget: its name if it is one of ``SLICES``, else by its
    repetitions (<= 4000: "test", <= 20000: "quick", more: "full")."""
    if budget.name in SLICES:
        return budget.name
    return "test" if budget.n_repetitions <= 4_000 else "quick" if budget.n_repetitions <= 20_000 else "full"


# --- data --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Prepared:
    """A data set's (capped) split with unit-l2 rows."""

    name: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


def _cap(X, y, cap, seed):
    from sklearn.model_selection import train_test_split

    if cap is None or cap >= len(y):
        return X, y
    X, _, y, _ = train_test_split(X, y, train_size=cap, stratify=y, random_state=seed)
    return X, y


#: Per-feature scalings a table unit may carry (``scaling``; absent = the shipped values).
SCALINGS = ("libsvm",)


def libsvm_scale(X_train, X_test):
    """Each feature mapped linearly to [-1, 1] over the training rows (LIBSVM's ``svm-scale``
    default; a constant feature becomes 0, where sklearn's MinMaxScaler would give -1); the test
    rows by the same map (they may leave [-1, 1])."""
    low, high = X_train.min(axis=0), X_train.max(axis=0)
    varies = high > low
    span = np.where(varies, high - low, 1.0)
    return tuple(np.where(varies, 2.0 * (X - low) / span - 1.0, 0.0) for X in (X_train, X_test))


@functools.lru_cache(maxsize=8)
def prepared(name: str, train_cap=None, test_cap=None, scaling=None) -> Prepared:
    """``datasets.load(name)`` with stratified subsamples of ``train_cap``/``test_cap`` rows
    (fixed seeds), optionally each feature scaled (``scaling="libsvm"``: :func:`libsvm_scale`),
    and every row scaled to unit l2 norm (000 §5)."""
    from sklearn.preprocessing import normalize

    if scaling not in (None, *SCALINGS):
        raise ValueError(f"scaling must be None or one of {SCALINGS}, got {scaling!r}")
    ds = datasets.load(name)
    X_train, y_train = _cap(ds.X_train, ds.y_train, train_cap, 0)
    X_test, y_test = _cap(ds.X_test, ds.y_test, test_cap, 1)
    if scaling == "libsvm":
        X_train, X_test = libsvm_scale(X_train, X_test)
    return Prepared(name, normalize(X_train), np.asarray(y_train), normalize(X_test), np.asarray(y_test))


# --- resumable unit stores (varlab.claims.Store) ------------------------------------------------------------------------

def unit_key(**fields) -> str:
    """The canonical key of a unit (sorted JSON of its fields and the protocol version: the
    unit's own ``protocol`` field if it has one, else :data:`PROTOCOL`)."""
    return json.dumps({"protocol": PROTOCOL, **fields}, sort_keys=True)


#: Where the "quick" and "full" slices keep their units (committed; delete a file to recompute).
RESULTS = Path(__file__).resolve().parents[2] / "simulations" / "p000"

#: The protocol version is part of every unit key, so that a change of method invalidates
#: stored units instead of silently reusing them (the hashing units carry their own,
#: ``hashing_units.PROTOCOL``).
PROTOCOL = 1

#: Version of the linear units: 2 = the primal solver of :func:`linear_svc` (1, the dual, is
#: never read).
LINEAR_PROTOCOL = 2


def default_directory(slice_: str):
    """The store directory of a slice: None (in-process only) for "test", else :data:`RESULTS`."""
    return None if slice_ == "test" else RESULTS


def unit_store(kind: str, slice_: str, directory=None) -> Store:
    """The store of one experiment kind ("svm", "hashing", ...) at one slice: the file
    ``<directory>/<kind>_<slice>.jsonl`` (``varlab.claims.store_for`` of a budget kept in
    ``directory``), or one in-process store per (kind, slice) without a directory."""
    return store_for(Budget(f"p000-{slice_}", 0).stored_in(directory), f"{kind}_{slice_}")


# --- the kernel SVM units ------------------------------------------------------------------------

def _fit_score(model, X_train, y_train, X_test, y_test) -> dict:
    from sklearn.exceptions import ConvergenceWarning

    start, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(X_train, y_train)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    accuracy = float(np.mean(model.predict(X_test) == y_test))
    converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
    return dict(accuracy=accuracy, fit_seconds=seconds, fit_cpu_seconds=cpu, converged=converged)


def linear_svc(C):
    """LIBLINEAR's l2-regularised squared-hinge linear SVM, solved in the primal (trust-region
    Newton), one-vs-rest. The dual coordinate descent (LinearSVC's default) stopped at max_iter
    on 14 of the 42 full-slice linear units, 4 of them the best C of their set; the primal
    minimises the same objective and converges on this grid (simulations/p000/full/solver.md)."""
    from sklearn.svm import LinearSVC

    return LinearSVC(C=C, dual=False, tol=1e-4, max_iter=1000, random_state=0)


@functools.lru_cache(maxsize=2)
def _gmm_grams(name, train_cap, test_cap, scaling):
    data = prepared(name, train_cap, test_cap, scaling)
    return kernels.gmm(data.X_train), kernels.gmm(data.X_test, data.X_train)


def svm_units(slice_: TableSlice, scaling=None):
    """Every (dataset, method, gamma, C) unit of a slice, as dicts of their fields (with
    ``scaling`` if one is given)."""
    for name, train_cap, test_cap in slice_.datasets:
        base = dict(dataset=name, train_cap=train_cap, test_cap=test_cap)
        if scaling is not None:
            base["scaling"] = scaling
        for C in slice_.Cs:
            yield dict(base, method="linear", gamma=None, C=C, protocol=LINEAR_PROTOCOL)
            yield dict(base, method="gmm", gamma=None, C=C)
        for gamma in slice_.gammas:
            for C in slice_.Cs:
                yield dict(base, method="rbf", gamma=gamma, C=C)


def _model_and_data(unit: dict):
    """The unit's estimator and its (train X, train y, test X, test y) (see the module notes)."""
    from sklearn.svm import SVC

    data = prepared(unit["dataset"], unit["train_cap"], unit["test_cap"], unit.get("scaling"))
    if unit["method"] == "linear":
        return linear_svc(unit["C"]), (data.X_train, data.y_train, data.X_test, data.y_test)
    if unit["method"] == "rbf":
        model = SVC(C=unit["C"], kernel="rbf", gamma=unit["gamma"] / 2.0, cache_size=500)
        return model, (data.X_train, data.y_train, data.X_test, data.y_test)
    if unit["method"] == "gmm":
        train, test = _gmm_grams(unit["dataset"], unit["train_cap"], unit["test_cap"], unit.get("scaling"))
        return SVC(C=unit["C"], kernel="precomputed"), (train, data.y_train, test, data.y_test)
    raise ValueError(f"method must be 'linear', 'rbf' or 'gmm', got {unit['method']!r}")


def run_svm_unit(unit: dict) -> dict:
    """Train and test one unit (see the module notes for the three methods)."""
    model, data = _model_and_data(unit)
    return _fit_score(model, *data)


def correct_test_rows(unit: dict) -> np.ndarray:
    """Per test row of the unit's split: 100 where its model, refitted, classifies the row right, else 0
    (the mean is the unit's accuracy in %)."""
    model, (X_train, y_train, X_test, y_test) = _model_and_data(unit)
    return 100.0 * (model.fit(X_train, y_train).predict(X_test) == y_test)


@functools.lru_cache(maxsize=None)
def data_fingerprint(name: str) -> str:
    """16 hex digits of SHA-256 over a data set's split as loaded (source rows, shapes and the
    parsed feature values, which are exact on every machine): stored in each unit's record, so
    that a record computed on other data (a changed loader or split) is refused, not reused."""
    ds = datasets.load(name)
    digest = hashlib.sha256()
    for array in (ds.train_index, ds.test_index, ds.X_train, ds.y_train, ds.X_test, ds.y_test):
        digest.update(repr(array.shape).encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:16]


def run_units(units, store: Store, runner, **options) -> list[dict]:
    """``varlab.claims.run_units`` with paper 000's unit keys (:func:`unit_key`, with the
    protocol) and each record's :func:`data_fingerprint` of its dataset (``options``: n_jobs,
    deadline, progress, description)."""
    return claims.run_units(units, store, runner, key=lambda unit: unit_key(**unit),
                            fingerprint=lambda unit: data_fingerprint(unit["dataset"]), **options)


def store_kind(scaling=None, base="svm") -> str:
    """The store kind of ``base`` units ("svm", "svm_targets", "hashing") on features scaled by
    ``scaling`` (None: ``base``)."""
    return base if scaling is None else f"{base}_{scaling}"


def svm_records(budget: Budget, *, directory="default", progress: bool | None = None,
                scaling=None) -> list[dict]:
    """The kernel-SVM records of the budget's slice, from its store (``directory``: "default" =
    :func:`default_directory`, None = in-process only, or a path) or computed and stored; with
    ``scaling``, on the features so scaled (store ``svm_<scaling>_<slice>``)."""
    name = slice_name(budget)
    directory = default_directory(name) if directory == "default" else directory
    return run_units(svm_units(SLICES[name], scaling), unit_store(store_kind(scaling), name, directory), run_svm_unit,
                     progress=progress, description=f"kernel SVMs ({name}{', ' + scaling if scaling else ''})")


def best_results(records) -> dict:
    """Per dataset and method the best record (highest accuracy; ties: the first on the grid)."""
    best: dict = {}
    for record in records:
        slot = (record["dataset"], record["method"])
        if slot not in best or record["accuracy"] > best[slot]["accuracy"]:
            best[slot] = record
    return best


def table_rows(records) -> list[dict]:
    """One row per dataset: varlab's best linear / RBF (gamma) / GMM accuracies (%) and the paper's."""
    best = best_results(records)
    rows = []
    for name in dict.fromkeys(record["dataset"] for record in records):
        paper = PAPER_TABLE[name]
        linear = best[(name, "linear")]
        data = prepared(name, linear["train_cap"], linear["test_cap"], linear.get("scaling"))
        rows.append(dict(dataset=name, paper_name=paper[0], n_train=len(data.y_train),
                         n_test=len(data.y_test), d=data.X_train.shape[1],
                         linear=100 * best[(name, "linear")]["accuracy"],
                         linear_C=best[(name, "linear")]["C"],
                         rbf=100 * best[(name, "rbf")]["accuracy"], rbf_gamma=best[(name, "rbf")]["gamma"],
                         rbf_C=best[(name, "rbf")]["C"], gmm=100 * best[(name, "gmm")]["accuracy"],
                         gmm_C=best[(name, "gmm")]["C"],
                         paper_sizes=f"{paper[2]}/{paper[3]}, d={paper[4]}", paper_linear=paper[5],
                         paper_rbf=paper[6], paper_gamma=paper[7], paper_gmm=paper[8]))
    return rows


def write_table(rows, path, *, slice_: TableSlice, records=(), scaling=None) -> None:
    """Tables 1-2 beside the paper's numbers, as markdown; below it, where the sizes differ from
    the paper's and why, and the fits that stopped at max_iter (of ``records``)."""
    lines = [f"# Paper 000, Tables 1-2: kernel SVMs (slice `{slice_.name}`)", "",
             f"Test accuracy (%) at each method's best C (C grid {list(slice_.Cs)}, varlab's choice: "
             f"the paper prints none); RBF at its best "
             f"(gamma, C) over {len(slice_.gammas)} gammas. "
             + ("Each feature scaled to [-1, 1] over the training rows (LIBSVM's svm-scale; the test rows "
                "by the same map)" if scaling else "Shipped feature values")
             + "; rows scaled to unit l2 norm. Paper's numbers typed from 000 Tables 1-2.", "",
             "| dataset (paper) | train/test, d | paper train/test, d | linear | paper | RBF (gamma) | "
             "paper (gamma) | GMM | paper |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['dataset']} ({r['paper_name']}) | {r['n_train']}/{r['n_test']}, d={r['d']} | "
                     f"{r['paper_sizes']} | {r['linear']:.2f} | {r['paper_linear']:.2f} | "
                     f"{r['rbf']:.2f} ({r['rbf_gamma']:g}) | {r['paper_rbf']:.2f} ({r['paper_gamma']:g}) | "
                     f"{r['gmm']:.2f} | {r['paper_gmm']:.2f} |")
    lines += ["", "Where the sizes differ from the paper's:", ""]
    for r in rows:
        if f"{r['n_train']}/{r['n_test']}, d={r['d']}" != r["paper_sizes"]:
            ds = datasets.load(r["dataset"])
            capped = (r["n_train"], r["n_test"]) != (ds.n_train, ds.n_test)
            reason = (f"capped to {r['n_train']}/{r['n_test']} rows (stratified) at this slice, from "
                      f"{ds.n_train}/{ds.n_test}" if capped else "")
            reason = "; ".join(filter(None, [reason, ds.paper_note]))
            lines.append(f"- {r['dataset']}: {reason or 'the shipped copy differs (see its description)'}.")
    unconverged = [u for u in records if not u["converged"]]
    best = best_results(records).values()
    lines += ["", f"Fits stopped at max_iter: {len(unconverged)} of {len(records)} units ("
                  + (", ".join(f"{m}: {sum(u['method'] == m for u in unconverged)}" for m in ("linear", "rbf", "gmm"))
                     if unconverged else "none") + f"); {sum(not u['converged'] for u in best)} of the "
                  f"best-C results above come from such a fit."]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n")


#: The effect size of the table claims, in accuracy points (percentage points of test accuracy):
#: one point, the "1%" of 000 §5 and of issue 20; below it two kernels are "comparable" (the
#: binomial SE of one test accuracy near 90% on 2000 test rows is already 0.67 points).
EFFECT_SIZE = 1.0


def paper_gmm_wins() -> tuple:
    """The shipped sets on which the paper's Tables 1-2 print GMM above the best-tuned RBF."""
    return tuple(name for name, row in PAPER_TABLE.items() if row[8] > row[6])


#: the fields of a unit's record that identify it (the rest are its results)
UNIT_FIELDS = ("dataset", "method", "gamma", "C", "train_cap", "test_cap", "scaling", "protocol")


def gmm_rbf_trials(run, scaling=None) -> dict:
    """{dataset: (RBF, GMM) per test row, 100 if right else 0}, for each set of the budget's slice on which
    the paper's tables print GMM above RBF: the best units of each method (their records) refitted and the
    test rows paired (the trials of the Paired claim)."""
    best = best_results(svm_records(run.budget, scaling=scaling))
    cells = {}
    for name in dict.fromkeys(dataset for dataset, _ in best):
        if name in paper_gmm_wins():
            rbf, gmm = ({key: best[(name, method)][key] for key in UNIT_FIELDS if key in best[(name, method)]}
                        for method in ("rbf", "gmm"))
            cells[name] = (correct_test_rows(rbf), correct_test_rows(gmm))
    return cells


def _gmm_rbf_trials_scaled(run) -> dict:
    return gmm_rbf_trials(run, "libsvm")


_GMM_BEATS_RBF_QUOTE = ("For more than half of the datasets, the GMM kernel (which has no tuning parameter) "
                        "outperforms the best-tuned RBF kernel.")
_GMM_BEATS_RBF = ("On each shipped set of Tables 1-2 where the paper's tables print GMM above RBF (all but letter; "
                  "those of the budget's slice), the GMM kernel SVM at its best C is more accurate than the RBF "
                  "kernel SVM at its best (gamma, C): the mean over the set's test rows of GMM right - RBF right "
                  "(paired by row, t quantile of rows - 1 df) exceeds 0, resolved to "
                  f"{EFFECT_SIZE:g} accuracy point")
_GMM_BEATS_RBF_NOTE = ("The paper's 'more than half of the datasets' summarises its tables, which print GMM above RBF "
                       "on 6 of these 7 sets: each such set's comparison is tested, with its test rows as trials (so a "
                       "set is decided by its own test size: vowel's 264 rows resolve only a few points); like the "
                       "paper, each method is tuned on the test rows. Effect size "
                       f"{EFFECT_SIZE:g} accuracy point: below it two kernels are comparable.")
_GMM_BEATS_RBF_KIND = dict(effect_size=EFFECT_SIZE, quantity="test accuracy (%) of the best units, per test row",
                           names=("RBF", "GMM"))

Paired(id="000.tables12.gmm_beats_rbf", source="000, §4 and Tables 1-2", quote=_GMM_BEATS_RBF_QUOTE,
       statement=_GMM_BEATS_RBF + "; shipped feature values, rows scaled to unit l2 norm.",
       note=_GMM_BEATS_RBF_NOTE, trials=gmm_rbf_trials, **_GMM_BEATS_RBF_KIND)

Paired(id="000.tables12.gmm_beats_rbf_scaled", source="000, §4 and Tables 1-2", quote=_GMM_BEATS_RBF_QUOTE,
       statement=_GMM_BEATS_RBF + "; each feature first scaled to [-1, 1] over the training rows, as "
                 "LIBSVM's svm-scale does (the paper does not state its features' scaling, and GMM, "
                 "which splits each feature at 0 (000 Eq. 7), depends on it).",
       note=_GMM_BEATS_RBF_NOTE, trials=_gmm_rbf_trials_scaled, **_GMM_BEATS_RBF_KIND)
