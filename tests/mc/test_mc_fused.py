"""Fused kernels (varlab.mc.fused, issue 33): each fused model equals its numpy reference (the
same draws, the same terms), the fused path is bit-identical across n_jobs and chunk sizes, and
a missing or failing numba falls back to numpy with one warning."""
import warnings

import numpy as np
import pytest

from varlab import mc
from varlab.mc import Workspace, fused, get_model, simulate
from varlab.mc.models import _fused_rff

numba = pytest.importorskip("numba")

# (model, options, point, n_terms): every model with a fused kernel
FUSED = [("rff", {}, {"rho": 0.5, "gamma": 1.0}, 1),
         ("rff", {}, {"rho": -0.3, "gamma": 2.5}, 1),
         ("rff_no_phase", {}, {"rho": 0.0, "gamma": 0.7}, 1),
         ("nrff", {}, {"rho": 0.5, "gamma": 1.0}, 3),
         ("nrff", {}, {"rho": 1.0, "gamma": 10.0}, 3),
         ("rff_radial", {}, {"dimension": 3, "distance": 1.7}, 1)]
# the Gaussian kernel's i.i.d. features: numpy's pairwise row sums (below 8, 8 to 128, above)
FUSED += [("stationary_rff", {"kernel": "gaussian", "features": features}, {"dimension": d, "distance": 1.3}, 1)
          for features in ("paired", "phase") for d in (1, 3, 8, 13, 64, 100, 128, 129)]


def terms(monkeypatch, switch, name, options, point, n_terms, n=17, k=111):
    """The terms of one block and the generator's state after it, fused ("1") or numpy ("0")."""
    monkeypatch.setenv(fused.ENVIRONMENT, switch)
    rng = np.random.default_rng(5)
    out = np.empty((n_terms, n, k))
    get_model(name, **options).sample(rng, n, k, out, Workspace(), **point)
    return out, rng.bit_generator.state


@pytest.mark.parametrize("name, options, point, n_terms", FUSED)
def test_fused_kernel_equals_the_numpy_reference(monkeypatch, name, options, point, n_terms):
    fast, fast_state = terms(monkeypatch, "1", name, options, point, n_terms)
    reference, reference_state = terms(monkeypatch, "0", name, options, point, n_terms)
    assert fast_state == reference_state                      # the same draws, no more, no fewer
    # within rounding: the fused kernels' cos (varlab.mc.cosine) and numpy's differ by at most
    # one ulp, on a few percent of the terms; products of two cosines by at most a few ulp
    np.testing.assert_allclose(fast, reference, rtol=0, atol=4 * np.finfo(float).eps)


def test_the_fused_path_runs_by_default(monkeypatch):
    monkeypatch.delenv(fused.ENVIRONMENT, raising=False)
    out = np.empty((3, 2, 5))
    assert _fused_rff.rff_terms(np.random.default_rng(0), out, Workspace(), 0.5, 1.0, phase=True)
    monkeypatch.setenv(fused.ENVIRONMENT, "0")
    assert not _fused_rff.rff_terms(np.random.default_rng(0), out, Workspace(), 0.5, 1.0, phase=True)


def test_simulation_equals_the_reference(monkeypatch):
    point = dict(k=[1, 10, 300], rho=[0.2, 0.9], gamma=1.5, n_repetitions=500, random_state=3)
    monkeypatch.setenv(fused.ENVIRONMENT, "0")
    reference = simulate("nrff", **point)
    monkeypatch.setenv(fused.ENVIRONMENT, "1")
    fast = simulate("nrff", **point)
    for statistic in ("mean", "variance", "mse", "se_mse"):
        np.testing.assert_allclose(getattr(fast, statistic), getattr(reference, statistic), rtol=1e-12)


@pytest.mark.parametrize("name, point", [("nrff", {"rho": 0.5, "gamma": 1.0}),
                                         ("rff_radial", {"dimension": 2, "distance": 1.0}),
                                         ("stationary_rff", {"dimension": 3, "distance": 1.0,
                                                             "features": "phase"})])
def test_fused_path_is_bit_identical_across_parallel_settings(name, point):
    arguments = dict(k=[1, 10, 100], n_repetitions=2000, random_state=7, **point)
    reference = simulate(name, **arguments)
    assert reference.n_blocks.max() > 2
    for n_jobs, chunk_size in ((2, 1), (2, 3), (1, 2)):
        assert simulate(name, n_jobs=n_jobs, chunk_size=chunk_size, **arguments) == reference
    assert simulate(name, backend="threading", n_jobs=2, **arguments) == reference


@pytest.mark.parametrize("name", ["rff_radial", "stationary_rff"])
def test_overflowing_phases_are_refused_naming_distance(name):
    with pytest.raises(ValueError, match="distance=1e.308 is too large"):
        simulate(name, k=[4], dimension=2, distance=1e308, n_repetitions=40, random_state=0)


def test_a_failing_compilation_falls_back_to_numpy_with_one_warning(monkeypatch):
    kernel = fused.Kernel(_fused_rff._rff_arguments.function)
    monkeypatch.setattr(_fused_rff, "_rff_arguments", kernel)
    monkeypatch.setattr(fused, "_jit", lambda numba, function: 1 / 0)
    monkeypatch.delenv(fused.ENVIRONMENT, raising=False)
    with pytest.warns(RuntimeWarning, match="failed to compile") as record:
        fallback = sample_nrff()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.array_equal(sample_nrff(), fallback)        # warned once, then quietly numpy
    assert len(record) == 1 and "\n" not in str(record[0].message)
    monkeypatch.setenv(fused.ENVIRONMENT, "0")
    assert np.array_equal(sample_nrff(), fallback)


def test_missing_numba_falls_back_to_numpy_with_one_warning(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_numba(name, *args, **kwargs):
        if name == "numba":
            raise ImportError("No module named 'numba'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numba)
    monkeypatch.setattr(fused, "_NUMBA_MISSING", [])
    monkeypatch.setattr(_fused_rff, "_rff_arguments", fused.Kernel(_fused_rff._rff_arguments.function))
    with pytest.warns(RuntimeWarning, match="numba unavailable") as record:
        result = simulate("rff", k=[1, 10], rho=0.5, gamma=1.0, n_repetitions=100, random_state=0)
    assert len(record) == 1
    monkeypatch.setattr(builtins, "__import__", real_import)
    fast = simulate("rff", k=[1, 10], rho=0.5, gamma=1.0, n_repetitions=100, random_state=0)
    np.testing.assert_allclose(fast.mse, result.mse, rtol=1e-12)          # the fused cos: rounding


def sample_nrff():
    out = np.empty((3, 4, 20))
    mc.get_model("nrff").sample(np.random.default_rng(1), 4, 20, out, Workspace(), rho=0.5, gamma=1.0)
    return out
