"""The fused kernel of "stationary_rff" for the Gaussian kernel with i.i.d. frequencies
(``varlab.mc.fused``): ``SamplerModel.sample``'s numpy code (and the phase term of
``StationaryRFFModel``) as a compiled loop.

The numpy code sums each frequency's d coordinates with ``ndarray.sum`` (numpy's pairwise
summation: one left-to-right sum below 8 terms, eight interleaved partial sums up to 128);
the loop repeats it, so the cosines' arguments equal the reference's bit for bit. Dimensions
above 128 (a recursive split) stay on the numpy path. The cosines are taken in one vectorised
pass (:func:`varlab.mc.cosine.cosine_in_place`, within one ulp), so the terms equal the
reference's within rounding.
"""
from __future__ import annotations

import math

from .. import fused
from ..cosine import cosine_in_place
from ._phases import too_large

__all__ = ["gaussian_terms", "MAX_DIMENSION"]

#: the largest dimension with a fused kernel (numpy's pairwise block)
MAX_DIMENSION = 128
TWO_PI = 2.0 * math.pi
_FMAX = 1.7976931348623157e308


@fused.kernel
def _gaussian_arguments(rng, out, phases, w, lengthscale, factor, phase):
    largest = 0.0
    d = w.size
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            for c in range(d):
                w[c] = rng.standard_normal() / lengthscale
            if d < 8:                         # numpy's pairwise sum of the d coordinates
                projection = -0.0
                for c in range(d):
                    projection += w[c]
            else:
                r0, r1, r2, r3, r4, r5, r6, r7 = w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
                c = 8
                while c < d - d % 8:
                    r0 += w[c]
                    r1 += w[c + 1]
                    r2 += w[c + 2]
                    r3 += w[c + 3]
                    r4 += w[c + 4]
                    r5 += w[c + 5]
                    r6 += w[c + 6]
                    r7 += w[c + 7]
                    c += 8
                projection = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
                for c in range(d - d % 8, d):
                    projection += w[c]
            projection = 0.0 + projection
            largest = max(largest, abs(projection))
            out[i, j] = projection * factor
    if phase:                                 # the phases U, drawn after every frequency
        for i in range(phases.size):
            phases[i] = TWO_PI * rng.random()
    return largest


def gaussian_terms(rng, out, workspace, *, dimension, distance, lengthscale, factor, phase) -> bool:
    """The terms cos(<w, z>) [+ cos(2 pi U)] of "stationary_rff" (Gaussian kernel, i.i.d.
    frequencies) into ``out`` (n, k) by the fused kernel; False (nothing drawn) where it is
    unavailable, ``out`` is not C-contiguous or the dimension exceeds MAX_DIMENSION. ValueError
    naming distance where a phase overflows float64, as ``_phases.phases``."""
    d = int(dimension)
    if d > MAX_DIMENSION or not out.flags.c_contiguous:
        return False
    phases = workspace.buffer("phases", (out.size if phase else 0,))
    arguments = (rng, out, phases, workspace.buffer("frequency", (d,)), float(lengthscale),
                 float(factor), bool(phase))
    run = _gaussian_arguments.compiled(*arguments)
    if run is None:
        return False
    largest = run(*arguments)
    if largest * abs(float(factor)) > _FMAX:
        raise too_large(distance, largest * abs(float(factor) / float(distance)))
    cosine_in_place(out)
    if phase:
        out += cosine_in_place(phases).reshape(out.shape)
    return True
