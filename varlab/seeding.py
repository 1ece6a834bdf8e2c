"""Seeds for experiments: a SeedSequence from a run's integer seed and labels that name the piece
of work, the same in every process and on every platform.

An experiment that draws its data subsets, frequencies or splits per (data set, method, trial)
seeds each piece from the run's ``random_state`` and the piece's labels, so that a piece gives
the same numbers whatever else runs, in any order or worker (and a resumed run recomputes a
missing piece exactly).

>>> from varlab.seeding import derive_seed, stable_hash
>>> seed = derive_seed(20161122, "table2", "letter", 3)
>>> seed.entropy == [20161122, stable_hash("table2"), stable_hash("letter"), 3]
True
"""
from __future__ import annotations

import numbers

import numpy as np

from ._random import generator, stable_hash

__all__ = ["derive_seed", "generator", "stable_hash"]


def derive_seed(random_state: int, *labels) -> np.random.SeedSequence:
    """The SeedSequence of entropy ``[random_state, *words]``: each ``str`` label enters as its
    :func:`stable_hash`, each integer label as itself (a non-negative int). Labels of other types
    are refused: write ``str(label)`` to hash one.

    Examples
    --------
    >>> from varlab.seeding import derive_seed, stable_hash
    >>> derive_seed(7, "fig2-letter", 4).entropy == [7, stable_hash("fig2-letter"), 4]
    True
    >>> import numpy as np
    >>> np.random.default_rng(derive_seed(7, "split")).integers(10, size=3).tolist() == \\
    ...     np.random.default_rng(derive_seed(7, "split")).integers(10, size=3).tolist()
    True
    """
    words = [_word(random_state, "random_state")]
    for label in labels:
        words.append(stable_hash(label) if isinstance(label, str) else _word(label, "a label"))
    return np.random.SeedSequence(words)


def _word(value, name: str) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 0:
        return int(value)
    raise TypeError(f"{name} must be a str or a non-negative int, got {value!r}")
