"""Synthetic data sets from numpy only: ``gaussian_blobs`` and ``two_moons``, with ``n``,
``random_state`` and recipe options; half of the rows are test rows."""
from __future__ import annotations

import functools
import math

import numpy as np

from .dataset import Dataset, _make, _readonly
from .split import _SPLIT_TEXT, _split


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
