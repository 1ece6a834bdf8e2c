"""Models of i.i.d., orthogonal (ORF) and structured (SORF, Fastfood) random features for the
Gaussian kernel over (dimension, distance) (004, "Theorem 5"; varlab/theory/orthogonal.py).

x - y = z = distance * (1, ..., 1) / sqrt(d) (a direction with every coordinate non-zero, so that
a sampler that is not rotation invariant shows its bias; Fastfood's option ``direction`` gives
others: a coordinate axis, two axes, a fixed random direction, ``unit_direction``), kernel
exp(-|z|^2/2) (bandwidth 1).
Each repetition draws its own k frequencies through ``varlab.features.samplers`` (whole blocks
per repetition, the first k rows kept); the per-sample term is cos(<w_j, z>), the estimator
their mean (the paired cos/sin features of 004: cos<w,x>cos<w,y> + sin<w,x>sin<w,y>).
Every prefix of a block-orthogonal draw is a draw, so one pass gives every k; the engine's
column slabs are whole blocks (``granularity`` = the block size), so a slab never cuts a block.
A block of repetitions draws at most about ``MAX_ELEMENTS`` numbers (fewer repetitions per
block at large d); a dimension whose single orthogonal block exceeds it is refused (ValueError
naming dimension), and phases distance <w, u> beyond float64 are refused naming distance.

Fast path (``through_sampler=False``, the default for ORF): the projections <q_i, u> of the d
rows of a Haar block on the unit vector u = z/|z| are the coordinates of Q u, a uniform unit
vector; so a block's terms are cos(|z| R_i g_i/|g|), g ~ N(0, I_d), R_i from the radial law:
the same law as through the sampler at O(d) instead of O(d^3) per block.
``through_sampler=True`` draws the full frequencies with ``varlab.features.samplers`` (tests
check that both agree).

The structured models (SORF, Fastfood: a block is p = ``hadamard_size(d)`` rows of a product A of
Walsh-Hadamard and diagonal factors, each row cut to d coordinates and renormalised, norms from
the radial law) have a fast path too: the projection of row i on u is (A u)_i / |row i cut to d|,
one chain of fast Walsh-Hadamard transforms per block (O(p log p)) instead of one per row
(O(p^2 log p)) when d = p, where the rows' norms are known (1 for SORF, |G|/sqrt(p) for
Fastfood); for d < p the cut norms come from the d columns A e_c (O(d p log p)).
"""
from __future__ import annotations

import math

import numpy as np

from ... import spectral
from ...features.samplers.orthogonal import fwht, hadamard_size
from ...theory import orthogonal as theory
from . import _fused_rff
from ._phases import blocked_budget, phases
from .sampler_model import SamplerModel

__all__ = ["RadialModel", "IIDRadialModel", "ORFModel", "ORFColumnsModel", "SORFModel", "FastfoodModel",
           "DIRECTIONS", "unit_direction"]

#: the directions of z that FastfoodModel offers (``unit_direction``)
DIRECTIONS = ("diagonal", "axis", "two_axis", "random")
#: the seed of the fixed "random" direction
RANDOM_DIRECTION_SEED = 20130617


class RadialModel(SamplerModel):
    """The Gaussian kernel exp(-|z|^2/2) through a sampler (``SamplerModel``), with a fast path
    (``through_sampler=False``): ``_projections(rng, n, rows, d)`` gives the (n, rows) values
    <w_i, u> of the sampler's law directly (module docstring).

    Examples
    --------
    >>> from varlab.mc import model_class
    >>> from varlab.mc.models.orthogonal import RadialModel
    >>> issubclass(model_class("orf"), RadialModel), model_class("orf")().block_size(4)
    (True, 4)
    """

    gpu_reason = "it draws through varlab.features.samplers or a numpy fast path (not yet on xp)"

    def target(self, dimension, distance):
        distance = np.asarray(distance, dtype=np.float64)
        with np.errstate(over="ignore"):
            return np.exp(-0.5 * distance * distance) + 0.0 * np.asarray(dimension)

    def measure(self):
        return spectral.Gaussian(1.0)

    def direction_norm(self, d):
        return math.sqrt(d)

    def samples_per_block(self, *, dimension, distance):
        """Through the sampler: ``SamplerModel``'s budget; on the fast path g, radii, phases and
        cosines, ~4 numbers per row."""
        if self.through_sampler:
            return super().samples_per_block(dimension=dimension, distance=distance)
        d = int(dimension)
        block = self.block_size(d)
        return blocked_budget(self.name, d, block, self._fast_elements(d, block))

    def _fast_elements(self, d, block):
        """Numbers one block costs on the fast path."""
        return 4 * block

    def __init__(self, through_sampler=True):
        self.through_sampler = bool(through_sampler)

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        if self.through_sampler:
            return super().sample(rng, n, k, out, workspace, dimension=dimension, distance=distance)
        d = int(dimension)
        block = self.block_size(d)
        rows = -(-k // block) * block
        out[0] = np.cos(phases(self._projections(rng, n, rows, d)[:, :k], distance))


class IIDRadialModel(RadialModel):
    """i.i.d. RFF, paired cos/sin, Gaussian kernel in R^d. Theory: V_1/k, exact
    (``orthogonal.iid_variance``).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("rff_radial", k=[8, 32], dimension=4, distance=1.0, n_repetitions=400,
    ...                      random_state=0)
    >>> result.target.round(4)                    # exp(-distance^2 / 2)
    array([[0.6065, 0.6065]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "rff_radial"
    unbiased = True
    description = "i.i.d. RFF (paired cos/sin) of exp(-|z|^2/2) in R^d"

    def __init__(self, through_sampler=False):
        self.through_sampler = bool(through_sampler)

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        if self.through_sampler or not _fused_rff.radial_terms(rng, out[0], distance):
            super().sample(rng, n, k, out, workspace, dimension=dimension, distance=distance)

    def _projections(self, rng, n, rows, d):
        """<w, u> for w ~ N(0, I): standard normal."""
        return rng.standard_normal((n, rows))

    def theory(self, k, *, dimension, distance):
        v = theory.iid_variance(distance=distance) / np.asarray(k, dtype=float)
        return {"variance": v, "mse": v}


class ORFModel(RadialModel):
    """Block-orthogonal RFF (rows of S Q). Theory: varlab's exact variance
    ``orthogonal.orf_variance`` (blocks of d, partial last block).

    Examples
    --------
    >>> from varlab import mc
    >>> point = dict(k=[8, 32], dimension=4, distance=1.0, n_repetitions=400, random_state=0)
    >>> orf, iid = mc.simulate("orf", **point), mc.simulate("rff_radial", **point)
    >>> (orf.theory["variance"] / iid.theory["variance"]).round(3)     # orthogonal rows help
    array([[0.409, 0.409]])
    >>> mc.within(orf.variance, orf.theory["variance"], orf.se_variance)
    array([[ True,  True]])
    """

    name = "orf"
    sampler = "orthogonal"
    unbiased = True
    description = "ORF (rows of S Q, paired cos/sin) of exp(-|z|^2/2) in R^d"

    def __init__(self, through_sampler=False):
        self.through_sampler = bool(through_sampler)

    def _projections(self, rng, n, rows, d):
        """(n, rows) values <w_i, u>: per block R_i g_i/|g| (Haar Q u is uniform on the sphere)."""
        g = rng.standard_normal((n * rows // d, d))
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        radius = np.sqrt(rng.chisquare(d, size=g.shape))
        return (g * radius).reshape(n, rows)

    def theory(self, k, *, dimension, distance):
        v = theory.orf_variance(dimension=dimension, distance=distance, k=np.asarray(k, dtype=np.int64))
        return {"variance": v, "mse": v}


class ORFColumnsModel(ORFModel):
    """The column-stacking variant (columns of S Q): biased; the engine measures by how much.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("orf_columns", k=[8, 32], dimension=4, distance=1.0, n_repetitions=400,
    ...                      random_state=0)
    >>> result.theory                             # none: the engine measures the bias
    {}
    >>> bool(abs(result.bias[0, 1]) > 4 * result.se_mean[0, 1])
    True
    """

    name = "orf_columns"
    sampler_options = {"orientation": "columns"}
    unbiased = False
    description = "ORF with the columns of S Q (biased variant)"

    def _projections(self, rng, n, rows, d):
        """Columns of S Q projected on u: (Q^T S u)_j = |S u| v_j, v = Q^T S u/|S u| uniform."""
        blocks = n * rows // d
        s = np.sqrt(rng.chisquare(d, size=(blocks, d)))
        norm = np.sqrt(np.mean(s * s, axis=1, keepdims=True))          # |S u|, u = 1/sqrt(d)
        g = rng.standard_normal((blocks, d))
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        return (g * norm).reshape(n, rows)

    def theory(self, k, **point):
        return {}


def unit_direction(direction: str, d: int) -> np.ndarray:
    """The unit vector u of z = distance u (``DIRECTIONS``): "diagonal" (1, ..., 1)/sqrt(d), "axis" e_1,
    "two_axis" (e_1 + e_2)/sqrt(2), "random" a fixed direction (standard normal from seed
    ``RANDOM_DIRECTION_SEED``, normalised; the same at every call for a given d).

    Examples
    --------
    >>> from varlab.mc.models.orthogonal import unit_direction
    >>> unit_direction("two_axis", 4).round(4)
    array([0.7071, 0.7071, 0.    , 0.    ])
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {list(DIRECTIONS)}, got {direction!r}")
    if direction == "random":
        u = np.random.default_rng(RANDOM_DIRECTION_SEED).standard_normal(d)
    else:
        u = np.zeros(d)
        u[:{"diagonal": d, "axis": 1, "two_axis": 2}[direction]] = 1.0
    return u / np.linalg.norm(u)


def _structured_projections(apply, n_blocks: int, d: int, p: int, row_norms=None, zero_below=0.0, u=None):
    """(n_blocks, p) projections <a_i, u> of the rows a_i of n_blocks structured blocks A (rows
    cut to d coordinates and renormalised), u a unit vector of R^d (default (1, ..., 1)/sqrt(d)):
    (A u)_i / |a_i cut to d|. ``apply(x)``: A x for x (n_blocks, m, p) (m vectors per block).
    ``row_norms`` (n_blocks, 1): the rows' norms when d = p; for d < p the cut norms come from the
    columns A e_c, c < d. A row cut to a norm <= ``zero_below`` is e_1 in the samplers: its
    projection is u_1."""
    u = unit_direction("diagonal", d) if u is None else u
    if d == p:
        return apply(np.broadcast_to(u, (n_blocks, 1, p)))[:, 0, :] / row_norms
    basis = np.zeros((n_blocks, d, p))
    basis[:, np.arange(d), np.arange(d)] = 1.0
    columns = apply(basis)                                   # columns[b, c, i] = A_ic
    norms = np.sqrt(np.einsum("bci,bci->bi", columns, columns))
    zero = norms <= zero_below
    projections = np.einsum("bci,c->bi", columns, u) / np.where(zero, 1.0, norms)
    projections[zero] = u[0]
    return projections


class _Structured(RadialModel):
    """A structured sampler's blocks of p = hadamard_size(d) rows (p x p Walsh-Hadamard products)."""

    def _fast_elements(self, d, block):
        """The block's factors, radii and cosines (~8 numbers per row), and the d columns A e_c
        (two work arrays) when d < p."""
        return 8 * block + (0 if d == block else 2 * d * block)

    def _projections(self, rng, n, rows, d):
        """(n, rows) values <w_i, u> = R_i <a_i, u> (``_structured_projections``), R_i ~ chi_d."""
        p = hadamard_size(d)
        n_blocks = n * rows // p
        unit = self._unit_projections(rng, n_blocks, d, p)
        radius = np.sqrt(rng.chisquare(d, size=unit.shape))
        return (unit * radius).reshape(n, rows)


class SORFModel(_Structured):
    """SORF (H D1 H D2 H D3 directions, chi norms): bias and variance measured, no theory.
    Through the sampler by default (the seeds of 004's claims); ``through_sampler=False``: the
    fast path (the same law, ``_structured_projections``).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("sorf", k=[8, 32], dimension=4, distance=1.0, n_repetitions=200,
    ...                      random_state=0)
    >>> result.target.round(4), result.theory
    (array([[0.6065, 0.6065]]), {})
    >>> result.mse.shape
    (1, 2)
    """

    name = "sorf"
    sampler = "structured_orthogonal"
    unbiased = False
    description = "SORF (Hadamard-sign products) of exp(-|z|^2/2) in R^d"

    def _unit_projections(self, rng, n_blocks, d, p):
        """A = H D1 H D2 H D3 with each row times a random sign (``sorf_directions``): A x =
        H D1 H D2 H D3 x; rows orthonormal when d = p; rows cut to zero are e_1 (then signed)."""
        signs = np.where(rng.random((n_blocks, 4, p)) < 0.5, -1.0, 1.0)

        def apply(x):
            for stage in (2, 1, 0):
                x = fwht(x * signs[:, None, stage, :])
            return x

        unit = _structured_projections(apply, n_blocks, d, p, np.ones((n_blocks, 1)), 0.5 * p ** -1.5)
        return unit * signs[:, 3, :]


class FastfoodModel(_Structured):
    """Fastfood (Le, Sarlos and Smola 2013: rows of H G Pi H B, cut to d, chi norms;
    ``varlab.features.samplers.fastfood``) of the Gaussian kernel, beside rff_radial, orf and
    sorf. Unbiased (varlab): row i is g^T Pi H B with g_l = H_il G_l i.i.d. N(0, 1/p) and
    Pi H B orthogonal, so every row (and its cut to d coordinates) is Gaussian and its direction
    uniform, independent of the chi norm; the rows of a block share G, so the variance is
    measured (no theory), and depends on z's direction (``direction``, ``unit_direction``): for
    d = p and z along a coordinate axis, H B e_1 is +-(1, ..., 1)/sqrt(p), so A e_1 = +-H g / sqrt(p)
    and the projections (A e_1)_i / (|g| / sqrt(p)) = +-(H g)_i / |g| are a uniform unit vector: ORF's
    law. Fast path by default (``through_sampler=True``: the sampler's draws, the same law).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("fastfood", k=[16, 32], dimension=16, distance=1.0, n_repetitions=200,
    ...                      random_state=0)
    >>> result.target.round(4), bool(abs(result.bias).max() < 5 * result.se_mean.max())
    (array([[0.6065, 0.6065]]), True)
    """

    name = "fastfood"
    sampler = "fastfood"
    unbiased = True
    description = "Fastfood (S H G Pi H B) of exp(-|z|^2/2) in R^d"

    def __init__(self, through_sampler=False, direction="diagonal"):
        self.through_sampler = bool(through_sampler)
        unit_direction(direction, 2)                     # validates the name
        self.direction = direction

    def sample(self, rng, n, k, out, workspace, *, dimension, distance):
        """Through the sampler: <w_j, z> = distance <w_j, u> for ``direction``'s u; else the fast path."""
        if not self.through_sampler:
            return super().sample(rng, n, k, out, workspace, dimension=dimension, distance=distance)
        d = int(dimension)
        w = self.frequencies(rng, n, k, d)[:, :k, :]
        out[0] = np.cos(phases(w @ unit_direction(self.direction, d), distance))

    def _unit_projections(self, rng, n_blocks, d, p):
        """A = H G Pi H B (``fastfood_directions``: (r Pi)_j = r_perm[j], so Pi y = y[perm^-1]):
        A x = H G (H B x)[perm^-1]; every row of a block has norm |G|/sqrt(p)."""
        signs = np.where(rng.random((n_blocks, p)) < 0.5, -1.0, 1.0)
        # perm^-1 of a uniform permutation is uniform: drawn directly (Fisher-Yates per row)
        inverse = rng.permuted(np.tile(np.arange(p), (n_blocks, 1)), axis=1)
        gaussians = rng.standard_normal((n_blocks, p))

        def apply(x):
            x = np.take_along_axis(fwht(x * signs[:, None, :]), inverse[:, None, :], axis=2)
            return fwht(x * gaussians[:, None, :])

        norms = np.sqrt(np.mean(gaussians * gaussians, axis=1, keepdims=True))
        return _structured_projections(apply, n_blocks, d, p, norms, u=unit_direction(self.direction, d))
