"""The :class:`Dataset` record every loader returns: a data set with its train/test split,
read-only arrays and a description of its source and split."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Dataset"]


@dataclass(frozen=True, eq=False)
class Dataset:
    """A data set with its deterministic train/test split.

    ``X_*`` are float64, ``y_*`` int64 class codes into ``classes`` (the original class names,
    as strings) or float64 targets when ``task == "regression"`` (then ``classes == ()``).
    ``train_index``/``test_index`` are the rows of the source the split took. All arrays are
    read-only (they are shared by the in-process cache); copy them to modify.
    ``paper_sizes`` is paper 000's (n_train, n_test, d) for this data set, or None;
    ``paper_note`` says how the shipped copy relates to paper 000's (empty if it does not say).

    Examples
    --------
    >>> from varlab import datasets
    >>> ds = datasets.load("wine")                # scikit-learn's bundled copy; nothing downloaded
    >>> ds                                        # doctest: +NORMALIZE_WHITESPACE
    Dataset('wine': 89 train / 89 test, d=13, 3 classes,
            source='scikit-learn sklearn.datasets.load_wine() (bundled with scikit-learn)')
    >>> ds.n_train, ds.n_test, ds.n_features, ds.classes
    (89, 89, 13, ('class_0', 'class_1', 'class_2'))
    >>> bool(set(ds.train_index).isdisjoint(ds.test_index)), ds.X_train.flags.writeable
    (True, False)
    """

    name: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    classes: tuple
    task: str
    source: str
    description: str
    train_index: np.ndarray
    test_index: np.ndarray
    paper_sizes: tuple | None = None
    paper_note: str = ""

    @property
    def n_train(self) -> int:
        return self.X_train.shape[0]

    @property
    def n_test(self) -> int:
        return self.X_test.shape[0]

    @property
    def n_features(self) -> int:
        return self.X_train.shape[1]

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    def __repr__(self) -> str:
        kind = f"{self.n_classes} classes" if self.task == "classification" else "regression"
        return (f"Dataset({self.name!r}: {self.n_train} train / {self.n_test} test, "
                f"d={self.n_features}, {kind}, source={self.source!r})")


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def _make(name, X, y, classes, task, source, description, train, test, paper=None, note="") -> Dataset:
    return Dataset(name=name, X_train=_readonly(X[train]), y_train=_readonly(y[train]),
                   X_test=_readonly(X[test]), y_test=_readonly(y[test]), classes=tuple(classes),
                   task=task, source=source, description=description,
                   train_index=_readonly(train), test_index=_readonly(test), paper_sizes=paper,
                   paper_note=note)
