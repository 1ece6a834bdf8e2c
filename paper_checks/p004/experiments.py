"""Experiments of paper 004 (slides, "Experiments"): Table II (relative Frobenius error of the Gram
matrix, GRFF vs GORF) and the analogue of Tables III-IV (regression on the random features).

**Table II.** For each data set, n rows of the training split (a seeded subset, fixed per budget)
are scaled to unit l2 norm (the polynomial kernel is stationary only on the sphere; the
delta-Gaussian uses the same rows: with |x - y| <= 2 its error levels match the slides', e.g.
GRFF at s = d/2 on letter: sqrt(V(1)/s)/|k(1)| = 0.40, printed 0.39). The slides do not state n;
the expected relative error depends on the data only through the distribution of the pairwise
distances (the n diagonal entries are exact), so n = 1000 at the full budget (as in the GRFF
literature and 002's Fig. 2) and 300 at quick. Each trial draws new frequencies: K~ =
left(X) right(X)^T of ``varlab.features.GRFF`` with s frequencies per part, error
||K - K~||_F / ||K||_F, mean +- sd over 10 trials. Methods: GRFF (i.i.d.), GORF as on the slides
(W and V mutually orthogonal, ``orthogonality="mutual"``) and varlab's GORF (each part orthogonal
on its own, ``"separate"``). Data: letter (16-d) as on the slides; optdigits (64-d) in place of
usps (256-d; the slides' usps numbers are printed beside it, labelled); ijcnn1 is not shipped
offline. Kernels: the delta-Gaussian (a = (1, -1), sigma = (1, 10)) and the polynomial kernel on the
sphere (1 - |x - y|^2/a^2)^m, a = 3, m = 1, through varlab's "polynomial_sphere" measure (a finite
sum of shells whose kernel is within 1.1e-6 of the polynomial on [0, 2]; GRFF/GORF are unbiased
for it, so their bias for the polynomial is below 1.1e-6).

**Regression (Tables III-IV analogue).** scikit-learn's diabetes (d = 10, 442 rows) in place of
housing (d = 13; not shipped offline): each trial splits the rows 80/20 at random (housing's
405/101), standardises the columns on the training part and scales rows to unit norm, draws s
frequencies (s = 2d, 4d, 8d) and fits ridge regression on the real feature map
left(x) = [sqrt(P) cos Wx, sqrt(P) sin Wx, sqrt(N) cos Vx, sqrt(N) sin Vx] / sqrt(s) (004's psi
with the i dropped: a linear model on these columns spans the functions sum_j alpha_j k~(x_j, .)
of the indefinite kernel; its ridge penalty is the RKHS norm of P k+ + N k-). The ridge
parameter is chosen by leave-one-out cross-validation on the training part over 17 values
10^-6..10^2 (scikit-learn's RidgeCV, whose exact closed-form leave-one-out errors make it as cheap
as one fit; intercept fitted), then refitted on the whole training part; RMSE on the test part in the target's units. For the polynomial kernel the baselines
Random Maclaurin (varlab.features.maclaurin) and TensorSketch (scikit-learn's
PolynomialCountSketch) of ((2/a^2) <x, y> + 1 - 2/a^2)^m (the same kernel on the sphere) get 4s
columns, as many as GRFF's left map; RMSE (diabetes: disease progression, sd 77; the
slides' housing RMSEs are in $1000s and are printed beside for reference only). SRF and DIGMM
are out of scope.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.spatial.distance import cdist, pdist
from sklearn.kernel_approximation import PolynomialCountSketch
from sklearn.linear_model import RidgeCV
from threadpoolctl import threadpool_limits

from varlab import datasets
from varlab.claims import (Agreement, Measured, Measurement, Paired, claim, factor_of, run_units, setting,
                           store_for)
from varlab.features import GRFF
from varlab.features.maclaurin import RandomMaclaurin
from varlab.plotting import figure, table_figure
from varlab.seeding import derive_seed
from varlab.spectral.polynomial import PolynomialSphere, polynomial_kernel
from varlab.spectral.signed import DeltaGaussian
from varlab.testing import builders
from varlab.theory import signed as signed_theory

#: budget -> sizes; the slides: 10 trials (Table II, Tables III-IV); regression_trials: 150 at full, the
#: paired splits that decide claim 004.table34 (quick's 20 put its deciding cell at about 143: paired SD
#: about 1.3 RMSE against a margin of about 0.5 to the effect size 1.0; about 3.4 s a split)
SETTINGS = {
    "test": dict(n=150, trials=4, regression_trials=3),
    "quick": dict(n=300, trials=10, regression_trials=20),
    "full": dict(n=1000, trials=10, regression_trials=150),
}
DATASETS = ("letter", "optdigits")
#: the slides' data set printed beside each of ours
SLIDES_SET = {"letter": "letter", "optdigits": "usps"}
REGRESSION_SET = "diabetes"
FACTORS = (0.5, 1, 2, 8)                 # s = d/2, d, 2d, 8d (Table II)
REGRESSION_FACTORS = (2, 4, 8)           # s = 2d, 4d, 8d (Tables III-IV)
ALPHAS = np.logspace(-6, 2, 17)
#: method -> GRFF options
METHODS = {"GRFF": dict(sampler="iid"),
           "GORF": dict(sampler="orthogonal", orthogonality="mutual"),
           "GORF-separate": dict(sampler="orthogonal", orthogonality="separate")}
#: method -> the orthogonality argument of theory.signed.estimator_variance
ORTHOGONALITY = {"GRFF": "iid", "GORF": "mutual", "GORF-separate": "separate"}


@dataclass(frozen=True)
class Kernel:
    """A kernel of the tables: its signed measure in R^d and its exact value at a distance."""

    name: str
    label: str
    measure: Callable[[int], object]
    exact: Callable[[np.ndarray], np.ndarray]
    #: (method, d, r, s) -> Var of the estimate of k(r) (theory.signed)
    variance: Callable
    #: (degree, gamma, coef0) of the same kernel as (gamma <x, y> + coef0)^degree on the sphere
    #: (for the dot-product baselines RM and TS), or None
    dot_product: tuple | None = None


def _delta_variance(method, d, r, s):
    if method == "GRFF":
        return signed_theory.grff_variance(distance=r, k=s)
    if method == "GORF":       # mutual orthogonality: its own declared dimension domain (<= 300)
        return signed_theory.gorf_variance_mutual(mutual_dimension=d, distance=r, k=s)
    return signed_theory.gorf_variance(dimension=d, distance=r, k=s)


_DELTA = DeltaGaussian()
POLYNOMIAL_A, POLYNOMIAL_DEGREE = 3.0, 1


@functools.lru_cache(maxsize=None)
def _polynomial_measure(d):
    return PolynomialSphere(a=POLYNOMIAL_A, degree=POLYNOMIAL_DEGREE, dimension=d)


def _polynomial_exact(D):
    return polynomial_kernel(np.clip(D, 0.0, 2.0), POLYNOMIAL_A, POLYNOMIAL_DEGREE)


def _polynomial_variance(method, d, r, s):
    return signed_theory.estimator_variance(_polynomial_measure(d), d, r, s, ORTHOGONALITY[method])


KERNELS = {
    "delta_gaussian": Kernel("delta_gaussian", "delta-Gaussian (a = (1, -1), sigma = (1, 10))",
                             lambda d: _DELTA, _DELTA.kernel_of_distance, _delta_variance),
    "polynomial_sphere": Kernel("polynomial_sphere", "polynomial on the sphere (a = 3, m = 1)",
                                _polynomial_measure, _polynomial_exact, _polynomial_variance,
                                (POLYNOMIAL_DEGREE, 2.0 / POLYNOMIAL_A ** 2, 1.0 - 2.0 / POLYNOMIAL_A ** 2)),
}

#: Table II as printed (mean, sd): kernel -> slides' data set -> method -> (s = d/2, d, 2d, 8d)
SLIDES_TABLE2 = {
    "polynomial_sphere": {
        "letter": {"GRFF": ((0.0859, 0.0309), (0.0547, 0.0078), (0.0469, 0.0109), (0.0261, 0.0059)),
                   "GORF": ((0.0716, 0.0175), (0.0495, 0.0139), (0.0360, 0.0110), (0.0231, 0.0078))},
        "ijcnn1": {"GRFF": ((0.1159, 0.0158), (0.0907, 0.0194), (0.0794, 0.0142), (0.0433, 0.0059)),
                   "GORF": ((0.1072, 0.0228), (0.0775, 0.0204), (0.0487, 0.0155), (0.0397, 0.0135))},
        "usps": {"GRFF": ((0.0270, 0.0056), (0.0213, 0.0063), (0.0160, 0.0029), (0.0137, 0.0020)),
                 "GORF": ((0.0251, 0.0078), (0.0194, 0.0087), (0.0143, 0.0030), (0.0137, 0.0016))},
    },
    "delta_gaussian": {
        "letter": {"GRFF": ((0.3918, 0.0428), (0.2736, 0.0345), (0.1887, 0.0201), (0.1017, 0.0088)),
                   "GORF": ((0.3154, 0.0424), (0.1133, 0.0181), (0.0760, 0.0090), (0.0376, 0.0039))},
        "ijcnn1": {"GRFF": ((0.2924, 0.0188), (0.2171, 0.0222), (0.1504, 0.0134), (0.0757, 0.0081)),
                   "GORF": ((0.2415, 0.0190), (0.1026, 0.0129), (0.0739, 0.0065), (0.0383, 0.0022))},
        "usps": {"GRFF": ((0.1005, 0.0061), (0.0690, 0.0050), (0.0500, 0.0024), (0.0253, 0.0023)),
                 "GORF": ((0.0724, 0.0049), (0.0235, 0.0009), (0.0166, 0.0008), (0.0083, 0.0003))},
    },
}
#: Tables III (polynomial) and IV (delta-Gaussian) as printed, housing: method -> (s = 2d, 4d, 8d)
SLIDES_REGRESSION = {
    "polynomial_sphere": {"RM": ((7.153, 1.772), (5.436, 0.917), (4.491, 0.008)),
                          "TS": ((5.414, 0.879), (4.772, 0.177), (4.657, 0.316)),
                          "SRF": ((4.391, 0.368), (3.906, 0.219), (3.555, 0.130)),
                          "DIGMM": ((4.897, 0.368), (4.130, 0.324), (4.000, 0.475)),
                          "GORF": ((4.079, 0.233), (3.817, 0.204), (3.472, 0.137))},
    "delta_gaussian": {"SRF": ((5.432, 0.729), (3.845, 0.379), (3.321, 0.274)),
                       "GORF": ((3.739, 0.360), (3.474, 0.330), (3.164, 0.452))},
}


def settings(budget_name: str) -> dict:
    size = setting(SETTINGS, budget_name)
    return dict(size, trials=size["trials"] * factor_of(budget_name))


def unit_rows(X) -> np.ndarray:
    """Rows scaled to unit l2 norm (the data sets used here have no zero row)."""
    X = np.asarray(X, dtype=np.float64)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


@functools.lru_cache(maxsize=None)
def table2_rows(name: str, n: int, random_state: int) -> np.ndarray:
    """n rows of the training split of ``name`` (seeded subset), on the unit sphere."""
    ds = datasets.load(name)
    rng = np.random.default_rng(derive_seed(random_state, f"004.table2-{name}"))
    keep = np.sort(rng.choice(ds.X_train.shape[0], size=min(n, ds.X_train.shape[0]), replace=False))
    return unit_rows(ds.X_train[keep])


def sizes(d: int, factors=FACTORS) -> list[int]:
    """s = factor * d (at least 1)."""
    return [max(1, int(round(f * d))) for f in factors]


def _seed(random_state, *labels):
    return derive_seed(random_state, "-".join(map(str, labels)))


@threadpool_limits.wrap(limits=1)
def gram_errors(kernel: Kernel, X, methods, s_values, trials: int, random_state: int, label: str) -> dict:
    """{method: (trials, len(s_values)) relative Frobenius errors ||K - K~||_F / ||K||_F}; trial t of
    (method, s) is seeded by (random_state, label, method, s, t)."""
    d = X.shape[1]
    K = kernel.exact(cdist(X, X))
    norm = np.linalg.norm(K)
    measure = kernel.measure(d)
    out = {}
    for method in methods:
        errors = np.empty((trials, len(s_values)))
        for j, s in enumerate(s_values):
            for t in range(trials):       # each trial draws new frequencies
                maps = GRFF(s, kernel=measure, random_state=_seed(random_state, label, method, s, t),
                            **METHODS[method]).fit(X)
                errors[t, j] = np.linalg.norm(K - maps.kernel_estimate(X)) / norm
        out[method] = errors
    return out


def theory_squared_error(kernel: Kernel, method: str, X, s: int, grid: int = 4001) -> float:
    """E ||K - K~||_F^2 / ||K||_F^2 = sum_{i != j} Var K~_ij / ||K||_F^2 (K~ unbiased, exact on the
    diagonal; for the polynomial kernel unbiased for the measure's kernel, within 1.1e-6 of it),
    with the variance as a function of |x_i - x_j| from theory.signed on a fine grid (linear
    interpolation; relative error < 1e-6)."""
    d = X.shape[1]
    r = pdist(X)
    nodes = np.linspace(0.0, r.max() * (1 + 1e-12), grid)
    variance = np.interp(r, nodes, kernel.variance(method, d, nodes, s))
    K = kernel.exact(cdist(X, X))
    return 2.0 * variance.sum() / np.sum(K * K)


def run_table2_unit(unit: dict) -> dict:
    """{"errors": (trials, 4) relative errors} of one unit (budget, random_state, kernel, dataset,
    method) of :func:`table2`."""
    size = settings(unit["budget"])
    X = table2_rows(unit["dataset"], size["n"], unit["random_state"])
    errors = gram_errors(KERNELS[unit["kernel"]], X, (unit["method"],), sizes(X.shape[1]), size["trials"],
                         unit["random_state"], f"004.table2-{unit['kernel']}-{unit['dataset']}")
    return {"errors": errors[unit["method"]].tolist()}


def _units(budget, experiment: str, **grid) -> list[dict]:
    """The units of ``experiment`` at the budget: one per combination of the ``grid``'s values."""
    units = [dict(experiment=experiment, budget=budget.name, random_state=budget.random_state)]
    for name, values in grid.items():
        units = [dict(unit, **{name: value}) for unit in units for value in values]
    return units


@functools.lru_cache(maxsize=None)
def table2(budget) -> dict:
    """{(kernel, data): {"s": s values, "d": d, method: (trials, 4) errors}} at the budget; each
    (kernel, data set, method) is a unit of ``varlab.claims.run_units`` in the budget's store
    "units" (kept on disk where the budget has a store, so that a killed run resumes)."""
    units = _units(budget, "004.table2", kernel=KERNELS, dataset=DATASETS, method=METHODS)
    records = run_units(units, store_for(budget, "units"), run_table2_unit, description="004 Table II")
    out = {}
    for record in records:
        d = table2_rows(record["dataset"], settings(budget.name)["n"], budget.random_state).shape[1]
        cell = out.setdefault((record["kernel"], record["dataset"]), dict(s=sizes(d), d=d))
        cell[record["method"]] = np.array(record["errors"])
    return out


def _fmt(mean, sd):
    return f"{mean:.4f} ± {sd:.4f}"


#: "GORF below GRFF" in Table II's units (relative Frobenius error): below the smallest nonzero
#: difference the table prints between the two (0.0017, usps s = 2d, polynomial)
TABLE2_EFFECT = 0.001


@functools.lru_cache(maxsize=None)
def _table2_exact(budget_name: str, random_state: int):
    """Table II's bold face, decided with varlab's exact expected errors: per cell the root mean
    squared relative Frobenius error sqrt(E ||K - K~||_F^2) / ||K||_F of GORF (mutual) and of GRFF
    on the budget's rows (:func:`theory_squared_error`); holds when GORF is nowhere above GRFF by
    more than TABLE2_EFFECT."""
    size = settings(budget_name)
    rows = []
    for kname, kernel in KERNELS.items():
        for name in DATASETS:
            X = table2_rows(name, size["n"], random_state)
            for s in sizes(X.shape[1]):
                grff, gorf = (math.sqrt(theory_squared_error(kernel, method, X, s)) for method in ("GRFF", "GORF"))
                rows.append({"kernel": kname, "data": name, "n": size["n"], "s": s, "GRFF (exact)": grff,
                             "GORF (exact)": gorf, "GORF - GRFF": gorf - grff})
    gaps = np.array([row["GORF - GRFF"] for row in rows])
    worst = rows[int(np.argmax(gaps))]
    return (bool(gaps.max() <= TABLE2_EFFECT),
            f"exact root mean squared errors: GORF - GRFF at most {gaps.max():+.4f} "
            f"({worst['kernel']} / {worst['data']} / s = {worst['s']}) against {TABLE2_EFFECT:g}; GORF lower by "
            f"more than {TABLE2_EFFECT:g} in {int(np.sum(gaps < -TABLE2_EFFECT))} of {gaps.size} cells, within "
            f"+-{TABLE2_EFFECT:g} (ties, bold in Table II too) in {int(np.sum(np.abs(gaps) <= TABLE2_EFFECT))}", rows)


@claim("004.table2", source="004, Table II (letter; optdigits in place of usps; ijcnn1 not shipped offline)",
       quote="COMPARISON RESULTS BETWEEN APPLYING ORTHOGONAL SAMPLING AND I.I.D SAMPLING ON STATIONARY INDEFINITE "
             "KERNELS IN TERMS OF APPROXIMATION ERROR (MEAN ± STD.). THE LOWEST ERROR IS HIGHLIGHTED IN BOLDFACE",
       statement="GORF (W and V mutually orthogonal) has the lowest relative Frobenius Gram error, ties included (as "
                 "Table II bolds GORF = GRFF = 0.0137): varlab's exact root mean squared error of GORF is nowhere "
                 "above GRFF's by more than 0.001, in every cell (delta-Gaussian and polynomial kernel on the "
                 "sphere, a = 3, m = 1; letter and optdigits rows of the budget; s = d/2, d, 2d, 8d).",
       note="Decided with the exact expectations (sum of varlab's exact variances over the Gram entries, "
            "theory.signed / theory.polynomial; interpolation and the shell measure's kernel within 1.1e-6), "
            "which the trials of varlab.004.table2.theory check; Table II prints mean errors over 10 trials. Effect "
            "size 0.001: below the smallest nonzero GRFF - GORF difference printed (0.0017). At m = 1 with varlab's "
            "measure the polynomial cells are ties (GORF - GRFF within 0.001), not the slides' reductions.")
def table2_bold(run):
    holds, reason, rows = _table2_exact(run.budget.name, run.budget.random_state)
    return builders.exact(run, holds, reason, rows=rows, tolerance=TABLE2_EFFECT, error=1e-5,
                          units="relative Frobenius error")


#: "equals the sum of exact variances": relative tolerance on the mean squared error
THEORY_TOLERANCE = 0.05


def squared_error_measurement(cells) -> Measurement:
    """The mean squared relative Frobenius error over trials against its exact expectation: cells
    of (point, squared errors of the trials, exact value), SE sd / sqrt(trials), judged with the
    t quantile of trials - 1."""
    squared = [np.asarray(values) for _, values, _ in cells]
    return Measurement(estimate=[values.mean() for values in squared],
                       standard_error=[values.std(ddof=1) / math.sqrt(values.size) for values in squared],
                       theory=[expected for _, _, expected in cells], rows=[point for point, _, _ in cells],
                       degrees_of_freedom=[values.size - 1 for values in squared])


def _table2_cells(run):
    """Table II's cells: the trials' squared relative errors of each method and s against
    sum_{i != j} Var K~_ij / ||K||_F^2 (varlab's exact variances)."""
    results = table2(run.budget)
    size = settings(run.budget.name)
    cells = []
    for (kname, name), cell in results.items():
        kernel = KERNELS[kname]
        X = table2_rows(name, size["n"], run.budget.random_state)
        for method in METHODS:
            for j, s in enumerate(cell["s"]):
                cells.append(({"kernel": kname, "data": name, "method": method, "s": s}, cell[method][:, j] ** 2,
                              theory_squared_error(kernel, method, X, s)))
    return squared_error_measurement(cells)


Agreement(
    id="varlab.004.table2.theory", source="varlab: E ||K - K~||_F^2 = sum_ij Var K~_ij (unbiased estimators; "
                                          "theory.signed Formulas)", derived_by_varlab=True,
    statement="On Table II's data the mean squared relative Frobenius error of GRFF, GORF (mutual) and GORF "
              "(separate) over the trials equals sum_{i != j} Var K~_ij / ||K||_F^2 with varlab's exact variances "
              "within 5% (both kernels, every cell).",
    model=Measured(_table2_cells, "mean squared relative Frobenius error"), tolerance=THEORY_TOLERANCE,
    relative=True)


# --- regression (Tables III-IV analogue) -------------------------------------------------------

def regression_split(random_state, trial):
    """(X_train, y_train, X_test, y_test): a seeded 80/20 split of all rows of the regression set,
    columns standardised on the training part, rows scaled to unit norm."""
    ds = datasets.load(REGRESSION_SET)
    X = np.vstack([ds.X_train, ds.X_test])
    y = np.concatenate([ds.y_train, ds.y_test]).astype(np.float64)
    rng = np.random.default_rng(_seed(random_state, "004.regression-split", trial))
    order = rng.permutation(X.shape[0])
    cut = int(round(0.8 * X.shape[0]))
    train, test = order[:cut], order[cut:]
    mean, sd = X[train].mean(axis=0), X[train].std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return unit_rows((X[train] - mean) / sd), y[train], unit_rows((X[test] - mean) / sd), y[test]


def ridge_rmse(F_train, y_train, F_test, y_test) -> float:
    """Test RMSE of ridge regression with alpha chosen by leave-one-out CV on the training part
    (RidgeCV's exact closed form, scikit-learn's default cv=None)."""
    model = RidgeCV(alphas=ALPHAS).fit(F_train, y_train)
    return float(np.sqrt(np.mean((model.predict(F_test) - y_test) ** 2)))


def _regression_features(kernel, method, s, X_train, seed):
    """The fitted feature map of ``method`` as a function of X: GRFF's left map (2s columns per
    part), or 4s columns of Random Maclaurin / TensorSketch for the dot-product form."""
    if method in METHODS:
        maps = GRFF(s, kernel=kernel.measure(X_train.shape[1]), random_state=seed,
                    **METHODS[method]).fit(X_train)
        return maps.transform
    degree, gamma, coef0 = kernel.dot_product
    if method == "RM":
        return RandomMaclaurin(4 * s, degree=degree, gamma=gamma, coef0=coef0, random_state=seed).fit(X_train).transform
    return PolynomialCountSketch(degree=degree, gamma=gamma, coef0=coef0, n_components=4 * s,
                                 random_state=int(seed.generate_state(1)[0] % 2 ** 31)).fit(X_train).transform


#: kernel -> methods of the regression table (the feature maps varlab can run)
REGRESSION_METHODS = {"polynomial_sphere": ("GRFF", "GORF", "GORF-separate", "RM", "TS"),
                      "delta_gaussian": ("GRFF", "GORF", "GORF-separate")}


def _regression_sizes() -> list[int]:
    return sizes(datasets.load(REGRESSION_SET).X_train.shape[1], REGRESSION_FACTORS)


@threadpool_limits.wrap(limits=1)
def run_regression_unit(unit: dict) -> dict:
    """{"rmse": (trials, 3) test RMSEs} of one unit (budget, random_state, kernel, method) of
    :func:`regression`."""
    kname, method, random_state = unit["kernel"], unit["method"], unit["random_state"]
    s_values = _regression_sizes()
    rmse = np.empty((settings(unit["budget"])["regression_trials"], len(s_values)))
    for t in range(rmse.shape[0]):
        X_train, y_train, X_test, y_test = regression_split(random_state, t)
        for j, s in enumerate(s_values):
            seed = _seed(random_state, "004.regression", kname, method, s, t)
            transform = _regression_features(KERNELS[kname], method, s, X_train, seed)
            rmse[t, j] = ridge_rmse(transform(X_train), y_train, transform(X_test), y_test)
    return {"rmse": rmse.tolist()}


@functools.lru_cache(maxsize=None)
def regression(budget) -> dict:
    """{kernel: {"s": s values, method: (trials, 3) test RMSEs}} at the budget; each (kernel,
    method) is a unit of ``varlab.claims.run_units`` in the budget's store "units" (as
    :func:`table2`)."""
    units = [unit for kname, methods in REGRESSION_METHODS.items()
             for unit in _units(budget, "004.regression", kernel=(kname,), method=methods,
                                trials=(settings(budget.name)["regression_trials"],))]
    records = run_units(units, store_for(budget, "units"), run_regression_unit, description="004 Tables III-IV")
    out = {}
    for record in records:
        out.setdefault(record["kernel"], {"s": _regression_sizes()})[record["method"]] = np.array(record["rmse"])
    return out


#: "GORF's RMSE is the lowest", in the target's units (diabetes: RMSE about 55): about 2% of
#: the RMSE, the smallest relative gap Tables III-IV print to the next method (3.472 vs 3.555)
TABLE34_EFFECT = 1.0


#: the methods of Table III that varlab runs (SRF and DIGMM are out of scope; Table IV compares GORF
#: with SRF only)
TABLE34_COMPARED = ("RM", "TS")


def _table34_trials(run) -> dict:
    """{cell: (GORF RMSEs, RM's or TS's RMSEs)} over the trials (one 80/20 split per trial, the
    same for every method: paired), polynomial kernel."""
    cell = regression(run.budget)["polynomial_sphere"]
    return {f"polynomial_sphere / s = {s} / {method}": (cell["GORF"][:, j], cell[method][:, j])
            for method in TABLE34_COMPARED for j, s in enumerate(cell["s"])}


Paired(id="004.table34", source="004, Table III (housing; diabetes in place of it, not shipped offline)",
       quote="REGRESSION ERROR FOR KERNEL APPROXIMATION METHODS ON POLYNOMIAL KERNEL AND HOUSING DATASET (RMSE: "
             "MEAN ± STD). THE LOWEST ERROR IS HIGHLIGHTED IN BOLDFACE",
       statement="GORF's regression RMSE is the lowest up to 1.0 (RMSE units) against the methods of Table III that "
                 "varlab runs, Random Maclaurin and TensorSketch with 4s columns (polynomial kernel on the sphere, "
                 "a = 3, m = 1; s = 2d, 4d, 8d on diabetes): no paired mean RMSE of theirs is below GORF's by more "
                 "than 1.0, judged per comparison over the paired splits with the t quantile of n - 1 degrees of "
                 "freedom.",
       note="Not strict: at m = 1 the kernel is (2/9) <x, y> + 7/9 and all three methods fit nearly the same linear "
            "model, so a strict 'below' is undecidable where the RMSEs tie. Effect size 1.0: about 2% of diabetes' "
            "RMSE (about 55), the smallest relative margin Table III bolds (3.472 vs 3.555); the full budget's 150 "
            "paired splits are the budget that decides it (quick's 20 put it at about 143). GRFF and varlab's separate GORF are not in the tables; "
            "Table IV's only other method (SRF) is out of scope; diabetes for housing.",
       trials=_table34_trials, effect_size=TABLE34_EFFECT, strict=False, quantity="test RMSE",
       names=("GORF", "other"))


# --- figures: the tables (a readable image, and figures/<id>.md) ------------------------------

@figure("004_table2", source="004 Table II (relative Frobenius error, GRFF vs GORF; optdigits for usps)",
        repetitions=lambda budget: f"{settings(budget.name)['trials']} trials")
def table2_figure(budget):
    """Table II: relative Frobenius error of the Gram matrix, mean ± sd over trials, the slides'
    rows below varlab's."""
    results = table2(budget)
    size = settings(budget.name)
    rows = []
    for (kname, name), cell in results.items():
        slides = SLIDES_TABLE2[kname][SLIDES_SET[name]]
        for method in METHODS:
            rows.append([kname, f"{name} (d={cell['d']})", method]
                        + [_fmt(cell[method][:, j].mean(), cell[method][:, j].std(ddof=1)) for j in range(len(cell["s"]))])
            if method in slides:
                rows.append(["", f"slides: {SLIDES_SET[name]}", method] + [_fmt(*v) for v in slides[method]])
    columns = ["kernel", "data", "method"] + [f"s = {f:g}d" for f in FACTORS]
    return table_figure(rows, columns, f"004 Table II: ||K - K~||_F / ||K||_F, mean ± sd over {size['trials']} "
                        f"trials, n = {size['n']} unit-norm rows (slides' rows below ours)")


@figure("004_table34", source="004 Tables III-IV analogue (ridge on random features, diabetes for housing)",
        repetitions=lambda budget: f"{settings(budget.name)['regression_trials']} 80/20 splits")
def table34_figure(budget):
    """Tables III-IV analogue: test RMSE of ridge regression on the features, mean ± sd over
    80/20 splits, with the slides' housing rows (another data set: not comparable in scale)."""
    results = regression(budget)
    rows = []
    for kname, cell in results.items():
        for method in (m for m in cell if m != "s"):
            values = cell[method]
            rows.append([kname, REGRESSION_SET, method]
                        + [f"{values[:, j].mean():.2f} ± {values[:, j].std(ddof=1):.2f}" for j in range(values.shape[1])])
        for method, printed in SLIDES_REGRESSION[kname].items():
            rows.append(["", "slides: housing", method] + [f"{m:.3f} ± {s:.3f}" for m, s in printed])
    trials = settings(budget.name)["regression_trials"]
    columns = ["kernel", "data", "method"] + [f"s = {f}d" for f in REGRESSION_FACTORS]
    return table_figure(rows, columns, f"004 Tables III-IV analogue: test RMSE, ridge on the features "
                        f"(alpha by leave-one-out CV), mean ± sd over {trials} 80/20 splits")
