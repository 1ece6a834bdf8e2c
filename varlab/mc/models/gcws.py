"""Sampling models of the GCWS-based RBF estimator (paper 000, Theorem 4).

With Xbar the fraction of k GCWS samples that collide, h(Xbar) = exp(-2 gamma ((1 - Xbar)/
(1 + Xbar))^2) estimates the RBF kernel exp(-gamma (1 - rho)) (Eq. 23-26).

* ``gcws_rbf``: Theorem 4's own model: the collisions are i.i.d. Bernoulli(g(rho)), g of Eq. (22).
* ``gcws_rbf_hashed``: the collisions of REAL hashes. A pair of rows (u, v) of dimension
  ``data_dimension`` is drawn once (from ``data_seed``) from the model of Sec. 3 (coordinates i.i.d.
  standard bivariate normal with correlation rho); each block hashes it with
  ``varlab.features.GCWS`` (n k samples, seeded from the block's generator) and counts
  collisions. By Theorem 1 they are Bernoulli(GMM(u, v)), and GMM(u, v) -> g(rho) as the
  dimension grows (Eq. 22). The target is the RBF kernel at the pair's own
  rho_eff = rho(GMM(u, v)) (Eq. 23), i.e. Theorem 4's assumption GMM = g made exact.
"""
from __future__ import annotations

import functools

import numpy as np

from ... import _validate
from ...theory import gcws as gcws_theory
from ...theory import rff as rff_theory
from . import Model


def rbf_of_collision_fraction(xbar: np.ndarray, gamma: float) -> np.ndarray:
    """h(Xbar) = exp(-2 gamma ((1 - Xbar)/(1 + Xbar))^2) (000, Eq. 23-24)."""
    ratio = (1.0 - xbar) / (1.0 + xbar)
    # (gamma ratio)(2 ratio): 2 gamma may overflow for gamma near the float64 maximum, and
    # inf * 0 at Xbar = 1 would be NaN; this way the exponent is finite or -inf
    with np.errstate(over="ignore"):
        return np.exp(-(gamma * ratio) * (2.0 * ratio))


class GCWSRBFModel(Model):
    """Theorem 4's model: Xbar = Binomial(k, g(rho)) / k."""

    name = "gcws_rbf"
    gpu = True
    description = "GCWS-based RBF estimator with Bernoulli(g(rho)) collisions (000, Thm 4)"

    def target(self, rho, gamma):
        return rff_theory.mean(rho=rho, gamma=gamma)

    def theory(self, k, *, rho, gamma):
        """Exact finite-k variance and MSE (the binomial sums of ``gcws.exact_moments``)."""
        kk = np.asarray(k, dtype=np.int64)
        variance = gcws_theory.exact_variance(rho, gamma, kk)
        return {"variance": variance, "mse": variance + gcws_theory.exact_bias(rho, gamma, kk) ** 2}

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        g = float(gcws_theory.g_of_rho(rho=rho))
        uniform = workspace.buffer("uniform", (n, k))
        rng.random(out=uniform)
        workspace.xp.less(uniform, g, out=out[0])

    def combine(self, sums, k, *, rho, gamma):
        return rbf_of_collision_fraction(sums[0] / k, gamma)


@functools.lru_cache(maxsize=64)
def model_pair(rho: float, dimension: int, data_seed: int) -> np.ndarray:
    """The (2, dimension) pair of rows drawn from 000 §3's model (cached; deterministic)."""
    rng = np.random.default_rng(np.random.SeedSequence([data_seed, dimension]))
    z = rng.standard_normal((2, dimension))
    pair = np.empty_like(z)
    pair[0] = z[0]
    pair[1] = rho * z[0] + np.sqrt(max(0.0, 1.0 - rho * rho)) * z[1]
    pair.setflags(write=False)
    return pair


def pair_gmm(rho: float, dimension: int, data_seed: int) -> float:
    """GMM(u, v) of the model pair (000, Eq. 8)."""
    from ... import kernels

    pair = model_pair(rho, dimension, data_seed)
    return float(kernels.gmm(pair[:1], pair[1:])[0, 0])


class GCWSRBFHashedModel(Model):
    """The GCWS-based RBF estimator computed from real GCWS hashes of a model pair."""

    name = "gcws_rbf_hashed"
    description = "GCWS-based RBF estimator from real GCWS hashes of a bivariate-normal pair"
    gpu_reason = "it hashes with varlab.features.GCWS on the host"

    def __init__(self, data_dimension: int = 100, data_seed: int = 0):
        self.data_dimension = _validate.positive_int(data_dimension, "data_dimension")
        self.data_seed = _validate.positive_int(data_seed, "data_seed", minimum=0)

    def effective_rho(self, rho) -> np.ndarray:
        """rho(GMM(u, v)) of the model pair at each rho (Eq. 23)."""
        rho = np.atleast_1d(np.asarray(rho, dtype=float))
        gmm = np.array([pair_gmm(float(r), self.data_dimension, self.data_seed) for r in rho.ravel()])
        return gcws_theory.rho_of_g(g=gmm).reshape(rho.shape)

    def target(self, rho, gamma):
        return rff_theory.mean(rho=self.effective_rho(rho).reshape(np.shape(rho)), gamma=gamma)

    def sample(self, rng, n, k, out, workspace, *, rho, gamma):
        from ...features import GCWS

        pair = model_pair(float(rho), self.data_dimension, self.data_seed)
        i_star, t_star = GCWS(n * k, random_state=rng).fit(pair).hash(pair)
        collide = (i_star[0] == i_star[1]) & (t_star[0] == t_star[1])
        out[0] = collide.reshape(n, k)

    def combine(self, sums, k, *, rho, gamma):
        return rbf_of_collision_fraction(sums[0] / k, gamma)
