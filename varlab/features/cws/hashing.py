"""Algorithm 1 of paper 000 over the nonzeros of u~: two exact evaluation strategies.

Both give bit-identical results (tests check this), since every code path computes a and t with
the one formula of ``_alg1`` on numbers from :func:`~varlab.features.cws.randomness.cws_tile`
(or :func:`~varlab.features.cws.randomness.cws_randomness`, which shares its arithmetic):

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

Ties in a_i (a measure-zero event) go to the smallest coordinate. Memory is bounded by the
block sizes below and those of :mod:`~varlab.features.cws.nonzeros` (groups of rows, tiles, the
shared table), never by D: D = 10^7 with 100 nonzeros per row and k = 1024 hashes 1000 rows with
a 44 MiB traced peak (16 MiB of it the output). Numerical range: r >= 2.2e-16 and
|log u~| <= 745 keep |t| < 2**62, so t* fits int64 for any finite input.

``_reference_hash`` is plain Algorithm 1 on dense tables (log or 001's exp form), the tests'
specification.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .nonzeros import _check_center, _empty_rows_error, _groups, _prepare
from .randomness import coordinate_states, cws_randomness, cws_tile, sample_words

_TILE = 1 << 15              # (samples x nonzeros) elements of one direct-path tile
_DIRECT_SAMPLES = 8          # samples per direct-path tile (long rows make numpy's broadcasting cheap)
_PRUNE_TILE = 1 << 17        # (rows x samples x candidates) elements of one shared-path tile
_TABLE_BUDGET = 1 << 19      # (samples x distinct coordinates) entries of a shared table
_SHARE_MIN = 8               # shared path when each distinct coordinate is used >= 8 times
_FIRST_CANDIDATES = 64       # a row's nonzeros among the side-K candidates of the first pruning round
_FIRST_CANDIDATES_X = 32     # side-x candidates (a row's largest x) of the first pruning round


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
# Direct strategy: randomness for every (nonzero, sample) pair, segmented argmin
# ------------------------------------------------------------------------------------------

def _hash_direct(indptr, coords, x, key: int, k: int):
    n_rows = indptr.size - 1
    nnz = coords.size
    best_a = np.full((k, n_rows), np.inf)
    best_i = np.zeros((k, n_rows), dtype=np.int64)
    best_t = np.zeros((k, n_rows))
    states = coordinate_states(key, coords)
    words = sample_words(np.arange(k))
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
            r, log_c, beta = cws_tile(states[z0:z1], words[j0:j1])
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
    states = coordinate_states(key, distinct)
    words = sample_words(np.arange(k))
    r, log_c, beta = (np.empty((k, u)) for _ in range(3))
    step = max(1, _PRUNE_TILE // u)
    for j0 in range(0, k, step):
        j1 = min(k, j0 + step)
        r[j0:j1], log_c[j0:j1], beta[j0:j1] = cws_tile(states, words[j0:j1])
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
    r, c, beta = cws_randomness(key, coords[None, :], samples[:, None], log_c=form == "log")
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


