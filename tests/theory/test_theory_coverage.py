"""Paths of the theory and spectral layers that planted bugs showed untested (issue 22): 002's
Proposition 6 helpers against draws of the parts, and a Gaussian mixture with several components
against its kernel and second moment. Statistical checks: fixed seeds, tolerances of Z_MAX standard
errors."""
import math

import numpy as np
import pytest

from varlab.mc import Z_MAX
from varlab.spectral.asymmetric import ProjectedPart
from varlab.spectral.signed import GaussianMixture
from varlab.theory import asymmetric

N = 50_000


def _mean_and_se(values):
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(values.size))


@pytest.mark.parametrize("kernel, part", [("shift_gaussian", "real_positive"), ("shift_gaussian", "real_negative"),
                                          ("shift_gaussian", "imaginary_positive"), ("cosh_gaussian", "real_positive")])
def test_part_second_moment_is_the_mean_squared_norm_of_the_part(kernel, part):
    """E_part |w|^2 = (d - 1)/sigma^2 + E_h[X^2]/(s sigma)^2 against n draws of the part (d = 3)."""
    d, sigma, spread = 3, 2.0, 1.3
    h = asymmetric.part_h(kernel, part)
    measure = ProjectedPart(lengthscale=sigma, c=(spread * sigma, 0.0, 0.0), h=h)
    w = measure.rvs(N, d, random_state=20260522)
    mean, se = _mean_and_se(np.sum(w * w, axis=1))
    expected = asymmetric.part_second_moment(kernel, part, spread, sigma, d)
    assert abs(mean - expected) <= Z_MAX * se, (mean, expected, se)


def test_prop6_features_from_the_sampled_moments():
    """Prop. 6's M (002) rebuilt from its printed form with sigma_mu^2 = m+ + m- + 2 m_I estimated
    from draws of each part (the second moments are the only quantity not in closed form)."""
    kernel, spread, sigma, d, epsilon, delta, diameter = "shift_gaussian", 1.3, 2.0, 3, 0.1, 0.1, 2.0
    M, details = asymmetric.prop6_features(kernel, spread, sigma, d, epsilon, delta, diameter)
    weights = {"real_positive": 1.0, "real_negative": 1.0, "imaginary_positive": 2.0}
    estimate, variance = 0.0, 0.0
    for seed, (part, weight) in enumerate(weights.items()):
        measure = ProjectedPart(lengthscale=sigma, c=(spread * sigma, 0.0, 0.0), h=asymmetric.part_h(kernel, part))
        mean, se = _mean_and_se(np.sum(measure.rvs(N, d, random_state=seed) ** 2, axis=1))
        estimate, variance = estimate + weight * mean, variance + (weight * se) ** 2
    assert abs(details["sigma_mu2"] - estimate) <= Z_MAX * math.sqrt(variance)
    masses = asymmetric.kernel_masses(kernel, spread)
    rp, rn, ip = masses["real_positive"], masses["real_negative"], masses["imaginary_positive"]
    alpha = math.sqrt((rp ** 2 + rn ** 2 + 2 * ip ** 2) * details["sigma_mu2"])
    beta = ((d / 2) ** (-d / (d + 2)) + (d / 2) ** (2 / (d + 2))) * 2 ** ((6 * d + 2) / (d + 2))
    printed = 4 * (d + 2) * (rp + rn + 2 * ip) ** 2 / epsilon ** 2 * (
        math.log(beta / delta) + 2 * d / (d + 2) * math.log(alpha * diameter / epsilon))
    assert M == pytest.approx(printed, rel=1e-12)


def test_gaussian_mixture_with_several_components_draws_each_with_its_weight():
    """sum_i c_i N(0, I/sigma_i^2): the draws' E|w|^2 = d sum_i c_i/sigma_i^2 and E cos<w, z> = k(z)
    (which weigh the components by c_i), within Z_MAX standard errors."""
    d = 2
    mixture = GaussianMixture(weights=(2.0, 5.0, 3.0), lengthscales=(0.5, 1.0, 3.0))
    c = np.array([0.2, 0.5, 0.3])
    w = mixture.rvs(N, d, random_state=7)
    mean, se = _mean_and_se(np.sum(w * w, axis=1))
    assert abs(mean - d * np.sum(c / np.array([0.5, 1.0, 3.0]) ** 2)) <= Z_MAX * se
    for r in (0.3, 1.0, 2.5):
        z = np.array([r, 0.0])
        mean, se = _mean_and_se(np.cos(w @ z))
        assert abs(mean - float(mixture.kernel(z))) <= Z_MAX * se, r
