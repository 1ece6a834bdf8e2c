"""Devices: a model declared GPU-capable computes only through the namespace and generator the
engine hands it (run through a recording device, with numpy forbidden in the models' modules);
every other model refuses device="cuda" with its one-line reason; the CuPy path (marked gpu) runs
only where CUDA is.
"""
import contextlib
import dataclasses
import re
import sys

import numpy as np
import pytest

from varlab import mc
from varlab.mc import Z_MAX, Model, available_models, difference_z_score, fused, model_class, simulate
from varlab.mc.devices import Device
from varlab.theory.parameters import parameter

MODELS = [name for name in available_models() if model_class(name).__module__.startswith("varlab.")]
GPU_MODELS = [name for name in MODELS if model_class(name).gpu]

#: methods of CuPy's ``cupy.random.Generator`` (CuPy 13) a model may call; a numpy-only method
#: (``permuted``, ``spawn``) fails the check
CUPY_GENERATOR = frozenset({"random", "standard_normal", "uniform", "integers", "standard_exponential",
                            "standard_gamma", "gamma", "beta", "chisquare", "exponential", "binomial",
                            "poisson"})


def point_and_k(cls):
    """The typical grid's second value of each parameter, and three valid k."""
    point = {name: parameter(name).typical()[1].item() for name in cls.parameters}
    k = np.array([1, 2, 3, 4, 8, 16, 32, 64])
    return point, k[np.asarray(cls().valid_k(k, **point), dtype=bool)][:3]


class Recording:
    """numpy, recording the names taken from it (a stand-in for CuPy's namespace)."""

    def __init__(self):
        self.names, self._numpy = set(), np         # np of this module may be NoNumpy meanwhile

    def __getattr__(self, name):
        self.names.add(name)
        return getattr(self._numpy, name)


class RecordingGenerators:
    """Builds numpy generators that expose only CuPy's Generator methods, recording their use."""

    def __init__(self):
        self.names = set()

    def __call__(self, seed):
        return _Generator(np.random.default_rng(seed), self.names)


class _Generator:
    def __init__(self, rng, names):
        self._rng, self._names = rng, names

    def __getattr__(self, name):
        if name not in CUPY_GENERATOR:
            raise AttributeError(f"CuPy's Generator has no {name!r}")
        self._names.add(name)
        return getattr(self._rng, name)


class NoNumpy:
    """Stands for ``np`` in the models' modules while a GPU-capable model samples."""

    def __getattr__(self, name):
        raise AssertionError(f"a GPU-capable model called np.{name} in sample/estimate; "
                             f"use workspace.xp.{name}")


@contextlib.contextmanager
def numpy_forbidden(modules):
    saved = {module: module.np for module in modules}
    for module in modules:
        module.np = NoNumpy()
    try:
        yield
    finally:
        for module, value in saved.items():
            module.np = value


def forbid_numpy(model):
    """``model`` whose sample/estimate run with ``np`` replaced in every model module (those
under varlab.mc.models, not the package's own Workspace) and those of the model's classes."""
    names = {cls.__module__ for cls in type(model).__mro__} - {"varlab.mc.models"}
    modules = [module for name, module in list(sys.modules.items())
               if (name.startswith("varlab.mc.models.") or name in names) and getattr(module, "np", None) is np]
    for method in ("sample", "estimate"):
        original = getattr(model, method)

        def guarded(*args, _original=original, **kwargs):
            with numpy_forbidden(modules):
                return _original(*args, **kwargs)
        setattr(model, method, guarded)
    return model


def run_on_recording_device(model, point, k):
    xp, generators = Recording(), RecordingGenerators()
    result = simulate(forbid_numpy(model), device=Device("recording", xp, generators, np.asarray), k=k,
                      n_repetitions=100, random_state=11, **point)
    return result, xp.names, generators.names


@pytest.mark.parametrize("name", GPU_MODELS)
def test_gpu_model_computes_only_through_the_device(name, monkeypatch):
    cls = model_class(name)
    point, k = point_and_k(cls)
    result, xp_names, generator_names = run_on_recording_device(cls(), point, k)
    assert xp_names and generator_names                  # it really used the device's xp and rng
    monkeypatch.setenv(fused.ENVIRONMENT, "0")           # the numpy code, which a device runs
    cpu = simulate(name, k=k, n_repetitions=100, random_state=11, **point)
    assert result.device == "recording" and result == dataclasses.replace(cpu, device="recording")


class PlantedNumpy(Model):
    """Declares gpu = True but calls np.cos (the bug the check above must catch)."""

    parameters = ("rho",)
    gpu = True

    def target(self, rho):
        return np.ones_like(rho)

    def sample(self, rng, n, k, out, workspace, *, rho):
        workspace.xp.copyto(out[0], np.cos(rng.random((n, k)) * 0.0))

    def combine(self, sums, k, *, rho):
        return sums[0] / k


def test_the_check_catches_a_direct_numpy_call():
    with pytest.raises(AssertionError, match=r"np\.cos in sample/estimate; use workspace\.xp\.cos"):
        run_on_recording_device(PlantedNumpy(), {"rho": 0.5}, [1, 2])


def test_the_check_covers_every_model_that_declares_the_gpu():
    assert {"rff", "rff_no_phase", "nrff", "gcws_rbf"} <= set(GPU_MODELS)


@pytest.mark.parametrize("name", sorted(set(MODELS) - set(GPU_MODELS)))
def test_cpu_only_model_refuses_cuda_in_one_line(name):
    cls = model_class(name)
    reason = cls.gpu_reason
    assert reason != Model.gpu_reason and "\n" not in reason and len(reason) <= 100
    point, k = point_and_k(cls)
    with pytest.raises(ValueError, match=re.escape(f"model {name!r} cannot run on device 'cuda': {reason}")):
        simulate(name, device="cuda", k=k, n_repetitions=10, **point)
    with mc.configure(device="cuda"), pytest.raises(ValueError, match="cannot run on device 'cuda'"):
        simulate(name, k=k, n_repetitions=10, **point)


def test_a_user_model_is_cpu_only_until_it_declares_the_gpu():
    class Undeclared(PlantedNumpy):
        gpu = False

    with pytest.raises(ValueError, match="it does not declare gpu = True"):
        simulate(Undeclared(), device="cuda", k=[1], rho=0.5, n_repetitions=10)


def test_unknown_device():
    for name in ("rff", "gcws_rbf_hashed"):
        with pytest.raises(ValueError, match="device must be one of"):
            simulate(name, device="tpu", k=[1], rho=0.5, gamma=1.0, n_repetitions=10)
    with pytest.raises(TypeError, match="device must be"):
        simulate("rff", device=0, k=[1], rho=0.5, gamma=1.0, n_repetitions=10)


def test_cpu_device_is_the_default_bit_for_bit():
    kw = dict(k=[1, 10], rho=[0.0, 0.5], gamma=1.0, n_repetitions=500, random_state=2)
    assert simulate("nrff", device="cpu", **kw) == simulate("nrff", **kw)


def cuda_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:               # no CuPy, no driver, no device: the GPU tests are skipped
        return False


def test_cuda_without_cupy_says_how_to_install_it():
    try:
        import cupy  # noqa: F401
        pytest.skip("CuPy is installed")
    except ImportError:
        pass
    with pytest.raises(ImportError, match=r"pip install 'varlab\[gpu\]'"):
        simulate("rff", device="cuda", k=[1], rho=0.5, gamma=1.0, n_repetitions=10)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="needs CuPy and a CUDA device")
@pytest.mark.parametrize("name", GPU_MODELS)
def test_cuda_is_reproducible_and_agrees_with_cpu(name):
    point, _ = point_and_k(model_class(name))
    kw = dict(k=[1, 10, 100], n_repetitions=20_000, random_state=0, **point)
    cuda = simulate(name, device="cuda", **kw)
    assert cuda.device == "cuda" and cuda == simulate(name, device="cuda", **kw)
    cpu = simulate(name, **kw)
    assert np.all(np.abs(difference_z_score(cuda.mean, cuda.se_mean, cpu.mean, cpu.se_mean)) <= Z_MAX)
    assert np.all(np.abs(difference_z_score(cuda.mse, cuda.se_mse, cpu.mse, cpu.se_mse)) <= Z_MAX)
