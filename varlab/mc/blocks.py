"""The computation of one task: a run of blocks of repetitions at one parameter point.

Each block is summarised by the central moments of the error d = estimate - target (orders
1..4) and of d^2 (orders 1..2); the engine merges the summaries in block order.

* Prefix models: a block draws k_max samples per repetition (in column slabs when k_max is
  large) and the estimator at every k of the grid comes from prefix sums of the model's terms:
  segment sums between consecutive grid points (``np.add.reduceat``), then a cumulative sum
  over segments, evaluated at the grid columns only.
* Fresh models: a block asks the model for the estimates of its repetitions at one k.

Models compute on the task's device (``varlab.mc.devices``): its generator draws, its namespace
is ``workspace.xp``; terms and estimates come back to numpy before the sums and statistics.
"""
from __future__ import annotations

import itertools

import numpy as np

from .devices import get_device
from .models import Workspace
from .seeds import child, slabs
from .stats import Moments

__all__ = ["prefix_blocks", "fresh_blocks"]

_CONTROLLER = None
_KEPT_SLABS = 4096           # a task keeps its slab layout when it has at most this many slabs


def _blas_single_thread():
    """Limit BLAS/OpenMP pools to one thread: an idle OpenBLAS pool spinning on a second
    hyperthread halves numpy's throughput on small machines (cached controller)."""
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1)


def _summary(model, estimates, target, expected_shape, point, where):
    estimates = np.asarray(estimates, dtype=np.float64)
    if estimates.shape != expected_shape:
        raise ValueError(f"model {model.name!r}: returned estimates of shape {estimates.shape}, "
                         f"expected {expected_shape}")
    if not np.all(np.isfinite(estimates)):
        raise FloatingPointError(f"model {model.name!r} produced a non-finite estimate at {point} "
                                 f"({where})")
    errors = estimates - target
    return Moments.from_samples(errors, order=4), Moments.from_samples(errors * errors, order=2)


def _accumulate(terms, starts, pieces, columns, sums, carry):
    """Add the slab's segment sums to ``carry`` and record prefix sums at the grid columns."""
    segments = np.add.reduceat(terms, starts, axis=2)        # (T, n, n_pieces)
    if carry is not None:
        segments[:, :, 0] += carry
    np.cumsum(segments, axis=2, out=segments)
    if pieces.size:
        sums[:, columns, :] = segments[:, :, pieces].transpose(0, 2, 1)
    return segments[:, :, -1].copy()


def prefix_blocks(model, k, point, target, n_repetitions, block_repetitions, slab, point_seed,
                  block_start, block_stop, device="cpu"):
    """Summaries of blocks block_start..block_stop-1 of a prefix model at one point, computed on
    ``device`` (a name or a ``Device``).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc import get_model
    >>> from varlab.mc.blocks import prefix_blocks
    >>> model, k = get_model("rff"), np.array([10, 100])
    >>> point = {"rho": 0.5, "gamma": 1.0}
    >>> target = float(model.target(**point))
    >>> summaries = prefix_blocks(model, k, point, target, n_repetitions=300, block_repetitions=200,
    ...                           slab=100, point_seed=np.random.SeedSequence(0), block_start=0,
    ...                           block_stop=2)
    >>> [(errors.n, errors.mean.shape) for errors, squared in summaries]    # 200 + 100 repetitions
    [(200, (2,)), (100, (2,))]
    """
    device = get_device(device)
    k_column = k.astype(np.float64)[:, None]
    workspace = Workspace(device.xp)
    layout = list(itertools.islice(slabs(k, slab), _KEPT_SLABS + 1))    # the same for every block
    summaries = []
    with _blas_single_thread():
        for b in range(block_start, block_stop):
            n = min(block_repetitions, n_repetitions - b * block_repetitions)
            rng = device.generator(child(point_seed, b))
            sums = np.empty((model.n_terms, k.size, n))
            carry = None
            for c0, width, starts, pieces, columns in (layout if len(layout) <= _KEPT_SLABS else slabs(k, slab)):
                terms = workspace.buffer("terms", (model.n_terms, n, width))
                model.sample(rng, n, width, terms, workspace, **point)
                carry = _accumulate(device.to_numpy(terms), starts, pieces, columns, sums, carry)
            estimates = model.combine(sums, k_column, **point)
            summaries.append(_summary(model, estimates, target, (k.size, n), point, f"block {b}"))
    return summaries


def fresh_blocks(model, k, k_index, point, target, n_repetitions, block_repetitions, point_seed,
                 block_start, block_stop, device="cpu"):
    """Summaries of blocks block_start..block_stop-1 of a fresh model at one point and one k,
    computed on ``device`` (a name or a ``Device``).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc import get_model
    >>> from varlab.mc.blocks import fresh_blocks
    >>> model, k = get_model("mm_moment_matching"), np.array([8, 32])
    >>> point = {"dimension": 4, "scaled_distance": 1.0}
    >>> target = float(model.target(**point))
    >>> summaries = fresh_blocks(model, k[1], 1, point, target, n_repetitions=50, block_repetitions=20,
    ...                          point_seed=np.random.SeedSequence(0), block_start=0, block_stop=3)
    >>> [errors.n for errors, squared in summaries]
    [20, 20, 10]
    """
    device = get_device(device)
    k_seed = child(point_seed, k_index)
    workspace = Workspace(device.xp)
    summaries = []
    with _blas_single_thread():
        for b in range(block_start, block_stop):
            n = min(block_repetitions, n_repetitions - b * block_repetitions)
            rng = device.generator(child(k_seed, b))
            estimates = device.to_numpy(model.estimate(rng, n, int(k), workspace, **point))
            summaries.append(_summary(model, np.reshape(estimates, (1, -1)), target, (1, n), point,
                                      f"k={int(k)}, block {b}"))
    return summaries
