"""Models of paper 003: estimators of k = exp(-s^2/2), s = |c| / sigma, from m = k frequencies.

Parameters: ``dimension`` d and ``scaled_distance`` s. Frequencies w ~ N(0, I / sigma^2); the
estimators depend on c only through t_j = c'w_j. For i.i.d. frequencies t_j ~ N(0, s^2) exactly,
in any d and for any direction of c, so the prefix models (MC, CV, antithetic) draw t through the
i.i.d. sampler in one dimension; d enters the models that couple the d coordinates (moment
matching, Sobol), which draw the m x d frequencies through ``varlab.features.samplers``.

``features``: "complex" (003, Eq. 4-5: E = (1/m) sum e^{-i t_j}; the paper's variance is
E|E - k|^2), "cosine" (the real part, cos/sin pair features) or "phase" (random-phase cosine
features sqrt2 cos(w'x + b), b ~ U[0, 2 pi) i.i.d. per feature, the real map of
``varlab.features.RFF``: one product is 2 cos(a) cos(a - t) = cos t + cos(2a - t) with a = w'x + b
uniform mod 2 pi and independent of w, so the models draw a ~ U[0, 2 pi) after the frequencies
and need neither x nor y). The engine needs a real estimate; for complex features the models return Re E + xi Im E with xi = +-1 a fair coin
drawn per repetition (fresh models), or Re E + Im E for the prefix models, whose laws are
symmetric under t -> -t (Im E then has mean 0 and is uncorrelated with Re E). Either way the
scalar has mean E[Re E] and its MSE about k is E|E - k|^2 exactly.
"""
from __future__ import annotations

import math

import numpy as np

from ... import _validate, spectral
from ...features.samplers import get_sampler
from ...features.samplers.moment_matching import DIVISORS, ROOTS, SINGULAR
from ...features.samplers.qmc import _MAX_DIMENSION as _SOBOL_MAX_DIMENSION
from ...theory import moment_matching as theory
from . import Model

__all__ = ["MCModel", "CV1Model", "CV2Model", "AntitheticModel", "MomentMatchingModel",
           "SobolModel", "ScrambledSobolModel", "FEATURES", "DIRECTIONS", "whitened_projections"]

FEATURES = ("complex", "cosine", "phase")
TWO_PI = 2.0 * math.pi
DIRECTIONS = ("diagonal", "axis", "random")


def _choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def _draw_t(rng, n, k, s):
    """(n, k) i.i.d. t = c'w ~ N(0, s^2) (through the i.i.d. Gaussian sampler, d = 1)."""
    return get_sampler("iid").frequencies(spectral.Gaussian(1.0), n * k, 1, rng).reshape(n, k) * s


def _phase_noise(rng, t, out):
    """out = cos(2a - t), a ~ U[0, 2 pi) i.i.d. (drawn after the frequencies): the part of a
    random-phase product 2 cos(a) cos(a - t) beyond cos t."""
    rng.random(out=out)
    out *= 2.0 * TWO_PI
    out -= t
    np.cos(out, out=out)


class _Paper003(Model):
    parameters = ("dimension", "scaled_distance")
    gpu_reason = "it draws through varlab.features.samplers (host numpy; Sobol through scipy)"

    def __init__(self, features="complex"):
        self.features = _choice(features, "features", FEATURES)

    def target(self, dimension, scaled_distance):
        return theory.kernel(scaled_distance=scaled_distance)

    def _complex(self):
        return self.features == "complex"

    def _phase(self):
        return self.features == "phase"


class MCModel(_Paper003):
    """Plain Monte Carlo (003, Eq. 4-5). Theory: V_MC of Cor. 1 (complex) or varlab's cosine or
    random-phase variance, exact. Terms: cos t and sin t (complex, cosine) or cos t and the phase
    noise cos(2a - t) (phase).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_mc", k=[8, 32], dimension=4, scaled_distance=1.0, n_repetitions=400,
    ...                      random_state=0)
    >>> result.target.round(4)                    # exp(-s^2 / 2)
    array([[0.6065, 0.6065]])
    >>> result.theory["variance"].round(4)        # V_MC / m (Cor. 1)
    array([[0.079 , 0.0198]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "mm_mc"
    n_terms = 2
    unbiased = True
    description = "003 MC: (1/m) sum exp(-i c'w_j), i.i.d. Gaussian frequencies"

    _VARIANCE = {"complex": theory.mc_variance, "cosine": theory.mc_cosine_variance,
                 "phase": theory.mc_phase_variance}

    def theory(self, k, *, dimension, scaled_distance):
        variance = self._VARIANCE[self.features](scaled_distance=scaled_distance, m=np.asarray(k))
        return {"variance": variance, "mse": variance}

    def sample(self, rng, n, k, out, workspace, *, dimension, scaled_distance):
        t = _draw_t(rng, n, k, scaled_distance)
        np.cos(t, out=out[0])
        if self._phase():
            _phase_noise(rng, t, out[1])
        else:
            np.sin(t, out=out[1])

    def combine(self, sums, k, *, dimension, scaled_distance):
        if self._phase():
            return (sums[0] + sums[1]) / k
        return (sums[0] - sums[1]) / k if self._complex() else sums[0] / k


class CV2Model(_Paper003):
    """Control variates with both controls (003, Eq. 10-11): E_MC + beta1 i c'mu^ +
    beta2/2 (c'(Sigma^ - Sigma) c), Sigma^ = (1/m) sum w w'. ``beta1``/``beta2``: numbers, or
    "optimal" for Thm 1's e^{-s^2/2} (for cosine and random-phase features the optimal beta1 is 0
    and the first control, purely imaginary, drops out; the phases add their noise cos(2a - t) in
    place of the sine term). Theory: ``theory.cv_variance``, exact.

    Examples
    --------
    >>> from varlab import mc
    >>> point = dict(k=[8, 32], dimension=4, scaled_distance=1.0, n_repetitions=400, random_state=0)
    >>> cv2, plain = mc.simulate("mm_cv2", **point), mc.simulate("mm_mc", **point)
    >>> (cv2.theory["variance"] / plain.theory["variance"]).round(3)
    array([[0.127, 0.127]])
    >>> mc.within(cv2.variance, cv2.theory["variance"], cv2.se_variance)
    array([[ True,  True]])
    """

    name = "mm_cv2"
    n_terms = 4
    unbiased = True
    description = "003 CV2: MC plus the first- and second-moment controls of Eq. (10)"

    def __init__(self, features="complex", beta1="optimal", beta2="optimal"):
        super().__init__(features)
        self.beta1 = self._beta(beta1, "beta1")
        self.beta2 = self._beta(beta2, "beta2")

    @staticmethod
    def _beta(value, name):
        if isinstance(value, str):
            return _choice(value, name, ("optimal",))
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.floating, np.integer)):
            raise TypeError(f"{name} must be a real number or 'optimal', got {value!r}")
        return float(_validate.real_array(value, name))

    def _coefficients(self, s):
        optimal = math.exp(-0.5 * s * s)
        b1 = optimal if self.beta1 == "optimal" else self.beta1
        b2 = optimal if self.beta2 == "optimal" else self.beta2
        return b1, b2

    def theory(self, k, *, dimension, scaled_distance):
        b1, b2 = self._coefficients(scaled_distance)
        variance = theory.cv_variance(scaled_distance, np.asarray(k, dtype=float), b1, b2, self.features)
        return {"variance": variance, "mse": variance}

    def sample(self, rng, n, k, out, workspace, *, dimension, scaled_distance):
        t = _draw_t(rng, n, k, scaled_distance)
        np.cos(t, out=out[0])
        out[2] = t
        np.multiply(t, t, out=out[3])
        if self._phase():
            _phase_noise(rng, t, out[1])
        else:
            np.sin(t, out=out[1])

    def combine(self, sums, k, *, dimension, scaled_distance):
        b1, b2 = self._coefficients(scaled_distance)
        real = sums[0] / k + 0.5 * b2 * (sums[3] / k - scaled_distance ** 2)
        if self._phase():
            return real + sums[1] / k
        if not self._complex():
            return real
        return real + (-sums[1] / k + b1 * sums[2] / k)


class CV1Model(CV2Model):
    """Control variate on the first moment only (003, "CV1"): Eq. (10) with beta2 = 0.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_cv1", k=[8, 32], dimension=4, scaled_distance=1.0, n_repetitions=400,
    ...                      random_state=0, features="cosine")
    >>> result.options
    {'features': 'cosine', 'beta1': 'optimal'}
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "mm_cv1"
    description = "003 CV1: MC plus the first-moment control of Eq. (10)"

    def __init__(self, features="complex", beta1="optimal"):
        super().__init__(features, beta1, 0.0)


class AntitheticModel(_Paper003):
    """Antithetic pairs (w, -w) (003, "Anti"): prefixes valid at even m. Theory:
    ``theory.antithetic_variance`` (varlab's own), exact; Im E = 0. With random-phase features
    each of w and -w has its own phase (as ``RFF(sampler="antithetic")`` draws them):
    ``theory.antithetic_phase_variance``.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_antithetic", k=[8, 32], dimension=4, scaled_distance=1.0,
    ...                      n_repetitions=400, random_state=0)
    >>> result.theory["variance"].round(4)
    array([[0.0499, 0.0125]])
    >>> mc.within(result.variance, result.theory["variance"], result.se_variance)
    array([[ True,  True]])
    """

    name = "mm_antithetic"
    n_terms = 1
    unbiased = True
    description = "003 Anti: pairs (w, -w); (1/m) sum cos(c'w_j)"

    def granularity(self, **point):
        return 2

    def theory(self, k, *, dimension, scaled_distance):
        formula = theory.antithetic_phase_variance if self._phase() else theory.antithetic_variance
        variance = formula(scaled_distance=scaled_distance, m=np.asarray(k))
        return {"variance": variance, "mse": variance}

    def sample(self, rng, n, k, out, workspace, *, dimension, scaled_distance):
        half = _draw_t(rng, n, k // 2, scaled_distance)
        np.cos(half, out=out[0][:, 0::2])
        out[0][:, 1::2] = out[0][:, 0::2]            # cos(-t) = cos t; the sines cancel
        if self._phase():                            # t and -t, each with its own phase
            t = workspace.buffer("t", (n, k))
            t[:, 0::2] = half
            np.negative(half, out=t[:, 1::2])
            noise = workspace.buffer("noise", (n, k))
            _phase_noise(rng, t, noise)
            out[0] += noise

    def combine(self, sums, k, *, dimension, scaled_distance):
        return sums[0] / k


def _direction(rng, n, d, direction):
    """(n, d) unit vectors c / |c|."""
    if direction == "axis":
        out = np.zeros((n, d))
        out[:, -1] = 1.0
        return out
    if direction == "diagonal":
        return np.full((n, d), 1.0 / math.sqrt(d))
    g = rng.standard_normal((n, d))
    return g / np.linalg.norm(g, axis=1, keepdims=True)


class _Fresh(_Paper003):
    prefix = False

    def __init__(self, features="complex", direction="diagonal"):
        super().__init__(features)
        self.direction = _choice(direction, "direction", DIRECTIONS)

    def _estimates(self, rng, n, t):
        """Re E (+ xi Im E, or + the mean phase noise) from the (n, m) projections t."""
        real = np.cos(t).mean(axis=1)
        if self._phase():
            noise = np.empty_like(t)
            _phase_noise(rng, t, noise)
            return real + noise.mean(axis=1)
        if not self._complex():
            return real
        coin = rng.integers(0, 2, n) * 2.0 - 1.0
        return real - coin * np.sin(t).mean(axis=1)


def whitened_projections(W, c, *, root="cholesky", divisor="m-1", singular="error"):
    """t = moment_match(W, root=, divisor=, singular=) @ c, row by row, for a stack of draws W
    (n, m, d) and vectors c (n, d) -> (n, m), without whitening the m rows (003, Alg. 1, steps
    4-5 projected on c): t_j = (w_j - mu)' A^{-T} c with A the square root of the sample
    covariance S (A = L of S = L L' for "cholesky", S^{1/2} for "symmetric", diag(S)^{1/2} for the
    m <= d fallback). The same centring, divisor and roots as the sampler's ``moment_match``, equal
    to it up to rounding (tests/theory/test_moment_matching.py), at O(d^3) per repetition for the solve
    instead of O(m d^2). W is overwritten by its centred rows.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.samplers.moment_matching import moment_match
    >>> from varlab.mc.models.moment_matching import whitened_projections
    >>> rng = np.random.default_rng(0)
    >>> W, c = rng.standard_normal((2, 10, 3)), rng.standard_normal((2, 3))
    >>> expected = np.stack([moment_match(W[i]) @ c[i] for i in range(2)])
    >>> t = whitened_projections(W.copy(), c)
    >>> t.shape, bool(np.allclose(t, expected))
    ((2, 10), True)
    """
    n, m, d = W.shape
    if m <= d and singular == "error":
        raise ValueError(f"m={m} frequencies in d={d} dimensions: the sample covariance of moment "
                         f"matching is singular for m <= d; use m >= d + 1 or singular='diagonal'")
    W -= W.mean(axis=1, keepdims=True)
    scale = m if divisor == "m" else m - 1
    if m <= d:
        v = c / np.sqrt(np.einsum("nmd,nmd->nd", W, W) / scale)
    else:
        S = np.matmul(np.swapaxes(W, 1, 2), W)
        S /= scale
        if root == "cholesky":
            L = np.linalg.cholesky(S)                                   # S = L L'
            v = np.linalg.solve(np.swapaxes(L, 1, 2), c[:, :, None])[:, :, 0]   # L' v = c
        else:
            values, vectors = np.linalg.eigh(S)                          # S^{-1/2} c
            v = np.einsum("ndk,nk->nd", vectors,
                          np.einsum("ndk,nd->nk", vectors, c) / np.sqrt(values))
    return np.einsum("nmd,nd->nm", W, v)


class MomentMatchingModel(_Fresh):
    """Moment matching (003, Alg. 1, Eq. 8), drawn afresh for every m: n x m x d Gaussian draws,
    centred and whitened as the sampler's ``moment_match`` does and projected on c = s u (u from
    ``direction``) by ``whitened_projections`` (the projection of the whitened rows, computed
    without whitening them). Options: ``root``, ``divisor``, ``singular`` as the sampler's.
    Theory: varlab's exact law (``theory.mm_moments``) for m >= d + 1; none for the fallback.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_moment_matching", k=[8, 32], dimension=4, scaled_distance=1.0,
    ...                      n_repetitions=200, random_state=0)
    >>> result.prefix                             # drawn afresh at every m
    False
    >>> result.theory["mse"].round(4)             # varlab's exact law, m >= d + 1
    array([[0.0051, 0.0021]])
    >>> mc.within(result.mse, result.theory["mse"], result.se_mse)
    array([[ True,  True]])
    """

    name = "mm_moment_matching"
    description = "003 MM: moment-matched frequencies (Alg. 1)"

    def __init__(self, features="complex", root="cholesky", divisor="m-1", singular="error",
                 direction="diagonal"):
        super().__init__(features, direction)
        self.root = _choice(root, "root", ROOTS)
        self.divisor = _choice(divisor, "divisor", DIVISORS)
        self.singular = _choice(singular, "singular", SINGULAR)

    def valid_k(self, k, *, dimension, scaled_distance):
        k = np.asarray(k)
        return k >= (dimension + 1 if self.singular == "error" else 2)

    def samples_per_block(self, *, dimension, scaled_distance):
        """n m d <= 2^21 numbers per block."""
        return max(1, 2 ** 21 // int(dimension))

    def theory(self, k, *, dimension, scaled_distance):
        k = np.asarray(k)
        if self.singular != "error" and np.any(k <= dimension):
            return {}
        moments = theory.mm_moments(scaled_distance, k, self.divisor, self.features)
        return {"variance": moments["variance"], "mse": moments["mse"]}

    def estimate(self, rng, n, k, workspace, *, dimension, scaled_distance):
        W = workspace.buffer("W", (n, k, dimension))
        rng.standard_normal(out=W)                    # Alg. 1, steps 2-3 (sigma = 1 w.l.o.g.)
        c = _direction(rng, n, dimension, self.direction) * scaled_distance
        t = whitened_projections(W, c, root=self.root, divisor=self.divisor, singular=self.singular)
        return self._estimates(rng, n, t)


class SobolModel(_Fresh):
    """Unscrambled Sobol frequencies (003, "Sobol"), a random block of the sequence per
    repetition (``varlab.features.samplers.qmc``). scipy's engine makes one sequence per call,
    so repetitions are a loop over the real sampler (O(m d) work in C each).

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_sobol", k=[8, 32], dimension=4, scaled_distance=1.0, n_repetitions=20,
    ...                      random_state=0)
    >>> result.target.round(4), result.theory
    (array([[0.6065, 0.6065]]), {})
    >>> result.mse.shape
    (1, 2)
    """

    name = "mm_sobol"
    description = "003 Sobol: Sobol points through the inverse normal CDF"
    sampler = "sobol"

    def samples_per_block(self, *, dimension, scaled_distance):
        if int(dimension) > _SOBOL_MAX_DIMENSION:       # refused before drawing, naming the model's parameter
            raise ValueError(f"dimension must be <= {_SOBOL_MAX_DIMENSION} for scipy's Sobol points "
                             f"(model {self.name!r}), got {int(dimension)}")
        return max(1, 2 ** 21 // int(dimension))

    def estimate(self, rng, n, k, workspace, *, dimension, scaled_distance):
        sampler = get_sampler(self.sampler)
        measure = spectral.Gaussian(1.0)
        c = _direction(rng, n, dimension, self.direction) * scaled_distance
        t = np.empty((n, k))
        for i in range(n):          # one scipy Sobol engine per repetition (see the docstring)
            t[i] = sampler.frequencies(measure, k, dimension, rng) @ c[i]
        return self._estimates(rng, n, t)


class ScrambledSobolModel(SobolModel):
    """Scrambled Sobol frequencies (003, "SSobol"); unbiased.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("mm_scrambled_sobol", k=[8, 32], dimension=4, scaled_distance=1.0,
    ...                      n_repetitions=50, random_state=0)
    >>> result.target.round(4)
    array([[0.6065, 0.6065]])
    >>> mc.within(result.mean, result.target, result.se_mean)
    array([[ True,  True]])
    """

    name = "mm_scrambled_sobol"
    description = "003 SSobol: scrambled Sobol points through the inverse normal CDF"
    sampler = "scrambled_sobol"
    unbiased = True
