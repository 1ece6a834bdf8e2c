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

import numpy as np
from scipy.spatial.distance import cdist
from scipy.stats import random_correlation
from threadpoolctl import threadpool_limits

from varlab import datasets, spectral
from varlab.features.samplers import get_sampler

SAMPLERS = ("MC", "Sobol", "SSobol", "Anti", "CV1", "CV2", "MM")
_FREQUENCIES = {"MC": "iid", "Sobol": "sobol", "SSobol": "scrambled_sobol", "Anti": "antithetic",
                "CV1": "iid", "CV2": "iid", "MM": "moment_matching"}
#: samplers that give random features (003, Sec. 4: only these are used in regression)
FEATURE_SAMPLERS = ("MC", "Sobol", "SSobol", "MM")


def lr500(n: int = 10_000, d: int = 500, random_state: int = 0):
    """The LR500 recipe of 003, Sec. 4: x ~ N(0, R), R a random correlation matrix (scipy's
    ``random_correlation`` with eigenvalues d * Dirichlet(1)), y = x' beta + noise with beta ~
    N(0, I / d) and noise N(0, 0.1^2). Returns (X, y); the paper's split is 8000 / 2000."""
    rng = np.random.default_rng(random_state)
    eigenvalues = rng.dirichlet(np.ones(d)) * d
    eigenvalues *= d / eigenvalues.sum()
    R = random_correlation.rvs(eigenvalues, random_state=rng)
    X = rng.multivariate_normal(np.zeros(d), R, size=n, method="cholesky")
    beta = rng.standard_normal(d) / np.sqrt(d)
    y = X @ beta + 0.1 * rng.standard_normal(n)
    return X, y


def load(name: str, n: int, random_state: int = 0):
    """(X_train, y_train, X_test, y_test), standardised columns, at most n training rows: LR500
    (80/20 split as in the paper) or a seeded subset of a ``varlab.datasets`` set's own split (n
    training rows, n / 4 test rows; class labels as responses, as the paper does for its labelled
    sets)."""
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
    return (X_train - mean) / sd, y_train, (X_test - mean) / sd, y_test


def bandwidth_10nn(X) -> float:
    """sigma = the mean distance of the points to their 10th nearest neighbour (003, Sec. 4)."""
    D = cdist(X, X)
    return float(np.mean(np.sort(D, axis=1)[:, 10]))


def frequencies(sampler: str, m: int, d: int, sigma: float, rng) -> np.ndarray:
    return get_sampler(_FREQUENCIES[sampler]).frequencies(spectral.Gaussian(sigma), m, d, rng)


def gram_estimate(sampler: str, X, W, sigma: float, K) -> np.ndarray:
    """The complex Gram estimate (n, n) of ``sampler`` from frequencies W (m, d)."""
    m = W.shape[0]
    Z = np.exp(-1j * (X @ W.T)) / np.sqrt(m)
    G = Z @ Z.conj().T
    if sampler in ("CV1", "CV2"):
        mu = X @ W.mean(axis=0)                                   # c' mu^ = (x_l - x_h)' mu^
        G = G + K * 1j * (mu[:, None] - mu[None, :])
        if sampler == "CV2":
            P = X @ W.T
            Q = P @ P.T / m                                       # x_l' Sigma^ x_h
            q = np.diag(Q)
            quadratic = q[:, None] + q[None, :] - 2 * Q           # c' Sigma^ c
            exact = cdist(X, X, "sqeuclidean") / sigma ** 2       # c' Sigma c
            G = G + 0.5 * K * (quadratic - exact)
    return G


@threadpool_limits.wrap(limits=1)
def gram_errors(X, sigma: float, m_values, repetitions: int, random_state: int):
    """{sampler: (frobenius, spectral)} arrays (len(m_values),): mean relative errors over
    ``repetitions`` (NaN where MM has m <= d)."""
    K = np.exp(-cdist(X, X, "sqeuclidean") / (2 * sigma ** 2))
    norm_f, norm_2 = np.linalg.norm(K), np.linalg.norm(K, 2)
    out = {name: (np.full(len(m_values), np.nan), np.full(len(m_values), np.nan)) for name in SAMPLERS}
    seeds = np.random.SeedSequence(random_state)
    for i, m in enumerate(m_values):
        for name in SAMPLERS:
            if name == "MM" and m <= X.shape[1]:
                continue
            rng = np.random.default_rng(seeds.spawn(1)[0])
            f, s = [], []
            for _ in range(repetitions):      # each repetition draws a new set of m frequencies
                E = K - gram_estimate(name, X, frequencies(name, m, X.shape[1], sigma, rng), sigma, K)
                f.append(np.linalg.norm(E) / norm_f)
                s.append(np.max(np.abs(np.linalg.eigvalsh(E))) / norm_2)
            out[name][0][i], out[name][1][i] = np.mean(f), np.mean(s)
    return out


@threadpool_limits.wrap(limits=1)
def pcr_errors(data, sigma: float, m: int, components, repetitions: int, random_state: int):
    """{sampler: [relative test error for each number of components]} of principal component
    regression on the real embedding [cos, sin] / sqrt(m) of the complex features (003, Table 1)."""
    X_train, y_train, X_test, y_test = data
    seeds = np.random.SeedSequence(random_state)
    out = {}
    for name in FEATURE_SAMPLERS:
        if name == "MM" and m <= X_train.shape[1]:
            continue
        rng = np.random.default_rng(seeds.spawn(1)[0])
        errors = np.zeros(len(components))
        for _ in range(repetitions):
            W = frequencies(name, m, X_train.shape[1], sigma, rng)

            def features(X):
                P = X @ W.T
                return np.hstack([np.cos(P), np.sin(P)]) / np.sqrt(m)
            F_train, F_test = features(X_train), features(X_test)
            centre, y_mean = F_train.mean(0), y_train.mean()
            U, S, Vt = np.linalg.svd(F_train - centre, full_matrices=False)
            for j, p in enumerate(components):
                p = min(p, int(np.sum(S > S[0] * 1e-10)))
                coefficients = Vt[:p].T @ ((U[:, :p].T @ (y_train - y_mean)) / S[:p])
                prediction = (F_test - centre) @ coefficients + y_mean
                errors[j] += np.linalg.norm(y_test - prediction) / np.linalg.norm(y_test)
        out[name] = errors / repetitions
    return out
