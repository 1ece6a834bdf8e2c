"""GCWS: generalized consistent weighted sampling (paper 000, Sections 1.3-1.4).

GCWS hashes a signed vector u in R^D into k samples (i*_j, t*_j), j = 0..k-1, whose collision
probability is the GMM similarity (000, Theorem 1, Eq. 10)::

    Pr{(i*_u, t*_u) = (i*_v, t*_v)} = GMM(u, v)

Each sample is Algorithm 1 of paper 000 (log form), run on the transform u~ of Eq. (7)/(4)::

    r_i, c_i ~ Gamma(2, 1),  beta_i ~ Uniform(0, 1)            (one triple per coordinate, sample)
    t_i = floor(log(u~_i) / r_i + beta_i)
    a_i = log(c_i) - r_i (t_i + 1 - beta_i)
    i*  = argmin_i a_i,   t* = t_{i*}

over the nonzeros of u~ only (a zero u~_i has a_i = +inf and can never be chosen). Paper 001
(Section 1.3) writes the same step in exp form, z_i = exp(r_i (t_i - beta_i)),
a_i = c_i / (z_i exp(r_i)); ``_reference_hash(..., form="exp")`` keeps that form for the tests.

Index convention. ``i*`` is a 0-based index into the 2D transformed coordinates: for original
column i (0-based), coordinate 2i is the positive part (u_i > mu_i, value u_i - mu_i) and
coordinate 2i + 1 the nonpositive part (u_i <= mu_i, value mu_i - u_i). This is the paper's
1-based numbering (2i - 1, 2i) minus one. ``t*`` is an unbounded signed integer (int64).

Randomness. (r, c, beta) for (coordinate i, sample j) are a pure function of
(seed key, i, j), generated on the fly by the counter-based generator of
:mod:`varlab._random` (``cws_randomness``); no D x k table is stored, so memory does not depend
on D, and a row hashes identically alone or in any batch, dense or sparse, float32 or float64
(the hash is computed in float64), in any process. Ties in a_i (a measure-zero event) go to the
smallest coordinate.

Two exact evaluation strategies give bit-identical results (tests check this):

* ``direct``: generate (r, c, beta) for every (nonzero, sample) pair in tiles of bounded size and
  take a segmented argmin per row.
* ``shared``: when many rows share few coordinates (dense data), generate one (k x distinct
  coordinates) table and prune exactly. With K_i = log c_i - r_i and x_i = log u~_i,
  t_i <= x_i / r_i + beta_i gives a_i >= K_i - x_i. For each (row, sample) the first round
  examines the coordinates of smallest K (per sample); if the bound with x_i replaced by the
  row's largest x does not settle it for many samples of a row, it also examines the row's
  coordinates of largest x (for all samples). Every unexamined coordinate then has
  K_i >= K_next and x_i <= x_next, so a_i >= K_next - x_next, and the best a found is the
  minimum once it lies below that bound by a rounding margin (1e-9 relative; the rounding
  errors of a are ~1e-16). Unsettled pairs repeat with 4 times more candidates on both sides, up
  to all of them. Typical dense rows are settled after ~64 of D coordinates; heavy-tailed rows
  cost more.

Memory is bounded by the block sizes below (groups of rows, tiles, the shared table), never by D:
D = 10^7 with 100 nonzeros per row and k = 1024 hashes 1000 rows with a 44 MiB traced peak (16 MiB
of it the output). Numerical range: r >= 2.2e-16 and |log u~| <= 745 keep |t| < 2**62, so t*
fits int64 for any finite input.

b-bit coding (000, Section 1.4). With ``b`` set, ``transform`` stores the lowest b bits of each
sample's value v (i* itself when ``zero_bit``; otherwise a 64-bit mix of (i*, t*), so equal
samples share a column and different ones collide with probability about 2^-b) as a one-hot block
of length 2^b in which v sits at position 2^b - 1 - (v mod 2^b): for b = 2, v = 3 codes as
[1 0 0 0] and v = 0 as [0 0 0 1], as in the paper. The k blocks are concatenated into a CSR row of
width 2^b k with exactly k ones.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp

from sklearn.utils._param_validation import Interval

from ... import _random, _validate
from .._base import RANDOM_STATE, FeatureMap

__all__ = ["GCWS", "gmm_estimate", "bbit_code"]

_TILE = 1 << 15              # (samples x nonzeros) elements of one direct-path tile
_DIRECT_SAMPLES = 8          # samples per direct-path tile (long rows make numpy's broadcasting cheap)
_PRUNE_TILE = 1 << 17        # (rows x samples x candidates) elements of one shared-path tile
_GROUP_NNZ = 1 << 20         # nonzeros of u~ hashed together (bounds the per-group arrays)
_GROUP_OUTPUT = 1 << 20      # rows x samples of one group's running (a, i*, t*) arrays
_DENSE_BLOCK = 1 << 20       # dense input entries converted at once
_TABLE_BUDGET = 1 << 19      # (samples x distinct coordinates) entries of a shared table
_SHARE_MIN = 8               # shared path when each distinct coordinate is used >= 8 times
_FIRST_CANDIDATES = 64       # a row's nonzeros among the side-K candidates of the first pruning round
_FIRST_CANDIDATES_X = 32     # side-x candidates (a row's largest x) of the first pruning round
_MAX_B = 32


# ------------------------------------------------------------------------------------------
# Algorithm 1 (one formula for every code path, so all of them agree bit for bit)
# ------------------------------------------------------------------------------------------

def _alg1(x, r, log_c, beta):
    """t = floor(x / r + beta), a = log c - r ((t + 1) - beta) with x = log u~ (000, Alg. 1).

    Broadcasts; returns float64 (a, t). x = -inf (u~ = 0) gives t = -inf and a = +inf.
    """
    t = np.divide(x, r)
    t += beta
    np.floor(t, out=t)
    a = np.add(t, 1.0)
    a -= beta
    a *= r
    np.subtract(log_c, a, out=a)
    return a, t


def _alg1_exp(u, r, c, beta):
    """Exp form of paper 001 (Alg. 1): z = exp(r (t - beta)), a = c / (z exp(r)); returns (a, t)."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        t = np.floor(np.log(u) / r + beta)
        z = np.exp(r * (t - beta))
        a = c / (z * np.exp(r))
    return a, t


# ------------------------------------------------------------------------------------------
# Input -> nonzeros of u~ (transformed coordinates, log values), in groups of rows
# ------------------------------------------------------------------------------------------

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
    from ...kernels import _centered_sparse

    centered = _centered_sparse(block, mu)
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


# ------------------------------------------------------------------------------------------
# Direct strategy: randomness for every (nonzero, sample) pair, segmented argmin
# ------------------------------------------------------------------------------------------

def _hash_direct(indptr, coords, x, key: int, k: int):
    n_rows = indptr.size - 1
    nnz = coords.size
    best_a = np.full((k, n_rows), np.inf)
    best_i = np.zeros((k, n_rows), dtype=np.int64)
    best_t = np.zeros((k, n_rows))
    states = _random.coordinate_states(key, coords)
    words = _random.sample_words(np.arange(k))
    row_of = np.repeat(np.arange(n_rows), np.diff(indptr))
    # tiles of about _TILE pairs: _DIRECT_SAMPLES samples by many nonzeros, or, when a group has
    # few nonzeros (e.g. two short rows and a large k), all of them by more samples
    chunk = max(1, min(nnz, _TILE // _DIRECT_SAMPLES))
    ks = min(k, max(_DIRECT_SAMPLES, _TILE // chunk))
    for z0 in range(0, nnz, chunk):                      # tiles, not nonzeros
        z1 = min(nnz, z0 + chunk)
        rows = row_of[z0:z1]
        first, last = int(rows[0]), int(rows[-1])
        local_row = rows - first
        starts = np.flatnonzero(np.diff(local_row, prepend=-1))   # one segment per row
        positions = np.arange(z1 - z0)
        xs = x[None, z0:z1]
        for j0 in range(0, k, ks):
            j1 = min(k, j0 + ks)
            r, log_c, beta = _random._cws_tile(states[z0:z1], words[j0:j1])
            a, t = _alg1(xs, r, log_c, beta)
            seg_min = np.minimum.reduceat(a, starts, axis=1)
            hit = a == seg_min[:, local_row]
            pos = np.minimum.reduceat(np.where(hit, positions, z1 - z0), starts, axis=1)
            seg_t = np.take_along_axis(t, pos, axis=1)
            seg_i = coords[z0 + pos]
            cur_a = best_a[j0:j1, first:last + 1]
            better = seg_min < cur_a                     # strict: earlier coordinates win ties
            np.copyto(cur_a, seg_min, where=better)
            np.copyto(best_i[j0:j1, first:last + 1], seg_i, where=better)
            np.copyto(best_t[j0:j1, first:last + 1], seg_t, where=better)
    return best_i.T, best_t.T


# ------------------------------------------------------------------------------------------
# Shared strategy: one table for the distinct coordinates, exact pruning
# ------------------------------------------------------------------------------------------

def _distinct(coords: np.ndarray) -> np.ndarray:
    """Sorted distinct values of ``coords`` (a mask when they are dense in [0, max])."""
    top = int(coords.max()) + 1
    if top <= 16 * coords.size:
        mask = np.zeros(top, dtype=bool)
        mask[coords] = True
        return np.flatnonzero(mask)
    return np.unique(coords)


def _positions(distinct: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """Index of each coordinate in the sorted ``distinct`` array."""
    top = int(distinct[-1]) + 1
    if top <= 16 * coords.size:
        lookup = np.empty(top, dtype=np.int64)
        lookup[distinct] = np.arange(distinct.size)
        return lookup[coords]
    return np.searchsorted(distinct, coords)


def _settle(a, t, cand):
    """argmin of a along the last axis, ties to the smallest candidate index; returns (min, cand, t).

    ``cand`` (broadcasting against ``a``) holds the candidates' indices into the sorted distinct
    coordinates, so the smallest index is the smallest coordinate, as in the direct path.
    """
    pos = a.argmin(axis=-1)[..., None]
    low = np.take_along_axis(a, pos, axis=-1)
    hit = a == low
    tied = np.count_nonzero(hit, axis=-1) > 1          # exact ties: a measure-zero event
    cand = np.broadcast_to(cand, a.shape)
    if np.any(tied):
        winner = np.where(hit, cand, np.iinfo(np.int64).max).min(axis=-1, keepdims=True)
        pos = np.where(tied[..., None], np.argmax(hit & (cand == winner), axis=-1)[..., None], pos)
    return (low[..., 0], np.take_along_axis(cand, pos, axis=-1)[..., 0],
            np.take_along_axis(t, pos, axis=-1)[..., 0])


def _margin(low, k_next, xabs):
    """Rounding margin for the certificate (errors of a are ~1e-16 relative; this is 1e-9)."""
    with np.errstate(invalid="ignore"):
        return 1e-9 * (10.0 + np.abs(low) + np.abs(k_next) + xabs)


def _keep_better(low, win, win_t, lo, wi, wt):
    """In place: where (lo, wi) beats (low, win) - smaller a, ties to the smaller index - take it."""
    take = (lo < low) | ((lo == low) & (wi < win))
    np.copyto(low, lo, where=take)
    np.copyto(win, wi, where=take)
    np.copyto(win_t, wt, where=take)


def _shared_tables(distinct, key: int, k: int):
    """(r, log c, beta) on the grid (k samples) x (distinct coordinates), built in tiles."""
    u = distinct.size
    states = _random.coordinate_states(key, distinct)
    words = _random.sample_words(np.arange(k))
    r, log_c, beta = (np.empty((k, u)) for _ in range(3))
    step = max(1, _PRUNE_TILE // u)
    for j0 in range(0, k, step):
        j1 = min(k, j0 + step)
        r[j0:j1], log_c[j0:j1], beta[j0:j1] = _random._cws_tile(states, words[j0:j1])
    return r, log_c, beta


def _hash_shared(indptr, coords, x, key: int, k: int, distinct: np.ndarray):
    """Exact Algorithm 1 with one shared table and two-sided pruning (see module notes).

    With K_i = log c_i - r_i, every a_i >= K_i - x_i (x = log u~). A round examines, for row p
    and sample j, the m coordinates of smallest K (per sample) and the m' coordinates of largest
    x (per row; in round 1 only for rows that side K alone leaves unsettled for > k/8 samples,
    with x_next = the row's maximum otherwise); every other coordinate has K_i >= K_next(j) and
    x_i <= x_next(p), so a_i >= K_next(j) - x_next(p), and the best a found is the minimum once
    that bound exceeds it by a rounding margin. Unsettled pairs repeat with 4 times more
    candidates on both sides, up to all of them, so the result is always exact.
    """
    n_rows = indptr.size - 1
    u = distinct.size
    r, log_c, beta = _shared_tables(distinct, key, k)
    bound = log_c - r                                   # a_i >= bound_i - log u~_i
    order = np.argsort(bound, axis=1, kind="stable")    # (k, u) indices into `distinct`
    bound_sorted = np.take_along_axis(bound, order, axis=1)
    del bound
    r_s, log_c_s, beta_s = (np.take_along_axis(table, order, axis=1) for table in (r, log_c, beta))
    i_star = np.empty((n_rows, k), dtype=np.int64)
    t_star = np.empty((n_rows, k))
    row_of = np.repeat(np.arange(n_rows), np.diff(indptr))
    column_of = _positions(distinct, coords)
    rows_per_block = max(1, min(n_rows, _TABLE_BUDGET // u))
    # side-K prefix: about _FIRST_CANDIDATES of a row's nonzeros among the m1 smallest K
    density = coords.size / (n_rows * u)
    m1 = min(u, int(np.ceil(_FIRST_CANDIDATES / density)))
    ks = min(k, max(1, _PRUNE_TILE // m1))
    for p0 in range(0, n_rows, rows_per_block):          # blocks of rows
        p1 = min(n_rows, p0 + rows_per_block)
        nb = p1 - p0
        z0, z1 = indptr[p0], indptr[p1]
        logs = np.full((nb, u), -np.inf)
        np.put(logs, (row_of[z0:z1] - p0) * u + column_of[z0:z1], x[z0:z1])
        xabs = np.maximum.reduceat(np.abs(x[z0:z1]), indptr[p0:p1] - z0)
        low = np.empty((nb, k))
        win = np.empty((nb, k), dtype=np.int64)
        win_t = np.empty((nb, k))
        sub = max(1, _PRUNE_TILE // (ks * m1))
        # round 1, side K: the m1 coordinates of smallest K of every sample (slices of sorted tables)
        for q0 in range(0, nb, sub):
            q1 = min(nb, q0 + sub)
            for j0 in range(0, k, ks):
                j1 = min(k, j0 + ks)
                cand = order[j0:j1, :m1]
                gathered = np.take(logs[q0:q1], cand.ravel(), axis=1).reshape(q1 - q0, j1 - j0, m1)
                a, t = _alg1(gathered, r_s[j0:j1, :m1], log_c_s[j0:j1, :m1], beta_s[j0:j1, :m1])
                low[q0:q1, j0:j1], win[q0:q1, j0:j1], win_t[q0:q1, j0:j1] = _settle(a, t, cand)
        pending_p = pending_j = np.empty(0, dtype=np.intp)
        if m1 < u:
            # certificate of side K alone: x_next = the row's largest x
            xmax = np.maximum.reduceat(x[z0:z1], indptr[p0:p1] - z0)
            k_next = bound_sorted[:, m1][None, :]
            pending = ~((k_next - xmax[:, None]) > low + _margin(low, k_next, xabs[:, None]))
            # round 1, side x, for rows where many samples are unsettled (spread-out x): the mx
            # coordinates of largest x of the row, for all samples
            heavy = np.flatnonzero(np.count_nonzero(pending, axis=1) * 8 > k)
            if heavy.size:
                mx = min(u - 1, _FIRST_CANDIDATES_X)
                part = np.argpartition(-logs[heavy], mx, axis=1)
                top = part[:, :mx]
                x_next = logs[heavy, part[:, mx]]
                x_top = np.take_along_axis(logs[heavy], top, axis=1)
                for q0 in range(0, heavy.size, sub):
                    q1 = min(heavy.size, q0 + sub)
                    rows = heavy[q0:q1]
                    cand = top[q0:q1]
                    flat = cand.ravel()
                    for j0 in range(0, k, ks):             # layout (samples, rows, candidates)
                        j1 = min(k, j0 + ks)
                        shape = (j1 - j0, q1 - q0, mx)
                        tables = [np.take(table[j0:j1], flat, axis=1).reshape(shape) for table in (r, log_c, beta)]
                        a, t = _alg1(x_top[None, q0:q1, :], *tables)
                        lo, wi, wt = _settle(a, t, cand[None, :, :])
                        best = low[rows, j0:j1], win[rows, j0:j1], win_t[rows, j0:j1]
                        _keep_better(*best, lo.T, wi.T, wt.T)
                        low[rows, j0:j1], win[rows, j0:j1], win_t[rows, j0:j1] = best
                lo = low[heavy]
                gap = k_next - x_next[:, None]
                pending[heavy] = ~(gap > lo + _margin(lo, k_next, xabs[heavy, None]))
            pending_p, pending_j = np.nonzero(pending)
        # later rounds: 4x more candidates on both sides for the unsettled (row, sample) pairs
        m = m1
        while pending_p.size:
            m = min(u, 4 * m)
            rows = np.unique(pending_p)
            if m < u:
                part = np.argpartition(-logs[rows], m, axis=1)
                top, x_next = part[:, :m], logs[rows, part[:, m]]
            else:
                top, x_next = np.empty((rows.size, 0), dtype=np.intp), np.full(rows.size, -np.inf)
            where = np.searchsorted(rows, pending_p)
            still = np.zeros(pending_p.size, dtype=bool)
            per = max(1, _PRUNE_TILE // (m + top.shape[1]))
            for s0 in range(0, pending_p.size, per):
                s1 = min(pending_p.size, s0 + per)
                pp, jj, ww = pending_p[s0:s1], pending_j[s0:s1], where[s0:s1]
                cand = np.concatenate([order[jj, :m], top[ww]], axis=1)
                at_row = pp[:, None] * u + cand             # flat indices: fast 1-d takes
                at_sample = jj[:, None] * u + cand
                a, t = _alg1(np.take(logs, at_row), np.take(r, at_sample), np.take(log_c, at_sample),
                             np.take(beta, at_sample))
                lo, wi, wt = _settle(a, t, cand)
                best = low[pp, jj], win[pp, jj], win_t[pp, jj]
                _keep_better(*best, lo, wi, wt)
                low[pp, jj], win[pp, jj], win_t[pp, jj] = best
                if m < u:
                    k_next = bound_sorted[jj, m]
                    gap = k_next - x_next[ww]
                    still[s0:s1] = ~(gap > best[0] + _margin(best[0], k_next, xabs[pp]))
            pending_p, pending_j = pending_p[still], pending_j[still]
        i_star[p0:p1] = distinct[win]
        t_star[p0:p1] = win_t
    return i_star, t_star


# ------------------------------------------------------------------------------------------
# Driver
# ------------------------------------------------------------------------------------------

def _hash_rows(X, mu, key: int, k: int, strategy: str = "auto"):
    """(i*, t*) int64 arrays (n, k) for a validated X (dense or CSR)."""
    n = X.shape[0]
    i_star = np.empty((n, k), dtype=np.int64)
    t_star = np.empty((n, k), dtype=np.int64)
    for start, indptr, coords, x in _groups(X, mu, k):
        stop = start + indptr.size - 1
        distinct = _distinct(coords) if strategy != "direct" else None
        shared = strategy == "shared" or (
            strategy == "auto" and distinct.size * k <= _TABLE_BUDGET
            and coords.size >= _SHARE_MIN * distinct.size)
        if shared:
            gi, gt = _hash_shared(indptr, coords, x, key, k, distinct)
        else:
            gi, gt = _hash_direct(indptr, coords, x, key, k)
        i_star[start:stop] = gi
        t_star[start:stop] = gt          # floor values are integers with |t| < 2**63
    return i_star, t_star


def _reference_hash(X, n_components: int, key: int, center=None, form: str = "log"):
    """Plain Algorithm 1 over all 2D coordinates of u~ (dense tables; small inputs only).

    ``form="log"``: 000's log form (t, a = log c - r (t + 1 - beta)); ``form="exp"``: 001's exp
    form (z = exp(r (t - beta)), a = c / (z exp(r))). Used by the tests as the specification.
    """
    from ...kernels import gmm_transform

    mu = _check_center(center)
    X = _prepare(X, mu)
    dense = X.toarray() if sp.issparse(X) else X
    u_tilde = gmm_transform(dense.astype(np.float64), mu)          # (n, 2D)
    coords = np.arange(u_tilde.shape[1])
    samples = np.arange(n_components)
    r, c, beta = _random.cws_randomness(key, coords[None, :], samples[:, None], log_c=form == "log")
    u3 = u_tilde[:, None, :]                                        # (n, 1, 2D) vs (k, 2D)
    if form == "log":
        with np.errstate(divide="ignore"):
            a, t = _alg1(np.log(u3), r, c, beta)
    else:
        a, t = _alg1_exp(u3, r, c, beta)
    if np.any(u_tilde.max(axis=1) == 0):
        _empty_rows_error(int(np.flatnonzero(u_tilde.max(axis=1) == 0)[0]))
    i_star = a.argmin(axis=2)
    t_star = np.take_along_axis(t, i_star[..., None], axis=2)[..., 0]
    return i_star.astype(np.int64), t_star.astype(np.int64)


# ------------------------------------------------------------------------------------------
# Coding and estimators
# ------------------------------------------------------------------------------------------

def _check_b(b, name="b"):
    b = _validate.positive_int(b, name)
    if b > _MAX_B:
        raise ValueError(f"{name} must be an integer in [1, {_MAX_B}], got {b}")
    return b


def _sample_values(i_star, t_star, zero_bit: bool) -> np.ndarray:
    """The value whose low bits are coded: i* (0-bit) or mix64(i* XOR fmix64(t* + GAMMA))."""
    values = np.array(i_star, dtype=np.int64).astype(np.uint64)
    if zero_bit:
        return values
    t_word = np.array(t_star, dtype=np.int64).astype(np.uint64)       # two's complement
    t_word += _random._GAMMA
    _random.fmix64(t_word)
    values ^= t_word
    return _random.mix64(values)


def bbit_code(values, b: int) -> sp.csr_matrix:
    """One-hot b-bit coding of an (n, k) array of nonnegative integer sample values (000, Sec. 1.4).

    The lowest b bits v of each value go to position 2^b - 1 - v of that sample's block of
    length 2^b (b = 2: 3 -> [1 0 0 0], 0 -> [0 0 0 1]); the k blocks are concatenated into a CSR
    matrix of shape (n, 2^b k) with exactly k ones per row (float64). k must be >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import bbit_code
    >>> bbit_code(np.array([[3, 0]]), b=2).toarray()      # two samples, a block of 2^b columns each
    array([[1., 0., 0., 0., 0., 0., 0., 1.]])
    """
    b = _check_b(b)
    values = np.asarray(values)
    if values.ndim != 2:
        raise ValueError(f"values must be a 2-d (n, k) array, got shape {values.shape}")
    if not _is_integer(values):
        raise TypeError(f"values must hold integers, got dtype {values.dtype}")
    if values.dtype.kind == "i" and values.size and values.min() < 0:
        raise ValueError("values must be nonnegative integers")
    n, k = values.shape
    if k < 1:
        raise ValueError(f"values must hold k >= 1 samples per row (shape (n, k)), got shape {values.shape}")
    width = 1 << b
    low = (values.astype(np.uint64) & np.uint64(width - 1)).astype(np.int64)
    columns = np.arange(k, dtype=np.int64) * width + (width - 1 - low)
    return sp.csr_matrix((np.ones(n * k), columns.ravel(), np.arange(0, n * k + 1, k, dtype=np.int64)),
                         shape=(n, width * k))


def _is_integer(array: np.ndarray) -> bool:
    return array.dtype != bool and np.issubdtype(array.dtype, np.integer)


def _check_hashes(hashes, name):
    if not isinstance(hashes, tuple) or len(hashes) != 2:
        raise TypeError(f"{name} must be an (i_star, t_star) pair as returned by GCWS.hash")
    i_star, t_star = (np.asarray(h) for h in hashes)
    if not (_is_integer(i_star) and _is_integer(t_star)):
        raise TypeError(f"{name}: i_star and t_star must hold integers, got dtypes "
                        f"{i_star.dtype} and {t_star.dtype}")
    if i_star.shape != t_star.shape or i_star.ndim == 0:
        raise ValueError(f"{name}: i_star and t_star must have the same shape (..., k), got "
                         f"{i_star.shape} and {t_star.shape}")
    if i_star.shape[-1] < 1:
        raise ValueError(f"{name} must hold k >= 1 samples (shape (..., k)), got shape {i_star.shape}")
    return i_star, t_star


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def gmm_estimate(hash_u, hash_v, *, zero_bit: bool = False) -> np.ndarray:
    """GCWS estimate of GMM(u, v) from two hash pairs, vectorized over rows.

    Full GCWS: the mean over the k samples of 1{i*_u = i*_v and t*_u = t*_v}, unbiased with
    variance GMM (1 - GMM) / k (000, Eq. 10-12). 0-bit GCWS (``zero_bit``): the mean of
    1{i*_u = i*_v}, which is >= the full estimate and approximately GMM (000, Eq. 13).
    ``hash_u`` and ``hash_v`` are (i_star, t_star) pairs of shape (..., k), k >= 1, whose leading
    dimensions broadcast (e.g. (n, k) against (n, k) for row-paired estimates, or (n, 1, k)
    against (1, m, k) for a Gram matrix); the result has the broadcast leading shape.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import GCWS, gmm_estimate
    >>> from varlab.kernels import gmm
    >>> X = np.abs(np.random.default_rng(0).standard_normal((2, 30)))
    >>> i_star, t_star = GCWS(n_components=4000, random_state=0).fit(X).hash(X)
    >>> estimate = gmm_estimate((i_star[0], t_star[0]), (i_star[1], t_star[1]))
    >>> round(float(estimate), 2), round(float(gmm(X)[0, 1]), 2)
    (0.44, 0.44)
    """
    zero_bit = _check_bool(zero_bit, "zero_bit")
    iu, tu = _check_hashes(hash_u, "hash_u")
    iv, tv = _check_hashes(hash_v, "hash_v")
    if iu.shape[-1] != iv.shape[-1]:
        raise ValueError(f"hash_u and hash_v must have the same number of samples k, got "
                         f"{iu.shape[-1]} and {iv.shape[-1]}")
    try:
        np.broadcast_shapes(iu.shape, iv.shape)
    except ValueError:
        raise ValueError(f"hash_u and hash_v must have broadcastable leading shapes, got {iu.shape} "
                         f"and {iv.shape}") from None
    equal = iu == iv
    if not zero_bit:
        equal &= tu == tv
    return equal.mean(axis=-1)


# ------------------------------------------------------------------------------------------
# Public class
# ------------------------------------------------------------------------------------------

class GCWS(FeatureMap, name="gcws"):
    """Generalized consistent weighted sampling (paper 000, Algorithm 1; 0-bit/b-bit, Sec. 1.4).

    Parameters
    ----------
    n_components : int in [1, 2**32], default=256
        k, the number of samples (i*, t*) per vector. GCWS is the one hashing map: ``transform``
        codes each of the k samples into a one-hot block of 2^b columns (2^b k columns, k ones
        per row); ``hash`` returns the k samples themselves.
    b : int in [1, 32] or None, default=8
        Bits kept per sample by :meth:`code` and :meth:`transform` (None: hashing only; 000
        recommends b >= 4, 001 uses b = 8).
    zero_bit : bool, default=False
        0-bit GCWS: coding and :meth:`kernel_estimate` use i* only (000, Eq. 13); otherwise
        (i*, t*). The default is the full sample because its collision rate is the exact,
        unbiased GMM estimate of Theorem 1 (Eq. 10-12), while 0-bit is an approximation (Eq. 13)
        to opt into.
    center : None or 1-d array of length n_features, default=None
        Centre vector mu of Eq. (4), one for all rows (None: mu = 0, Eq. 7).
    random_state : None, int, numpy Generator, SeedSequence or RandomState, default=None
        Source of the 64-bit key of the counter-based randomness, drawn at ``fit``.

    Attributes
    ----------
    key_ : int
        The 64-bit key drawn by :meth:`fit`. Two GCWS objects with the same key, k and centre
        hash identically; hashing uses nothing else of the data seen by ``fit`` than its width.
    n_features_in_ : int

    ``hash(X)`` returns (i_star, t_star), int64 arrays of shape (n, k); i* indexes the 2D
    transformed coordinates, 0-based (2i: u_i > mu_i, 2i + 1: u_i <= mu_i). Rows must be finite
    and not all-zero after centring (ValueError otherwise); u - mu may exceed the float64 range
    (its logarithm is formed without overflow). Dense or CSR input, float32 or float64 (hashed in
    float64: a row hashes the same in every dtype and layout).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import GCWS
    >>> from varlab.kernels import gmm
    >>> X = np.random.default_rng(0).standard_normal((3, 4))
    >>> gcws = GCWS(n_components=4096, b=4, random_state=0).fit(X)
    >>> gcws.transform(X).shape                 # 2^b columns per sample, k ones per row
    (3, 65536)
    >>> bool(np.abs(gcws.kernel_estimate(X) - gmm(X)).max() < 0.05)
    True
    """

    output_dtypes = ("float64",)
    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, _random.MAX_SAMPLE, closed="both")],
        "b": [Interval(Integral, 1, _MAX_B, closed="both"), None],
        "zero_bit": ["boolean"],
        "center": ["array-like", None],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, n_components: int = 256, *, b: int | None = 8, zero_bit: bool = False, center=None,
                 random_state=None):
        self.n_components = n_components
        self.b = b
        self.zero_bit = zero_bit
        self.center = center
        self.random_state = random_state

    def _fit(self, X) -> int:
        """Check the centre and the rows of ``X`` and draw ``key_``."""
        self._mu = _check_center(self.center)
        _prepare(X, self._mu)
        self.key_ = _random.seed_key(self.random_state)
        k = int(self.n_components)
        return k if self.b is None else (1 << int(self.b)) * k

    # -- hashing and coding ----------------------------------------------------------------
    def hash(self, X):
        """(i_star, t_star): int64 arrays (n, k) of Algorithm 1 (log form) on each row of X."""
        X = _prepare(self._checked_input(X), self._mu)
        self._check_output_size(X.shape[0])
        return _hash_rows(X, self._mu, self.key_, int(self.n_components))

    def _output_elements(self, n_rows: int) -> int:
        """i* and t* (and the coding's indices): 2 n k numbers."""
        return 2 * n_rows * int(self.n_components)

    def code(self, i_star, t_star=None) -> sp.csr_matrix:
        """b-bit one-hot coding (see module notes) of hashes (n, n_components) from :meth:`hash`.

        ``t_star`` is required for full GCWS (``zero_bit=False``) and must have the shape of
        ``i_star``. Needs only the parameters (no fit).
        """
        self._validate_params()
        k, b, zero_bit = int(self.n_components), self.b, bool(self.zero_bit)
        if b is None:
            raise ValueError("b must be set (an integer in [1, 32]) to code or transform; got b=None")
        if not zero_bit and t_star is None:
            raise ValueError("t_star is required to code full GCWS samples (zero_bit=False)")
        arrays = {"i_star": np.asarray(i_star), "t_star": None if t_star is None else np.asarray(t_star)}
        for name, value in arrays.items():
            if value is not None and not _is_integer(value):
                raise TypeError(f"{name} must hold integers (as returned by hash), got dtype {value.dtype}")
        i_star, t_star = arrays["i_star"], arrays["t_star"]
        if i_star.size and np.min(i_star) < 0:
            raise ValueError("i_star must hold nonnegative coordinate indices (as returned by hash)")
        if i_star.ndim != 2 or i_star.shape[1] != k:
            raise ValueError(f"i_star must have shape (n, n_components) = (n, {k}), got shape {i_star.shape}")
        if t_star is not None and t_star.shape != i_star.shape:
            raise ValueError(f"t_star must have the shape of i_star {i_star.shape}, got shape {t_star.shape}")
        return bbit_code(_sample_values(i_star, t_star, zero_bit), b)

    def _transform(self, X) -> sp.csr_matrix:
        """b-bit coded GCWS features: CSR (n, 2^b k) with exactly k ones per row (float64)."""
        if self.b is None:
            raise ValueError("b must be set (an integer in [1, 32]) to transform; got b=None")
        X = _prepare(X, self._mu)
        i_star, t_star = _hash_rows(X, self._mu, self.key_, int(self.n_components))
        return self.code(i_star, t_star)

    def kernel_estimate(self, X, Y=None) -> np.ndarray:
        """The GCWS estimate of GMM(x_i, y_j) for every pair of rows (Y = X if None): the
        collision rate of the full samples (unbiased, 000 Theorem 1) or of i* (``zero_bit``,
        Eq. 13); see :func:`gmm_estimate`."""
        i_x, t_x = self.hash(X)
        i_y, t_y = (i_x, t_x) if Y is None else self.hash(Y)
        return gmm_estimate((i_x[:, None], t_x[:, None]), (i_y[None], t_y[None]), zero_bit=bool(self.zero_bit))
