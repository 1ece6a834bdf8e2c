"""Streaming moments (Chan/Pebay merges) and standard-error helpers."""
import functools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from varlab.mc import fused
from varlab.mc.stats import Moments, difference_z_score, merge_all, variance_standard_error, within, z_score


def moments_direct(x):
    n = x.shape[-1]
    mean = x.mean(-1)
    c = x - mean[..., None]
    return n, mean, (c ** 2).sum(-1), (c ** 3).sum(-1), (c ** 4).sum(-1)


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=6),
       shift=st.floats(-1e3, 1e3), scale=st.floats(1e-3, 1e3), seed=st.integers(0, 2 ** 32 - 1))
def test_merge_equals_direct(sizes, shift, scale, seed):
    rng = np.random.default_rng(seed)
    x = shift + scale * rng.standard_exponential((2, sum(sizes)))
    acc = None
    start = 0
    for size in sizes:
        part = Moments.from_samples(x[:, start:start + size])
        acc = part if acc is None else acc.merge(part)
        start += size
    n, mean, m2, m3, m4 = moments_direct(x)
    assert acc.n == n
    np.testing.assert_allclose(acc.mean, mean, rtol=1e-12, atol=1e-12 * scale)
    np.testing.assert_allclose(acc.m2, m2, rtol=1e-8, atol=1e-9 * scale ** 2 * n)
    np.testing.assert_allclose(acc.m3, m3, rtol=1e-7, atol=1e-8 * scale ** 3 * n)
    np.testing.assert_allclose(acc.m4, m4, rtol=1e-7, atol=1e-8 * scale ** 4 * n)


def test_merge_is_stable_for_tiny_spread_around_large_mean():
    rng = np.random.default_rng(0)
    x = 1.0 + 1e-9 * rng.standard_normal(10_000)
    acc = None
    for part in np.split(x, 100):
        m = Moments.from_samples(part)
        acc = m if acc is None else acc.merge(m)
    exact = np.var(x - 1.0, ddof=1)
    np.testing.assert_allclose(acc.variance, exact, rtol=1e-6)


def test_order_two_and_derived_quantities():
    x = np.arange(10.0)
    m = Moments.from_samples(x, order=2)
    assert m.order == 2 and m.m3 is None
    assert m.variance == pytest.approx(np.var(x, ddof=1))
    assert m.se_mean == pytest.approx(np.std(x, ddof=1) / np.sqrt(10))
    with pytest.raises(ValueError):
        m.se_variance
    with pytest.raises(ValueError):
        m.merge(Moments.from_samples(x, order=4))
    with pytest.raises(ValueError):
        Moments.from_samples(x, order=3)


def test_variance_standard_error_formula():
    # normal data: mu4 = 3 sigma^4 -> Var(s^2) = 2 sigma^4 / (n - 1)
    n, s2 = 101, 2.0
    se = variance_standard_error(n, s2, 3 * s2 ** 2)
    assert se == pytest.approx(np.sqrt((3 - (n - 3) / (n - 1)) * s2 ** 2 / n))
    assert se == pytest.approx(np.sqrt(2 * s2 ** 2 / (n - 1)))
    assert variance_standard_error(10, 1.0, 0.0) == 0.0     # clipped, never NaN
    x = np.random.default_rng(1).standard_normal(50)
    m = Moments.from_samples(x)
    assert m.se_variance == pytest.approx(variance_standard_error(50, m.variance, m.m4 / 50))


def test_z_scores():
    assert z_score(1.0, 1.0, 0.0) == 0.0
    assert np.isinf(z_score(2.0, 1.0, 0.0))
    assert within([1.0, 2.0], [1.1, 1.0], [0.1, 0.1]).tolist() == [True, False]
    assert difference_z_score(3.0, 3.0, 0.0, 4.0) == pytest.approx(0.6)


@pytest.mark.parametrize("order, shape", [(4, (27,)), (2, (27,)), (4, ()), (2, (1,))])
def test_merge_all_is_the_merges_left_to_right_bit_for_bit(order, shape, monkeypatch):
    rng = np.random.default_rng(order + len(shape))
    parts = [Moments.from_samples(rng.standard_normal(shape + (int(n),)) * rng.uniform(0.1, 10) + rng.uniform(-5, 5),
                                  order=order) for n in rng.integers(2, 300, 500)]
    one_by_one = functools.reduce(Moments.merge, parts)
    for switch in ("1", "0"):                      # the compiled loop, and the numpy fallback
        monkeypatch.setenv(fused.ENVIRONMENT, switch)
        merged = merge_all(parts)
        assert merged.n == one_by_one.n and merged.order == order
        for name in ("mean", "m2", "m3", "m4")[:order]:
            got, expected = getattr(merged, name), getattr(one_by_one, name)
            assert np.shape(got) == np.shape(expected) and np.array_equal(got, expected), name
    with pytest.raises(ValueError, match="different orders"):
        merge_all([parts[0], Moments.from_samples(np.ones(3), order=6 - order)])
    with pytest.raises(ValueError, match="at least one"):
        merge_all([])
