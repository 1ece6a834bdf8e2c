"""Variance of GRFF and GORF for a signed radial measure mu = mu+ - mu- (004, "Variance
Reduction": Var(GORF) - Var(GRFF) = ||p+||^2 G+ + ||p-||^2 G- + H(z)).

Estimator with s frequencies: K = (1/s) sum_i [P a_i - N b_i], a_i = cos<w_i, z>,
b_i = cos<v_i, z>, P = ||mu+||, N = ||mu-||. For a radial part with kernel k_+ (normalised):

* V+(r) = Var a_1 = (1 + k+(2r))/2 - k+(r)^2 (varlab), likewise V-;
* C+(r) = Cov(a_i, a_j) for orthogonal rows = E phi_d(sqrt(R_1^2 + R_2^2) r) - k+(r)^2,
  R_1, R_2 i.i.d. from the part's radial law (004 "Theorem 5"'s Bessel term; varlab's
  derivation, see theory/orthogonal.py); likewise C-;
* H0(r) = Cov(a_i, b_j) for orthogonal w_i, v_j = E phi_d(sqrt(R^2 + R'^2) r) - k+(r) k-(r),
  R ~ mu+, R' ~ mu- radial laws; 004's H(z) = 2 P N [E a_1 E b_1 - E a_1 b_1] = -2 P N H0.

Then (varlab, exact, any s; h = the block size of each part's rows, c = same-block cross pairs):
Var = (P^2 V+ + N^2 V-)/s + [P^2 pairs(s, h) C+ + N^2 pairs(s, h) C- - 2 P N c(s) H0] / s^2,
with h = d, c = 0 for "separate" orthogonality, h = d//2, c = q h^2 + (s mod h)^2 (q = s // h) for
"mutual" (004's GORF: rows of one Haar block split half/half), and pairs = c = 0 for i.i.d.
For s <= h this is 004's decomposition with G = (s-1)/s C and H = -2 P N H0.

The expectations over two radial laws are computed by tensor Gauss quadrature in the laws'
quantiles (``orthogonal.covariance_numeric``); for a single Gaussian part the closed form
``orthogonal.pair_covariance`` at r / sigma is used. These are numpy functions of a measure
object (not registered Formulas: their parameters are a measure's weights and bandwidths).
"""
from __future__ import annotations

import numpy as np

from . import orthogonal

__all__ = ["part_variance", "part_covariance", "cross_covariance", "estimator_variance", "H", "G",
           "block_sizes"]


def _kernel(part, r):
    return part.kernel_of_distance(np.asarray(r, dtype=np.float64))


def part_variance(part, r):
    """V(r) = (1 + k(2r))/2 - k(r)^2 for a normalised radial part (varlab)."""
    k = _kernel(part, r)
    return 0.5 * (1.0 + _kernel(part, 2.0 * np.asarray(r, dtype=np.float64))) - k * k


def _single_gaussian_bandwidth(part):
    bandwidths = getattr(part, "bandwidths", None)
    if bandwidths is not None and len(bandwidths) == 1:
        return float(bandwidths[0])
    if getattr(part, "name", None) == "gaussian":
        return part.bandwidth
    return None


def part_covariance(part, d, r):
    """C(r) = Cov(cos<w_i,z>, cos<w_j,z>) for two orthogonal rows of the part (varlab)."""
    r = np.asarray(r, dtype=np.float64)
    sigma = _single_gaussian_bandwidth(part)
    if sigma is not None:
        return orthogonal.pair_covariance(dimension=d, distance=r / sigma)
    law = part.norm_law(d)
    return orthogonal.covariance_numeric(law, law, d, r).reshape(r.shape) - _kernel(part, r) ** 2


def cross_covariance(positive, negative, d, r, nodes=160):
    """H0(r) = Cov(cos<w,z>, cos<v,z>) for orthogonal w ~ mu+, v ~ mu- (varlab)."""
    r = np.asarray(r, dtype=np.float64)
    la, lb = positive.norm_law(d), negative.norm_law(d)
    la = la.quadrature(nodes) if hasattr(la, "quadrature") else la
    lb = lb.quadrature(nodes) if hasattr(lb, "quadrature") else lb
    e = orthogonal.covariance_numeric(la, lb, d, r, nodes=nodes).reshape(r.shape)
    return e - _kernel(positive, r) * _kernel(negative, r)


def block_sizes(d, s, orthogonality):
    """(h, pairs(s, h), cross pairs c(s)) for "iid", "separate" or "mutual" (see module doc)."""
    s = np.asarray(s, dtype=np.float64)
    if orthogonality == "iid":
        return 1, np.zeros_like(s), np.zeros_like(s)
    if orthogonality == "separate" or d < 2:
        return d, orthogonal.pairs(s, d), np.zeros_like(s)
    if orthogonality != "mutual":
        raise ValueError(f"orthogonality must be one of ['iid', 'separate', 'mutual'], got {orthogonality!r}")
    h = d // 2
    q = np.floor(s / h)
    rest = s - q * h
    return h, orthogonal.pairs(s, h), q * h * h + rest * rest


def estimator_variance(measure, d, r, s, orthogonality="iid"):
    """Var of the s-frequency GRFF ("iid") or GORF ("separate", "mutual") estimate of k(r)."""
    parts, masses = measure.parts(), measure.total_masses()
    P, N = masses["positive"], masses["negative"]
    pos, neg = parts["positive"], parts["negative"]
    s = np.asarray(s, dtype=np.float64)
    _, same, cross = block_sizes(d, s, orthogonality)
    total = P * P * (part_variance(pos, r) / s + same * part_covariance(pos, d, r) / s ** 2)
    if neg is not None and N > 0:
        total = total + N * N * (part_variance(neg, r) / s + same * part_covariance(neg, d, r) / s ** 2)
        if np.any(cross):
            total = total - 2.0 * P * N * cross * cross_covariance(pos, neg, d, r) / s ** 2
    return total


def G(part, d, r, s):
    """004's G for one part with s <= d orthogonal rows: (s-1)/s C(r) (varlab's derivation)."""
    s = np.asarray(s, dtype=np.float64)
    return (s - 1.0) / s * part_covariance(part, d, r)


def H(measure, d, r):
    """004's cross term H(z) = 2 P N [E a_1 E b_1 - E a_1 b_1] = -2 P N H0(r)."""
    parts, masses = measure.parts(), measure.total_masses()
    return -2.0 * masses["positive"] * masses["negative"] * cross_covariance(parts["positive"], parts["negative"], d, r)
