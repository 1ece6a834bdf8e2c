"""The seed tree and the block layout of the Monte Carlo engine (together: the seeding scheme).

``random_state`` -> root SeedSequence; the root spawns one child per parameter point (in the
flattened grid order). For a *prefix* model each point's sequence spawns one child per block of
repetitions; for a model drawn afresh at every k, each point spawns one child per k of the grid
(in grid order) and that child one child per block. Block b draws from
``numpy.random.default_rng(child)``. Block sizes depend only on k (and on the model's prefix
granularity), never on n_jobs, chunk_size or backend, so results are bit-identical for any of
them. ``SEED_SCHEME`` names this scheme and is recorded in every result.
"""
from __future__ import annotations

import numpy as np

__all__ = ["BLOCK_ELEMENTS", "MAX_BLOCK_REPETITIONS", "SEED_SCHEME", "block_layout", "child",
           "slabs"]

#: samples per block (repetitions x columns); part of the seeding scheme
BLOCK_ELEMENTS = 2 ** 16
#: cap on repetitions per block (matters only for small k)
MAX_BLOCK_REPETITIONS = 4096
#: identifies the seeding scheme recorded in every result
SEED_SCHEME = ("varlab.mc/2: root -> point p -> [k index j, models drawn per k] -> block b "
               "(SeedSequence children); block_elements=2**16")


def block_layout(k_max: int, *, granularity: int = 1,
                 budget: int = BLOCK_ELEMENTS) -> tuple[int, int]:
    """(repetitions per block, column slab width) for estimators of up to ``k_max`` samples.

    Up to ``budget`` samples per block; when ``k_max`` alone exceeds it, one repetition per
    block in slabs of columns whose width is a multiple of ``granularity`` (so a slab never
    cuts a group of samples that are only valid together, e.g. an orthogonal block).

    Examples
    --------
    >>> from varlab.mc import block_layout
    >>> block_layout(100), block_layout(10 ** 9, granularity=64)
    ((655, 100), (1, 65536))
    """
    k_max, granularity, budget = int(k_max), int(granularity), int(budget)
    if k_max <= budget:
        return max(1, min(MAX_BLOCK_REPETITIONS, budget // k_max)), k_max
    return 1, max(granularity, budget // granularity * granularity)


def child(parent: np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    """The index-th child of ``parent`` (equal to ``parent.spawn(index + 1)[index]`` on a fresh
    copy), built directly so that any block can be recomputed on its own.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc.seeds import child
    >>> root = np.random.SeedSequence(0)
    >>> third = child(root, 2)
    >>> third.spawn_key
    (2,)
    >>> spawned = np.random.SeedSequence(0).spawn(3)[2]         # the same child, by spawning
    >>> bool(np.array_equal(third.generate_state(4), spawned.generate_state(4)))
    True
    """
    return np.random.SeedSequence(parent.entropy, spawn_key=tuple(parent.spawn_key) + (int(index),),
                                  pool_size=parent.pool_size)


def slabs(k: np.ndarray, width: int):
    """Cut columns 0..max(k)-1 into slabs of ``width``; yield per slab (first column, width,
    segment starts, indices of the segments that end at a grid k, those k's indices).

    A generator: a huge k_max costs nothing until its slabs are computed.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc.seeds import slabs
    >>> for c0, width, starts, pieces, columns in slabs(np.array([3, 5, 10]), 4):
    ...     print(c0, width, starts.tolist(), pieces.tolist(), columns.tolist())
    0 4 [0, 3] [0] [0]
    4 4 [0, 1] [0] [1]
    8 2 [0] [0] [2]
    """
    k = np.asarray(k, dtype=np.int64)
    k_max = int(k[-1])
    for c0 in range(0, k_max, width):
        w = min(width, k_max - c0)
        lo = int(np.searchsorted(k, c0, side="right"))            # first k > c0
        hi = int(np.searchsorted(k, c0 + w, side="left"))         # first k >= c0 + w
        starts = np.concatenate([[0], k[lo:hi] - c0]).astype(np.intp)
        # segment i < last ends at starts[i + 1] = k[lo + i]; the last ends at the slab's end
        pieces = list(range(hi - lo))
        columns = list(range(lo, hi))
        if hi < k.size and k[hi] == c0 + w:
            pieces.append(hi - lo)
            columns.append(hi)
        yield c0, w, starts, np.array(pieces, dtype=np.intp), np.array(columns, dtype=np.intp)
