"""Paper 000 §5: the features of one hashing unit (a dataset, method, k and repetition) and its
LinearSVC fit.

Methods: 0-bit GCWS b-bit codings ``gcws_b{1,2,4,8}`` (000 §1.4: "we store only the lowest b bits
of i*", t* ignored, Eq. 13; ``GCWS(zero_bit=True).code``: k ones in 2^b k columns), ``gcws_full``
(one-hot of the exact (i*, t*) of each sample j: inner products count exact collisions, the exact
linearization of 000 Thm 1) and ``nrff`` (``RFF(kernel="correlation", normalize=True)`` at the
dataset's best RBF gamma from Tables 1-2, 000 Eq. 19), each into the linear SVM of
:func:`.svm.linear_svc` (LIBLINEAR, as the paper). Rows are scaled to unit l2 norm first (000 §5).
GCWS hashes train + test at each unit's k with the repetition's seed; sample j depends only on
the seed, the coordinate and j, so the k samples are the first k of any larger k of the same
repetition. NRFF draws its k features afresh.

On nonnegative data (letter, splice, spambase) every i* is a positive-part coordinate, whose index
is even in varlab's 0-based convention (odd in the paper's (2i - 1, 2i)): the lowest bit of i* is
constant, so b = 1 codes nothing there and its accuracy is the majority class's.
"""
from __future__ import annotations

import functools

import numpy as np
import scipy.sparse as sp

from varlab.features import GCWS, RFF
from varlab.seeding import derive_seed

from . import svm


def _seed(random_state: int, *labels) -> np.random.SeedSequence:
    return derive_seed(random_state, *map(str, labels))


@functools.lru_cache(maxsize=2)
def _hashes(dataset, train_cap, test_cap, k, repetition, random_state, scaling=None):
    """GCWS samples 0..k-1 of train + test (sample j does not depend on k: 000 §1.3)."""
    data = svm.prepared(dataset, train_cap, test_cap, scaling)
    X = np.vstack([data.X_train, data.X_test])
    return GCWS(n_components=k, random_state=_seed(random_state, "gcws", dataset, repetition)).fit(X).hash(X)


def full_code(i_star: np.ndarray, t_star: np.ndarray) -> sp.csr_matrix:
    """One-hot of the exact sample (i*, t*) per sample j: a CSR (n, #distinct (j, i*, t*)) with k
    ones per row; <row_u, row_v> = the number of exact collisions (000, Thm 1)."""
    n, k = i_star.shape
    triples = np.stack([np.broadcast_to(np.arange(k), (n, k)).ravel(), i_star.ravel(), t_star.ravel()], axis=1)
    _, columns = np.unique(triples, axis=0, return_inverse=True)
    columns = columns.ravel()
    return sp.csr_matrix((np.ones(n * k), columns, np.arange(0, n * k + 1, k)),
                         shape=(n, int(columns.max()) + 1))


def features(unit: dict):
    """(train, test) features of one unit's (dataset, method, k, repetition)."""
    data = svm.prepared(unit["dataset"], unit["train_cap"], unit["test_cap"], unit.get("scaling"))
    n_train = len(data.y_train)
    method, k = unit["method"], unit["k"]
    if method == "nrff":
        rff = RFF(n_components=k, gamma=unit["gamma"], kernel="correlation", normalize=True,
                  random_state=_seed(unit["random_state"], "nrff", unit["dataset"], unit["repetition"], k))
        return rff.fit_transform(data.X_train), rff.transform(data.X_test)
    i_star, t_star = _hashes(unit["dataset"], unit["train_cap"], unit["test_cap"], k,
                             unit["repetition"], unit["random_state"], unit.get("scaling"))
    if method == "gcws_full":
        Z = full_code(i_star, t_star)
    else:
        Z = GCWS(n_components=k, b=int(method[6:]), zero_bit=True).code(i_star)
    # Columns with no one in the training rows get weight 0 at the optimum (only the l2 term
    # acts on them): dropping them leaves the fitted decision values unchanged, and LIBLINEAR's
    # primal solver runs in time proportional to the column count (2^b k).
    used = np.unique(Z[:n_train].indices)
    Z = Z[:, used]
    return Z[:n_train], Z[n_train:]


_FEATURES: dict = {}


def run_hashing_unit(unit: dict) -> dict:
    """Features (cached for the C grid of one (dataset, method, k, repetition)), then LinearSVC."""
    slot = tuple(unit.get(key) for key in ("dataset", "train_cap", "test_cap", "method", "k", "repetition",
                                           "random_state", "gamma", "scaling"))
    if slot not in _FEATURES:
        _FEATURES.clear()
        _FEATURES[slot] = features(unit)
    train, test = _FEATURES[slot]
    data = svm.prepared(unit["dataset"], unit["train_cap"], unit["test_cap"], unit.get("scaling"))
    return svm._fit_score(svm.linear_svc(unit["C"]), train, data.y_train, test, data.y_test)
