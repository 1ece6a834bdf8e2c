"""Out-of-core feature maps and hashing: transform data block by block (issue 12, section 3).

The randomness of every varlab feature map is fixed before the data are seen: GCWS's samples
(r, c, beta) are a pure function of (key, coordinate, sample) (:mod:`varlab._random`, 000
Alg. 1), and RFF's frequencies and phases are drawn once by ``fit`` from the data's width and
dtype only (000, Eq. 15). A row's output therefore does not depend on the other rows, and a
matrix that does not fit in memory is transformed one block of rows at a time, anywhere:

* a **dask array** (dense chunks, or scipy.sparse chunks): the map runs per chunk through
  ``map_blocks``, lazily, on whatever scheduler computes it (threads, processes, a
  dask.distributed cluster); the estimator travels to the workers with its key/frequencies;
* an **iterable of row blocks** (numpy arrays or scipy.sparse matrices, e.g. read from disk):
  a generator yields each block's result, so memory holds one block at a time;
* an in-memory **array or sparse matrix** with ``chunk_rows``: processed in row slices and
  stacked (the working memory of the map is that of one slice).

GCWS gives exactly the bits of the in-memory call for every row. RFF gives each row's
features up to the rounding of the matrix product (BLAS may sum the d products of a row in a
different order for a different number of rows), as a batch of ``RFF.transform`` does.

On dask.distributed, remove ``MALLOC_TRIM_THRESHOLD_`` from the workers' environment
(``distributed.nanny.pre-spawn-environ``; dask sets it to 65536 by default): it turns glibc's
adaptive mmap threshold off, and GCWS's hashing tiles then run about 2.5 times slower
(benchmarks/bench_chunked.py measures both).

An unfitted GCWS or RFF is fitted first, without looking at the data: its ``fit`` is given one
row of ones of the data's width and dtype (GCWS draws its key, RFF its frequencies and phases;
both use only the shape and dtype). Other estimators must be fitted already.
"""
from __future__ import annotations

import functools
import numbers
from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp

from ._base import NotFittedError
from .cws import GCWS
from .rff import RFF

__all__ = ["transform_chunks", "hash_chunks"]

_METHODS = ("transform", "hash", "components")


def _is_dask_array(X) -> bool:
    module = type(X).__module__ or ""
    return module.startswith("dask.") and hasattr(X, "map_blocks") and hasattr(X, "chunks")


def _check_method(estimator, method):
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"method must be one of {list(_METHODS)}, got {method!r}")
    if not callable(getattr(estimator, method, None)):
        raise TypeError(f"estimator must have a {method!r} method (e.g. varlab.features.GCWS or RFF), "
                        f"got {type(estimator).__name__}")
    return method


def _check_chunk_rows(chunk_rows):
    if chunk_rows is None:
        return None
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, numbers.Integral):
        raise TypeError(f"chunk_rows must be an integer >= 1 or None, got {chunk_rows!r}")
    if chunk_rows < 1:
        raise ValueError(f"chunk_rows must be an integer >= 1 or None, got {chunk_rows!r}")
    return int(chunk_rows)


def _width_and_dtype(block):
    shape = getattr(block, "shape", None)
    if shape is None or len(shape) != 2:
        raise ValueError(f"X blocks must be 2-d (rows, n_features), got shape {shape}")
    dtype = np.dtype(getattr(block, "dtype", np.float64))
    return int(shape[1]), dtype


def _ensure_fitted(estimator, width: int, dtype):
    """Fit a GCWS (key) or an RFF (frequencies) that is not fitted, from width and dtype only."""
    if hasattr(estimator, "n_features_in_"):
        return estimator
    if isinstance(estimator, (GCWS, RFF)):
        dtype = dtype if dtype in (np.float32, np.float64) else np.float64
        return estimator.fit(np.ones((1, width), dtype=dtype))
    raise NotFittedError(f"estimator {type(estimator).__name__} is not fitted: fit it before "
                         "transforming in chunks (only GCWS and RFF are fitted here, since their "
                         "fit does not look at the data)")


def _check_width(estimator, width: int):
    """X must have the width the map was fitted with, where the map records it (n_features_in_)."""
    fitted = estimator.__dict__.get("n_features_in_")
    if fitted is not None and width != fitted:
        raise ValueError(f"X has {width} columns, but {type(estimator).__name__} was fitted with "
                         f"n_features_in_={fitted}")


def _apply(block, estimator, method: str):
    """The map on one block; ``hash`` returns (i*, t*) side by side as one (n, 2k) array."""
    result = getattr(estimator, method)(block)
    if method == "hash":
        return np.concatenate(result, axis=1)
    return result


def _output_width(estimator, method: str) -> int:
    if method == "hash":
        return 2 * int(estimator.n_components)
    if isinstance(estimator, GCWS) and estimator.b is None:
        raise ValueError("b must be set (an integer in [1, 32]) to transform; got b=None")
    return int(estimator._n_features_out)


def _dask_map(estimator, method: str, X):
    width, dtype = _width_and_dtype(X)
    estimator = _ensure_fitted(estimator, width, dtype)
    _check_width(estimator, width)
    out = _output_width(estimator, method)
    if len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})                       # a row block must hold whole rows
    if method == "hash":
        out_dtype, meta = np.int64, np.empty((0, 0), dtype=np.int64)
    elif isinstance(estimator, GCWS):
        out_dtype, meta = np.float64, sp.csr_matrix((0, 0), dtype=np.float64)
    else:
        out_dtype = np.float32 if dtype == np.float32 else np.float64
        meta = np.empty((0, 0), dtype=out_dtype)
    return X.map_blocks(functools.partial(_apply, estimator=estimator, method=method), dtype=out_dtype, chunks=(X.chunks[0], (out,)),
                        meta=meta)


def _stack(results):
    if sp.issparse(results[0]):
        return sp.vstack(results, format="csr")
    return np.concatenate(results, axis=0)


def _blocks(X, chunk_rows):
    """Row blocks of an in-memory matrix (None: one block)."""
    n = X.shape[0]
    step = n if chunk_rows is None else chunk_rows
    if n == 0:
        yield X
        return
    for start in range(0, n, max(step, 1)):
        yield X[start:start + step]


def _generate(estimator, method: str, blocks):
    width = None
    for index, block in enumerate(blocks):
        if isinstance(block, (str, bytes)) or not (sp.issparse(block) or hasattr(block, "shape")):
            block = np.asarray(block)
        block_width, dtype = _width_and_dtype(block)
        if width is None:
            width = block_width
            estimator = _ensure_fitted(estimator, width, dtype)
            _check_width(estimator, width)
        elif block_width != width:
            raise ValueError(f"X block {index} has {block_width} columns, but the first block has {width}")
        yield _apply(block, estimator, method)


def transform_chunks(estimator, X, *, method: str = "transform", chunk_rows=None):
    """``estimator.<method>(X)`` computed block by block (see the module notes).

    Parameters
    ----------
    estimator : GCWS, RFF or another fitted feature map with ``method``
    X : dask array, numpy array (or a list of rows), scipy.sparse matrix, or an iterable of row blocks
        (a list or tuple of 2-d blocks, or any other iterable)
        A dask array gives a lazy dask array (``hash``: (n, 2k) int64, i* then t*); an
        array/sparse matrix gives the stacked result, computed ``chunk_rows`` rows at a time
        (all at once if None); an iterable gives a generator of the blocks' results.
    method : {"transform", "hash", "components"}
    chunk_rows : int >= 1 or None
        Rows per block for in-memory input; for a dask array, ``X`` is rechunked to it.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import RFF, transform_chunks
    >>> X = np.random.default_rng(0).standard_normal((1000, 5))
    >>> rff = RFF(n_components=64, random_state=0).fit(X)
    >>> bool(np.array_equal(transform_chunks(rff, X, chunk_rows=300), rff.transform(X)))
    True
    """
    method = _check_method(estimator, method)
    chunk_rows = _check_chunk_rows(chunk_rows)
    if _is_dask_array(X):
        if X.ndim != 2:
            raise ValueError(f"X must be 2-d (rows, n_features), got shape {X.shape}")
        if chunk_rows is not None:
            X = X.rechunk({0: chunk_rows})
        return _dask_map(estimator, method, X)
    if isinstance(X, (list, tuple)) and not any(sp.issparse(block) or np.ndim(block) == 2 for block in X):
        X = np.asarray(X)                            # a list of rows is an array, as everywhere
    if sp.issparse(X) or isinstance(X, np.ndarray):
        if X.ndim != 2:
            raise ValueError(f"X must be 2-d (rows, n_features), got shape {X.shape}")
        if sp.issparse(X) and X.format != "csr":
            X = sp.csr_matrix(X)                     # row slices (coo, dia, bsr, dok, lil, csc)
        return _stack(list(_generate(estimator, method, _blocks(X, chunk_rows))))
    if isinstance(X, (str, bytes)) or not isinstance(X, Iterable):
        raise TypeError("X must be a dask array, a numpy array, a scipy.sparse matrix or an iterable "
                        f"of row blocks, got {type(X).__name__}")
    if chunk_rows is not None:
        raise ValueError("chunk_rows applies to an array or a dask array; an iterable of blocks is "
                         "used block by block as given")
    return _generate(estimator, method, X)


def _split(hashes, k: int):
    return hashes[:, :k], hashes[:, k:]


def hash_chunks(gcws, X, *, chunk_rows=None):
    """GCWS (i*, t*) block by block: bit for bit ``gcws.hash`` on every row.

    A dask array gives a pair of lazy int64 dask arrays (n, k) (computed together, one hashing
    pass: ``dask.compute(i_star, t_star)``); an array or sparse matrix gives the pair of arrays;
    an iterable of row blocks gives a generator of pairs.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import GCWS, hash_chunks
    >>> X = np.abs(np.random.default_rng(0).standard_normal((500, 5)))
    >>> gcws = GCWS(n_components=16, random_state=0).fit(X)
    >>> i_star, t_star = hash_chunks(gcws, X, chunk_rows=100)
    >>> bool(np.array_equal(i_star, gcws.hash(X)[0]))
    True
    """
    if not isinstance(gcws, GCWS):
        raise TypeError(f"gcws must be a varlab.features.GCWS, got {type(gcws).__name__}")
    gcws._validate_params()
    k = int(gcws.n_components)
    result = transform_chunks(gcws, X, method="hash", chunk_rows=chunk_rows)
    if _is_dask_array(result) or isinstance(result, np.ndarray):
        return _split(result, k)
    return (_split(hashes, k) for hashes in result)
