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
a_i = c_i / (z_i exp(r_i)); ``hashing._reference_hash(..., form="exp")`` keeps that form for the
tests.

One idea per module:

* :mod:`~varlab.features.cws.randomness`: the counter-based generator of (r, c, beta), a pure
  function of (key, coordinate, sample);
* :mod:`~varlab.features.cws.nonzeros`: input rows -> the nonzeros of u~ (transformed
  coordinates and log values), in groups of rows of bounded size;
* :mod:`~varlab.features.cws.hashing`: Algorithm 1 over those nonzeros, by two exact strategies
  that agree bit for bit;
* :mod:`~varlab.features.cws.coding`: b-bit coding of the samples and the GMM estimate from two
  hashes (``bbit_code``, ``gmm_estimate``);
* :mod:`~varlab.features.cws.gcws`: the ``GCWS`` feature map (registered on definition).
"""
from .coding import bbit_code, gmm_estimate
from .gcws import GCWS

__all__ = ["GCWS", "gmm_estimate", "bbit_code"]
