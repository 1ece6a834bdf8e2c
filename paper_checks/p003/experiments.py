"""Experiments of paper 003, Sec. 4: relative Gram-matrix errors of the seven samplers (Figs. 1-3)
and principal component regression (Table 1), on the synthetic LR500 recipe and real sets of
``varlab.datasets`` (the paper's YP90, QM274 and MNIST300 are not available offline).

Gram matrices use the paper's complex features (Eq. 5): K^ = Z Z^H with Z = exp(-i X W') / sqrt(m).
CV1 and CV2 add the controls of Eq. (11) entrywise with the optimal coefficients of Thm 1, which
are the true kernel values (the paper's "control variate sampling"; it cannot give features).
MM needs m >= d + 1 and is left out below that. Errors: ||K - K^||_F / ||K||_F and the same in
the spectral norm (003, Sec. 4).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.sparse.linalg import ArpackNoConvergence, eigsh
from scipy.spatial.distance import cdist
from scipy.stats import random_correlation
from threadpoolctl import threadpool_limits

from varlab import datasets, spectral
from varlab.claims import factor_of, run_units, setting, store_for
from varlab.features.samplers import get_sampler

SAMPLERS = ("MC", "Sobol", "SSobol", "Anti", "CV1", "CV2", "MM")
_FREQUENCIES = {"MC": "iid", "Sobol": "sobol", "SSobol": "scrambled_sobol", "Anti": "antithetic",
                "CV1": "iid", "CV2": "iid", "MM": "moment_matching"}
#: samplers that give random features (003, Sec. 4: only these are used in regression)
FEATURE_SAMPLERS = ("MC", "Sobol", "SSobol", "MM")


@lru_cache(maxsize=2)
def _correlation(d: int, random_state: int):
    """LR500's correlation matrix R (read-only) and the generator's state after drawing it: the
    O(d^3) part of the recipe, drawn once per (d, random_state) for every n."""
    rng = np.random.default_rng(random_state)
    eigenvalues = rng.dirichlet(np.ones(d)) * d
    eigenvalues *= d / eigenvalues.sum()
    R = random_correlation.rvs(eigenvalues, random_state=rng, tol=1e-10)   # sum = d to rounding
    R.setflags(write=False)
    return R, rng.bit_generator.state


def lr500(n: int = 10_000, d: int = 500, random_state: int = 0):
    """The LR500 recipe of 003, Sec. 4: x ~ N(0, R), R a random correlation matrix (scipy's
    ``random_correlation`` with eigenvalues d * Dirichlet(1)), y = x' beta + noise with beta ~
    N(0, I / d) and noise N(0, 0.1^2). Returns (X, y); the paper's split is 8000 / 2000."""
    R, state = _correlation(int(d), random_state)
    rng = np.random.default_rng(random_state)
    rng.bit_generator.state = state                     # the draws that follow R
    X = rng.multivariate_normal(np.zeros(d), R, size=n, method="cholesky")
    beta = rng.standard_normal(d) / np.sqrt(d)
    y = X @ beta + 0.1 * rng.standard_normal(n)
    return X, y


@lru_cache(maxsize=8)
def load(name: str, n: int, random_state: int = 0):
    """(X_train, y_train, X_test, y_test), standardised columns, at most n training rows: LR500
    (80/20 split as in the paper) or a seeded subset of a ``varlab.datasets`` set's own split (n
    training rows, n / 4 test rows; class labels as responses, as the paper does for its labelled
    sets). Cached (the figures ask for the same sets); the arrays are read-only."""
    if name == "lr500":
        X, y = lr500(n=int(n * 1.25), random_state=random_state)
        cut = n
        X_train, y_train, X_test, y_test = X[:cut], y[:cut], X[cut:], y[cut:]
    else:
        ds = datasets.load(name)
        rng = np.random.default_rng(random_state)        # a seeded subset (the files are sorted by class)
        train = np.sort(rng.permutation(ds.X_train.shape[0])[:n])
        test = np.sort(rng.permutation(ds.X_test.shape[0])[: max(1, n // 4)])
        X_train, y_train = ds.X_train[train].astype(float), ds.y_train[train].astype(float)
        X_test, y_test = ds.X_test[test].astype(float), ds.y_test[test].astype(float)
    mean, sd = X_train.mean(0), X_train.std(0)
    sd = np.where(sd > 0, sd, 1.0)
    out = ((X_train - mean) / sd, np.array(y_train), (X_test - mean) / sd, np.array(y_test))
    for array in out:
        array.setflags(write=False)
    return out


def bandwidth_10nn(X) -> float:
    """sigma = the mean distance of the points to their 10th nearest neighbour (003, Sec. 4)."""
    D = cdist(X, X)
    return float(np.mean(np.sort(D, axis=1)[:, 10]))


def frequencies(sampler: str, m: int, d: int, sigma: float, rng) -> np.ndarray:
    return get_sampler(_FREQUENCIES[sampler]).frequencies(spectral.Gaussian(sigma), m, d, rng)


def _gram_parts(sampler: str, X, W, K, exact_quadratic):
    """(Re K^, Im K^) of the complex Gram estimate of ``sampler`` from frequencies W (m, d), in
    real arithmetic: with P = X W', C = cos P, S = sin P and Z = (C - i S) / sqrt(m),
    Z Z^H = (C C' + S S' + i (C S' - S C')) / m (one symmetric product of [C, S] and one C S'
    instead of a complex product). CV1/CV2 add the controls of Eq. (11) with beta* = K."""
    m = W.shape[0]
    P = X @ W.T
    F = np.hstack([np.cos(P), np.sin(P)])
    real = F @ F.T / m
    cross = F[:, :m] @ F[:, m:].T / m                             # C S' / m
    imaginary = cross - cross.T
    if sampler in ("CV1", "CV2"):
        mu = X @ W.mean(axis=0)                                   # c' mu^ = (x_l - x_h)' mu^
        imaginary += K * (mu[:, None] - mu[None, :])
        if sampler == "CV2":
            Q = P @ P.T / m                                       # x_l' Sigma^ x_h
            q = np.diag(Q)
            quadratic = q[:, None] + q[None, :] - 2 * Q           # c' Sigma^ c
            real += 0.5 * K * (quadratic - exact_quadratic)
    return real, imaginary


def gram_estimate(sampler: str, X, W, sigma: float, K) -> np.ndarray:
    """The complex Gram estimate (n, n) of ``sampler`` from frequencies W (m, d): Z Z^H with
    Z = exp(-i X W') / sqrt(m) (Eq. 5), plus the controls of Eq. (11) for CV1/CV2."""
    real, imaginary = _gram_parts(sampler, X, W, K, cdist(X, X, "sqeuclidean") / sigma ** 2)
    return real + 1j * imaginary


def spectral_norm(E) -> float:
    """max |eigenvalue| of the Hermitian matrix E: Lanczos (ARPACK through scipy's ``eigsh``, one
    eigenvalue of largest magnitude, tol=0 i.e. machine precision, a fixed generic start vector)
    at a tenth of the cost of all eigenvalues; ``eigvalsh`` if ARPACK does not converge."""
    start = np.random.default_rng(0).standard_normal((2, E.shape[0]))
    try:
        value = eigsh(E, k=1, which="LM", tol=0, v0=start[0] + 1j * start[1], return_eigenvectors=False)
        return float(abs(value[0]))
    except ArpackNoConvergence:
        return float(np.max(np.abs(np.linalg.eigvalsh(E))))


@threadpool_limits.wrap(limits=1)
def gram_errors(X, sigma: float, m_values, repetitions: int, random_state: int):
    """{sampler: (frobenius, spectral, se_frobenius, se_spectral)} arrays (len(m_values),): mean
    relative errors over ``repetitions`` and their standard errors (sd / sqrt(repetitions); NaN for
    one repetition, and everything NaN where MM has m <= d). ||E||_F^2 = ||K - Re K^||_F^2 + ||Im K^||_F^2;
    ||E||_2 = the largest |eigenvalue| of the Hermitian E = K - K^ (``spectral_norm``). The
    repetitions of (m, sampler j) draw from SeedSequence(random_state, spawn_key=(m, j)), so one
    m computed alone gives the same numbers as within a grid."""
    squared = cdist(X, X, "sqeuclidean") / sigma ** 2             # c' Sigma c, once per call
    K = np.exp(-0.5 * squared)
    norm_f, norm_2 = np.linalg.norm(K), np.linalg.norm(K, 2)
    out = {name: tuple(np.full(len(m_values), np.nan) for _ in range(4)) for name in SAMPLERS}
    for i, m in enumerate(m_values):
        for j, name in enumerate(SAMPLERS):
            if name == "MM" and m <= X.shape[1]:
                continue
            rng = np.random.default_rng(np.random.SeedSequence(random_state, spawn_key=(int(m), j)))
            f, s = [], []
            for _ in range(repetitions):      # each repetition draws a new set of m frequencies
                real, imaginary = _gram_parts(name, X, frequencies(name, m, X.shape[1], sigma, rng),
                                              K, squared)
                real = K - real                                   # E = real - i imaginary
                f.append(np.sqrt(np.sum(real ** 2) + np.sum(imaginary ** 2)) / norm_f)
                s.append(spectral_norm(real - 1j * imaginary) / norm_2)
            for row, errors in enumerate((f, s)):
                out[name][row][i] = np.mean(errors)
                if repetitions > 1:
                    out[name][row + 2][i] = np.std(errors, ddof=1) / np.sqrt(repetitions)
    return out


def pcr_predictions(F_train, y_train, F_test, components) -> np.ndarray:
    """(len(components), n_test) predictions of principal component regression on the first p
    principal components of the centred F_train for each p of ``components`` (003, Table 1; at
    most the rank). The principal directions come from the eigendecomposition of the smaller of
    the two Grams A A' (n x n) and A'A (p x p) of A = F_train - mean: with A = U S V', the
    prediction with q PCs is (F_test - mean) V_q S_q^{-1} U_q' (y - y_mean) + y_mean, and
    V_q S_q^{-1} U_q' = A' U_q S_q^{-2} U_q' = V_q S_q^{-2} V_q' A'. The rank counts the
    eigenvalues above max(n, p) eps times the largest (numpy's matrix_rank rule on the Gram)."""
    centre, y_mean = F_train.mean(0), y_train.mean()
    A, B, r = F_train - centre, F_test - centre, y_train - y_mean
    if A.shape[0] <= A.shape[1]:
        values, vectors = np.linalg.eigh(A @ A.T)               # U, S^2
        scores = (B @ A.T) @ vectors                            # B V S = B A' U
        weights = vectors.T @ r                                 # U' r
    else:
        values, vectors = np.linalg.eigh(A.T @ A)               # V, S^2
        scores = B @ vectors                                    # B V
        weights = vectors.T @ (A.T @ r)                         # V' A' r = S U' r
    order = np.argsort(values)[::-1]
    values, scores, weights = values[order], scores[:, order], weights[order]
    rank = int(np.sum(values > values[0] * max(A.shape) * np.finfo(float).eps))
    terms = scores[:, :rank] * (weights[:rank] / values[:rank])
    cumulative = np.cumsum(terms, axis=1)
    return np.stack([cumulative[:, min(p, rank) - 1] for p in components]) + y_mean


@threadpool_limits.wrap(limits=1)
def pcr_errors(data, sigma: float, m: int, components, trial: int, random_state: int):
    """{sampler: (len(components),) array} of relative l2 test errors of principal component
    regression on the real embedding [cos, sin] / sqrt(m) of the complex features (003, Table 1)
    in trial number ``trial``: sampler j draws its m frequencies from SeedSequence(random_state,
    spawn_key=(trial, j))."""
    X_train, y_train, X_test, y_test = data
    out = {}
    for j, name in enumerate(FEATURE_SAMPLERS):
        if name == "MM" and m <= X_train.shape[1]:
            continue
        rng = np.random.default_rng(np.random.SeedSequence(random_state, spawn_key=(int(trial), j)))
        W = frequencies(name, m, X_train.shape[1], sigma, rng)

        def features(X):
            P = X @ W.T
            return np.hstack([np.cos(P), np.sin(P)]) / np.sqrt(m)
        predictions = pcr_predictions(features(X_train), y_train, features(X_test), components)
        out[name] = np.linalg.norm(y_test - predictions, axis=1) / np.linalg.norm(y_test)
    return out


# --- the experiments at a budget (shared by the figures and claim 003.table1) ----------------------

#: budget name -> Gram points n, repetitions, data sets of Figs. 1-2 (``sets``), of Fig. 3
#: (``sets3``) and of Table 1 (``table_sets``), Fig. 3's m, Table 1's (n_train, m, components,
#: trials). "full" keeps the paper's sizes on the data sets that fitted the machine time of the
#: run (simulations/p003/report.md says what ran and what did not)
SIZES = {
    "test": dict(n=200, reps=1, sets=("lr500", "texture"), sets3=("lr500", "texture"), m3=512,
                 table_sets=("lr500", "texture"), table=(600, 512, (1024, 128), 2)),
    "quick": dict(n=300, reps=2, sets=("lr500", "texture"), sets3=("lr500", "texture"), m3=512,
                  table_sets=("lr500", "texture"), table=(1000, 4096, (8192, 512), 3)),
    "full": dict(n=1000, reps=100, sets=("lr500", "texture", "satimage", "spambase", "optdigits"),
                 sets3=("lr500", "texture"), m3=2048,
                 table_sets=("texture",), table=(8000, 4096, (8192, 512), 5)),
}
#: Fig. 3's bandwidths, in multiples of sigma_10NN
BANDWIDTH_FACTORS = (0.5, 1.0, 2.0, 4.0)
#: the paper's Table 1 row (d): LR500, MC / Sobol / SSobol / MM, 4096 and 512 components (%)
PAPER_TABLE1_LR500 = {"MC": (30.62, 24.34), "Sobol": (30.07, 23.63), "SSobol": (29.30, 24.44),
                      "MM": (29.30, 23.00)}

#: the name of the budget's store of finished pieces (one data set and m, one bandwidth, one
#: trial): ``varlab.claims.store_for(budget, STORE_NAME)``, a JSON-lines file in ``budget.store``
#: (simulations/p003_full.py: simulations/p003/experiments.jsonl), in memory without one
STORE_NAME = "experiments"


def sizes(budget) -> dict:
    """The sizes of ``budget`` (by its name; a part "quick/4" counts as "quick")."""
    return _sizes(budget.name)


def _sizes(budget_name: str) -> dict:
    size = setting(SIZES, budget_name)
    n_train, m, components, trials = size["table"]
    return dict(size, table=(n_train, m, components, trials * factor_of(budget_name)))


def _m_grid(d: int):
    return [512, 1024, 2048] if d >= 256 else [32, 64, 128, 256, 512, 1024, 2048]


def _gram_unit(budget, name: str, factor: float, m: int) -> dict:
    """The unit of the Gram errors on ``name`` at bandwidth factor x sigma_10NN and m features."""
    return dict(experiment="gram", budget=budget.name, random_state=budget.random_state, dataset=name,
                factor=factor, m=m)


def _pcr_unit(budget, name: str, trial: int) -> dict:
    """The unit of Table 1's ``trial`` on ``name``."""
    return dict(experiment="pcr", budget=budget.name, random_state=budget.random_state, dataset=name, trial=trial)


def piece_key(unit: dict) -> str:
    """The stored piece's name of a unit (as the full run's store has them; Fig. 3's sigma_10NN
    piece is Figs. 1-2's piece at that m)."""
    size, prefix = _sizes(unit["budget"]), f"{unit['budget']}-{unit['random_state']}"
    if unit["experiment"] == "pcr":
        n, m = size["table"][:2]
        return f"{prefix}-pcr-{unit['dataset']}-n{n}-m{m}-trial{unit['trial']}"
    what = "gram" if unit["factor"] == 1 else f"bandwidth-x{unit['factor']:g}"
    return f"{prefix}-{what}-{unit['dataset']}-m{unit['m']}-n{size['n']}-r{size['reps']}"


def gram_key(budget, name: str, factor: float, m: int) -> str:
    """The stored piece's name of the Gram errors on ``name`` at ``factor`` and ``m``."""
    return piece_key(_gram_unit(budget, name, factor, m))


def pcr_key(budget, name: str, trial: int) -> str:
    """The stored piece's name of Table 1's ``trial`` on ``name``."""
    return piece_key(_pcr_unit(budget, name, trial))


def run_piece(unit: dict) -> dict:
    """{"values": {sampler: nested lists}} of one unit: the Gram errors (mean Frobenius and
    spectral errors and their standard errors, every bandwidth at the budget's seed: common random
    numbers across sigma) or Table 1's PCR errors of one trial."""
    size, seed, name = _sizes(unit["budget"]), unit["random_state"], unit["dataset"]
    if unit["experiment"] == "pcr":
        n, m, components, _ = size["table"]
        data = load(name, n, random_state=seed % 2 ** 32)
        values = pcr_errors(data, bandwidth_10nn(data[0][:1000]), m, components, unit["trial"], seed)
    else:
        X = load(name, size["n"], random_state=seed % 2 ** 32)[0]
        values = gram_errors(X, bandwidth_10nn(X) * unit["factor"], [unit["m"]], size["reps"], seed)
    return {"values": {sampler: np.asarray(item, dtype=float).tolist() for sampler, item in values.items()}}


def _run(budget, units) -> list[dict]:
    """{sampler: array} per unit: from the budget's store :data:`STORE_NAME`, or run
    (``varlab.claims.run_units``) and stored there."""
    records = run_units(units, store_for(budget, STORE_NAME), run_piece, key=piece_key,
                        description="003 experiments")
    return [{sampler: np.asarray(item, dtype=float) for sampler, item in r["values"].items()} for r in records]


def _gram_pieces(budget, name: str, factors, ms) -> list[dict]:
    """{sampler: (4, 1) errors} per (factor, m): NaN standard errors in a piece stored before they
    were kept (as the full run's)."""
    pieces = _run(budget, [_gram_unit(budget, name, factor, m) for factor, m in zip(factors, ms)])
    return [{sampler: np.vstack([values, np.full((4 - len(values), values.shape[1]), np.nan)])
             for sampler, values in piece.items()} for piece in pieces]


def pieces(budget) -> dict:
    """{(experiment, data set): [stored piece names]} that the budget's Figs. 1-3 and Table 1 need
    (Fig. 3's sigma_10NN piece is Figs. 1-2's)."""
    size = sizes(budget)
    out = {("Figs. 1-2", name): [gram_key(budget, name, 1, m) for m in _m_grid(dimension(name))]
           for name in size["sets"]}
    out.update({("Fig. 3", name): [gram_key(budget, name, f, size["m3"]) for f in BANDWIDTH_FACTORS]
                for name in size["sets3"]})
    out.update({("Table 1", name): [pcr_key(budget, name, i) for i in range(size["table"][3])]
                for name in size["table_sets"]})
    return out


def dimension(name: str) -> int:
    return 500 if name == "lr500" else datasets.load(name).X_train.shape[1]


def gram_vs_m(budget) -> dict:
    """{set: (m grid, {sampler: (4, len(m)) mean Frobenius and spectral errors, then their
    standard errors})} (Figs. 1-2)."""
    size, seed = sizes(budget), budget.random_state
    out = {}
    for name in size["sets"]:
        m = _m_grid(load(name, size["n"], random_state=seed % 2 ** 32)[0].shape[1])
        stored = _gram_pieces(budget, name, [1] * len(m), m)
        out[name] = (m, {sampler: np.concatenate([piece[sampler] for piece in stored], axis=1)
                         for sampler in SAMPLERS})
    return out


def gram_vs_bandwidth(budget) -> dict:
    """{set: (sigmas, [{sampler: (4, 1) errors and standard errors} per bandwidth])} at Fig. 3's m."""
    size, seed = sizes(budget), budget.random_state
    out = {}
    for name in size["sets3"]:
        sigma0 = bandwidth_10nn(load(name, size["n"], random_state=seed % 2 ** 32)[0])
        out[name] = (sigma0 * np.asarray(BANDWIDTH_FACTORS),
                     _gram_pieces(budget, name, BANDWIDTH_FACTORS, [size["m3"]] * len(BANDWIDTH_FACTORS)))
    return out


def table1(budget) -> dict:
    """{set: {sampler: (trials, 2) relative test errors}} of PCR with Table 1's m features, all
    PCs and the first 512 (at the test budget: smaller), on the budget's ``table_sets``; one stored
    piece per trial."""
    trials = sizes(budget)["table"][3]
    out = {}
    for name in sizes(budget)["table_sets"]:
        stored = _run(budget, [_pcr_unit(budget, name, i) for i in range(trials)])
        out[name] = {sampler: np.stack([piece[sampler] for piece in stored]) for sampler in stored[0]}
    return out
