"""Seeding: every public random function takes ``random_state``.

``random_state`` may be None, an int, a ``numpy.random.SeedSequence``, a
``numpy.random.Generator`` or (for scikit-learn) a legacy ``numpy.random.RandomState``.
It is turned into a SeedSequence (SPEC 7); the Monte Carlo
engine spawns one child per chunk so that results do not depend on how work is split.
"""
from __future__ import annotations

import hashlib
import numbers

import numpy as np


def seed_sequence(random_state) -> np.random.SeedSequence:
    """Turn ``random_state`` into a SeedSequence.

    A Generator contributes fresh entropy drawn from it (so the caller's stream advances, as
    scikit-learn does with RandomState instances); None draws OS entropy.
    """
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(random_state.integers(0, 2**63, size=4).tolist())
    if isinstance(random_state, np.random.RandomState):     # scikit-learn's legacy generator
        return np.random.SeedSequence(random_state.randint(0, 2**32, size=4, dtype=np.uint64).tolist())
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be a non-negative integer, got {random_state}")
        return np.random.SeedSequence(int(random_state))
    raise TypeError("random_state must be None, a non-negative int, a numpy SeedSequence, Generator "
                    f"or RandomState, got {type(random_state).__name__}")


def generator(random_state) -> np.random.Generator:
    """A Generator for ``random_state`` (a Generator is returned as is).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.seeding import generator
    >>> rng = np.random.default_rng(1)
    >>> generator(rng) is rng, bool(generator(5).integers(100) == np.random.default_rng(5).integers(100))
    (True, True)
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(seed_sequence(random_state))


def seed_key(random_state) -> int:
    """A 64-bit integer key derived from ``random_state`` (for counter-based hashing randomness)."""
    return int(seed_sequence(random_state).generate_state(1, dtype=np.uint64)[0])


def stable_hash(text: str) -> int:
    """A 64-bit integer from ``text`` (BLAKE2b), the same in every process and on every platform
    (unlike ``hash``): claims derive their seeds from their ids with it.

    Examples
    --------
    >>> from varlab.seeding import stable_hash
    >>> stable_hash("000.thm1") == stable_hash("000.thm1") != stable_hash("000.thm2")
    True
    >>> 0 <= stable_hash("") < 2 ** 64
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def spawn(random_state, n_children: int) -> list[np.random.SeedSequence]:
    """``n_children`` independent child SeedSequences of ``random_state``.

    Children are spawned from a fresh copy of the sequence so that spawning twice from the same
    integer seed gives the same children (SeedSequence.spawn is stateful).
    """
    parent = seed_sequence(random_state)
    fresh = np.random.SeedSequence(parent.entropy, spawn_key=parent.spawn_key,
                                   pool_size=parent.pool_size)
    return fresh.spawn(n_children)


# ===========================================================================================
# Counter-based randomness for consistent hashing (GCWS)
# ===========================================================================================
#
# Consistent weighted sampling needs, for every transformed coordinate i and every sample j,
# the triple r_ij ~ Gamma(2, 1), c_ij ~ Gamma(2, 1), beta_ij ~ Uniform(0, 1) (paper 000,
# Algorithm 1). Storing them as D x k tables (as datasketch does) costs memory in D; drawing
# them from a sequential stream makes a vector's hash depend on what else is in the batch.
# Instead every number is a *pure function* of (key, coordinate, sample, stream), computed on
# the fly by the counter-based generator below, vectorized in numpy uint64 arithmetic
# (all arithmetic is modulo 2**64):
#
#   state(i)      = mix64(key + (i + 1) * GAMMA)               SplitMix64 output i of seed `key`
#   word(j, s)    = fmix64((5 j + s + 1) * GAMMA)              murmur3 finalizer; s = 0..4
#   bits(i, j, s) = mix64(state(i) XOR word(j, s))
#   U(i, j, s)    = ((bits >> 12) + 1/2) * 2**-52              top 52 bits, in [2**-53, 1 - 2**-53]
#
# with GAMMA = 0x9E3779B97F4A7C15 (the golden-ratio increment of SplitMix64), mix64 the
# SplitMix64 finalizer (Stafford's "Mix13": xor-shifts 30/27/31, multipliers 0xBF58476D1CE4E5B9,
# 0x94D049BB133111EB) and fmix64 the MurmurHash3 finalizer (shifts 33/33/33, multipliers
# 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53). Both finalizers are bijections of 64-bit words, so
# distinct coordinates get distinct states and, for one coordinate, distinct (sample, stream)
# pairs get distinct words; mixing the XOR of two independent-looking words (rather than
# adding counters, as a plain SplitMix64 stream would) avoids whole-stream overlaps between
# coordinates. Uniforms are never exactly 0 or 1, and every value is exact in float64: with the
# top 53 bits, (m + 1/2) 2**-53 needs 54 significant bits above 1/2, and m = 2**53 - 1 would
# round to exactly 1.0 (then r = -log(U_0 U_1) could be 0); the 52-bit form has no rounding
# and is symmetric (U and 1 - U are both attainable). The five streams give
#
#   r    = -log(U_0 U_1)    ~ Gamma(2, 1)   (sum of two Exp(1))
#   c    = -log(U_2 U_3)    ~ Gamma(2, 1)
#   beta = U_4              ~ Uniform(0, 1)
#
# r and c lie in [2.2e-16, 73.5]: > 0 (U_0 U_1 <= (1 - 2**-53)**2 < 1) and finite
# (U_0 U_1 >= 2**-106). The key comes from `seed_key(random_state)`. Results are bit-identical
# for any batching of the (coordinate, sample) pairs and in any process on the same platform:
# all operations are exact integer or IEEE arithmetic except numpy's log, whose last bit could
# differ on another CPU/numpy build (SIMD dispatch), which could move a hash only where a value
# sits within rounding of a floor or argmin boundary.

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX13_M1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX13_M2 = np.uint64(0x94D049BB133111EB)
_FMIX_M1 = np.uint64(0xFF51AFD7ED558CCD)
_FMIX_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_SHIFT = {n: np.uint64(n) for n in (12, 27, 30, 31, 33)}

#: number of uniform streams per (coordinate, sample): r uses 0-1, c uses 2-3, beta uses 4.
CWS_STREAMS = 5
#: largest coordinate and sample index accepted by the counter-based generator.
MAX_COORDINATE = 2 ** 62
MAX_SAMPLE = 2 ** 32


def _xorshift_multiply(z: np.ndarray, shift_a, mult_a, shift_b, mult_b, shift_c, tmp: np.ndarray) -> np.ndarray:
    """In place: z ^= z >> a; z *= ma; z ^= z >> b; z *= mb; z ^= z >> c (uint64, mod 2**64)."""
    np.right_shift(z, shift_a, out=tmp)
    np.bitwise_xor(z, tmp, out=z)
    np.multiply(z, mult_a, out=z)
    np.right_shift(z, shift_b, out=tmp)
    np.bitwise_xor(z, tmp, out=z)
    np.multiply(z, mult_b, out=z)
    np.right_shift(z, shift_c, out=tmp)
    np.bitwise_xor(z, tmp, out=z)
    return z


def mix64(z: np.ndarray, *, tmp: np.ndarray | None = None) -> np.ndarray:
    """SplitMix64 finalizer (Stafford Mix13), applied **in place** to a uint64 array; returns it."""
    if tmp is None:
        tmp = np.empty_like(z)
    return _xorshift_multiply(z, _SHIFT[30], _MIX13_M1, _SHIFT[27], _MIX13_M2, _SHIFT[31], tmp)


def fmix64(z: np.ndarray, *, tmp: np.ndarray | None = None) -> np.ndarray:
    """MurmurHash3 64-bit finalizer, applied **in place** to a uint64 array; returns it."""
    if tmp is None:
        tmp = np.empty_like(z)
    return _xorshift_multiply(z, _SHIFT[33], _FMIX_M1, _SHIFT[33], _FMIX_M2, _SHIFT[33], tmp)


def _as_key(key) -> np.uint64:
    if isinstance(key, bool) or not isinstance(key, (numbers.Integral, np.integer)):
        raise TypeError(f"key must be an integer in [0, 2**64), got {key!r}")
    if not 0 <= int(key) < 2 ** 64:
        raise ValueError(f"key must be an integer in [0, 2**64), got {key!r}")
    return np.uint64(int(key))


def _index_array(values, name: str, upper: int) -> np.ndarray:
    array = np.asarray(values)
    if array.dtype == bool or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() >= upper):
        raise ValueError(f"{name} must hold integers in [0, {upper}), got values in "
                         f"[{array.min()}, {array.max()}]")
    return array.astype(np.uint64)


def coordinate_states(key, coordinates) -> np.ndarray:
    """state(i) = mix64(key + (i + 1) * GAMMA) for an array of coordinates (uint64, same shape)."""
    key = _as_key(key)
    coords = _index_array(coordinates, "coordinates", MAX_COORDINATE)
    state = np.atleast_1d(coords).copy()
    state += np.uint64(1)
    state *= _GAMMA
    state += key
    return mix64(state).reshape(coords.shape)


def sample_words(samples) -> np.ndarray:
    """word(j, s) = fmix64((5 j + s + 1) * GAMMA): uint64 array of shape samples.shape + (5,)."""
    j = _index_array(samples, "samples", MAX_SAMPLE)
    words = np.atleast_1d(j)[..., None] * np.uint64(CWS_STREAMS) + np.arange(1, CWS_STREAMS + 1, dtype=np.uint64)
    words *= _GAMMA
    return fmix64(words).reshape(j.shape + (CWS_STREAMS,))


_ONE_BITS = np.uint64(0x3FF0000000000000)
_ONE_MINUS_HALF_ULP = 1.0 - 2.0 ** -53


def _uniform_from_bits(bits: np.ndarray, out: np.ndarray) -> np.ndarray:
    """((bits >> 12) + 1/2) * 2**-52 into the float64 array ``out``; ``bits`` is overwritten.

    Computed exactly as (1 + m 2**-52) - (1 - 2**-53) with m = bits >> 12: the first term is
    built from its bit pattern (exponent of 1.0, mantissa m) and the subtraction is exact
    (Sterbenz), so the value is (2m + 1) 2**-53, strictly inside (0, 1).
    """
    np.right_shift(bits, _SHIFT[12], out=bits)
    np.bitwise_or(bits, _ONE_BITS, out=bits)
    np.subtract(bits.view(np.float64), _ONE_MINUS_HALF_ULP, out=out)
    return out


def _cws_numbers(shape, fill_bits, *, want_c: bool):
    """Shared arithmetic of the generator: ``fill_bits(stream, out)`` writes the pre-mix words
    state XOR word of one stream into the uint64 array ``out`` of ``shape``; returns float64
    ``(r, log_c or c, beta)`` of that shape (C-contiguous)."""
    bits = np.empty(shape, dtype=np.uint64)
    tmp = np.empty_like(bits)
    uniforms = []
    for stream in range(CWS_STREAMS):        # the five streams, not a loop over data
        fill_bits(stream, bits)
        mix64(bits, tmp=tmp)
        uniforms.append(_uniform_from_bits(bits, np.empty(shape, dtype=np.float64)))
    r, u1, c, u3, beta = uniforms
    r *= u1                                  # U0 U1 in [2**-106, 1): r in (0, 73.5)
    np.log(r, out=r)
    np.negative(r, out=r)
    c *= u3
    np.log(c, out=c)
    np.negative(c, out=c)
    if not want_c:
        np.log(c, out=c)
    return r, c, beta


def _cws_tile(states: np.ndarray, words: np.ndarray, *, want_c: bool = False):
    """The randomness of Algorithm 1 on the grid (sample rows) x (coordinate columns).

    ``states`` is a 1-d uint64 array of coordinate states (length m), ``words`` a (ks, 5)
    uint64 array of sample words. Returns C-contiguous (ks, m) float64 arrays
    ``(r, log_c, beta)``, or ``(r, c, beta)`` when ``want_c``. Every GCWS code path gets its
    numbers from here or from :func:`cws_randomness`, which share :func:`_cws_numbers`, so all of
    them see bit-identical values.
    """
    def fill(stream, out):
        np.bitwise_xor(states[None, :], words[:, stream, None], out=out)
    return _cws_numbers((words.shape[0], states.shape[0]), fill, want_c=want_c)


def counter_uniform(key, coordinate, sample, stream) -> np.ndarray:
    """U(coordinate, sample, stream) in (0, 1) of the counter-based generator (see notes above).

    ``coordinate``, ``sample`` and ``stream`` (0..4) broadcast against each other; the result is
    a pure function of its arguments, whatever the batch.
    """
    stream = np.asarray(stream)
    if stream.dtype == bool or not np.issubdtype(stream.dtype, np.integer):
        raise TypeError(f"stream must hold integers in [0, {CWS_STREAMS}), got dtype {stream.dtype}")
    if stream.size and (stream.min() < 0 or stream.max() >= CWS_STREAMS):
        raise ValueError(f"stream must hold integers in [0, {CWS_STREAMS})")
    states, sample_b, stream_b = np.broadcast_arrays(coordinate_states(key, coordinate),
                                                     np.asarray(sample), stream)
    words = sample_words(np.ascontiguousarray(sample_b).reshape(-1))
    picked = words[np.arange(words.shape[0]), np.ascontiguousarray(stream_b).reshape(-1).astype(np.intp)]
    bits = np.bitwise_xor(np.ascontiguousarray(states).reshape(-1), picked)
    mix64(bits)
    return _uniform_from_bits(bits, np.empty(bits.shape, dtype=np.float64)).reshape(states.shape)


def cws_randomness(key, coordinate, sample, *, log_c: bool = False):
    """(r, c, beta) of Algorithm 1 (paper 000) for each (coordinate, sample) pair.

    ``coordinate`` (transformed coordinate index, 0 <= i < 2**62) and ``sample``
    (0 <= j < 2**32) broadcast against each other (use ``coordinate[:, None]`` and
    ``sample[None, :]`` for a grid). Returns float64 arrays r ~ Gamma(2, 1), c ~ Gamma(2, 1)
    (or log c when ``log_c``), beta ~ Uniform(0, 1) of the broadcast shape, each a pure
    function of (key, coordinate, sample): the same pair gives the same numbers however the
    pairs are batched. ``key`` is a 64-bit integer, e.g. ``seed_key(random_state)``.
    """
    states, sample_b = np.broadcast_arrays(coordinate_states(key, coordinate), np.asarray(sample))
    shape = states.shape
    flat_states = np.ascontiguousarray(states).reshape(-1)
    flat_words = sample_words(np.ascontiguousarray(sample_b).reshape(-1))

    def fill(stream, out):
        np.bitwise_xor(flat_states, flat_words[:, stream], out=out)
    r, c, beta = _cws_numbers(flat_states.shape, fill, want_c=not log_c)
    return r.reshape(shape), c.reshape(shape), beta.reshape(shape)
