"""``simulate``: the parallel, blocked, bit-reproducible Monte Carlo engine.

For every point of a grid of the model's declared parameters and every k of an increasing
grid, it estimates the mean, variance and MSE of the model's k-sample estimator with standard
errors (``varlab.mc.stats``). Work is cut into blocks of repetitions with their own seeds
(``varlab.mc.seeds``) and computed by ``varlab.mc.blocks``; joblib runs tasks of a few blocks
each and the main process merges the block summaries in block order, so the result is
bit-identical for any n_jobs, chunk_size and backend.

Statistics (n = n_repetitions): ``mean`` (= target + mean error), ``bias`` (the mean error),
``se_mean = s/sqrt(n)``; ``variance`` (unbiased) and ``se_variance = sqrt((m4 - (n-3)/(n-1)
s^4)/n)``; ``mse`` = mean of d^2 and ``se_mse = sd(d^2)/sqrt(n)``.
"""
from __future__ import annotations

import contextlib
import numbers
import os
import sys
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from tqdm.auto import tqdm

from .. import _random, _validate
from ..theory.parameters import parameter
from . import seeds
from .blocks import fresh_blocks, prefix_blocks
from .checkpoint import CheckpointStore, identity_hash
from .devices import DEVICES, Device, get_device
from .stats import merge_all, stack_moments, unstack_moments
from .grid import product_grid
from .models import Model, get_model, model_class
from .result import SimulationResult
from .stats import variance_standard_error

__all__ = ["simulate", "configure", "MAX_SAMPLES"]

#: default cap on the samples one call may draw (points x repetitions x k); ~an hour on one core
MAX_SAMPLES = 10 ** 11


def _check_n_jobs(n_jobs) -> int:
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"n_jobs must be a non-zero integer (negative counts from the number of "
                        f"CPUs, as in joblib), got {n_jobs!r}")
    if n_jobs == 0:
        raise ValueError("n_jobs must be a non-zero integer (negative counts from the number of "
                         "CPUs, as in joblib), got 0")
    return int(n_jobs)


def _k_grid(k) -> np.ndarray:
    values = np.atleast_1d(parameter("k").validate(k))
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"k must be an integer or a non-empty 1-d sequence of integers, got {k!r}")
    if np.any(np.diff(values) <= 0):
        raise ValueError(f"k must be strictly increasing, got {k!r}")
    return values


def _split_arguments(model, arguments: dict):
    """(grid arguments, model options): names the model declares are grid parameters."""
    cls = type(model) if isinstance(model, Model) else model_class(model) if isinstance(model, str) else None
    if cls is None:
        raise TypeError(f"model must be a model name (str) or a Model instance, got "
                        f"{type(model).__name__}")
    grid = {name: value for name, value in arguments.items() if name in cls.parameters}
    options = {name: value for name, value in arguments.items() if name not in cls.parameters}
    missing = [name for name in cls.parameters if name not in grid]
    if missing:
        raise TypeError(f"model {cls.name!r} needs the parameters {list(cls.parameters)}; "
                        f"missing {missing}")
    return grid, options


def _flat_grid(model: Model, arguments: dict):
    values = {name: parameter(name).validate(value) for name, value in arguments.items()}
    try:
        shape = np.broadcast_shapes(*(array.shape for array in values.values()))
    except ValueError:
        shapes = {name: array.shape for name, array in values.items()}
        raise ValueError(f"the parameters {list(values)} must broadcast together, got shapes "
                         f"{shapes}; pass product=True (or varlab.mc.product_grid(...)) for every "
                         f"combination") from None
    grid = {name: np.broadcast_to(values[name], shape).reshape(-1).copy() for name in model.parameters}
    if int(np.prod(shape, dtype=np.int64)) == 0:
        raise ValueError(f"the grid of {list(values)} holds no point (broadcast shape {shape})")
    return grid, tuple(shape)


#: seconds to wait for a dask scheduler given by its address before refusing it
SCHEDULER_TIMEOUT = 5.0

_CONFIG = {"n_jobs": 1, "backend": "loky", "scheduler": None, "checkpoint_root": None,
           "device": "cpu"}


@contextlib.contextmanager
def configure(*, n_jobs: int | None = None, backend: str | None = None, scheduler=None,
              checkpoint_root: str | Path | None = None, device: str | None = None) -> Iterator[dict]:
    """Defaults for every ``simulate`` call inside the ``with`` block (claims, figures and the
    CLI call simulate without these arguments): parallelism, a dask scheduler, a checkpoint
    root under which each simulation keeps its finished blocks, and the device ("cpu", "cuda").

    Examples
    --------
    >>> from varlab import mc
    >>> with mc.configure(n_jobs=1, backend="threading") as settings:
    ...     settings["backend"]
    'threading'
    """
    saved = dict(_CONFIG)
    updates = {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler,
               "checkpoint_root": checkpoint_root, "device": device}
    _CONFIG.update({key: value for key, value in updates.items() if value is not None})
    try:
        yield dict(_CONFIG)
    finally:
        _CONFIG.clear()
        _CONFIG.update(saved)


def _missing_runs(blocks: list, chunk_size: int):
    """(b0, b1) runs of at most chunk_size consecutive blocks whose summary is missing."""
    b = 0
    while b < len(blocks):
        if blocks[b] is not None:
            b += 1
            continue
        b1 = b
        while b1 < len(blocks) and blocks[b1] is None and b1 - b < chunk_size:
            b1 += 1
        yield b, b1
        b = b1


class _BlockOrderMerge:
    """The left-to-right merge (block order) of one unit's block summaries, advanced whenever the
    next blocks have arrived, so that little is left to merge after the last task: the result
    does not depend on which process or run computed each block, nor on when it arrived."""

    def __init__(self, blocks: list):
        self.blocks, self.merged, self.summary = blocks, 0, None

    def advance(self) -> None:
        end = self.merged
        while end < len(self.blocks) and self.blocks[end] is not None:
            end += 1
        if end > self.merged:
            parts = ([] if self.summary is None else [self.summary]) + self.blocks[self.merged:end]
            self.summary = (merge_all([errors for errors, _ in parts]),
                            merge_all([squared for _, squared in parts]))
            self.merged = end

    def result(self):
        self.advance()
        if self.merged < len(self.blocks):
            raise RuntimeError(f"block {self.merged} of {len(self.blocks)} was never computed")
        return self.summary


class _TaskSummaries(list):
    """A task's block summaries [(errors, squared), ...], which pickle as a few stacked arrays
    (``stack_moments``): pickled one by one, a task's thousands of small arrays cost the parent
    process about 10 % of a core to unpickle, taken from the workers on a 2-core machine."""

    def __reduce__(self):
        sides = [stack_moments([pair[side] for pair in self]) for side in range(2)]
        if any(side is None for side in sides):
            return list, (list(self),)
        return _task_summaries, (sides,)


def _task_summaries(sides) -> list:
    """The list that ``_TaskSummaries.__reduce__`` packed."""
    return list(zip(*(unstack_moments(*side) for side in sides)))


def _apply(call):
    """Run one task: ``call`` is (function, *arguments); block summaries travel packed."""
    result = call[0](*call[1:])
    return _TaskSummaries(result) if isinstance(result, list) else result


def _workers(backend: str, n_jobs: int, scheduler) -> int:
    """Tasks that run at once: joblib's workers, or the threads of the dask cluster's workers."""
    if backend != "dask":
        return max(1, effective_n_jobs(n_jobs))
    return max(1, sum(_dask_client(scheduler).nthreads().values()))


def _run(backend: str, n_jobs: int, scheduler, calls: list):
    """(index, result) of every call (function, *arguments), on joblib (in order) or
    dask.distributed (as they finish)."""
    if backend != "dask":
        return enumerate(Parallel(n_jobs=n_jobs, backend=backend, return_as="generator")(
            delayed(_apply)(call) for call in calls))
    return _dask_run(_dask_client(scheduler), calls)


def _dask_run(client, calls: list):
    """(index, result) of every call as it finishes: all tasks submitted in one graph update,
    each result released on the cluster as soon as it is gathered."""
    import distributed

    _check_worker_environment(client)
    futures = client.map(_apply, calls, pure=False)
    position = {future.key: i for i, future in enumerate(futures)}
    completed = distributed.as_completed(futures, with_results=True, loop=client.loop)
    del futures
    for future, result in completed:
        yield position[future.key], result


#: schedulers whose workers' environment was checked (once per process)
_CHECKED: set = set()


def _malloc_trim_threshold():
    """This process's MALLOC_TRIM_THRESHOLD_ (run on the workers; ``os.environ.get`` itself would
    carry the caller's environment with it)."""
    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


def _check_worker_environment(client) -> None:
    """Warn (once per scheduler) when workers run with dask's default MALLOC_TRIM_THRESHOLD_,
    which made 16 workers on 2 cores 0.6x as fast on the NRFF workload."""
    address = client.scheduler.address
    if address in _CHECKED:
        return
    _CHECKED.add(address)
    if any(value is not None for value in client.run(_malloc_trim_threshold).values()):
        warnings.warn(f"the dask workers of {address} run with MALLOC_TRIM_THRESHOLD_ set (dask's "
                      f"default), which slows the engine's numpy code; start them without it "
                      f"(docs/engine.md, 'Backends')", RuntimeWarning, stacklevel=4)


#: clients this process opened, by scheduler address (reused by every later simulation)
_CLIENTS: dict = {}


def _device(device, model: Model) -> Device:
    """The Device to run ``model`` on; a model without ``gpu = True`` refuses any but the CPU."""
    if not isinstance(device, (str, Device)):
        raise TypeError(f"device must be 'cpu', 'cuda' or a Device, got {device!r}")
    if isinstance(device, str) and device not in DEVICES:
        get_device(device)                      # raises, listing the devices
    name = device.name if isinstance(device, Device) else device
    if name != "cpu" and not model.gpu:
        raise ValueError(f"model {model.name!r} cannot run on device {name!r}: {model.gpu_reason}")
    return get_device(device)


def _dask_client(scheduler):
    """The client of ``scheduler``: a Client, an address (connected once per process), or None
    (the current client)."""
    try:
        import distributed
    except ImportError:
        raise ImportError("backend='dask' needs dask.distributed: pip install 'varlab[dask]'") from None
    if isinstance(scheduler, distributed.Client):
        return scheduler
    if scheduler is None:
        try:
            return distributed.get_client()
        except ValueError:
            raise ValueError("backend='dask' needs a running dask.distributed Client or "
                             "scheduler=ADDRESS") from None
    if not isinstance(scheduler, str):
        raise TypeError(f"scheduler must be an address (str) or a distributed.Client, got "
                        f"{type(scheduler).__name__}")
    client = _CLIENTS.get(scheduler)
    if client is None or client.status != "running":
        try:
            client = distributed.Client(scheduler, set_as_default=False, timeout=SCHEDULER_TIMEOUT)
        except (OSError, TimeoutError) as error:
            raise ValueError(f"scheduler: no dask scheduler answered at {scheduler!r} within "
                             f"{SCHEDULER_TIMEOUT:g} s ({type(error).__name__}: {error})") from None
        _CLIENTS[scheduler] = client
    return client


def _checkpoint_store(checkpoint, is_root, model, grid, k, n_repetitions, root, layouts, device):
    if checkpoint is None:
        return None
    identity = {"model": model.name, "options": model.options(),
                "grid": {name: values.tolist() for name, values in grid.items()},
                "k": k.tolist(), "n_repetitions": n_repetitions,
                "seed_entropy": root.entropy, "seed_spawn_key": list(root.spawn_key),
                "seed_scheme": seeds.SEED_SCHEME, "layouts": layouts}
    if device.name != "cpu":                     # other generators: other blocks (cpu's key unchanged)
        identity["device"] = device.name
    directory = Path(checkpoint)
    if is_root:
        directory = directory / f"{model.name}-{identity_hash(identity)[:16]}"
    return CheckpointStore(directory, identity)


def simulate(model: str | Model, *, k: int | Sequence[int], n_repetitions: int,
             random_state: int | np.random.SeedSequence | np.random.Generator | None = None,
             n_jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
             scheduler=None, checkpoint: str | Path | None = None, progress: bool | None = None,
             product: bool = False,
             max_samples: int = MAX_SAMPLES, device: str | None = None,
             **grid_and_options) -> SimulationResult:
    """Simulate an estimator at every point of a parameter grid and every k of a grid.

    Parameters
    ----------
    model : str or Model
        A registered name (``varlab.mc.available_models()``) or a ``Model`` instance.
    k : int or increasing sequence of int >= 1
        Numbers of samples. Prefix models compute all of them from one pass of max(k) samples;
        each must be valid for the model (e.g. a multiple of its granularity).
    n_repetitions : int >= 2
        Independent repetitions of the estimator per point (and per k).
    random_state : None, int, SeedSequence or Generator
        Root of the seed tree (``varlab.mc.seeds``); recorded in the result.
    n_jobs, backend, chunk_size : parallelism and blocks per task; results do not depend on
        them. ``backend`` is a joblib backend ("loky", "threading", ...) or "dask" (a
        dask.distributed cluster: ``scheduler`` is its address or a ``distributed.Client``; by
        default the current client). None takes the defaults set by :func:`configure`
        (n_jobs=1, "loky").
    checkpoint : path, optional
        A directory in which every finished task is stored (``varlab.mc.checkpoint``); a
        rerun with the same arguments loads them and computes only the rest, bit-identically.
        With ``configure(checkpoint_root=DIR)`` every simulation gets its own directory under DIR
        (named by its identity). Needs an explicit ``random_state``.
    product : bool
        Simulate every combination of the parameters' values (:func:`varlab.mc.product_grid`)
        instead of broadcasting them.
    progress : None, True or False
        A tqdm bar on stderr: None shows it only on a terminal and if the run lasts over 3 s
        (never in a redirected log); True always; False never.
    max_samples : int
        Refuse (ValueError) a request that would draw more samples than this, before drawing.
    device : None, "cpu", "cuda" or a Device
        Where the model's array code runs (``varlab.mc.devices``); None takes :func:`configure`'s
        ("cpu"). "cuda" needs CuPy and a model with ``gpu = True`` (others say why not); its
        results are reproducible for a seed but not bitwise equal to "cpu"'s. A ``Device``
        instance (a test's recording namespace) runs in-process only (n_jobs=1 or threads).
    **grid_and_options
        The model's declared parameters (``model.parameters``, e.g. rho=..., gamma=...),
        broadcast together; any other keyword is a model option (only with a model name).

    Returns
    -------
    SimulationResult

    Examples
    --------
    >>> result = simulate("rff", k=[1, 10], rho=[0.0, 0.5], gamma=1.0, n_repetitions=100,
    ...                   random_state=0)
    >>> result.mse.shape, result.grid["rho"].tolist()
    ((2, 2), [0.0, 0.5])
    """
    start_time = time.perf_counter()
    grid_arguments, options = _split_arguments(model, grid_and_options)
    if product:
        grid_arguments = product_grid(**grid_arguments)
    model = get_model(model, **options)
    k = _k_grid(k)
    grid, shape = _flat_grid(model, grid_arguments)
    n_repetitions = _validate.positive_int(n_repetitions, "n_repetitions", minimum=2)
    n_jobs = _check_n_jobs(_CONFIG["n_jobs"] if n_jobs is None else n_jobs)
    backend = _CONFIG["backend"] if backend is None else backend
    scheduler = _CONFIG["scheduler"] if scheduler is None else scheduler
    device_name = _CONFIG["device"] if device is None else device
    device = _device(device_name, model)
    if checkpoint is None and _CONFIG["checkpoint_root"] is not None:
        checkpoint = _CONFIG["checkpoint_root"]
        checkpoint_is_root = True
    else:
        checkpoint_is_root = False
    if checkpoint is not None and random_state is None:
        raise ValueError("checkpoint needs an explicit random_state (None draws fresh entropy, "
                         "so a rerun could never resume)")
    if chunk_size is not None:
        chunk_size = _validate.positive_int(chunk_size, "chunk_size", minimum=1)
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a joblib backend name (str), got {backend!r}")
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be None, True or False, got {progress!r}")
    max_samples = _validate.positive_int(max_samples, "max_samples")

    n_points = next(iter(grid.values())).size
    points = [{name: values[p].item() for name, values in grid.items()} for p in range(n_points)]
    samples = n_points * n_repetitions * (int(k[-1]) if model.prefix else int(k.sum()))
    if samples > max_samples:
        raise ValueError(f"this simulation would draw {samples:.3g} samples ({n_points} points x "
                         f"{n_repetitions} repetitions x {'max(k)' if model.prefix else 'sum(k)'}), "
                         f"more than max_samples={max_samples:.3g}; reduce k, n_repetitions or the "
                         f"grid, or raise max_samples")
    for point in points:
        valid = np.asarray(model.valid_k(k, **point), dtype=bool)
        if not np.all(valid):
            raise ValueError(f"k={k[~valid].tolist()} are not valid for model {model.name!r} at "
                             f"{point} (prefix granularity {model.granularity(**point)})")

    target = np.broadcast_to(np.asarray(model.target(**grid), dtype=np.float64), (n_points,)).copy()
    if not np.all(np.isfinite(target)):
        bad = int(np.flatnonzero(~np.isfinite(target))[0])
        raise ValueError(f"model {model.name!r} has a non-finite target at {points[bad]}")

    root = _random.seed_sequence(random_state)
    point_seeds = _random.spawn(root, n_points)
    if model.prefix:
        layouts = [seeds.block_layout(int(k[-1]), granularity=model.granularity(**point),
                                      budget=model.samples_per_block(**point)) for point in points]
        units = [(p, None, -(-n_repetitions // layouts[p][0])) for p in range(n_points)]
    else:
        layouts = [[seeds.block_layout(int(kk), budget=model.samples_per_block(**point)) for kk in k]
                   for point in points]
        units = [(p, j, -(-n_repetitions // layouts[p][j][0]))
                 for p in range(n_points) for j in range(k.size)]
    total_blocks = sum(n_blocks for _, _, n_blocks in units)
    workers = _workers(backend, n_jobs, scheduler)
    if chunk_size is None:
        # ~4 tasks per joblib worker, at most 256 blocks each (0.2 s of the fused NRFF kernel's
        # 65 x 1000 blocks: a task's round trip through loky costs a few ms, on which the worker
        # waits when the machine's cores are all busy); ~2 per dask worker thread, at most 1024
        # blocks, as a round trip through dask's scheduler costs more (10-30 ms on a busy
        # machine); never changes the result
        per_worker, most = (2, 1024) if backend == "dask" else (4, 256)
        chunk_size = max(1, min(most, -(-total_blocks // (per_worker * workers))))

    store = _checkpoint_store(checkpoint, checkpoint_is_root, model, grid, k, n_repetitions, root,
                              layouts, device)
    done = store.load(lambda p, j: k.size if j is None else 1) if store is not None else {}
    summaries = {(p, j): [done.get((p, j), {}).get(b) for b in range(n_blocks)]
                 for p, j, n_blocks in units}
    tasks = [(p, j, b0, b1) for p, j, n_blocks in units
             for b0, b1 in _missing_runs(summaries[(p, j)], chunk_size)]

    def call(p, j, b0, b1):
        if j is None:
            repetitions, slab = layouts[p]
            return (prefix_blocks, model, k, points[p], target[p], n_repetitions, repetitions,
                    slab, point_seeds[p], b0, b1, device_name)
        return (fresh_blocks, model, k[j], j, points[p], target[p], n_repetitions,
                layouts[p][j][0], point_seeds[p], b0, b1, device_name)

    resumed = total_blocks - sum(b1 - b0 for _, _, b0, b1 in tasks)
    bar = tqdm(total=total_blocks, initial=resumed, desc=f"simulate {model.name}", unit="block",
               file=sys.stderr, disable=None if progress is None else not progress,
               delay=0 if progress else 3, leave=False)
    merges = {key: _BlockOrderMerge(blocks) for key, blocks in summaries.items()}
    try:
        for index, computed in _run(backend, n_jobs, scheduler, [call(*task) for task in tasks]):
            p, j, b0, b1 = tasks[index]
            summaries[(p, j)][b0:b1] = computed
            if store is not None:
                store.save(p, j, b0, computed)
            merges[(p, j)].advance()
            bar.update(b1 - b0)
    finally:
        bar.close()
    merged = {key: merge.result() for key, merge in merges.items()}

    def stack(getter):
        if model.prefix:
            return np.stack([getter(*merged[(p, None)]) for p in range(n_points)])
        return np.stack([np.concatenate([getter(*merged[(p, j)]) for j in range(k.size)])
                         for p in range(n_points)])

    n = n_repetitions
    bias = stack(lambda errors, squared: errors.mean)
    variance = stack(lambda errors, squared: errors.variance)
    fourth = stack(lambda errors, squared: errors.m4) / n
    target_grid = np.repeat(target[:, None], k.size, axis=1)
    theory = {}
    for p, point in enumerate(points):
        for name, values in model.theory(k, **point).items():
            theory.setdefault(name, np.empty((n_points, k.size)))[p] = values
    if model.prefix:
        block_repetitions = np.array([layouts[p][0] for p in range(n_points)], dtype=np.int64)
    else:
        block_repetitions = np.array([[layout[0] for layout in layouts[p]] for p in range(n_points)],
                                     dtype=np.int64)
    return SimulationResult(
        model=model.name, options=model.options(), grid=grid, shape=shape, k=k,
        n_repetitions=n, target=target_grid, mean=target_grid + bias,
        se_mean=np.sqrt(variance / n), bias=bias, variance=variance,
        se_variance=variance_standard_error(n, variance, fourth),
        mse=stack(lambda errors, squared: squared.mean),
        se_mse=np.sqrt(stack(lambda errors, squared: squared.variance) / n), theory=theory,
        prefix=model.prefix, seed_entropy=root.entropy, seed_spawn_key=tuple(root.spawn_key),
        seed_scheme=seeds.SEED_SCHEME, block_repetitions=block_repetitions,
        n_blocks=-(-n // block_repetitions), device=device.name, resumed_blocks=resumed,
        elapsed_seconds=time.perf_counter() - start_time)
