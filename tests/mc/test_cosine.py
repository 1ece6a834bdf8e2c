"""The fused kernels' cosine (varlab.mc.cosine): within one ulp of mpmath's exact cosine over
the reduced range, the C library's (numpy's) outside it, numpy's cos where fused kernels are off."""
import math

import mpmath
import numpy as np
import pytest

from varlab.mc import fused
from varlab.mc.cosine import LARGEST_REDUCED, cosine_in_place

pytest.importorskip("numba")


def arguments():
    rng = np.random.default_rng(0)
    n = 4000
    return np.concatenate([
        rng.uniform(-4.0, 4.0, n),                                        # one period and a bit
        rng.normal(0.0, 30.0, n),                                          # the engine's phases
        np.exp(rng.uniform(-40.0, math.log(LARGEST_REDUCED), n)) * rng.choice([-1.0, 1.0], n),
        np.arange(-3000, 3000) * (np.pi / 2),                              # cos near 0
        np.nextafter(np.arange(-3000, 3000) * (np.pi / 4), np.inf),        # octant boundaries
        [0.0, -0.0, 5e-324, 1e-300, 2.0 ** -27, LARGEST_REDUCED, -LARGEST_REDUCED]])


def ulps(values, x):
    """|value - cos(x)| in units of the spacing at the exact cos(x) (mpmath, 120 bits)."""
    with mpmath.workprec(120):
        return np.array([float(abs(mpmath.mpf(value) - mpmath.cos(mpmath.mpf(v)))
                               / mpmath.mpf(np.spacing(abs(float(mpmath.cos(mpmath.mpf(v)))))))
                         for value, v in zip(values, x)])


def test_within_one_ulp_of_the_exact_cosine():
    x = arguments()
    got = cosine_in_place(x.copy())
    errors = ulps(got, x)
    assert errors.max() < 1.0, x[np.argmax(errors)]
    # the C library's cos, numpy's, rounds correctly more often: they agree on most arguments
    assert np.mean(got == np.cos(x)) > 0.9


def test_beyond_the_reduced_range_and_non_finite_it_is_numpys_cos():
    x = np.array([np.nextafter(LARGEST_REDUCED, np.inf), -2e6, 1e7, 3.5e15, -1e300, np.inf, -np.inf, np.nan,
                  0.5])
    with np.errstate(invalid="ignore"):
        expected = np.cos(x)
    got = cosine_in_place(x.copy())
    np.testing.assert_array_equal(got[:-1], expected[:-1])
    assert got[-1] == pytest.approx(math.cos(0.5), rel=2e-16)


def test_any_shape_in_place_and_numpys_cos_where_fused_kernels_are_off(monkeypatch):
    x = np.random.default_rng(1).normal(0.0, 5.0, (3, 7, 11))
    y = x.copy()
    assert cosine_in_place(y) is y
    np.testing.assert_allclose(y, np.cos(x), rtol=0, atol=np.finfo(float).eps)
    monkeypatch.setenv(fused.ENVIRONMENT, "0")
    np.testing.assert_array_equal(cosine_in_place(x.copy()), np.cos(x))


@pytest.mark.parametrize("x", [np.zeros(3, dtype=np.float32), np.zeros((4, 4))[:, ::2], [0.0, 1.0],
                               np.zeros(3)[::-1].copy().view()[::2]])
def test_refuses_what_it_cannot_write_in_place(x):
    with pytest.raises(TypeError, match="C-contiguous float64"):
        cosine_in_place(x)


def test_near_every_multiple_of_half_pi_up_to_the_limit_the_reduction_holds():
    # where cos(x) is smallest the reduction's error shows most: the doubles nearest n pi/2 and
    # their neighbours, n = 1 .. 2^20; the C library's reduction is exact, and ours within one ulp
    x = np.arange(1, 2 ** 20 + 1) * (np.pi / 2)
    x = np.concatenate([x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf)])
    x = x[np.abs(x) <= LARGEST_REDUCED]
    got, expected = cosine_in_place(x.copy()), np.cos(x)
    assert np.max(np.abs(got - expected) / np.spacing(np.abs(expected))) <= 1.0
