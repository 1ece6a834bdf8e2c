"""Block counting shared by the theory modules orthogonal, polynomial and signed (below all three):
how many ordered pairs of rows of s block-orthogonal frequencies share a block (004, "Theorem 5";
varlab's counting, see theory/orthogonal.py and theory/signed.py)."""
from __future__ import annotations

import numpy as np

__all__ = ["pairs", "block_sizes", "mutual_blocks"]


def pairs(k, d):
    """P(s, d): ordered pairs of distinct rows in the same block (blocks of d, last partial).

    Examples
    --------
    >>> from varlab.theory.orthogonal import pairs
    >>> float(pairs(6, 4))                      # a block of 4 (12 pairs) and one of 2 (2 pairs)
    14.0
    >>> pairs([1, 4, 8], 4)
    array([ 0., 12., 24.])
    """
    k = np.asarray(k, dtype=np.float64)
    d = np.asarray(d, dtype=np.float64)
    q = np.floor(k / d)
    rest = k - q * d
    return q * d * (d - 1.0) + rest * (rest - 1.0)


def block_sizes(d, s, orthogonality):
    """(h, pairs(s, h), cross pairs c(s)) for "iid", "separate" or "mutual" (theory/signed.py's module doc).

    Examples
    --------
    >>> from varlab.theory.signed import block_sizes
    >>> h, same, cross = block_sizes(16, 8, "mutual")     # 8 rows per part in one Haar block of 16
    >>> int(h), float(same), float(cross)
    (8, 56.0, 64.0)
    >>> [float(x) for x in block_sizes(16, 8, "separate")]
    [16.0, 56.0, 0.0]
    """
    s = np.asarray(s, dtype=np.float64)
    if orthogonality == "iid":
        return 1, np.zeros_like(s), np.zeros_like(s)
    if orthogonality == "separate" or d < 2:
        return d, pairs(s, d), np.zeros_like(s)
    if orthogonality != "mutual":
        raise ValueError(f"orthogonality must be one of ['iid', 'separate', 'mutual'], got {orthogonality!r}")
    h, cross = mutual_blocks(d, s)
    return h, pairs(s, h), cross


def mutual_blocks(dimension, k):
    """(h, c(k)) for mutual orthogonality: blocks of h = d // 2 rows per part (h = d, c = 0 for d = 1).

    Examples
    --------
    >>> from varlab.theory._blocks import mutual_blocks
    >>> h, cross = mutual_blocks(16, 20)             # blocks of 8: 8^2 + 8^2 + 4^2 cross pairs
    >>> int(h), float(cross)
    (8, 144.0)
    """
    dimension = np.asarray(dimension)
    h = np.where(dimension >= 2, dimension // 2, dimension)
    kk = np.asarray(k, dtype=np.float64)
    q = np.floor(kk / h)
    rest = kk - q * h
    return h, np.where(dimension >= 2, q * h * h + rest * rest, 0.0)
