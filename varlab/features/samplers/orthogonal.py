"""Orthogonal frequencies for radial measures: block-orthogonal (ORF) and structured (SORF).

ORF (Yu et al. 2016; 004, "QR decomposition", steps 1-3): a block of d frequencies is S Q with
Q Haar-random orthogonal (QR of a standard Gaussian matrix, the signs of R's diagonal moved into
Q so that Q is exactly Haar; Mezzadri 2007; from d = 128 on the same law at half the flops by
Stewart's 1980 Householder method) and S = diag(|w_1|..|w_d|) i.i.d. from the measure's
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
``StructuredOrthogonal.factored`` returns the same draw with its factors (``SORFFactors``), whose
``product`` gives X W^T in O(n s log p) (RFF's transform from d = FAST_PRODUCT_FROM on).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from ... import _random, _validate
from ...spectral import RadialMeasure
from . import Sampler

__all__ = ["Orthogonal", "StructuredOrthogonal", "SORFFactors", "haar_orthogonal", "fwht", "padded_dimension",
           "sorf_directions", "MAX_ELEMENTS", "FAST_PRODUCT_FROM"]

#: the most float64 numbers one draw may build (blocks, rows and output together: 1 GiB); a
#: larger draw is refused with a ValueError before anything is allocated
MAX_ELEMENTS = 2 ** 27


#: from this d on, each block is built by Stewart's Householder method (half the flops of a QR:
#: about 2x faster than numpy's or scipy's QR from d = 128 on, slower below 64 where numpy's
#: stacked QR loops in C; benchmarks/results/orthogonal.md)
HOUSEHOLDER_FROM = 128


@functools.lru_cache(maxsize=None)
def _orgqr_lwork(d: int) -> int:
    """LAPACK's optimal workspace for dorgqr of a d x d matrix (a workspace query)."""
    return max(1, int(scipy.linalg.lapack.dorgqr(np.zeros((d, d), order="F"), np.zeros(d), lwork=-1)[1][0]))


def _householder_haar(blocks: np.ndarray) -> None:
    """Turn each standard normal (d, d) block, in place, into a Haar orthogonal matrix (Stewart
    1980, "The efficient generation of random orthogonal matrices"): the Householder QR of a
    Gaussian matrix G has reflectors built from independent standard normal vectors of lengths
    d, d-1, ..., 1 (each column, after the previous reflections, is again standard normal), so
    they are built from those vectors directly, without factoring G: row k of the block is the
    k-th vector (alpha = its k-th entry, the tail after it), reflector v = tail/(alpha - beta),
    beta = -sign(alpha) |(alpha, tail)|, tau = (beta - alpha)/beta (LAPACK's dlarfg; tau = 0 for
    an empty tail). LAPACK's dorgqr forms Q = H_1 ... H_d in the block's memory (its transpose,
    Fortran order); Q diag(sign(beta)) is the Q factor of G with a positive diagonal R, which is
    Haar (Mezzadri 2007), and so is its transpose, the block."""
    d = blocks.shape[-1]
    for block in blocks:                           # a few large blocks: the loop costs nothing
        alpha = np.diagonal(block).copy()
        upper = np.triu(block, 1)
        tail = np.einsum("ij,ij->i", upper, upper)
        del upper
        moving = tail > 0
        beta = np.where(moving, -np.copysign(np.sqrt(alpha * alpha + tail), alpha), alpha)
        tau = np.where(moving, (beta - alpha) / np.where(moving, beta, 1.0), 0.0)
        block *= np.where(moving, 1.0 / np.where(moving, alpha - beta, 1.0), 0.0)[:, None]
        q, _, info = scipy.linalg.lapack.dorgqr(block.T, tau, lwork=_orgqr_lwork(d), overwrite_a=True)
        if info != 0:
            raise RuntimeError(f"LAPACK dorgqr failed (info = {info})")
        if not np.shares_memory(q, block):
            block[...] = q.T
        block *= np.where(beta < 0, -1.0, 1.0)[:, None]


def haar_orthogonal(rng: np.random.Generator, n_blocks: int, d: int) -> np.ndarray:
    """(n_blocks, d, d) Haar-random orthogonal matrices from one standard normal draw G of that
    shape: Q R = G by numpy's stacked QR and Q's columns times sign(diag R) (Mezzadri 2007), so
    that the law is exactly Haar; from d = HOUSEHOLDER_FROM on, Stewart's method on the same
    draw (``_householder_haar``: the same law at half the flops).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.samplers.orthogonal import haar_orthogonal
    >>> Q = haar_orthogonal(np.random.default_rng(0), 2, 4)
    >>> Q.shape, bool(np.allclose(Q @ Q.transpose(0, 2, 1), np.eye(4)))
    ((2, 4, 4), True)
    """
    g = rng.standard_normal((n_blocks, d, d))
    if d >= HOUSEHOLDER_FROM:
        _householder_haar(g)
        return g
    q, r = np.linalg.qr(g)
    signs = np.sign(np.diagonal(r, axis1=1, axis2=2))
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
    between factors (faster in numpy than the log2(p) strided butterfly stages).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.samplers.orthogonal import fwht
    >>> fwht(np.array([1.0, 0.0, 0.0, 0.0]))           # the first row of H / 2
    array([0.5, 0.5, 0.5, 0.5])
    >>> x = np.random.default_rng(0).standard_normal(8)
    >>> bool(np.allclose(fwht(fwht(x)), x))            # H H = I
    True
    """
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


def padded_dimension(d: int) -> int:
    """p, the rows of one block of a structured sampler (SORF, Fastfood) in dimension d: the next
    power of two >= d (at least :data:`MIN_HADAMARD`).

    Examples
    --------
    >>> from varlab.features.samplers.orthogonal import padded_dimension
    >>> padded_dimension(5), padded_dimension(100)
    (32, 128)
    """
    return max(MIN_HADAMARD, 1 << (d - 1).bit_length())


def sorf_directions(rng: np.random.Generator, n_blocks: int, d: int, rows: int | None = None, *,
                    factors: bool = False):
    """(n_blocks, p, d) unit directions: rows of H D1 H D2 H D3 cut to the first d coordinates,
    renormalised (p = next power of two >= d) and multiplied by independent random signs (cos is
    even, so the estimator is unchanged, but rows of a block become uncorrelated); all signs are
    drawn as one (n_blocks, 4, p) array.

    ``rows``: compute only the first ``rows`` of the n_blocks p rows (returned as (rows, d)); each
    row is its own Walsh-Hadamard chain (O(p log p)), so a partial block costs rows x p, not
    p x p, and the rows equal those of the full draw (to the last bit where BLAS takes the same
    path for both row counts; always for whole blocks).

    ``factors=True``: also return the signs (n_blocks, 4, p) and, per row, its sign over the norm
    of the cut row (0 for a row cut to zero), the factors of ``SORFFactors``.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.samplers.orthogonal import sorf_directions
    >>> directions = sorf_directions(np.random.default_rng(0), 1, 5)
    >>> directions.shape                              # one block of p = 32 rows in R^5
    (1, 32, 5)
    >>> bool(np.allclose(np.linalg.norm(directions, axis=-1), 1.0))
    True
    """
    p = padded_dimension(d)
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
    # entries of M are integers times p^{-3/2}: a cut row is exactly zero, or of norm >= p^{-3/2}
    zero = norms[..., 0] < 0.5 * p ** -1.5
    if np.any(zero):                                # a row cut to zero: use e_1 (only if d < p)
        out[zero] = 0.0
        out[zero, 0] = 1.0
        norms[zero] = 1.0
    out /= norms
    out *= signs[block, 3, row][:, None]           # a random sign per row: cos is even, so the
    #                                                estimator is unchanged; rows become uncorrelated
    out = out.reshape(n_blocks, p, d) if rows is None else out
    if factors:
        return out, signs, np.where(zero, 0.0, signs[block, 3, row] / norms[:, 0])
    return out


#: from this dimension d on, ``RFF(sampler="structured_orthogonal")`` transforms dense float64
#: data by ``SORFFactors.product`` (O(n s log p), p the padded size) instead of the dense X W^T
#: (O(n s d)): faster for every d from here (benchmarks/results/orthogonal.md)
FAST_PRODUCT_FROM = 512
#: rows of X per pass of ``sorf_product``: about 2^17 numbers (1 MiB) of work array, so that the
#: Walsh-Hadamard passes stay in cache
_CHUNK_ELEMENTS = 2 ** 17


@dataclass(frozen=True)
class SORFFactors:
    """A SORF draw W (m, d) in factored form: row i of W is scale_i times row i of
    M = H D1 H D2 H D3 (of its block) cut to d coordinates (scale_i: the row's sign and norm over
    the norm of the cut row); rows cut to zero (W_i = norm e_1) have scale 0 and are listed in
    ``zero`` with their first coordinate ``zero_values``.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> W, factors = get_sampler("structured_orthogonal").factored(spectral.Gaussian(), 40, 6,
    ...                                                             random_state=0)
    >>> factors.signs.shape, factors.scale.shape
    ((2, 4, 32), (40,))
    >>> X = np.random.default_rng(1).standard_normal((3, 6))
    >>> bool(np.allclose(factors.product(X), X @ W.T))
    True
    """

    signs: np.ndarray          # (n_blocks, 4, p): D1, D2, D3 and the row signs
    scale: np.ndarray          # (m,)
    zero: np.ndarray           # indices of rows cut to zero
    zero_values: np.ndarray    # W[zero, 0]

    def product(self, X: np.ndarray) -> np.ndarray:
        """X W^T (n, m) for dense float64 X (n, d), by fast Walsh-Hadamard transforms: each row of
        X padded to p, then D3, H, D2, H, D1, H (X M^T = X D3 H D2 H D1 H, H symmetric), in
        chunks of rows; equal to the dense product up to rounding (about 1e-15 relative)."""
        n, d = X.shape
        blocks, _, p = self.signs.shape
        m = self.scale.size
        out = np.empty((n, m))
        step = max(1, _CHUNK_ELEMENTS // (blocks * p))
        for start in range(0, n, step):
            chunk = X[start:start + step]
            y = np.zeros((chunk.shape[0], blocks, p))
            np.multiply(chunk[:, None, :], self.signs[None, :, 2, :d], out=y[:, :, :d])
            for stage in (1, 0):
                y = fwht(y)
                y *= self.signs[None, :, stage, :]
            y = fwht(y)
            np.multiply(y.reshape(chunk.shape[0], -1)[:, :m], self.scale, out=out[start:start + chunk.shape[0]])
        if self.zero.size:
            out[:, self.zero] = X[:, :1] * self.zero_values
        return out


class _Blocked(Sampler):
    """Shared draw: ceil(m / block) blocks of unit directions, norms from the radial law, first
    m rows. Subclasses give ``_block(d)``, ``_directions(rng, n_blocks, d, m)`` (the first m
    rows, (m, d)) and ``elements(m, d)``; a draw of more than MAX_ELEMENTS numbers is refused."""

    measure_type = RadialMeasure
    prefix_granularity = 1
    coupling = "blocks"

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
        block = self._block(d)
        n_blocks = -(-m // block)
        directions = self._directions(rng, n_blocks, d, m)
        norms = np.asarray(measure.norm_law(d).rvs(size=m, random_state=rng), dtype=np.float64)
        return np.ascontiguousarray(directions * norms[:, None])


class Orthogonal(_Blocked, name="orthogonal"):
    """Block-orthogonal random features (ORF; 004 "QR decomposition"): rows of S Q per block of
    d, independent blocks, last block partial. ``orientation="columns"`` gives the biased
    column-stacking variant (for comparison only).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> W = get_sampler("orthogonal").frequencies(spectral.Gaussian(), 4, 4, random_state=0)
    >>> G = W @ W.T
    >>> bool(np.allclose(G - np.diag(np.diag(G)), 0.0))    # the rows of one block are orthogonal
    True
    >>> get_sampler("orthogonal", orientation="columns")
    Orthogonal(orientation='columns')
    """

    def __init__(self, orientation="rows"):
        self.orientation = orientation

    @property
    def exact_rows(self) -> bool:
        """Each row of S Q has the measure's law; stacked columns (the biased variant) do not."""
        return self.orientation == "rows"

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
        n_blocks = -(-m // d)
        q = haar_orthogonal(rng, n_blocks, d)
        norms = np.asarray(measure.norm_law(d).rvs(size=n_blocks * d, random_state=rng),
                           dtype=np.float64).reshape(n_blocks, d, 1)
        columns = np.swapaxes(norms * q, 1, 2)          # column j of S Q, as rows
        return np.ascontiguousarray(columns.reshape(n_blocks * d, d)[:m])

    def joint_frequencies(self, first, second, s, d, rng):
        """(W, V): s frequencies for each of two radial measures, mutually orthogonal (004's
        GORF): each Haar block of d directions gives d//2 rows of W and d//2 rows of V, so W and V
        are orthogonal to each other while 2s <= d, and in blocks beyond; norms from each
        measure's radial law (W's drawn first). Needs d >= 2."""
        half = d // 2
        if half < 1:
            raise ValueError(f"mutually orthogonal frequencies need dimension d >= 2, got d={d}")
        n_blocks = -(-s // half)
        q = haar_orthogonal(rng, n_blocks, d)
        directions_w = q[:, :half, :].reshape(-1, d)[:s]
        directions_v = q[:, half:2 * half, :].reshape(-1, d)[:s]
        norms_w = np.asarray(first.norm_law(d).rvs(size=s, random_state=rng), dtype=np.float64)
        norms_v = np.asarray(second.norm_law(d).rvs(size=s, random_state=rng), dtype=np.float64)
        return directions_w * norms_w[:, None], directions_v * norms_v[:, None]


class StructuredOrthogonal(_Blocked, name="structured_orthogonal"):
    """SORF: directions from H D1 H D2 H D3 (fast Walsh-Hadamard), p = 2^ceil(log2 d) per
    block, norms from the radial law. Not exactly Haar: biased in general (measured).

    Offers the fast structured product: ``factored`` gives X W^T in O(n m log p) instead of the
    dense O(n m d), faster from d = ``fast_product_from`` = FAST_PRODUCT_FROM on.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import RFF, get_sampler
    >>> W = get_sampler("structured_orthogonal").frequencies(spectral.Gaussian(), 40, 6, random_state=0)
    >>> W.shape
    (40, 6)
    >>> X = np.random.default_rng(0).standard_normal((5, 6)) / 3
    >>> RFF(n_components=40, sampler="structured_orthogonal", random_state=0).fit_transform(X).shape
    (5, 40)
    """

    fast_product_from = FAST_PRODUCT_FROM

    def _block(self, d):
        return padded_dimension(d)

    def elements(self, m, d):
        """m rows of width p (the Walsh-Hadamard chains, twice), the signs and the output."""
        p = padded_dimension(d)
        return 2 * m * p + 4 * -(-m // p) * p + m * d

    def _directions(self, rng, n_blocks, d, m):
        return sorf_directions(rng, n_blocks, d, rows=m)

    def factored(self, measure, m, d, random_state=None):
        """(W, SORFFactors): ``frequencies(measure, m, d, random_state)`` (the same random numbers
        in the same order, the same rows) and its factored form, whose ``product`` is X W^T."""
        self._check_measure(measure)
        rng = _random.generator(random_state)
        self._check_size(m, d)
        n_blocks = -(-m // self._block(d))
        directions, signs, row_scale = sorf_directions(rng, n_blocks, d, rows=m, factors=True)
        norms = np.asarray(measure.norm_law(d).rvs(size=m, random_state=rng), dtype=np.float64)
        w = np.ascontiguousarray(directions * norms[:, None])
        zero = np.flatnonzero(row_scale == 0)
        return w, SORFFactors(signs, row_scale * norms, zero, w[zero, 0])
