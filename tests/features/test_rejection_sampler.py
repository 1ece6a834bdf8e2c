"""The paper's acceptance-rejection (002 §4, steps 1-4) as the registered sampler "rejection":
the same draws as the measures' rejection path, its acceptance rate against ||part|| / (c ||g||),
the law of its frequencies against the parts' closed-form transforms, and input checks."""
from __future__ import annotations

import math

import numpy as np
import pytest

from varlab import spectral
from varlab.features import AsKRFF
from varlab.features.samplers import available_samplers, get_sampler
from varlab.features.samplers.rejection import Rejection
from varlab.mc.stats import Z_MAX

PARTS = [(kernel, part) for kernel in ("shift_gaussian", "sinh_gaussian", "cosh_gaussian")
         for part in ("real_positive", "real_negative", "imaginary_positive", "imaginary_negative")
         if not (kernel == "sinh_gaussian" and part == "real_negative")]


def _part(kernel, part, method="exact", vector=(1.2, 0.0)):
    name = "shift" if kernel == "shift_gaussian" else "beta"
    return spectral.get_measure(kernel, lengthscale=1.0, method=method, **{name: list(vector)}).parts()[part]


def test_registered():
    assert available_samplers()["rejection"] is Rejection
    assert get_sampler("rejection").prefix_granularity == 1


@pytest.mark.parametrize("kernel, part", PARTS)
def test_same_draws_as_the_measures_rejection_path(kernel, part):
    W = get_sampler("rejection").frequencies(_part(kernel, part), 300, 2, random_state=3)
    np.testing.assert_array_equal(W, _part(kernel, part, method="rejection").rvs(300, 2, 3))


@pytest.mark.parametrize("kernel, part", PARTS)
def test_acceptance_rate_matches_theory(kernel, part):
    """m / proposals against E h(X) = ||part|| / (c ||g||): the number of proposals until the m-th
    acceptance is negative binomial, so the rate's SE is sqrt(p^2 (1 - p) / m) (delta method)."""
    measure, m = _part(kernel, part), 20_000
    _, proposals = get_sampler("rejection").draw(measure, m, 2, random_state=11)
    p = measure.acceptance_rate
    assert 0.0 < p <= 1.0
    se = math.sqrt(p * p * (1.0 - p) / m)
    assert abs(m / proposals - p) <= Z_MAX * se + 1e-12


@pytest.mark.parametrize("kernel, part", PARTS)
def test_law_matches_the_closed_form_transform(kernel, part):
    """E cos <w, z> (real parts) or E sin <w, z> (imaginary parts) within 4.5 SE at three z."""
    measure, m = _part(kernel, part), 20_000
    W = get_sampler("rejection").frequencies(measure, m, 2, random_state=5)
    z = np.array([[0.4, 0.1], [-0.9, 0.6], [1.5, -0.3]])
    trig, exact = ((np.cos, measure.kernel(z)) if part.startswith("real")
                   else (np.sin, measure.sine_kernel(z)))
    values = trig(W @ z.T)
    assert np.all(np.abs(values.mean(0) - exact) <= Z_MAX * values.std(0, ddof=1) / math.sqrt(m))


def test_gaussian_is_its_own_proposal():
    g = spectral.Gaussian(0.7)
    W, proposals = get_sampler("rejection").draw(g, 50, 3, random_state=2)
    assert proposals == 50
    np.testing.assert_array_equal(W, g.rvs(50, 3, 2))


def test_askrff_with_rejection_draws_the_samplers_frequencies():
    X = np.random.default_rng(0).random((4, 2))
    ask = AsKRFF(64, kernel="cosh_gaussian", gamma=0.5, beta=[1.2, 0.0], method="rejection",
                 random_state=9).fit(X)
    rng = np.random.default_rng(9)
    sampler = get_sampler("rejection")
    for part in ("real_positive", "real_negative", "imaginary_positive"):
        np.testing.assert_array_equal(ask.frequencies_[part], sampler.frequencies(
            _part("cosh_gaussian", part), 64, 2, rng))


def test_bad_input():
    sampler = get_sampler("rejection")
    with pytest.raises(TypeError, match="measure must be a GaussianProposal"):
        sampler.frequencies(spectral.get_measure("gaussian_mixture"), 5, 2)
    with pytest.raises(TypeError, match="GaussianProposal"):
        sampler.draw("gaussian", 5, 2)
    with pytest.raises(ValueError, match="d must equal"):
        sampler.frequencies(_part("shift_gaussian", "real_positive"), 5, 3)
    with pytest.raises(ValueError, match="m"):
        sampler.draw(_part("shift_gaussian", "real_positive"), 0, 2)
