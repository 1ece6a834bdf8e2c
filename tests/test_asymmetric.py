"""Paper 002 (AsK-RFF): masses vs mpmath quadrature, Cor. 5, samplers (KS), maps, Eq. (12)."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import scipy.stats

from varlab import spectral
from varlab.features import AsKRFF
from varlab.features.asymmetric import asymmetric_gram, estimate_total_masses
from varlab.spectral.asymmetric import _phase_exact
from varlab.theory import asymmetric as theory


def _quad_mass(s, h):
    f = {"cos+": lambda x: max(mpmath.cos(x), 0), "cos-": lambda x: max(-mpmath.cos(x), 0),
         "sin+": lambda x: max(mpmath.sin(x), 0)}[h]
    points = [k * mpmath.pi / 2 for k in range(-int(16 * s / 1.57) - 2, int(16 * s / 1.57) + 3)]
    with mpmath.workdps(25):
        return mpmath.quad(lambda x: f(x) * mpmath.npdf(x, 0, s), points)


@pytest.mark.parametrize("s", [0.3, 1.0, 2.0, 4.0])
@pytest.mark.parametrize("h, formula", [("cos+", theory.cos_positive_mass), ("cos-", theory.cos_negative_mass),
                                        ("sin+", theory.sin_positive_mass)])
def test_masses_against_direct_quadrature(s, h, formula):
    assert abs(formula(spread=s) - float(_quad_mass(s, h))) <= 1e-10 * float(_quad_mass(s, h))


@pytest.mark.parametrize("kernel, kw", [("shift_gaussian", {"shift": [0.7, -0.2]}),
                                        ("sinh_gaussian", {"beta": [0.3, 0.4]}),
                                        ("cosh_gaussian", {"beta": [0.3, 0.4]})])
def test_corollary5_and_kernel_from_parts(kernel, kw):
    mu = spectral.get_measure(kernel, sigma=1.5, **kw)
    m = mu.total_masses()
    k0 = float(mu.exact_kernel(np.zeros(2)))
    assert abs(m["real_positive"] - m["real_negative"] - k0) < 1e-13
    assert m["imaginary_positive"] == m["imaginary_negative"]
    z = np.random.default_rng(0).normal(size=(20, 2))
    np.testing.assert_allclose(mu.kernel(z), mu.exact_kernel(z), atol=1e-13)


@pytest.mark.parametrize("h", ["cos+", "cos-", "sin+", "sin-"])
@pytest.mark.parametrize("s", [0.4, 3.0])
def test_exact_phase_sampler_ks(h, s):
    x = _phase_exact(h, s, 4000, np.random.default_rng(1))
    grid = np.linspace(-14 * s - 4, 14 * s + 4, 40001)
    dens = {"cos+": np.maximum(np.cos(grid), 0), "cos-": np.maximum(-np.cos(grid), 0),
            "sin+": np.maximum(np.sin(grid), 0), "sin-": np.maximum(-np.sin(grid), 0)}[h]
    dens = dens * np.exp(-0.5 * (grid / s) ** 2)
    cdf = np.concatenate([[0], np.cumsum(0.5 * (dens[1:] + dens[:-1]) * np.diff(grid))])
    cdf /= cdf[-1]
    assert scipy.stats.kstest(x, lambda u: np.interp(u, grid, cdf)).pvalue > 1e-4


def test_maps_shapes_errors_and_reproducibility():
    X = np.random.default_rng(0).random((30, 3))
    ask = AsKRFF("cosh_gaussian", n_components=64, sigma=2.0, beta=0.4, random_state=3).fit(X)
    assert ask.left(X).shape == (30, 384) and ask.right(X).shape == (30, 384)
    assert ask.concatenated(X).shape == (30, 512)
    np.testing.assert_array_equal(ask.gram(X), AsKRFF("cosh_gaussian", n_components=64, sigma=2.0,
                                                      beta=0.4, random_state=3).fit(X).gram(X))
    with pytest.raises(ValueError, match="shift is not a parameter"):
        AsKRFF("cosh_gaussian", beta=0.4, shift=1.0).fit(X)
    with pytest.raises(ValueError, match="kernel must be one of"):
        AsKRFF("laplace", beta=0.4).fit(X)
    with pytest.raises(ValueError, match="sigma"):
        AsKRFF("shift_gaussian", sigma=-1.0, shift=0.1).fit(X)


def test_gram_converges_and_eq12_recovers_masses():
    X = np.random.default_rng(0).random((60, 2))
    ask = AsKRFF("shift_gaussian", n_components=8192, sigma=1.0, shift=0.8, random_state=0).fit(X)
    K = asymmetric_gram("shift_gaussian", X, X, 1.0, ask.vector_)
    assert np.linalg.norm(ask.gram(X) - K) / np.linalg.norm(K) < 0.03
    est = estimate_total_masses(ask, X[:40])
    exact = ask.measure_.total_masses()
    assert abs(est["imaginary_positive"] - exact["imaginary_positive"]) < 0.05
    assert estimate_total_masses(ask, X[:40], printed_sign=True)["imaginary_positive"] < 1e-6


def test_rejection_acceptance_matches_theory():
    mu = spectral.get_measure("cosh_gaussian", sigma=1.0, beta=[1.2, 0.0])
    part = mu.parts()["real_negative"]
    _, proposals = part.rejection_rvs(4000, 2, 5)
    rate = 4000 / proposals
    assert abs(rate - part.acceptance_rate) < 4.5 * math.sqrt(part.acceptance_rate / proposals)
