"""The one train/test split rule of every data set: stratified, deterministic, library-independent.

Stratified by class (regression: one stratum); within each class the rows are ordered by a
SplitMix64 hash of their row index in the source (seed 0, a pure function, independent of
numpy's generators and of library versions) and the first ones form the test set; per-class
test counts follow the largest-remainder rule so the total is exact. How many rows are test
rows is each source's choice (paper 000's proportion for the KEEL sets it uses, otherwise half).
"""
from __future__ import annotations

import numpy as np

from .._random import mix64

_SPLIT_SEED = 0

_SPLIT_TEXT = ("stratified by class (regression: one stratum); within a stratum rows are ordered by "
               "a SplitMix64 hash of the row index (seed 0) and the first form the test set; "
               "per-class test counts by largest remainder")


def _split(y: np.ndarray, n_test: int, index=None):
    """Deterministic stratified split of the rows ``index`` (default 0..n-1; their labels ``y``):
    (train rows, test rows) out of ``index``, each sorted, disjoint. The hash orders by index."""
    y = np.asarray(y)
    n = y.size
    if not 0 < n_test < n:
        raise ValueError(f"cannot split {n} rows into {n_test} test rows")
    index = np.arange(n) if index is None else np.asarray(index)
    key = index.astype(np.uint64) + np.uint64(_SPLIT_SEED) * np.uint64(0x9E3779B97F4A7C15)
    key += np.uint64(1)
    order = np.lexsort((index, mix64(key), y))            # by class, then hash, then index
    labels, counts = np.unique(y, return_counts=True)
    exact = counts * (n_test / n)
    take = np.floor(exact).astype(np.int64)
    remainder = n_test - int(take.sum())
    if remainder:
        extra = np.lexsort((np.arange(labels.size), -(exact - take)))[:remainder]
        take[extra] += 1
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    is_test = np.zeros(n, dtype=bool)
    for start, k in zip(starts, take):
        is_test[order[start:start + k]] = True
    return index[~is_test], index[is_test]
