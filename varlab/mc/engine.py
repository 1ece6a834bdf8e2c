"""The vectorized, blocked, parallel and bit-reproducible Monte Carlo engine.

``simulate(model, k=..., rho=..., gamma=..., n_repetitions=...)`` estimates, for every
parameter point (rho, gamma) and every k of an increasing grid, the mean, variance and MSE of
an estimator built from k i.i.d. samples, with standard errors.

How the work is organised
-------------------------
* **One pass for all k.** A repetition draws k_max samples once; the estimator for every k of
  the grid comes from the cumulative sums of the model's per-sample terms at the grid points
  (segment sums between consecutive grid points with ``np.add.reduceat``, then a cumulative
  sum over segments -- the prefix sums evaluated at the requested columns only).
* **Blocks.** Repetitions are split into blocks of ``R`` repetitions with
  ``R * k_max <= BLOCK_ELEMENTS`` (2^16 samples; at most ``MAX_BLOCK_REPETITIONS``). If
  ``k_max`` alone exceeds the budget, ``R = 1`` and each repetition is processed in column
  slabs of ``BLOCK_ELEMENTS`` samples carrying the running sums. Memory is O(R * k_max), never
  O(n_repetitions * k_max).
* **Seeds** (scheme ``SEED_SCHEME``). ``random_state`` -> root SeedSequence; the root spawns
  one child per parameter point (``varlab._random.spawn``); each point's sequence spawns one
  child per block (block b is the b-th child, i.e. ``spawn(point_seed, n_blocks)[b]``); block b
  draws from ``numpy.random.default_rng(child)``. The block size ``R`` depends only on k_max
  (and, through the feature map, on the dimension), never on n_jobs, chunk_size or backend.
  Models of one family share the draw order, so e.g. "rff" and "nrff" run with the same seed see
  the same samples (common random numbers).
* **Merging.** Each block is summarised by central moments (``stats.Moments``) of the error
  d = estimate - target (orders 1..4) and of the squared error d^2 (orders 1..2); the main
  process merges the block summaries of each point left to right in block order as the
  (ordered) results arrive. Hence results are bit-identical for any ``n_jobs``,
  ``chunk_size`` (blocks per task) and joblib backend.
* **Threads.** Inside the compute loops BLAS is limited to one thread (threadpoolctl): an idle
  OpenBLAS pool spinning on a second hyperthread halves numpy's throughput on small machines.

Statistics reported (n = n_repetitions): ``mean`` (= target + mean error), ``bias`` (the mean
error), ``se_mean = s/sqrt(n)``; ``variance`` (unbiased) and ``se_variance =
sqrt((m4 - (n-3)/(n-1) s^4)/n)`` with m4 the 4th central sample moment; ``mse`` = mean of
d^2 and ``se_mse = sd(d^2)/sqrt(n)``. See ``varlab.mc.stats``.
"""
from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field, fields, replace

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

from .. import _random, _validate
from .models import Model, Workspace, get_model
from .progress import Progress
from .stats import Moments, variance_standard_error

__all__ = ["simulate", "SimulationResult", "block_layout", "BLOCK_ELEMENTS",
           "MAX_BLOCK_REPETITIONS", "SEED_SCHEME", "correlated_unit_vectors"]

#: samples per block (repetitions x columns); part of the seeding scheme
BLOCK_ELEMENTS = 2 ** 16
#: cap on repetitions per block (matters only for small k_max)
MAX_BLOCK_REPETITIONS = 4096
#: through the feature map: cap on the RFF weight matrix (dimension x components) per block
FEATURE_MATRIX_ELEMENTS = 2 ** 21
#: identifies the seeding scheme recorded in every result
SEED_SCHEME = "varlab.mc/1: root -> point p (spawn) -> block b (spawn); block_elements=2**16"

_THROUGH = ("model", "features")
_STAT_FIELDS = ("target", "mean", "se_mean", "variance", "se_variance", "mse", "se_mse", "bias")


# --- result -----------------------------------------------------------------------------------

@dataclass(repr=False)
class SimulationResult:
    """Summary statistics of a simulation; arrays are (n_points, n_k).

    ``rho`` and ``gamma`` are the flattened broadcast parameter grid (n_points,), ``shape`` the
    broadcast shape (``grid(name)`` reshapes a statistic to ``shape + (n_k,)``).
    """

    model: str
    k: np.ndarray
    rho: np.ndarray
    gamma: np.ndarray
    shape: tuple
    n_repetitions: int
    target: np.ndarray
    mean: np.ndarray
    se_mean: np.ndarray
    variance: np.ndarray
    se_variance: np.ndarray
    mse: np.ndarray
    se_mse: np.ndarray
    bias: np.ndarray
    seed_entropy: object = None
    seed_spawn_key: tuple = ()
    seed_scheme: str = SEED_SCHEME
    block_repetitions: int = 0
    n_blocks: int = 0
    through: str = "model"
    dimension: int | None = None
    elapsed_seconds: float = field(default=float("nan"), compare=False)

    @property
    def n_points(self) -> int:
        return int(self.rho.size)

    @property
    def se_bias(self) -> np.ndarray:
        """The SE of the bias (= the SE of the mean)."""
        return self.se_mean

    def grid(self, name: str) -> np.ndarray:
        """Statistic ``name`` reshaped to the broadcast parameter shape: ``shape + (n_k,)``."""
        if name not in _STAT_FIELDS:
            raise ValueError(f"name must be one of {list(_STAT_FIELDS)}, got {name!r}")
        return getattr(self, name).reshape(tuple(self.shape) + (self.k.size,))

    def records(self) -> list[dict]:
        """One dict per (point, k): model, rho, gamma, k, n_repetitions and every statistic."""
        rows = []
        for p in range(self.n_points):
            for j, kk in enumerate(self.k):
                row = {"model": self.model, "through": self.through, "rho": float(self.rho[p]),
                       "gamma": float(self.gamma[p]), "k": int(kk), "n_repetitions": self.n_repetitions}
                for name in _STAT_FIELDS:
                    row[name] = float(getattr(self, name)[p, j])
                rows.append(row)
        return rows

    def select(self, rho=None, gamma=None, *, index=None) -> "SimulationResult":
        """The sub-result of the points with this rho and/or gamma (np.isclose), or by index.

        Raises ValueError if nothing matches. The returned result has shape (n_selected,).
        """
        if index is not None:
            if rho is not None or gamma is not None:
                raise TypeError("give either index or rho/gamma, not both")
            chosen = np.atleast_1d(np.arange(self.n_points)[index])
        else:
            mask = np.ones(self.n_points, dtype=bool)
            if rho is not None:
                mask &= np.isclose(self.rho, float(rho), rtol=1e-12, atol=1e-12)
            if gamma is not None:
                mask &= np.isclose(self.gamma, float(gamma), rtol=1e-12, atol=1e-12)
            chosen = np.flatnonzero(mask)
        if chosen.size == 0:
            raise ValueError(f"no simulated point has rho={rho!r}, gamma={gamma!r}; "
                             f"points are rho={self.rho.tolist()}, gamma={self.gamma.tolist()}")
        updates = {name: getattr(self, name)[chosen] for name in _STAT_FIELDS + ("rho", "gamma")}
        return replace(self, shape=(int(chosen.size),), **updates)

    def __repr__(self) -> str:
        ks = self.k.tolist()
        k_text = repr(ks) if len(ks) <= 6 else f"[{ks[0]}, {ks[1]}, ..., {ks[-1]}] ({len(ks)} values)"
        return (f"SimulationResult(model={self.model!r}, through={self.through!r}, "
                f"n_points={self.n_points}, shape={self.shape}, k={k_text}, "
                f"n_repetitions={self.n_repetitions}, n_blocks={self.n_blocks})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        for f in fields(self):
            if not f.compare:
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                if not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True


# --- layout and seeds -------------------------------------------------------------------------

def block_layout(k_max: int, *, dimension: int | None = None) -> tuple[int, int]:
    """(repetitions per block, column slab width) for this k_max (part of the seeding scheme).

    Through the feature map the budget also bounds the RFF weight matrix (dimension x components).
    """
    budget = BLOCK_ELEMENTS
    if dimension is not None:
        budget = max(1, min(budget, FEATURE_MATRIX_ELEMENTS // (int(dimension) + 1)))
    if k_max <= budget:
        return max(1, min(MAX_BLOCK_REPETITIONS, budget // k_max)), int(k_max)
    return 1, budget


def _child(parent: np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    """The index-th child of a fresh copy of ``parent`` (= ``_random.spawn(parent, n)[index]``)."""
    return np.random.SeedSequence(parent.entropy, spawn_key=tuple(parent.spawn_key) + (int(index),),
                                  pool_size=parent.pool_size)


def correlated_unit_vectors(rho: float, dimension: int) -> np.ndarray:
    """A (2, dimension) array [u; v] of unit vectors with <u, v> = rho: u = e1, v = rho e1 + s e2,
    s = sqrt(1 - rho^2) (the correlation of 000, Eq. 1, realised in R^dimension)."""
    rho = float(_validate.correlation(rho, "rho"))
    dimension = _validate.positive_int(dimension, "dimension", minimum=2)
    uv = np.zeros((2, dimension))
    uv[0, 0] = 1.0
    uv[1, 0] = rho
    uv[1, 1] = math.sqrt(max(0.0, 1.0 - rho * rho))
    return uv


# --- per-task computation ---------------------------------------------------------------------

_CONTROLLER = None


def _blas_single_thread():
    """Context manager limiting BLAS/OpenMP pools to one thread (cached controller)."""
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1)


class _Plan:
    """How the columns 0..k_max-1 are cut into slabs, and each slab into segments that end at
    grid points: per slab (c0, width, segment starts, pieces ending at a grid k, their k index)."""

    def __init__(self, k: np.ndarray, slab: int):
        k = np.asarray(k, dtype=np.int64)
        k_max = int(k[-1])
        self.slabs = []
        for c0 in range(0, k_max, slab):
            width = min(slab, k_max - c0)
            lo = int(np.searchsorted(k, c0, side="right"))            # first k > c0
            hi = int(np.searchsorted(k, c0 + width, side="left"))     # first k >= c0 + width
            starts = np.concatenate([[0], k[lo:hi] - c0]).astype(np.intp)
            # piece i < last ends at starts[i + 1] = k[lo + i]; the last ends at the slab's end
            pieces = list(range(hi - lo))
            columns = list(range(lo, hi))
            if hi < k.size and k[hi] == c0 + width:
                pieces.append(hi - lo)
                columns.append(hi)
            self.slabs.append((c0, width, starts, np.array(pieces, dtype=np.intp),
                               np.array(columns, dtype=np.intp)))


def _accumulate(terms, starts, pieces, columns, sums, carry):
    """Add the slab's segment sums to ``carry`` and record prefix sums at the grid columns."""
    segments = np.add.reduceat(terms, starts, axis=2)        # (T, n, n_pieces)
    if carry is not None:
        segments[:, :, 0] += carry
    np.cumsum(segments, axis=2, out=segments)
    if pieces.size:
        sums[:, columns, :] = segments[:, :, pieces].transpose(0, 2, 1)
    return segments[:, :, -1].copy()


def _block_sums_model(model, rng, n, rho, gamma, plan, sums, workspace):
    carry = None
    for c0, width, starts, pieces, columns in plan.slabs:
        terms = workspace.buffer("terms", (model.n_terms, n, width))
        model.sample(rng, n, width, rho, gamma, terms, workspace)
        carry = _accumulate(terms, starts, pieces, columns, sums, carry)


def _block_sums_features(model, seed, n, rho, gamma, plan, sums, workspace, dimension):
    from ..features import RFF    # features never import mc; mc may import features

    uv = correlated_unit_vectors(rho, dimension)
    carry = None
    for s, (c0, width, starts, pieces, columns) in enumerate(plan.slabs):
        slab_seed = seed if len(plan.slabs) == 1 else _child(seed, s)
        rff = RFF(n * width, gamma=gamma, kernel="correlation", normalize=False,
                  phase=bool(model.feature_phase), random_state=slab_seed).fit(uv)
        components = np.asarray(rff.components(uv), dtype=np.float64)
        X = components[0].reshape(n, width)
        Y = components[1].reshape(n, width)
        terms = workspace.buffer("terms", (model.n_terms, n, width))
        model.feature_terms(X, Y, terms)
        carry = _accumulate(terms, starts, pieces, columns, sums, carry)


def _simulate_blocks(model, k, rho, gamma, target, n_repetitions, block_repetitions, slab,
                     point_seed, block_start, block_stop, through, dimension):
    """Summaries (Moments of the error, Moments of the squared error) of blocks start..stop-1."""
    plan = _Plan(k, slab)
    k_column = k.astype(np.float64)[:, None]
    workspace = Workspace()
    summaries = []
    with _blas_single_thread():
        for b in range(block_start, block_stop):
            n = min(block_repetitions, n_repetitions - b * block_repetitions)
            seed = _child(point_seed, b)
            sums = workspace.buffer("sums", (model.n_terms, k.size, n))
            if through == "model":
                _block_sums_model(model, np.random.default_rng(seed), n, rho, gamma, plan, sums,
                                  workspace)
            else:
                _block_sums_features(model, seed, n, rho, gamma, plan, sums, workspace, dimension)
            estimates = np.asarray(model.combine(sums, k_column, rho, gamma), dtype=np.float64)
            if estimates.shape != (k.size, n):
                raise ValueError(f"model {model.name!r}: combine returned shape {estimates.shape}, "
                                 f"expected {(k.size, n)}")
            if not np.all(np.isfinite(estimates)):
                bad = np.argwhere(~np.isfinite(estimates))[0]
                raise FloatingPointError(f"model {model.name!r} produced a non-finite estimate at "
                                         f"rho={rho}, gamma={gamma}, k={int(k[bad[0]])} (block {b})")
            errors = estimates - target
            summaries.append((Moments.from_samples(errors, order=4),
                              Moments.from_samples(errors * errors, order=2)))
    return summaries


# --- public entry point -----------------------------------------------------------------------

def _check_n_jobs(n_jobs):
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise (TypeError if not isinstance(n_jobs, numbers.Integral) or isinstance(n_jobs, bool)
               else ValueError)(f"n_jobs must be a non-zero integer (negative counts from the number "
                                f"of CPUs, as in joblib), got {n_jobs!r}")
    return int(n_jobs)


def simulate(model, *, k, rho, gamma, n_repetitions, random_state=None, n_jobs=1,
             chunk_size=None, backend="loky", progress=None, through="model", dimension=None,
             **model_options) -> SimulationResult:
    """Simulate an estimator at every (rho, gamma) point and every k of a grid.

    Parameters
    ----------
    model : str or Model
        A registered name (``varlab.mc.models.available_models()``: "rff", "rff_no_phase",
        "nrff", ...) or a ``Model`` instance. ``**model_options`` build a named model.
    k : int or increasing sequence of int >= 1
        Numbers of samples; all come from one pass over k_max = max(k) samples.
    rho, gamma : float or array
        Correlation in [-1, 1] and kernel parameter > 0, broadcast together; the result holds
        the flattened points and the broadcast ``shape``.
    n_repetitions : int >= 2
        Independent repetitions of the estimator per point.
    random_state : None, int, SeedSequence or Generator
        Root of the seed tree (see the module docstring); recorded in the result.
    n_jobs, backend : joblib parallelism; results do not depend on them.
    chunk_size : int, optional
        Blocks per joblib task (the unit of dispatch and progress); results do not depend on it.
    progress : None, True or False
        None prints a one-line progress report to stderr only if the run lasts over ~3 s.
    through : "model" or "features"
        "features" draws through the real feature map ``varlab.features.RFF`` applied to unit
        vectors u, v in R^dimension with <u, v> = rho (one RFF per block, ``n_components =
        repetitions_in_block * k_max``, seeded with the block's child seed; when k_max exceeds
        the block budget, one RFF per column slab s, seeded with the s-th child of that seed).
    dimension : int >= 2, optional
        Dimension D of u, v for ``through="features"`` (default 2).

    Returns
    -------
    SimulationResult
    """
    start_time = time.perf_counter()
    model = get_model(model, **model_options)
    if not isinstance(model, Model):  # pragma: no cover - get_model guarantees it
        raise TypeError("model must be a Model")
    k = _validate.int_grid(k, "k", minimum=1)
    rho_in = _validate.correlation(rho, "rho")
    gamma_in = _validate.positive(gamma, "gamma")
    try:
        shape = np.broadcast_shapes(rho_in.shape, gamma_in.shape)
    except ValueError:
        raise ValueError(f"rho and gamma must broadcast together, got shapes {rho_in.shape} and "
                         f"{gamma_in.shape}") from None
    rho_flat = np.broadcast_to(rho_in, shape).reshape(-1).copy()
    gamma_flat = np.broadcast_to(gamma_in, shape).reshape(-1).copy()
    if rho_flat.size == 0:
        raise ValueError("rho and gamma must hold at least one parameter point")
    n_repetitions = _validate.positive_int(n_repetitions, "n_repetitions", minimum=2)
    n_jobs = _check_n_jobs(n_jobs)
    if chunk_size is not None:
        chunk_size = _validate.positive_int(chunk_size, "chunk_size", minimum=1)
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a joblib backend name (str), got {backend!r}")
    if progress not in (None, True, False):
        raise TypeError(f"progress must be None, True or False, got {progress!r}")
    _validate.choice(through, "through", set(_THROUGH))
    if through == "features":
        if model.feature_phase is None:
            raise ValueError(f"through='features' is not supported by model {model.name!r} "
                             "(it defines no feature_phase/feature_terms)")
        dimension = 2 if dimension is None else _validate.positive_int(dimension, "dimension", minimum=2)
    elif dimension is not None:
        raise ValueError("dimension is only used with through='features'")

    target = np.asarray(model.target(rho_flat, gamma_flat), dtype=np.float64)
    target = np.broadcast_to(target, rho_flat.shape).copy()
    if not np.all(np.isfinite(target)):
        raise ValueError(f"model {model.name!r} has a non-finite target at some (rho, gamma)")

    k_max = int(k[-1])
    block_repetitions, slab = block_layout(k_max, dimension=dimension if through == "features" else None)
    n_blocks = -(-n_repetitions // block_repetitions)
    root = _random.seed_sequence(random_state)
    point_seeds = _random.spawn(root, rho_flat.size)

    workers = max(1, effective_n_jobs(n_jobs))
    if chunk_size is None:
        # ~4 tasks per worker (load balance) of at most 64 blocks (~0.2 s: progress stays smooth
        # and per-task overhead of process backends stays small); never changes the result
        chunk_size = max(1, min(64, -(-rho_flat.size * n_blocks // (4 * workers)), n_blocks))
    tasks = [(p, b0, min(b0 + chunk_size, n_blocks))
             for p in range(rho_flat.size) for b0 in range(0, n_blocks, chunk_size)]

    reporter = Progress(n_blocks * rho_flat.size, progress, label=f"simulate {model.name}")
    calls = (delayed(_simulate_blocks)(model, k, float(rho_flat[p]), float(gamma_flat[p]),
                                       target[p], n_repetitions, block_repetitions, slab,
                                       point_seeds[p], b0, b1, through, dimension)
             for p, b0, b1 in tasks)
    merged: list = [None] * rho_flat.size
    try:
        results = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator")(calls)
        for (p, b0, b1), summaries in zip(tasks, results):
            for errors, squared in summaries:              # block order, left to right
                if merged[p] is None:
                    merged[p] = (errors, squared)
                else:
                    merged[p] = (merged[p][0].merge(errors), merged[p][1].merge(squared))
            reporter.update(b1 - b0)
    finally:
        reporter.close()

    def stack(getter):
        return np.stack([getter(m) for m in merged])

    n = n_repetitions
    bias = stack(lambda m: m[0].mean)
    variance = stack(lambda m: m[0].variance)
    fourth = stack(lambda m: m[0].m4) / n
    mse = stack(lambda m: m[1].mean)
    target_grid = np.repeat(target[:, None], k.size, axis=1)
    return SimulationResult(
        model=model.name, k=k, rho=rho_flat, gamma=gamma_flat, shape=tuple(shape),
        n_repetitions=n, target=target_grid, mean=target_grid + bias,
        se_mean=np.sqrt(variance / n), variance=variance,
        se_variance=variance_standard_error(n, variance, fourth), mse=mse,
        se_mse=np.sqrt(stack(lambda m: m[1].variance) / n), bias=bias,
        seed_entropy=root.entropy, seed_spawn_key=tuple(root.spawn_key), seed_scheme=SEED_SCHEME,
        block_repetitions=block_repetitions, n_blocks=n_blocks, through=through,
        dimension=dimension, elapsed_seconds=time.perf_counter() - start_time)
