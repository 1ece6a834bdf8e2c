"""The fused kernel of "stationary_rff" for the Gaussian kernel with i.i.d. frequencies
(``varlab.mc.fused``): ``SamplerModel.sample``'s numpy code (and the phase term of
``StationaryRFFModel``) as one compiled loop.

The numpy code sums each frequency's d coordinates with ``ndarray.sum`` (numpy's pairwise
summation: one left-to-right sum below 8 terms, eight interleaved partial sums up to 128);
:func:`_row_sum` repeats it, so the terms equal the reference's bit for bit. Dimensions above 128
(a recursive split) stay on the numpy path.
"""
from __future__ import annotations

import math

from .. import fused
from ._phases import too_large

__all__ = ["gaussian_terms", "MAX_DIMENSION"]

#: the largest dimension with a fused kernel (numpy's pairwise block)
MAX_DIMENSION = 128
TWO_PI = 2.0 * math.pi
_FMAX = 1.7976931348623157e308


@fused.kernel
def _row_sum(w, d):
    if d < 8:
        total = -0.0
        for i in range(d):
            total += w[i]
        return 0.0 + total
    r0, r1, r2, r3, r4, r5, r6, r7 = w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
    i = 8
    while i < d - d % 8:
        r0 += w[i]
        r1 += w[i + 1]
        r2 += w[i + 2]
        r3 += w[i + 3]
        r4 += w[i + 4]
        r5 += w[i + 5]
        r6 += w[i + 6]
        r7 += w[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < d:
        total += w[i]
        i += 1
    return 0.0 + total


@fused.kernel
def _gaussian_loop(rng, out, w, lengthscale, factor, phase, row_sum):
    largest = 0.0
    d = w.size
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            for c in range(d):
                w[c] = rng.standard_normal() / lengthscale
            projection = row_sum(w, d)
            largest = max(largest, abs(projection))
            out[i, j] = math.cos(projection * factor)
    if phase:                                 # the phases U, drawn after every frequency
        for i in range(out.shape[0]):
            for j in range(out.shape[1]):
                out[i, j] = out[i, j] + math.cos(TWO_PI * rng.random())
    return largest


def gaussian_terms(rng, out, workspace, *, dimension, distance, lengthscale, factor, phase) -> bool:
    """The terms cos(<w, z>) [+ cos(2 pi U)] of "stationary_rff" (Gaussian kernel, i.i.d.
    frequencies) into ``out`` (n, k) by the fused kernel; False (nothing drawn) where it is
    unavailable or the dimension exceeds MAX_DIMENSION. ValueError naming distance where a phase
    overflows float64, as ``_phases.phases``."""
    d = int(dimension)
    if d > MAX_DIMENSION:
        return False
    row_sum = _row_sum.compiled(workspace.buffer("frequency", (d,)), d)
    if row_sum is None:
        return False
    arguments = (rng, out, workspace.buffer("frequency", (d,)), float(lengthscale), float(factor),
                 bool(phase), row_sum)
    run = _gaussian_loop.compiled(*arguments)
    if run is None:
        return False
    largest = run(*arguments)
    if largest * abs(float(factor)) > _FMAX:
        raise too_large(distance, largest * abs(float(factor) / float(distance)))
    return True
