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

from varlab import _random, datasets, spectral
from varlab.features.asymmetric import asymmetric_gram, fit_total_masses
from varlab.spectral.asymmetric import kernel_value

DATASETS = ("spambase", "letter")
KERNELS = {"shift_gaussian": "shift", "sinh_gaussian": "beta", "cosh_gaussian": "beta"}
SIGMA, N_SUBSET = 2.0, 50
_BLOCK = 1024
#: budget -> (n points, largest log2(M/d), trials); the paper (full): 1000 points, 2^10, 10 trials
SETTINGS = {"test": (300, 4, 3), "quick": (500, 5, 3), "full": (1000, 10, 10)}


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


def gram_errors(X, kernel, log2_max, random_state):
    """Relative Frobenius errors of the AsK-RFF Gram of the rows of X for M = d 2^1..d 2^log2_max:
    (estimated-mass errors, exact-mass errors, estimated masses (L, 3)); masses by Eq. (12) on the
    first N_SUBSET rows."""
    X = np.asfortranarray(X, dtype=float)
    n, d = X.shape
    vector = kernel_vector(kernel, d)
    measure = spectral.get_measure(kernel, sigma=SIGMA, **{KERNELS[kernel]: vector})
    exact = measure.total_masses()
    rng = _random.generator(random_state)
    checkpoints = d * 2 ** np.arange(1, log2_max + 1)
    parts = measure.parts()
    W = {p: parts[p].rvs(int(checkpoints[-1]), d, rng) for p in ("real_positive", "real_negative",
                                                                  "imaginary_positive") if parts[p] is not None}
    cos_sums = {p: np.zeros((n, n), order="F") for p in ("real_positive", "real_negative") if p in W}
    sin_sum = np.zeros((n, n), order="F")
    K = asymmetric_gram(kernel, X, X, SIGMA, vector)
    norm = np.linalg.norm(K)
    k0 = float(kernel_value(kernel, np.zeros(d), SIGMA, vector))
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    sub = slice(0, N_SUBSET)
    est_err, exact_err, masses, done = [], [], [], 0
    for M in checkpoints:
        for start in range(done, int(M), _BLOCK):
            stop = min(int(M), start + _BLOCK)
            for p in cos_sums:
                _accumulate(X, W[p][start:stop], cos_sums[p], None)
            _accumulate(X, W["imaginary_positive"][start:stop], None, sin_sum)
        done = int(M)
        A = {}
        for p, total in cos_sums.items():
            full = np.where(upper, total, total.T) / M      # dsyrk filled the upper triangle
            A[p] = full
        A.setdefault("real_negative", np.zeros((n, n)))
        A3 = (sin_sum - sin_sum.T) / M
        fitted = fit_total_masses(K[sub, sub], k0, A["real_positive"][sub, sub],
                                  A["real_negative"][sub, sub], A3[sub, sub])
        for m, out in ((fitted, est_err), (exact, exact_err)):
            approx = (m["real_positive"] * A["real_positive"] - m["real_negative"] * A["real_negative"]
                      - 2.0 * m["imaginary_positive"] * A3)
            out.append(np.linalg.norm(K - approx) / norm)
        masses.append([fitted[p] for p in ("real_positive", "real_negative", "imaginary_positive")])
    return np.array(est_err), np.array(exact_err), np.array(masses)


@functools.lru_cache(maxsize=None)
def fig2_results(budget_name, random_state):
    """{(dataset, kernel): (errors with Eq. 12 masses (trials, L), with exact masses, log2(M/d))}
    at the budget's slice; seeds from ``random_state``, the dataset, kernel and trial."""
    n, log2_max, trials = SETTINGS.get(budget_name, SETTINGS["quick"])
    out = {}
    for name in DATASETS:
        X_train = normalised(name)[0]
        for kernel in KERNELS:
            est, exa = [], []
            for trial in range(trials):
                seed = np.random.SeedSequence([random_state, _random.stable_hash(f"002.fig2-{name}-{kernel}"),
                                               trial])
                rng = np.random.default_rng(seed)
                rows = rng.choice(X_train.shape[0], size=min(n, X_train.shape[0]), replace=False)
                e, x, _ = gram_errors(X_train[rows], kernel, log2_max, rng)
                est.append(e)
                exa.append(x)
            out[(name, kernel)] = (np.array(est), np.array(exa), np.arange(1, log2_max + 1))
    return out
