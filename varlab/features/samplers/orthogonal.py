"""Orthogonal frequencies for radial measures: block-orthogonal (ORF) and structured (SORF).

ORF (Yu et al. 2016; 004, "QR decomposition", steps 1-3): a block of d frequencies is S Q with
Q Haar-random orthogonal (QR of a standard Gaussian matrix, the signs of R's diagonal moved into
Q so that Q is exactly Haar; Mezzadri 2007) and S = diag(|w_1|..|w_d|) i.i.d. from the measure's
radial law ``measure.norm_law(d)``. The frequencies are the ROWS of S Q: row i is |w_i| q_i, a
norm from the radial law times a uniform direction, so each row has the law of the measure and
the estimator is unbiased. The COLUMNS of S Q (S applied to a uniform unit vector) are not
rotation invariant; ``orientation="columns"`` draws them, for comparison only: its estimator is
biased (the Monte Carlo engine detects it; tests/test_orthogonal_samplers.py).

s > d frequencies use independent blocks; a last partial block of r < d rows is the first r
rows of a full block. The first j rows of any draw therefore have the law of a draw of j rows
(complete blocks, then the first rows of a Haar block), so ``prefix_granularity = 1``.

SORF (Yu et al. 2016, "structured orthogonal random features"): directions are the rows of
H D1 H D2 H D3 (H the normalised Walsh-Hadamard matrix of size p = max(32, 2^ceil(log2 d)), D_i
random +-1 diagonals), applied by a fast Walsh-Hadamard transform; for d < p each row is cut to its
first d coordinates and renormalised (the input padded with zeros). Norms come from the radial
law as for ORF. Its directions are not Haar: its bias and variance are measured, not assumed.
"""
from __future__ import annotations

import functools

import numpy as np
import scipy.linalg

from ... import _validate
from ...spectral import RadialMeasure
from . import Sampler

__all__ = ["Orthogonal", "StructuredOrthogonal", "haar_orthogonal", "fwht", "sorf_directions",
           "MAX_ELEMENTS"]

#: the most float64 numbers one draw may build (blocks, rows and output together: 1 GiB); a
#: larger draw is refused with a ValueError before anything is allocated
MAX_ELEMENTS = 2 ** 27


#: from this d on, blocks are factored one by one by scipy's QR (blocked LAPACK with workspace
#: queries: about 25% faster than numpy's stacked QR at d = 512..1024, slower below 128)
BLOCKWISE_QR_FROM = 256


def haar_orthogonal(rng: np.random.Generator, n_blocks: int, d: int) -> np.ndarray:
    """(n_blocks, d, d) Haar-random orthogonal matrices: Q R = G (G standard normal; one stacked
    QR, or one per block from d = BLOCKWISE_QR_FROM on), then Q's columns times sign(diag R)
    (Mezzadri 2007), so that the law is exactly Haar."""
    g = rng.standard_normal((n_blocks, d, d))
    if d >= BLOCKWISE_QR_FROM:
        q, diagonal = np.empty_like(g), np.empty((n_blocks, d))
        for i in range(n_blocks):                  # a few large blocks: the loop costs nothing
            q[i], r = scipy.linalg.qr(g[i], mode="economic", overwrite_a=True, check_finite=False)
            diagonal[i] = np.diagonal(r)
    else:
        q, r = np.linalg.qr(g)
        diagonal = np.diagonal(r, axis1=1, axis2=2)
    signs = np.sign(diagonal)
    signs[signs == 0] = 1.0
    q *= signs[:, None, :]
    return q


@functools.lru_cache(maxsize=None)
def _hadamard(b: int) -> np.ndarray:
    """The b x b Sylvester Hadamard matrix (entries +-1; b a power of two <= 64)."""
    return scipy.linalg.hadamard(b).astype(np.float64)


def fwht(x: np.ndarray) -> np.ndarray:
    """Normalised fast Walsh-Hadamard transform along the last axis (length a power of two):
    x @ H with H symmetric, H H = I, vectorised over the leading axes. H_p = H_f1 (x) ... (x) H_fm
    (Sylvester order, every f_i <= 64): with x viewed as (n, f_1, ..., f_m), each factor is one
    matrix product along its axis (a GEMM for the last, batched products for the others; the
    1/sqrt(p) folded into the first); O(p (f_1 + ... + f_m)) flops per row in BLAS, no copies
    between factors (faster in numpy than the log2(p) strided butterfly stages)."""
    x = np.asarray(x, dtype=np.float64)
    p = x.shape[-1]
    if p & (p - 1):
        raise ValueError(f"the last axis of x must have a power-of-two length, got {p}")
    if p <= 1:
        return x.copy()
    k = p.bit_length() - 1
    parts = -(-k // 6)
    y = x.reshape(-1, p)
    right = 1                                      # product of the factors already applied
    for i in range(parts):
        f = 1 << (k // parts + (i < k % parts))
        h = _hadamard(f) * (1.0 / np.sqrt(p)) if i == 0 else _hadamard(f)
        y = y.reshape(-1, f) @ h if right == 1 else np.matmul(h, y.reshape(-1, f, right))
        right *= f
    return y.reshape(x.shape)


#: smallest Hadamard size: three H D products mix poorly in very few dimensions, so a small d is
#: padded to at least this size (a row cut to d coordinates of a near-uniform direction in R^p is
#: near-uniform in R^d; exactly uniform for a Haar direction)
MIN_HADAMARD = 32


def _padded(d: int) -> int:
    return max(MIN_HADAMARD, 1 << (d - 1).bit_length())


def sorf_directions(rng: np.random.Generator, n_blocks: int, d: int, rows: int | None = None) -> np.ndarray:
    """(n_blocks, p, d) unit directions: rows of H D1 H D2 H D3 cut to the first d coordinates,
    renormalised (p = next power of two >= d) and multiplied by independent random signs (cos is
    even, so the estimator is unchanged, but rows of a block become uncorrelated); all signs are
    drawn as one (n_blocks, 4, p) array.

    ``rows``: compute only the first ``rows`` of the n_blocks p rows (returned as (rows, d)); each
    row is its own Walsh-Hadamard chain (O(p log p)), so a partial block costs rows x p, not
    p x p, and the rows equal those of the full draw (to the last bit where BLAS takes the same
    path for both row counts; always for whole blocks)."""
    p = _padded(d)
    signs = np.where(rng.random((n_blocks, 4, p)) < 0.5, -1.0, 1.0)
    total = n_blocks * p if rows is None else int(rows)
    index = np.arange(total)
    block, row = index // p, index % p
    # rows of M = H D1 H D2 H D3 are e_i^T M; build M^T = D3 H D2 H D1 H applied to e_i (symmetric H)
    m = np.zeros((total, p))
    m[index, row] = 1.0                                            # row i: e_i of its block
    for stage in range(3):                                          # e_i^T H D1 H D2 H D3
        m = fwht(m)
        m *= signs[block, stage, :]
    out = m[:, :d]
    norms = np.linalg.norm(out, axis=-1, keepdims=True)
    zero = norms[..., 0] == 0
    if np.any(zero):                                # a row cut to zero: use e_1 (only if d < p)
        out[zero] = 0.0
        out[zero, 0] = 1.0
        norms[zero] = 1.0
    out /= norms
    out *= signs[block, 3, row][:, None]           # a random sign per row: cos is even, so the
    #                                                estimator is unchanged; rows become uncorrelated
    return out.reshape(n_blocks, p, d) if rows is None else out


class _Blocked(Sampler):
    """Shared draw: ceil(m / block) blocks of unit directions, norms from the radial law, first
    m rows. Subclasses give ``_block(d)``, ``_directions(rng, n_blocks, d, m)`` (the first m
    rows, (m, d)) and ``elements(m, d)``; a draw of more than MAX_ELEMENTS numbers is refused."""

    measure_type = RadialMeasure
    prefix_granularity = 1

    def _block(self, d: int) -> int:
        raise NotImplementedError

    def _directions(self, rng, n_blocks: int, d: int, m: int) -> np.ndarray:
        raise NotImplementedError

    def elements(self, m: int, d: int) -> int:
        """How many float64 numbers a draw of m frequencies in R^d builds (blocks and output)."""
        raise NotImplementedError

    def _check_size(self, m, d):
        elements = self.elements(m, d)
        if elements > MAX_ELEMENTS:
            block = self._block(d)
            raise ValueError(f"m={m} frequencies in d={d} dimensions: sampler {self.name!r} would build "
                             f"{elements:.3g} numbers ({-(-m // block)} block(s) of {block} x {block}), "
                             f"more than MAX_ELEMENTS = {MAX_ELEMENTS:.3g} ({MAX_ELEMENTS * 8 / 2 ** 30:g} "
                             f"GiB); reduce m or d")

    def _frequencies(self, measure, m, d, rng):
        self._check_size(m, d)
        block = self._block(d)
        n_blocks = -(-m // block)
        directions = self._directions(rng, n_blocks, d, m)
        norms = np.asarray(measure.norm_law(d).rvs(size=m, random_state=rng), dtype=np.float64)
        return np.ascontiguousarray(directions * norms[:, None])


class Orthogonal(_Blocked, name="orthogonal"):
    """Block-orthogonal random features (ORF; 004 "QR decomposition"): rows of S Q per block of
    d, independent blocks, last block partial. ``orientation="columns"`` gives the biased
    column-stacking variant (for comparison only)."""

    def __init__(self, orientation="rows"):
        self.orientation = orientation

    def _block(self, d):
        return d

    def elements(self, m, d):
        """ceil(m/d) Haar blocks of d x d (and as many for their QR), and the (m, d) output."""
        return 2 * -(-m // d) * d * d + m * d

    def _directions(self, rng, n_blocks, d, m):
        q = haar_orthogonal(rng, n_blocks, d)
        return q.reshape(n_blocks * d, d)[:m]

    def _frequencies(self, measure, m, d, rng):
        _validate.choice(self.orientation, "orientation", ("rows", "columns"))
        if self.orientation == "rows":
            return super()._frequencies(measure, m, d, rng)
        self._check_size(m, d)
        n_blocks = -(-m // d)
        q = haar_orthogonal(rng, n_blocks, d)
        norms = np.asarray(measure.norm_law(d).rvs(size=n_blocks * d, random_state=rng),
                           dtype=np.float64).reshape(n_blocks, d, 1)
        columns = np.swapaxes(norms * q, 1, 2)          # column j of S Q, as rows
        return np.ascontiguousarray(columns.reshape(n_blocks * d, d)[:m])


class StructuredOrthogonal(_Blocked, name="structured_orthogonal"):
    """SORF: directions from H D1 H D2 H D3 (fast Walsh-Hadamard), p = 2^ceil(log2 d) per
    block, norms from the radial law. Not exactly Haar: biased in general (measured)."""

    def _block(self, d):
        return _padded(d)

    def elements(self, m, d):
        """m rows of width p (the Walsh-Hadamard chains, twice), the signs and the output."""
        p = _padded(d)
        return 2 * m * p + 4 * -(-m // p) * p + m * d

    def _directions(self, rng, n_blocks, d, m):
        return sorf_directions(rng, n_blocks, d, rows=m)
