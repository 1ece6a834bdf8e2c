"""The cosine of a float64 array in place, as a vectorised compiled loop (``varlab.mc.fused``):
the fused kernels' cos, about ten times numpy's (the C library's) and within one ulp of the
exact value.

The C library's cos is a scalar call with branches; in a fused kernel it costs more than the
draws. :func:`cosine_in_place` computes fdlibm's cos (Sun Microsystems' freely distributable
libm, as in FreeBSD's msun: the argument reduction of ``e_rem_pio2.c``'s medium path with
pi/2 in 33 + 33 + 53 bits, and the polynomials of ``k_cos.c`` and ``k_sin.c``) without a
branch, so the compiler vectorises the loop. Its error is below one ulp (fdlibm's bound, tested
against mpmath); where the C library's result is correctly rounded the two agree on about 97 %
of arguments and otherwise differ by one ulp. Arguments beyond 2^20 pi/2 in magnitude, and
NaN and infinities, take the C library's cos (as numpy), which the medium reduction does not
cover.

Results are the same on every CPU: the loop is IEEE additions, multiplications and one
conversion, without fused multiply-adds (numba compiles without fast-math), so vector width
changes nothing.

Where fused kernels are off (``VARLAB_FUSED=0``, numba missing) it is ``np.cos(x, out=x)``.

fdlibm's notice, kept as its licence asks: Copyright (C) 1993 by Sun Microsystems, Inc. All
rights reserved. Developed at SunSoft, a Sun Microsystems, Inc. business. Permission to use,
copy, modify, and distribute this software is freely granted, provided that this notice is
preserved.
"""
from __future__ import annotations

import math

import numpy as np

from . import fused

__all__ = ["cosine_in_place", "LARGEST_REDUCED"]

#: the largest |x| reduced by the vectorised loop (2^20 pi/2, fdlibm's medium reduction)
LARGEST_REDUCED = 1647099.3291652855

_INVERSE_HALF_PI = 6.36619772367581382433e-01
_HALF_PI_1 = 1.57079632673412561417e+00         # the first 33 bits of pi/2
_HALF_PI_2 = 6.07710050630396597660e-11         # the next 33 bits
_HALF_PI_2_TAIL = 2.02226624879595063154e-21    # pi/2 - _HALF_PI_1 - _HALF_PI_2
_ROUNDING_SHIFT = 6755399441055744.0            # 1.5 * 2^52: adding it rounds to an integer
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10


@fused.kernel
def _cosine_loop(x):
    outside = 0
    for i in range(x.size):
        v = x[i]
        inside = abs(v) <= LARGEST_REDUCED            # False for NaN
        u = v if inside else 0.0
        # y0 + y1 = u - n pi/2, |y0 + y1| <= pi/4 (e_rem_pio2.c, two steps of its medium path)
        n = (u * _INVERSE_HALF_PI + _ROUNDING_SHIFT) - _ROUNDING_SHIFT
        t = u - n * _HALF_PI_1
        w = n * _HALF_PI_2
        r = t - w
        w = n * _HALF_PI_2_TAIL - ((t - r) - w)
        y0 = r - w
        y1 = (r - y0) - w
        z = y0 * y0
        # cos(y0 + y1) (k_cos.c)
        polynomial = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
        half = 0.5 * z
        one_minus = 1.0 - half
        c = one_minus + (((1.0 - one_minus) - half) + (z * polynomial - y0 * y1))
        # sin(y0 + y1) (k_sin.c)
        cube = z * y0
        polynomial = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
        s = y0 - ((z * (0.5 * y1 - cube * polynomial) - y1) - cube * _S1)
        quadrant = np.int64(n) & 3
        value = c if quadrant & 1 == 0 else s
        value = value if (quadrant + 1) & 2 == 0 else -value
        x[i] = value if inside else v
        outside += 0 if inside else 1
    if outside:                                       # the C library's cos, as numpy's
        for i in range(x.size):
            if not abs(x[i]) <= LARGEST_REDUCED:      # kept above: cosines are at most 1
                x[i] = math.cos(x[i])


def cosine_in_place(x: np.ndarray) -> np.ndarray:
    """cos(x), written into ``x`` (a C-contiguous float64 array) and returned.

    Within one ulp of the exact cosine (fdlibm's algorithm, see the module); numpy's
    ``np.cos(x, out=x)`` where fused kernels are off.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc.cosine import cosine_in_place
    >>> x = np.array([0.0, np.pi / 3, 2.0, 1e7])
    >>> exact = np.cos(x)
    >>> bool(np.all(np.abs(cosine_in_place(x) - exact) <= np.spacing(np.abs(exact))))
    True
    """
    if not (isinstance(x, np.ndarray) and x.dtype == np.float64 and x.flags.c_contiguous
            and x.flags.writeable):
        raise TypeError(f"x must be a writeable C-contiguous float64 array, got "
                        f"{type(x).__name__} {getattr(x, 'dtype', '')}")
    flat = x.reshape(-1)
    run = _cosine_loop.compiled(flat)
    if run is None:
        np.cos(x, out=x)
    else:
        run(flat)
    return x
