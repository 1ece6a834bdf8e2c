"""scikit-learn's bundled data sets (extra ``ml``): digits, wine, breast_cancer (classification),
diabetes (regression); half of the rows are test rows."""
from __future__ import annotations

import functools

import numpy as np

from . import packages
from .dataset import Dataset, _make, _readonly
from .split import _SPLIT_TEXT, _split

_SKLEARN_HINT = "pip install scikit-learn (varlab[ml])"

_SKLEARN = {
    "digits": ("load_digits", "classification", "8x8 handwritten digits (UCI optdigits test part)"),
    "wine": ("load_wine", "classification", "UCI wine recognition"),
    "breast_cancer": ("load_breast_cancer", "classification", "UCI breast cancer Wisconsin (diagnostic)"),
    "diabetes": ("load_diabetes", "regression", "diabetes progression (regression, scaled features)"),
}


@functools.lru_cache(maxsize=None)
def _load_sklearn(name: str) -> Dataset:
    if packages.find_spec("sklearn") is None:
        raise ModuleNotFoundError(f"the scikit-learn data sets need scikit-learn: {_SKLEARN_HINT}",
                                  name="sklearn")
    import sklearn.datasets

    loader, task, what = _SKLEARN[name]
    bunch = getattr(sklearn.datasets, loader)()
    X = np.asarray(bunch.data, dtype=np.float64)
    if task == "classification":
        names = getattr(bunch, "target_names", None)
        codes = np.asarray(bunch.target, dtype=np.int64)
        classes = tuple(str(c) for c in names) if names is not None else \
            tuple(str(c) for c in np.unique(codes))
        y = codes
    else:
        classes = ()
        y = np.asarray(bunch.target, dtype=np.float64)
    n, d = X.shape
    n_test = n // 2
    train, test = _split(y if task == "classification" else np.zeros(n, np.int64), n_test)
    source = f"scikit-learn sklearn.datasets.{loader}() (bundled with scikit-learn)"
    kind = f"{len(classes)} classes" if classes else "regression target"
    description = (f"{name}: n={n} ({train.size} train / {test.size} test), d={d}, {kind}. "
                   f"Source: {source}: {what}. Split: {_SPLIT_TEXT}; {n_test} test rows = half.")
    return _make(name, _readonly(X), _readonly(y), classes, task, source, description, train, test)
