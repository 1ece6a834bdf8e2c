"""The counter-based generator behind GCWS's randomness (varlab.features.cws.randomness).

(r, c, beta) for (coordinate, sample) must be Gamma(2, 1), Gamma(2, 1), Uniform(0, 1), free of
correlation between neighbouring coordinates, samples, streams and keys, and a pure function of
(key, coordinate, sample), whatever the batching.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from varlab import _random
from varlab.features.cws import randomness

KEY = _random.seed_key(20240607)
N_COORD, N_SAMPLE = 1000, 64            # 64,000 pairs per law


def _grid(key=KEY, coords=None, samples=None):
    coords = np.arange(N_COORD) if coords is None else coords
    samples = np.arange(N_SAMPLE) if samples is None else samples
    return randomness.cws_randomness(key, coords[:, None], samples[None, :])


def _correlation_bound(n):
    """4.5 standard errors of a sample correlation of independent variables."""
    return 4.5 / np.sqrt(n)


def test_splitmix64_known_answer():
    # The first output of SplitMix64 seeded with 0 is 0xE220A8397B1DCDAF: state(0) for key 0.
    assert int(randomness.coordinate_states(0, np.array([0]))[0]) == 0xE220A8397B1DCDAF
    z = np.array([0x9E3779B97F4A7C15 * 2 % 2**64], dtype=np.uint64)
    assert int(_random.mix64(z)[0]) == 0x6E789E6AA1B965F4    # second SplitMix64 output of seed 0


def test_uniform_conversion_is_open_interval():
    bits = np.array([0, 2**64 - 1, 2**12 - 1, 2**12], dtype=np.uint64)
    u = randomness._uniform_from_bits(bits.copy(), np.empty(4))
    assert u[0] == 2.0 ** -53 and u[1] == 1.0 - 2.0 ** -53      # exact, symmetric
    assert u[2] == u[0] and u[3] == 3 * 2.0 ** -53              # only the top 52 bits count
    assert np.all((u > 0) & (u < 1))
    # the extreme uniforms keep r = -log(U0 U1) and c strictly positive and finite
    extreme = -np.log(u[1] * u[1])
    assert 0 < extreme < 1e-15 and np.isfinite(-np.log(u[0] * u[0]))


@pytest.mark.parametrize("law", ["r", "c", "beta"])
def test_marginal_laws_ks(law):
    r, c, beta = _grid()
    values = {"r": r, "c": c, "beta": beta}[law].ravel()
    cdf = stats.uniform.cdf if law == "beta" else stats.gamma(2.0).cdf
    result = stats.kstest(values, cdf)
    assert result.pvalue > 1e-4, result
    if law != "beta":
        assert values.min() > 0 and np.all(np.isfinite(values))
        # mean and variance of Gamma(2, 1) are 2 and 2: check within 4.5 SE
        n = values.size
        assert abs(values.mean() - 2.0) <= 4.5 * np.sqrt(2.0 / n)
    else:
        assert values.min() > 0 and values.max() < 1


@pytest.mark.parametrize("stream", range(randomness.CWS_STREAMS))
def test_each_stream_is_uniform(stream):
    coords = np.arange(N_COORD)[:, None]
    samples = np.arange(N_SAMPLE)[None, :]
    u = randomness.counter_uniform(KEY, coords, samples, stream).ravel()
    assert stats.kstest(u, "uniform").pvalue > 1e-4


def _assert_uncorrelated(a, b):
    a, b = np.ravel(a), np.ravel(b)
    rho = np.corrcoef(a, b)[0, 1]
    assert abs(rho) <= _correlation_bound(a.size), rho


def test_no_correlation_between_neighbours():
    coords = np.arange(N_COORD)[:, None]
    samples = np.arange(N_SAMPLE)[None, :]
    u = np.stack([randomness.counter_uniform(KEY, coords, samples, s) for s in range(randomness.CWS_STREAMS)])
    # neighbouring coordinates, neighbouring samples, neighbouring streams
    _assert_uncorrelated(u[:, :-1, :], u[:, 1:, :])
    _assert_uncorrelated(u[:, :, :-1], u[:, :, 1:])
    _assert_uncorrelated(u[:-1], u[1:])
    # coordinates 2i and 2i + 1 (the two halves of one original column) and coordinate i vs i + 2
    _assert_uncorrelated(u[:, 0::2, :], u[:, 1::2, :])
    _assert_uncorrelated(u[:, :-2, :], u[:, 2:, :])
    # neighbouring keys
    v = randomness.counter_uniform(KEY + 1, coords, samples, 0)
    _assert_uncorrelated(u[0], v)
    # the derived laws: r and c of the same pair, r at neighbouring coordinates
    r, c, beta = _grid()
    _assert_uncorrelated(r, c)
    _assert_uncorrelated(r, beta)
    _assert_uncorrelated(r[:-1], r[1:])
    _assert_uncorrelated(np.log(c[:, :-1]), np.log(c[:, 1:]))


def test_low_bits_and_high_bits_balanced():
    coords = np.arange(N_COORD)[:, None]
    samples = np.arange(N_SAMPLE)[None, :]
    states = randomness.coordinate_states(KEY, coords)
    words = randomness.sample_words(samples)[..., 0]
    bits = np.bitwise_xor(states, words).ravel()
    _random.mix64(bits)
    n = bits.size
    for position in (0, 1, 31, 32, 62, 63):
        ones = np.count_nonzero((bits >> np.uint64(position)) & np.uint64(1))
        assert abs(ones / n - 0.5) <= 4.5 * 0.5 / np.sqrt(n)


def test_pure_function_of_pair_whatever_the_batch():
    rng = np.random.default_rng(5)
    coords = rng.integers(0, 2**40, size=300)
    samples = rng.integers(0, 5000, size=40)
    r, c, beta = randomness.cws_randomness(KEY, coords[:, None], samples[None, :])
    # the tile routine used by the hashing code
    rt, ct, bt = randomness.cws_tile(randomness.coordinate_states(KEY, coords), randomness.sample_words(samples),
                                   want_c=True)
    np.testing.assert_array_equal(rt.T, r)
    np.testing.assert_array_equal(ct.T, c)
    np.testing.assert_array_equal(bt.T, beta)
    # scattered pairs, in random batches of random sizes
    flat_i, flat_j = np.meshgrid(np.arange(coords.size), np.arange(samples.size), indexing="ij")
    order = rng.permutation(flat_i.size)
    cuts = np.sort(rng.choice(np.arange(1, order.size), size=7, replace=False))
    for batch in np.split(order, cuts):
        ii, jj = flat_i.ravel()[batch], flat_j.ravel()[batch]
        rb, cb, bb = randomness.cws_randomness(KEY, coords[ii], samples[jj])
        np.testing.assert_array_equal(rb, r[ii, jj])
        np.testing.assert_array_equal(cb, c[ii, jj])
        np.testing.assert_array_equal(bb, beta[ii, jj])
    # one pair alone (0-d)
    r0, c0, b0 = randomness.cws_randomness(KEY, int(coords[3]), int(samples[7]))
    assert r0.shape == () and r0 == r[3, 7] and c0 == c[3, 7] and b0 == beta[3, 7]
    # log_c=True gives log of the same c as the tile path computes
    _, log_c, _ = randomness.cws_randomness(KEY, coords[:, None], samples[None, :], log_c=True)
    _, log_ct, _ = randomness.cws_tile(randomness.coordinate_states(KEY, coords), randomness.sample_words(samples))
    np.testing.assert_array_equal(log_ct.T, log_c)


def test_key_from_random_state():
    assert _random.seed_key(7) == _random.seed_key(7)
    assert _random.seed_key(7) != _random.seed_key(8)
    a = randomness.cws_randomness(_random.seed_key(7), np.arange(5), 0)[0]
    b = randomness.cws_randomness(_random.seed_key(8), np.arange(5), 0)[0]
    assert not np.any(a == b)


@pytest.mark.parametrize("bad, error", [
    (dict(coordinate=-1), ValueError), (dict(coordinate=2**62), ValueError),
    (dict(sample=2**32), ValueError), (dict(sample=-3), ValueError),
    (dict(coordinate=1.5), TypeError), (dict(sample=np.array([True])), TypeError),
    (dict(key=-1), ValueError), (dict(key=2**64), ValueError), (dict(key=1.0), TypeError),
])
def test_validation(bad, error):
    args = dict(key=KEY, coordinate=np.arange(3), sample=0)
    args.update(bad)
    with pytest.raises(error, match="key|coordinates|samples"):
        randomness.cws_randomness(args["key"], args["coordinate"], args["sample"])


def test_stream_validation():
    with pytest.raises(ValueError, match="stream"):
        randomness.counter_uniform(KEY, 0, 0, 5)
    with pytest.raises(TypeError, match="stream"):
        randomness.counter_uniform(KEY, 0, 0, 0.5)
