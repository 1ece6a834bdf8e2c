"""Devices: the array namespace and random generator the engine hands a model.

A :class:`Device` names where a model's array code runs: ``xp`` (the namespace models call,
``xp.cos``, ``xp.multiply``), ``generator(seed)`` (the random generator of a block, built from its
SeedSequence) and ``to_numpy`` (results back to the host before the statistics). "cpu" is numpy
with ``np.random.default_rng``, so results are those of a plain numpy run, bit for bit. "cuda" is
CuPy (``pip install 'varlab[gpu]'``), imported only when asked for; its generator is CuPy's
(XORWOW), so GPU results are reproducible for a seed and statistically, not bitwise, equal to CPU
results.
"""
from __future__ import annotations

import importlib
from typing import Callable

import numpy as np

__all__ = ["Device", "get_device", "DEVICES"]

#: the device names ``simulate(device=...)`` accepts
DEVICES = ("cpu", "cuda")


class Device:
    """An array namespace, a generator factory and a way back to numpy.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc.devices import Device
    >>> device = Device("cpu", np, np.random.default_rng, np.asarray)
    >>> device.xp is np, device.generator(np.random.SeedSequence(0)).random() < 1.0
    (True, True)
    """

    def __init__(self, name: str, xp, generator: Callable, to_numpy: Callable):
        self.name = name
        self.xp = xp
        self.generator = generator
        self.to_numpy = to_numpy

    def __repr__(self) -> str:
        return f"Device({self.name!r})"


def _cuda() -> Device:
    try:
        cupy = importlib.import_module("cupy")
    except ImportError:
        raise ImportError("device='cuda' needs CuPy: pip install 'varlab[gpu]'") from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except cupy.cuda.runtime.CUDARuntimeError as error:
        raise OSError(f"device='cuda': CuPy finds no usable CUDA device ({error})") from None
    if count == 0:
        raise OSError("device='cuda': CuPy finds no CUDA device")
    return Device("cuda", cupy, cupy.random.default_rng, cupy.asnumpy)


def get_device(device: str | Device) -> Device:
    """The :class:`Device` named ``device`` ("cpu" or "cuda"); a Device is returned as it is.

    Examples
    --------
    >>> from varlab.mc.devices import get_device
    >>> get_device("cpu").xp.__name__
    'numpy'
    >>> get_device("tpu")
    Traceback (most recent call last):
    ...
    ValueError: device must be one of ('cpu', 'cuda') or a Device, got 'tpu'
    """
    if isinstance(device, Device):
        return device
    if device == "cpu":
        return Device("cpu", np, np.random.default_rng, np.asarray)
    if device == "cuda":
        return _cuda()
    raise ValueError(f"device must be one of {DEVICES} or a Device, got {device!r}")
