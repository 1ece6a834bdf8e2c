"""Seeding: every public random function takes ``random_state``.

``random_state`` may be None, an int, a ``numpy.random.SeedSequence``, a
``numpy.random.Generator`` or (for scikit-learn) a legacy ``numpy.random.RandomState``.
It is turned into a SeedSequence (SPEC 7); the Monte Carlo
engine spawns one child per chunk so that results do not depend on how work is split.

Also the 64-bit mixers (``GAMMA``, ``mix64``, ``fmix64``: SplitMix64 and MurmurHash3
finalizers) that the datasets' splits and GCWS's counter-based randomness
(:mod:`varlab.features.cws.randomness`) are built from.
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
# 64-bit mixers (SplitMix64 and MurmurHash3 finalizers)
# ===========================================================================================
#
# Pure functions of 64-bit words, vectorized in numpy uint64 arithmetic (modulo 2**64), the
# same on every platform: the datasets' splits order rows by mix64 of their index, and GCWS's
# counter-based randomness (varlab.features.cws.randomness, where the generator is described)
# builds its numbers from GAMMA, mix64 and fmix64. GAMMA = 0x9E3779B97F4A7C15 is the
# golden-ratio increment of SplitMix64; mix64 is the SplitMix64 finalizer (Stafford's "Mix13":
# xor-shifts 30/27/31, multipliers 0xBF58476D1CE4E5B9, 0x94D049BB133111EB) and fmix64 the
# MurmurHash3 finalizer (shifts 33/33/33, multipliers 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53);
# both are bijections of 64-bit words.

#: the golden-ratio increment of SplitMix64.
GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX13_M1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX13_M2 = np.uint64(0x94D049BB133111EB)
_FMIX_M1 = np.uint64(0xFF51AFD7ED558CCD)
_FMIX_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_SHIFT = {n: np.uint64(n) for n in (27, 30, 31, 33)}


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
