"""Seeding: every public random function takes ``random_state``.

``random_state`` may be None, an int, a ``numpy.random.SeedSequence`` or a
``numpy.random.Generator``. It is turned into a SeedSequence (SPEC 7); the Monte Carlo
engine spawns one child per chunk so that results do not depend on how work is split.
"""
from __future__ import annotations

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
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be a non-negative integer, got {random_state}")
        return np.random.SeedSequence(int(random_state))
    raise TypeError("random_state must be None, a non-negative int, a numpy SeedSequence or a "
                    f"numpy Generator, got {type(random_state).__name__}")


def generator(random_state) -> np.random.Generator:
    """A Generator for ``random_state`` (a Generator is returned as is)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(seed_sequence(random_state))


def seed_key(random_state) -> int:
    """A 64-bit integer key derived from ``random_state`` (for counter-based hashing randomness)."""
    return int(seed_sequence(random_state).generate_state(1, dtype=np.uint64)[0])


def spawn(random_state, n_children: int) -> list[np.random.SeedSequence]:
    """``n_children`` independent child SeedSequences of ``random_state``.

    Children are spawned from a fresh copy of the sequence so that spawning twice from the same
    integer seed gives the same children (SeedSequence.spawn is stateful).
    """
    parent = seed_sequence(random_state)
    fresh = np.random.SeedSequence(parent.entropy, spawn_key=parent.spawn_key,
                                   pool_size=parent.pool_size)
    return fresh.spawn(n_children)
