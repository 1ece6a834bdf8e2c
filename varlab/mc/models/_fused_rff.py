"""Fused kernels of the RFF family ("rff", "rff_no_phase", "nrff") and of "rff_radial": the numpy
code of ``rff.py`` and ``orthogonal.py`` as compiled loops (``varlab.mc.fused``).

Each kernel draws what the numpy code draws, in its order (the (n k, 2) normals, then the n k
uniform phases), and repeats its floating-point operations one by one (no fused multiply-add,
the same divisions), so the cosines' arguments equal the reference's bit for bit. The cosines
are then taken in one vectorised pass (:func:`varlab.mc.cosine.cosine_in_place`, within one ulp;
the C library's cos, which numpy calls, is correctly rounded on about 97 % of arguments where
they differ by one ulp), so the terms equal the reference's within rounding.
"""
from __future__ import annotations

import functools
import math

from ... import spectral
from .. import fused
from ..cosine import cosine_in_place
from ._phases import too_large

__all__ = ["rff_terms", "radial_terms"]

TWO_PI = 2.0 * math.pi
PI = math.pi
_FMAX = 1.7976931348623157e308


@fused.kernel
def _rff_arguments(rng, arguments, lengthscale, s, rho, phase):
    for i in range(arguments.size):                   # the (n k, 2) frequencies, C order
        arguments[i] = rng.standard_normal()
    for m in range(arguments.size // 2):
        first = arguments[2 * m] / lengthscale
        b = arguments[2 * m + 1] / lengthscale * s
        if rho != 0.0:
            b = b + rho * first
        a = first
        if phase:
            shift = rng.random() * TWO_PI - PI
            a = a + shift
            b = b + shift
        arguments[2 * m] = a
        arguments[2 * m + 1] = b


@fused.kernel
def _rff_products(cosines, out):
    n, k = out.shape[1], out.shape[2]
    for i in range(n):
        for j in range(k):
            a = cosines[2 * (i * k + j)]
            b = cosines[2 * (i * k + j) + 1]
            if out.shape[0] == 3:
                out[0, i, j] = a * a
                out[1, i, j] = a * b
                out[2, i, j] = b * b
            else:
                out[0, i, j] = a * b


@functools.lru_cache(maxsize=256)
def _lengthscale(gamma: float) -> float:
    """The lengthscale that ``rff._draw_arguments``'s Gaussian measure divides its draws by."""
    return float(spectral.Gaussian(lengthscale=1.0 / math.sqrt(gamma)).lengthscale)


def rff_terms(rng, out, workspace, rho, gamma, *, phase) -> bool:
    """The terms of "rff"/"rff_no_phase" (out of shape (1, n, k): cos a cos b) or "nrff" (out
    of shape (3, n, k)) by the fused kernels; False (nothing drawn) where they are unavailable."""
    n, k = out.shape[1], out.shape[2]
    arguments = workspace.buffer("arguments", (2 * n * k,))     # (a, b) pairs, in place
    draw = (rng, arguments, _lengthscale(gamma), math.sqrt(max(0.0, 1.0 - rho * rho)), float(rho),
            bool(phase))
    run, products = _rff_arguments.compiled(*draw), _rff_products.compiled(arguments, out)
    if run is None or products is None:
        return False
    run(*draw)
    products(cosine_in_place(arguments), out)
    return True


@fused.kernel
def _radial_arguments(rng, out, distance):
    largest = 0.0
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            g = rng.standard_normal()
            largest = max(largest, abs(g))
            out[i, j] = g * distance
    return largest


def radial_terms(rng, out, distance) -> bool:
    """cos(distance g), g ~ N(0, 1), into ``out`` (n, k) ("rff_radial"'s fast path) by the fused
    kernel; False (nothing drawn) where it is unavailable or ``out`` is not C-contiguous.
    ValueError naming distance where a phase overflows float64, as ``_phases.phases``."""
    arguments = (rng, out, float(distance))
    run = _radial_arguments.compiled(*arguments) if out.flags.c_contiguous else None
    if run is None:
        return False
    largest = run(*arguments)
    if largest * abs(float(distance)) > _FMAX:
        raise too_large(distance, largest)
    cosine_in_place(out)
    return True
