"""Fastfood frequencies (Le, Sarlos and Smola 2013, "Fastfood - approximating kernel expansions in
loglinear time", Eq. 7-8): per block of p = 2^ceil(log2 d) rows (at least ``MIN_HADAMARD``), the
rows of S H G Pi H B with H the normalised Walsh-Hadamard matrix, B a random +-1 diagonal, Pi a
random permutation, G a standard normal diagonal and S a diagonal scaling; the input is padded with
zeros to p.

Every row of H G Pi H B has norm |G| / sqrt(p) and a direction that mixes the random signs, so S
gives each row its norm: varlab cuts each row to the first d coordinates and scales it to a norm
from the measure's radial law ``measure.norm_law(d)`` (chi_d for the Gaussian: Le et al.'s
chi-distributed S, S_ii = s_i sqrt(p) / |G| with s_i ~ chi_p, exactly when d = p; cut and
renormalised as SORF's rows for d < p). The rows of a block are not jointly Haar (they share G),
but each row alone is Gaussian: row i is g^T Pi H B with g_l = H_il G_l i.i.d. N(0, 1/p) and
Pi H B orthogonal, so its direction (cut to d or not) is uniform and independent of its norm, and
the estimator is unbiased for every radial kernel (varlab's argument; measured by the engine,
models ``fastfood`` and ``stationary_rff`` with ``sampler="fastfood"``). The variance is measured
only, and depends on the direction of z = x - y (claims ``varlab.beyond.fastfood.*``, Gaussian
kernel, d = p, k = p): for z along a coordinate axis the projections have exactly ORF's law, and so
its variance (0.015 to 0.70 times i.i.d. RFF's at d = 64, 256); along e_1 + e_2 about i.i.d.'s
(within 2%); along (1, ..., 1) and a random direction 1.3 to 2 times i.i.d.'s. It is never measured
below ORF's.

``Fastfood.factored`` returns the draw with its factors (:class:`FastfoodFactors`), whose
``product`` gives X W^T by two fast Walsh-Hadamard transforms per block, a gather and two
diagonal products: O(n m log p) instead of the dense O(n m d) (RFF's transform from d =
``FAST_PRODUCT_FROM`` on; benchmarks/results/fastfood.md).

>>> import numpy as np
>>> from varlab import spectral
>>> from varlab.features.samplers import get_sampler
>>> W, factors = get_sampler("fastfood").factored(spectral.Gaussian(1.0), 64, 40, random_state=0)
>>> X = np.random.default_rng(1).standard_normal((3, 40))
>>> bool(np.allclose(factors.product(X), X @ W.T))
True
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ... import _random
from .orthogonal import BlockSampler, fwht, hadamard_size

__all__ = ["Fastfood", "FastfoodFactors", "fastfood_directions", "FAST_PRODUCT_FROM"]

#: from this dimension d on, ``RFF(sampler="fastfood")`` transforms dense float64 data by
#: ``FastfoodFactors.product`` (benchmarks/results/fastfood.md)
FAST_PRODUCT_FROM = 512
#: rows of X per pass of the fast product: about 2^17 numbers of work array (stays in cache)
_CHUNK_ELEMENTS = 2 ** 17


def fastfood_directions(rng: np.random.Generator, n_blocks: int, d: int, rows: int):
    """The first ``rows`` unit directions (rows, d) of n_blocks Fastfood blocks, and the factors:
    signs B (n_blocks, p), permutations Pi (n_blocks, p), Gaussian diagonals G (n_blocks, p) and
    each row's 1 / (norm of its cut row) (0 for a row cut to zero, then given direction e_1).

    Row i of block b is e_i^T H G Pi H B (H symmetric): e_i through H, times G, gathered by Pi,
    through H, times B; every row is its own Walsh-Hadamard chain, vectorised over rows.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.samplers.fastfood import fastfood_directions
    >>> directions, signs, permutations, gaussians, scale = fastfood_directions(
    ...     np.random.default_rng(0), n_blocks=1, d=5, rows=4)
    >>> directions.shape, signs.shape                # blocks of p = 32 (MIN_HADAMARD) rows
    ((4, 5), (1, 32))
    >>> np.linalg.norm(directions, axis=1).round(12)
    array([1., 1., 1., 1.])
    """
    p = hadamard_size(d)
    signs = np.where(rng.random((n_blocks, p)) < 0.5, -1.0, 1.0)
    permutations = np.argsort(rng.random((n_blocks, p)), axis=1)
    gaussians = rng.standard_normal((n_blocks, p))
    index = np.arange(rows)
    block, row = index // p, index % p
    m = np.zeros((rows, p))
    m[index, row] = 1.0
    m = fwht(m)
    m *= gaussians[block]
    m = np.take_along_axis(m, permutations[block], axis=1)          # (r Pi)_j = r_{perm[j]}
    m = fwht(m)
    m *= signs[block]
    out = m[:, :d]
    norms = np.linalg.norm(out, axis=1)
    zero = ~(norms > 0)
    out = np.where(zero[:, None], np.eye(1, d), out / np.where(zero, 1.0, norms)[:, None])
    return out, signs, permutations, gaussians, np.where(zero, 0.0, 1.0 / np.where(zero, 1.0, norms))


@dataclass(frozen=True)
class FastfoodFactors:
    """A Fastfood draw W (m, d) in factored form: W_i = scale_i (row i of H G Pi H B of its block)
    cut to d coordinates; rows cut to zero (W_i = norm e_1) are listed in ``zero``.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> W, factors = get_sampler("fastfood").factored(spectral.Gaussian(), 40, 6, random_state=0)
    >>> factors.signs.shape, factors.scale.shape
    ((2, 32), (40,))
    >>> X = np.random.default_rng(1).standard_normal((3, 6))
    >>> bool(np.allclose(factors.product(X), X @ W.T))
    True
    """

    signs: np.ndarray           # (n_blocks, p): B
    permutations: np.ndarray    # (n_blocks, p): Pi
    gaussians: np.ndarray       # (n_blocks, p): G
    scale: np.ndarray           # (m,)
    zero: np.ndarray
    zero_values: np.ndarray

    def product(self, X: np.ndarray) -> np.ndarray:
        """X W^T (n, m) for dense float64 X (n, d): x padded to p, then B, H, Pi^T (the inverse
        gather), G, H (M x = H G Pi H B x), in chunks of rows; equal to the dense product up to
        rounding."""
        n, d = X.shape
        blocks, p = self.signs.shape
        m = self.scale.size
        # Pi^T as one gather over the flattened blocks (np.take along one axis: far cheaper than a
        # per-block take_along_axis with broadcast indices)
        gather = (np.argsort(self.permutations, axis=1) + p * np.arange(blocks)[:, None]).ravel()
        out = np.empty((n, m))
        step = max(1, _CHUNK_ELEMENTS // (blocks * p))
        for start in range(0, n, step):
            chunk = X[start:start + step]
            y = np.zeros((chunk.shape[0], blocks, p))
            np.multiply(chunk[:, None, :], self.signs[None, :, :d], out=y[:, :, :d])
            y = np.take(fwht(y).reshape(chunk.shape[0], blocks * p), gather, axis=1)
            y = y.reshape(chunk.shape[0], blocks, p)
            y *= self.gaussians
            y = fwht(y)
            np.multiply(y.reshape(chunk.shape[0], -1)[:, :m], self.scale, out=out[start:start + chunk.shape[0]])
        if self.zero.size:
            out[:, self.zero] = X[:, :1] * self.zero_values
        return out


class Fastfood(BlockSampler, name="fastfood"):
    """Fastfood (Le, Sarlos and Smola 2013): directions from S H G Pi H B per block of p (fast
    Walsh-Hadamard), norms from the radial law. Each row's direction is uniform (unbiased); the
    rows of a block are dependent (variance measured: ORF's along a coordinate axis, up to twice
    i.i.d. RFF's along other directions). Offers the fast structured product
    (``factored``), faster than the dense product from ``fast_product_from`` =
    FAST_PRODUCT_FROM on.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features import RFF, get_sampler
    >>> W = get_sampler("fastfood").frequencies(spectral.Gaussian(), 64, 20, random_state=0)
    >>> W.shape
    (64, 20)
    >>> X = np.random.default_rng(0).standard_normal((5, 20)) / 5
    >>> RFF(n_components=64, sampler="fastfood", random_state=0).fit_transform(X).shape
    (5, 64)
    """

    fast_product_from = FAST_PRODUCT_FROM
    exact_rows = True               # each row of H G Pi H B is Gaussian: its direction is uniform

    def block_size(self, d):
        return hadamard_size(d)

    def elements(self, m, d):
        """m rows of width p (the Walsh-Hadamard chains, twice), the three diagonals and the output."""
        p = hadamard_size(d)
        return 2 * m * p + 3 * -(-m // p) * p + m * d

    def _directions(self, rng, n_blocks, d, m):
        return fastfood_directions(rng, n_blocks, d, m)[0]

    def factored(self, measure, m, d, random_state=None):
        """(W, FastfoodFactors): ``frequencies(measure, m, d, random_state)`` (the same draw) and
        its factored form, whose ``product`` is X W^T."""
        self.check_measure(measure)
        rng = _random.generator(random_state)
        self._check_size(m, d)
        n_blocks = -(-m // self.block_size(d))
        directions, signs, permutations, gaussians, row_scale = fastfood_directions(rng, n_blocks, d, m)
        norms = np.asarray(measure.norm_law(d).rvs(size=m, random_state=rng), dtype=np.float64)
        w = np.ascontiguousarray(directions * norms[:, None])
        zero = np.flatnonzero(row_scale == 0)
        return w, FastfoodFactors(signs, permutations, gaussians, row_scale * norms, zero, w[zero, 0])

