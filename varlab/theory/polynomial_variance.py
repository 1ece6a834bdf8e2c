"""Exact variances of GRFF and GORF (paper 004) for a signed measure whose parts are made of shells.

For a measure whose parts have discrete radial laws (``atoms``, ``probabilities``), such as
``varlab.spectral.polynomial.PolynomialSphere`` for the polynomial kernel on the sphere, the
Bessel terms of theory.signed's decomposition (C for one part, H0 across the two) are finite
sums over pairs of shells (``shell_covariance``), so the variance of the s-frequency GRFF or GORF
estimate is exact (``estimator_variance``; varlab's own). Both names are also importable from
``varlab.theory.polynomial``.
"""
from __future__ import annotations

import numpy as np

from ._blocks import block_sizes
from ._special import phi

__all__ = ["shell_covariance", "estimator_variance"]


def shell_covariance(atoms_a, probabilities_a, atoms_b, probabilities_b, d, r):
    """E phi_d(sqrt(R^2 + R'^2) r) for independent discrete radial laws (exact finite sums): the
    Bessel term of C (same part) and H0 (two parts) for orthogonal rows (theory/signed.py).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.theory import polynomial
    >>> atoms, probabilities = np.array([1.0, 2.0]), np.array([0.5, 0.5])      # |w| = 1 or 2; phi_3 = sin t / t
    >>> polynomial.shell_covariance(atoms, probabilities, atoms, probabilities, 3, [0.0, 1.0]).round(6)
    array([1.      , 0.377766])
    """
    r = np.atleast_1d(np.asarray(r, dtype=np.float64))
    t = np.sqrt(np.square(atoms_a)[:, None] + np.square(atoms_b)[None, :])
    w = probabilities_a[:, None] * probabilities_b[None, :]
    return np.einsum("ij,rij->r", w, phi(t[None] * r[:, None, None], d))


def estimator_variance(measure, d, r, s, orthogonality="iid"):
    """Var of the s-frequency GRFF ("iid") or GORF ("separate", "mutual") estimate at |z| = r for a
    signed measure whose parts have discrete radial laws (``atoms``, ``probabilities``), e.g.
    PolynomialSphere: theory.signed's decomposition with the covariances as exact sums.

    Examples
    --------
    >>> from varlab.spectral.polynomial import PolynomialSphere
    >>> from varlab.theory import polynomial
    >>> mu = PolynomialSphere(a=3.0, degree=1, dimension=16)         # a linear program: about 2 s once
    >>> polynomial.estimator_variance(mu, 16, [0.5, 1.0], 8).round(6)      # GRFF, 8 frequencies
    array([[0.050768],
           [0.147328]])
    >>> polynomial.estimator_variance(mu, 16, 1.0, 8, "separate").round(6)  # GORF
    array([[0.134052]])
    """
    parts, masses = measure.parts(), measure.total_masses()
    P, N = masses["positive"], masses["negative"]
    r = np.atleast_1d(np.asarray(r, dtype=np.float64))
    s = np.asarray(s, dtype=np.float64)
    _, same, cross = block_sizes(d, s, orthogonality)
    total = 0.0
    laws = {}
    for name, mass in (("positive", P), ("negative", N)):
        part = parts[name]
        if part is None or mass == 0:
            continue
        law = laws[name] = part.norm_law(d)
        k = part.kernel_of_distance(r)
        variance = 0.5 * (1.0 + part.kernel_of_distance(2.0 * r)) - k * k
        covariance = shell_covariance(law.atoms, law.probabilities, law.atoms, law.probabilities, d, r) - k * k
        total = total + mass * mass * (variance[:, None] / s + same * covariance[:, None] / s ** 2)
    if len(laws) == 2 and np.any(cross):
        pos, neg = parts["positive"], parts["negative"]
        h0 = (shell_covariance(laws["positive"].atoms, laws["positive"].probabilities, laws["negative"].atoms,
                               laws["negative"].probabilities, d, r)
              - pos.kernel_of_distance(r) * neg.kernel_of_distance(r))
        total = total - 2.0 * P * N * cross * h0[:, None] / s ** 2
    return total
