"""Fig. 2 of paper 002 (§5.2): relative Frobenius error ||K - K~||_F / ||K||_F of AsK-RFF's
asymmetric Gram on n random training points of spambase and letter (normalised to [0, 1]^d),
r = 2/d 1, sigma = 2, beta = 0.5 pi/d 1, masses by Eq. (12) on N_s = 50 points (Algorithm 2),
against M = d 2^1 .. d 2^L.

One pass per trial serves every M: the frequencies of the largest M are drawn once (iid rows, so
the first M rows are a draw of M) and the part Grams

    A_part[i, j] = mean_{j <= M} cos<w_j, x_i - x_j>  (real parts),   A3 = mean sin<nu_j, x_i - x_j>

are accumulated over frequency blocks (``dsyrk`` for the symmetric cosine sums, one GEMM for the
antisymmetric sine sums) and read off at each M; K~ = R+ A1 - R- A2 - 2 I+ A3 (Eq. 7) with the
masses fitted by Eq. (12) on the first N_s of the n points (a random subset of the training data)
and, for reference, with the exact masses. Cost per trial: about 6 n^2 M_max flops.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import scipy.linalg.blas
from threadpoolctl import threadpool_limits

from varlab import datasets, spectral
from varlab.claims import run_units, setting, store_for
from varlab.features.asymmetric import asymmetric_gram, fit_total_masses
from varlab.seeding import derive_seed, generator
from varlab.spectral.asymmetric import kernel_value

DATASETS = ("spambase", "letter")
KERNELS = {"shift_gaussian": "shift", "sinh_gaussian": "beta", "cosh_gaussian": "beta"}
SIGMA, N_SUBSET = 2.0, 50
_PARTS = ("real_positive", "real_negative", "imaginary_positive")
_BLOCK = 1024
#: budget -> (n points, largest log2(M/d), trials); the paper (full): 1000 points, 2^10, 10 trials
#: (quick: 10 trials, as the paper, so that the t test of the per-trial slopes has power; fewer points)
SETTINGS = {"test": (200, 4, 4), "quick": (300, 5, 10), "full": (1000, 10, 10)}


@functools.lru_cache(maxsize=None)
def normalised(name):
    """(X_train, y_train, X_test, y_test) of ``varlab.datasets.load(name)``, min-max scaled to
    [0, 1]^d by the range over train and test together (002 §5 normalises all data first)."""
    ds = datasets.load(name)
    both = np.vstack([ds.X_train, ds.X_test])
    low, high = both.min(axis=0), both.max(axis=0)
    scale = np.where(high > low, high - low, 1.0)
    return (ds.X_train - low) / scale, np.asarray(ds.y_train), (ds.X_test - low) / scale, np.asarray(ds.y_test)


def kernel_vector(kernel, d):
    """r = 2/d 1 (shift-Gaussian) or beta = 0.5 pi/d 1 (sinh/cosh), 002 §5."""
    return np.full(d, 2.0 / d if KERNELS[kernel] == "shift" else 0.5 * math.pi / d)


def _accumulate(X, W, cos_sum, sin_sum):
    """Add sum_j cos<w_j, x_i - x_k> (upper triangle, dsyrk) and sum_j sin<w_j, x_i> cos<w_j, x_k>
    (GEMM; the sine sum is that minus its transpose) over the rows w_j of W."""
    angles = X @ W.T
    C, S = np.cos(angles), np.sin(angles)
    if cos_sum is not None:
        scipy.linalg.blas.dsyrk(1.0, np.hstack([C, S]), beta=1.0, c=cos_sum, overwrite_c=1)
    if sin_sum is not None:
        scipy.linalg.blas.dgemm(1.0, S, C, beta=1.0, c=sin_sum, trans_b=1, overwrite_c=1)


def _running_sums(n, W):
    """Zeroed running sums: {real part: n x n} for the real parts present in W, and the sine sum."""
    return ({p: np.zeros((n, n), order="F") for p in _PARTS[:2] if p in W}, np.zeros((n, n), order="F"))


def _add(X, W, start, stop, cos_sums, sin_sum):
    """Add the frequencies start..stop of each part of W to the running sums, in blocks."""
    for begin in range(start, stop, _BLOCK):
        end = min(stop, begin + _BLOCK)
        for p, total in cos_sums.items():
            _accumulate(X, W[p][begin:end], total, None)
        _accumulate(X, W["imaginary_positive"][begin:end], None, sin_sum)


def _means(cos_sums, sin_sum, M):
    """(A1, A2, A3) from the running sums over M frequencies (A2 = 0 for an empty R- part)."""
    n = sin_sum.shape[0]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)          # dsyrk filled the upper triangle
    A1, A2 = (np.where(upper, cos_sums[p], cos_sums[p].T) / M if p in cos_sums else np.zeros((n, n))
              for p in _PARTS[:2])
    return A1, A2, (sin_sum - sin_sum.T) / M


def part_grams(X, W):
    """The part Grams of Eq. (12) for the rows of X: A1[i, k] = mean cos<omega, x_i - x_k>, A2
    (zeta; 0 for an empty part) and A3 = mean sin<nu, x_i - x_k> (= phi(nu) psi(nu)^T), over the
    frequencies W[part] (each (M, d))."""
    X = np.asfortranarray(X, dtype=float)
    cos_sums, sin_sum = _running_sums(X.shape[0], W)
    M = W["imaginary_positive"].shape[0]
    _add(X, W, 0, M, cos_sums, sin_sum)
    return _means(cos_sums, sin_sum, M)


def gram_errors(X, kernel, log2_max, random_state):
    """Relative Frobenius errors of the AsK-RFF Gram of the rows of X for M = d 2^1..d 2^log2_max:
    (estimated-mass errors, exact-mass errors, estimated masses (L, 3)); masses by Eq. (12) on the
    first N_SUBSET rows."""
    X = np.asfortranarray(X, dtype=float)
    n, d = X.shape
    vector = kernel_vector(kernel, d)
    measure = spectral.get_measure(kernel, lengthscale=SIGMA, **{KERNELS[kernel]: vector})
    exact = measure.total_masses()
    rng = generator(random_state)
    checkpoints = d * 2 ** np.arange(1, log2_max + 1)
    parts = measure.parts()
    W = {p: parts[p].rvs(int(checkpoints[-1]), d, rng) for p in _PARTS if parts[p] is not None}
    cos_sums, sin_sum = _running_sums(n, W)
    K = asymmetric_gram(kernel, X, X, SIGMA, vector)
    norm = np.linalg.norm(K)
    k0 = float(kernel_value(kernel, np.zeros(d), SIGMA, vector))
    sub = slice(0, N_SUBSET)
    est_err, exact_err, masses, done = [], [], [], 0
    for M in checkpoints:
        _add(X, W, done, int(M), cos_sums, sin_sum)
        done = int(M)
        A1, A2, A3 = _means(cos_sums, sin_sum, M)
        fitted = fit_total_masses(K[sub, sub], k0, A1[sub, sub], A2[sub, sub], A3[sub, sub])
        for m, out in ((fitted, est_err), (exact, exact_err)):
            approx = m["real_positive"] * A1 - m["real_negative"] * A2 - 2.0 * m["imaginary_positive"] * A3
            out.append(np.linalg.norm(K - approx) / norm)
        masses.append([fitted[p] for p in _PARTS])
    return np.array(est_err), np.array(exact_err), np.array(masses)


@threadpool_limits.wrap(limits=1)
def _trial(name, kernel, trial, n, log2_max, random_state):
    """{"estimated": errors with Eq. (12) masses, "exact": with the exact masses} of one trial (BLAS on
    one thread: the fastest on the shared 2-core machine, and the same bits whatever its load)."""
    X_train = normalised(name)[0]
    seed = derive_seed(random_state, f"002.fig2-{name}-{kernel}", trial)
    rng = np.random.default_rng(seed)
    rows = rng.choice(X_train.shape[0], size=min(n, X_train.shape[0]), replace=False)
    estimated, exact, _ = gram_errors(X_train[rows], kernel, log2_max, rng)
    return {"estimated": estimated.tolist(), "exact": exact.tolist()}


def run_trial(unit: dict) -> dict:
    """The errors of one unit (budget, random_state, dataset, kernel, trial) of :func:`fig2_results`."""
    n, log2_max, _ = setting(SETTINGS, unit["budget"])
    return _trial(unit["dataset"], unit["kernel"], unit["trial"], n, log2_max, unit["random_state"])


def trial_key(unit: dict) -> str:
    """The store key of a :func:`fig2_results` unit (as the committed full-budget records have it)."""
    return f"fig2-{unit['budget']}-{unit['random_state']}-{unit['dataset']}-{unit['kernel']}-{unit['trial']}"


@functools.lru_cache(maxsize=None)
def fig2_results(budget):
    """{(dataset, kernel): (errors with Eq. 12 masses (trials, L), with exact masses, log2(M/d))}
    at the budget's slice; seeds from its ``random_state``, the dataset, kernel and trial; each
    trial is a unit of ``varlab.claims.run_units`` in the budget's store "units"
    (``varlab.claims.store_for``: kept on disk where the budget has a store, as in the
    full-budget run, so that a killed run resumes)."""
    _, log2_max, trials = setting(SETTINGS, budget)
    units = [dict(budget=budget.name, random_state=budget.random_state, dataset=name, kernel=kernel, trial=trial)
             for name in DATASETS for kernel in KERNELS for trial in range(trials)]
    records = run_units(units, store_for(budget, "units"), run_trial, key=trial_key,
                        description="002 Fig. 2 trials")
    out = {}
    for name in DATASETS:
        for kernel in KERNELS:
            runs = [r for r in records if (r["dataset"], r["kernel"]) == (name, kernel)]
            out[(name, kernel)] = (np.array([r["estimated"] for r in runs]),
                                   np.array([r["exact"] for r in runs]), np.arange(1, log2_max + 1))
    return out
