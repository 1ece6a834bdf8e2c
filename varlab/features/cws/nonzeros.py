"""Input rows -> the nonzeros of u~ (GCWS's transformed coordinates, as log values), in groups.

Index convention. A transformed coordinate is a 0-based index into the 2D coordinates of u~
(000, Eq. 7/4): for original column i (0-based), coordinate 2i is the positive part
(u_i > mu_i, value u_i - mu_i) and coordinate 2i + 1 the nonpositive part (u_i <= mu_i, value
mu_i - u_i). This is the paper's 1-based numbering (2i - 1, 2i) minus one; GCWS's ``i*`` is such
an index.

Rows are handled in groups whose size is bounded by the constants below (never by D), each
given as CSR-like arrays (indptr, coordinates sorted within a row, x = log u~) of its nonzeros,
computed in float64 whatever the input dtype and layout, so a row gives the same nonzeros alone
or in any batch. u - mu may exceed the float64 range: its logarithm is formed without overflow.
A row whose u~ is all zero is refused (GCWS has no sample for it).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ... import _validate

_GROUP_NNZ = 1 << 20         # nonzeros of u~ hashed together (bounds the per-group arrays)
_GROUP_OUTPUT = 1 << 20      # rows x samples of one group's running (a, i*, t*) arrays
_DENSE_BLOCK = 1 << 20       # dense input entries converted at once


def _check_center(center):
    if center is None:
        return None
    mu = _validate.real_array(center, "center")
    if mu.ndim != 1 or mu.size == 0:
        raise ValueError(f"center must be a non-empty 1-d vector (one mu_i per column), got shape {mu.shape}")
    return mu


def _prepare(X, mu):
    """A validated X (dense, or CSR with its duplicates summed) against the centre's length."""
    if mu is not None and mu.shape[0] != X.shape[1]:
        raise ValueError(f"center must have length n_features = {X.shape[1]}, got {mu.shape[0]}")
    if sp.issparse(X) and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def _zero_rows(X, mu) -> np.ndarray:
    """The mask of the rows of a prepared X (dense, or canonical CSR) whose u~ is all zero: x = mu
    in every column (x = 0 without a centre)."""
    n = X.shape[0]
    if not sp.issparse(X):
        return ~np.any(X != (0.0 if mu is None else mu.astype(X.dtype)), axis=1) if X.shape[1] else np.ones(n, bool)
    rows = np.repeat(np.arange(n), np.diff(X.indptr))
    target = 0.0 if mu is None else mu[X.indices]
    differs = np.bincount(rows[X.data != target], minlength=n) > 0
    if mu is not None and np.any(mu != 0):          # every centred column must be stored, equal to mu
        matched = np.bincount(rows[(X.data == target) & (target != 0)], minlength=n)
        differs |= matched < np.count_nonzero(mu)
    return ~differs


def _one_sided(X, mu) -> bool:
    """Whether every entry of a prepared X lies on one side of the centre (x >= mu everywhere, or
    x <= mu everywhere), where every i* has the same parity."""
    if not sp.issparse(X):
        difference = X - (0.0 if mu is None else mu)
    else:
        stored = X.data - (0.0 if mu is None else mu[X.indices])
        implicit = np.zeros(0) if mu is None else -mu[np.bincount(X.indices, minlength=X.shape[1]) < X.shape[0]]
        difference = np.concatenate([stored, implicit])
    return bool(np.all(difference >= 0) or np.all(difference <= 0))


def _empty_rows_error(first_row: int):
    raise ValueError(f"X row {first_row} is all-zero after centring (u~ = 0): GCWS has no sample "
                     "for it and GMM with it is undefined")


def _log_overflowed(x, u, mu):
    """In place: x = log|u - mu| where the float64 difference u - mu overflowed (x = +inf).

    Then |u| and |mu| are both above 2**970 (neither is subnormal), so u/2 and mu/2 are exact and
    log|u - mu| = log|u/2 - mu/2| + log 2, with the same rounding as the ordinary path up to
    the last bit (Algorithm 1 on the real number u~ = |u - mu|; its t* is checked against
    mpmath by the tests). ``u(positions)`` and ``mu(positions)`` give the inputs there.
    """
    bad = np.flatnonzero(np.isinf(x))
    if bad.size:
        half = np.abs(0.5 * u(bad) - 0.5 * mu(bad))
        x[bad] = np.log(half) + np.log(2.0)
    return x


def _dense_nonzeros(block: np.ndarray, mu):
    """(indptr, coords, x) of u~ for a dense block of rows (coords sorted within each row)."""
    dev = block.astype(np.float64)
    if mu is not None:
        with np.errstate(over="ignore"):            # overflowed entries are redone below
            dev -= mu
    flat = dev.ravel()
    where = np.flatnonzero(flat)                 # row-major: sorted by row, then column
    values = flat[where]
    n_rows, d = block.shape
    rows = where // d
    columns = where - rows * d
    coords = 2 * columns + (values < 0)
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n_rows), out=indptr[1:])
    np.abs(values, out=values)
    x = np.log(values)
    if mu is not None:
        _log_overflowed(x, lambda at: block.ravel()[where[at]].astype(np.float64), lambda at: mu[columns[at]])
    return indptr, coords, x


def _sparse_nonzeros(block: sp.csr_matrix, mu):
    """(indptr, coords, x) of u~ for a CSR block (explicit zeros dropped, coords sorted)."""
    from ...kernels.gmm_kernel import centered_sparse

    centered = centered_sparse(block, mu)
    values = centered.data
    coords = 2 * centered.indices.astype(np.int64) + (values < 0)
    x = np.log(np.abs(values))
    if mu is not None:
        def original(at):
            rows = np.searchsorted(centered.indptr, at, side="right") - 1
            return np.asarray(block[rows, centered.indices[at]], dtype=np.float64).ravel()

        _log_overflowed(x, original, lambda at: mu[centered.indices[at]])
    return centered.indptr.astype(np.int64), coords, x


def _groups(X, mu, k: int):
    """Yield (first_row, indptr, coords, x) for consecutive groups of rows.

    A group holds at most ``_GROUP_NNZ`` nonzeros of u~ and ``_GROUP_OUTPUT // k`` rows (at least
    one row), and a dense group at most ``_DENSE_BLOCK`` input entries. Raises ValueError on a row
    whose u~ is all zero.
    """
    n = X.shape[0]
    if sp.issparse(X):
        extra = 0 if mu is None else int(np.count_nonzero(mu))
        per_row = np.diff(X.indptr) + extra
        rows_cap = n
    else:
        per_row = np.full(n, X.shape[1], dtype=np.int64)
        rows_cap = max(1, _DENSE_BLOCK // max(X.shape[1], 1))
    rows_cap = max(1, min(rows_cap, _GROUP_OUTPUT // k))
    cumulative = np.concatenate([[0], np.cumsum(per_row)])
    start = 0
    while start < n:
        fits = int(np.searchsorted(cumulative, cumulative[start] + _GROUP_NNZ, side="right")) - 1
        stop = min(n, start + rows_cap, max(start + 1, fits))
        if sp.issparse(X):
            indptr, coords, x = _sparse_nonzeros(X[start:stop], mu)
        else:
            indptr, coords, x = _dense_nonzeros(X[start:stop], mu)
        empty = np.flatnonzero(np.diff(indptr) == 0)
        if empty.size:
            _empty_rows_error(start + int(empty[0]))
        yield start, indptr, coords, x
        start = stop


