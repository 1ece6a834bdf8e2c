"""Tests of varlab.spectral: the Gaussian measure (003 Eq. 3; 000 Eq. 14-15), signed (004; 002
Thm 3) and complex (002 Eq. 1-2, Prop. 4) measures, validation and the registry. The statistical
contract over every registered measure is in tests/features/test_feature_contract.py."""
from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats

from varlab import spectral
from varlab.spectral import ComplexMeasure, Gaussian, SignedMeasure, SpectralMeasure


class ShiftedGaussian(SpectralMeasure):
    """Test-only asymmetric measure (not registered): w ~ N(mu, I / b^2), so that
    E cos<w, z> = cos<mu, z> exp(-|z|^2 / 2b^2) and E sin<w, z> = sin<mu, z> exp(-|z|^2 / 2b^2)."""

    symmetric = False

    def __init__(self, mu, bandwidth=1.0):
        super().__init__(mu=tuple(mu), bandwidth=bandwidth)
        self.mu, self.bandwidth = np.asarray(mu, float), bandwidth

    def _rvs(self, n, d, rng):
        return self.mu + rng.standard_normal((n, d)) / self.bandwidth

    def _envelope(self, z):
        return np.exp(-0.5 * np.sum(z * z, axis=-1) / self.bandwidth**2)

    def _kernel(self, z):
        return np.cos(z @ self.mu) * self._envelope(z)

    def _sine_kernel(self, z):
        return np.sin(z @ self.mu) * self._envelope(z)


# -- the Gaussian ---------------------------------------------------------------------------------
@pytest.mark.parametrize("bandwidth", [0.3, 1.0, 4.0])
def test_gaussian_kernel_formula_and_broadcasting(bandwidth):
    z = np.random.default_rng(0).standard_normal((4, 5, 3))
    g = Gaussian(bandwidth)
    expected = np.exp(-np.sum(z**2, axis=-1) / (2 * bandwidth**2))
    np.testing.assert_allclose(g.kernel(z), expected, rtol=1e-14)
    assert g.kernel(z).shape == (4, 5)
    assert g.kernel([0.0, 0.0]) == 1.0
    np.testing.assert_allclose(g.kernel_of_distance(np.linalg.norm(z, axis=-1)), expected, rtol=1e-14)
    np.testing.assert_allclose(g.kernel_of_distance([0.5, 1.0], d=7), np.exp(-np.array([0.25, 1.0]) /
                                                                             (2 * bandwidth**2)), rtol=1e-15)


def test_gaussian_kernel_without_overflow_or_underflow():
    """|z| is computed from rescaled entries: huge and tiny z of the bandwidth's size give exp(-1)."""
    for scale in (1e-200, 1e-150, 1.0, 1e150, 1e200):
        g = Gaussian(scale)
        np.testing.assert_allclose(g.kernel([scale, scale]), math.exp(-1.0), rtol=1e-14)
        np.testing.assert_allclose(g.kernel_of_distance(math.sqrt(2) * scale), math.exp(-1.0), rtol=1e-14)
    assert Gaussian(1.0).kernel([1e300, 1e300]) == 0.0
    assert Gaussian(1e-300).kernel([1.0]) == 0.0
    assert Gaussian(1.0).kernel([1e-300]) == 1.0


def test_gaussian_rvs_is_exactly_standard_normal_over_bandwidth():
    g = Gaussian(0.25)
    rng = np.random.default_rng(3)
    reference = np.random.default_rng(3)
    first = g.rvs(7, 4, rng)                      # a Generator is used directly and advances
    np.testing.assert_array_equal(first, reference.standard_normal((7, 4)) / 0.25)
    np.testing.assert_array_equal(g.rvs(2, 3, rng), reference.standard_normal((2, 3)) / 0.25)
    assert first.dtype == np.float64 and first.flags.c_contiguous
    # int and SeedSequence seeds: numpy's default_rng(SeedSequence(seed))
    expected = np.random.default_rng(np.random.SeedSequence(9)).standard_normal((5, 2)) / 0.25
    np.testing.assert_array_equal(g.rvs(5, 2, 9), expected)
    np.testing.assert_array_equal(g.rvs(5, 2, np.random.SeedSequence(9)), expected)
    np.testing.assert_array_equal(g.rvs(np.int64(5), np.uint8(2), 9), expected)


def test_gaussian_density_and_norm_law():
    g = Gaussian(0.7)
    w = np.random.default_rng(1).standard_normal((6, 3))
    reference = scipy.stats.multivariate_normal(np.zeros(3), np.eye(3) / 0.7**2)
    np.testing.assert_allclose(g.density(w), reference.pdf(w), rtol=1e-13)
    np.testing.assert_allclose(g.logdensity(w), reference.logpdf(w), rtol=1e-13)
    np.testing.assert_allclose(g.density([[0.4]]), scipy.stats.norm(scale=1 / 0.7).pdf(0.4), rtol=1e-14)
    # far tails: the log density stays finite where the density underflows to 0
    np.testing.assert_allclose(g.logdensity([1e100, 0.0]), 2 * math.log(0.7 / math.sqrt(2 * math.pi))
                               - 0.5 * (0.7e100) ** 2, rtol=1e-14)
    assert g.density([1e200, 0.0]) == 0.0
    law = g.norm_law(5)
    assert law.dist.name == "chi" and law.args == (5,) and law.kwds["scale"] == pytest.approx(1 / 0.7)
    np.testing.assert_allclose(law.mean() ** 2 + law.var(), 5 / 0.7**2, rtol=1e-12)  # E|w|^2 = d / b^2


def test_parameters_repr_equality():
    g = Gaussian(2)
    assert g.name == "gaussian" and g.parameters() == {"lengthscale": 2.0}
    assert isinstance(g.parameters()["lengthscale"], float)
    assert g == Gaussian(2.0) and g != Gaussian(3.0) and hash(g) == hash(Gaussian(2.0))
    assert repr(g) == "Gaussian(lengthscale=2.0)"
    assert Gaussian(**g.parameters()) == g
    assert Gaussian().lengthscale == 1.0 and Gaussian(3.0).bandwidth == 3.0


@pytest.mark.parametrize("name, old, value, lengthscale", [("gaussian", "bandwidth", 2.0, 2.0),
                                                           ("laplacian", "gamma", 4.0, 0.25)])
def test_old_scale_keywords_are_deprecated_aliases_of_lengthscale(name, old, value, lengthscale):
    """One name for the scale in every measure (issue 32): the old keyword still works, warns."""
    with pytest.warns(DeprecationWarning, match=f"{old}= is deprecated"):
        measure = spectral.get_measure(name, **{old: value})
    assert measure == spectral.get_measure(name, lengthscale=lengthscale)


# -- validation -------------------------------------------------------------------------------------
@pytest.mark.parametrize("bandwidth, error", [
    (0.0, ValueError), (-1.0, ValueError), (np.nan, ValueError), (np.inf, ValueError),
    ("1", TypeError), (True, TypeError), ([1.0, 2.0], TypeError), (None, TypeError), (1j, TypeError),
    (1e-310, ValueError),     # 1/bandwidth overflows: frequencies would be inf
])
def test_bad_bandwidth(bandwidth, error):
    with pytest.raises(error, match="lengthscale"):
        Gaussian(bandwidth)


@pytest.mark.parametrize("n, d, error, name", [
    (0, 2, ValueError, "n"), (-1, 2, ValueError, "n"), (2.0, 2, TypeError, "n"), (True, 2, TypeError, "n"),
    ([2, 3], 2, TypeError, "n"), ("2", 2, TypeError, "n"),
    (2, 0, ValueError, "d"), (2, 1.5, TypeError, "d"), (2, None, TypeError, "d"), (2, np.array([2]), TypeError, "d"),
])
def test_bad_n_and_d(n, d, error, name):
    with pytest.raises(error, match=rf"^{name} must"):
        Gaussian().rvs(n, d, 0)


def test_bad_points_and_distances():
    g = Gaussian()
    with pytest.raises(ValueError, match="z must have shape"):
        g.kernel(1.0)
    with pytest.raises(ValueError, match="z must have shape"):
        g.kernel(np.zeros((3, 0)))
    with pytest.raises(ValueError, match="z must be finite"):
        g.kernel([np.nan, 1.0])
    with pytest.raises(TypeError, match="z must be a real"):
        g.kernel(["a"])
    with pytest.raises(ValueError, match="w must be finite"):
        g.density([np.inf])
    with pytest.raises(ValueError, match="r must be in"):
        g.kernel_of_distance(-1.0)
    with pytest.raises(ValueError, match="^d must"):
        g.norm_law(0)
    with pytest.raises(TypeError, match="random_state"):
        g.rvs(2, 2, "seed")


def test_density_absent_raises():
    with pytest.raises(NotImplementedError, match="no density"):
        ShiftedGaussian([1.0]).density([0.0])


# -- signed and complex measures ---------------------------------------------------------------------
def test_gaussian_as_signed_and_complex():
    g = Gaussian(1.5)
    s = spectral.as_signed(g)
    assert isinstance(s, SignedMeasure) and s.kind == "signed"
    assert s.parts() == {"positive": g, "negative": None}
    assert s.total_masses() == {"positive": 1.0, "negative": 0.0} and s.total_mass() == 1.0
    z = np.random.default_rng(0).standard_normal((5, 3))
    np.testing.assert_array_equal(s.kernel(z), g.kernel(z))
    np.testing.assert_array_equal(s.rvs_part("positive", 4, 3, 7), g.rvs(4, 3, 7))
    with pytest.raises(ValueError, match="'negative'.*empty"):
        s.rvs_part("negative", 4, 3, 7)
    with pytest.raises(ValueError, match="part must be one of"):
        s.rvs_part("real_positive", 4, 3, 7)
    assert spectral.as_signed(s) is s

    c = spectral.as_complex(g)
    assert isinstance(c, ComplexMeasure) and c.kind == "complex"
    assert list(c.parts()) == ["real_positive", "real_negative", "imaginary_positive", "imaginary_negative"]
    assert c.parts()["real_positive"] == g and c.total_masses() == {
        "real_positive": 1.0, "real_negative": 0.0, "imaginary_positive": 0.0, "imaginary_negative": 0.0}
    np.testing.assert_array_equal(c.kernel(z), g.kernel(z))
    np.testing.assert_array_equal(c.rvs_part("real_positive", 4, 3, 7), g.rvs(4, 3, 7))
    assert spectral.as_complex(s) == c and spectral.as_complex(c) is c
    with pytest.raises(TypeError, match="measure"):
        spectral.as_signed(np.exp)
    with pytest.raises(TypeError, match="measure"):
        spectral.as_complex("gaussian")


def test_signed_measure_difference_of_gaussians():
    """k(z) = ||mu+|| k+(z) - ||mu-|| k-(z) (Jordan decomposition, 004), checked against the
    closed form and against a Monte Carlo estimate from rvs_part within 4.5 SE."""
    pos, neg = Gaussian(1.0), Gaussian(3.0)
    s = SignedMeasure(pos, neg, masses={"positive": 2.0, "negative": 1.0})
    z = np.array([[0.0, 0.0], [0.5, 0.2], [1.0, -1.0], [2.0, 0.5]])
    expected = 2.0 * np.exp(-np.sum(z**2, 1) / 2) - np.exp(-np.sum(z**2, 1) / 18)
    np.testing.assert_allclose(s.kernel(z), expected, rtol=1e-14)
    assert s.total_mass() == 3.0
    n = 40_000
    estimate, variance = np.zeros(len(z)), np.zeros(len(z))
    for i, (part, sign) in enumerate((("positive", 1.0), ("negative", -1.0))):
        cosines = np.cos(s.rvs_part(part, n, 2, 100 + i) @ z.T)
        mass = s.total_masses()[part]
        estimate += sign * mass * cosines.mean(axis=0)
        variance += mass**2 * cosines.var(axis=0, ddof=1) / n
    assert np.all(np.abs(estimate - expected) <= 4.5 * np.sqrt(variance) + 1e-15)


def test_complex_measure_with_asymmetric_parts():
    """002, Prop. 4: k = |R+| E cos - |R-| E cos - |I+| E sin + |I-| E sin. With the imaginary
    parts mirror images (mu_I+(-w) = mu_I-(w), 002 Eq. 3), the kernel is that of a real measure
    plus an odd part; checked in closed form and by Monte Carlo from rvs_part within 4.5 SE."""
    mu = np.array([1.0, -0.5])
    parts = dict(real_positive=Gaussian(1.0), real_negative=Gaussian(2.0),
                 imaginary_positive=ShiftedGaussian(mu, 1.5), imaginary_negative=ShiftedGaussian(-mu, 1.5))
    masses = dict(real_positive=1.5, real_negative=0.5, imaginary_positive=0.3, imaginary_negative=0.3)
    c = ComplexMeasure(**parts, masses=masses)
    z = np.array([[0.0, 0.0], [0.3, 0.4], [1.0, 1.0], [-0.7, 0.2]])
    sq = np.sum(z**2, 1)
    envelope = np.exp(-sq / (2 * 1.5**2))
    expected = (1.5 * np.exp(-sq / 2) - 0.5 * np.exp(-sq / 8)
                - 0.3 * np.sin(z @ mu) * envelope + 0.3 * np.sin(z @ -mu) * envelope)
    np.testing.assert_allclose(c.kernel(z), expected, rtol=1e-13, atol=1e-16)
    assert c.kernel(z[1]) != c.kernel(-z[1])          # asymmetric: k(z) != k(-z)
    assert c.total_mass() == pytest.approx(2.6)
    n = 40_000
    estimate, variance = np.zeros(len(z)), np.zeros(len(z))
    signs = {"real_positive": (1, np.cos), "real_negative": (-1, np.cos),
             "imaginary_positive": (-1, np.sin), "imaginary_negative": (1, np.sin)}
    for i, (part, (sign, f)) in enumerate(signs.items()):
        values = f(c.rvs_part(part, n, 2, 200 + i) @ z.T)
        estimate += sign * masses[part] * values.mean(axis=0)
        variance += masses[part] ** 2 * values.var(axis=0, ddof=1) / n
    assert np.all(np.abs(estimate - expected) <= 4.5 * np.sqrt(variance) + 1e-15)


def test_parted_measure_validation():
    g = Gaussian()
    with pytest.raises(TypeError, match="positive must be a SpectralMeasure"):
        SignedMeasure("gaussian")
    with pytest.raises(ValueError, match=r"masses\['negative'\] must be 0"):
        SignedMeasure(g, None, masses={"negative": 1.0})
    with pytest.raises(ValueError, match=r"masses\['positive'\] must be in"):
        SignedMeasure(g, masses={"positive": -1.0})
    with pytest.raises(ValueError, match=r"masses\['positive'\] must be finite"):
        SignedMeasure(g, masses={"positive": np.inf})
    with pytest.raises(ValueError, match="unknown parts"):
        SignedMeasure(g, masses={"real_positive": 1.0})
    with pytest.raises(TypeError, match="masses must be a mapping"):
        SignedMeasure(g, masses=[1.0])
    with pytest.raises(ValueError, match="at least one part"):
        SignedMeasure(g, masses={"positive": 0.0})
    with pytest.raises(TypeError, match="imaginary_negative must be"):
        ComplexMeasure(g, imaginary_negative=3)
    s = SignedMeasure(g, Gaussian(2.0))
    assert s.total_masses() == {"positive": 1.0, "negative": 1.0}   # default: 1 per given part
    assert s == SignedMeasure(Gaussian(1.0), Gaussian(2.0)) and hash(s) == hash(SignedMeasure(g, Gaussian(2.0)))
    assert s.parameters()["positive"] == ("gaussian", {"lengthscale": 1.0})
    assert "SignedMeasure(positive=Gaussian(lengthscale=1.0)" in repr(s)
    with pytest.raises(ValueError, match="z must be finite"):
        s.kernel([np.nan])


# -- registry ------------------------------------------------------------------------------------------
def test_registry():
    assert spectral.measures()["gaussian"] is Gaussian
    assert "gaussian" in spectral.measures(kind="probability")
    assert spectral.measures(kind="signed") == {k: v for k, v in spectral.measures().items() if v.kind == "signed"}
    for name, cls in spectral.measures().items():
        assert cls.name == name
        cls()                                             # constructible with defaults
    assert spectral.get_measure("gaussian", lengthscale=2.0) == Gaussian(2.0)
    with pytest.raises(ValueError, match="name must be one of"):
        spectral.get_measure("laplace")
    with pytest.raises(TypeError, match="name must be a string"):
        spectral.get_measure(Gaussian)
    with pytest.raises(ValueError, match="kind must be one of"):
        spectral.measures(kind="real")
    before = spectral.measures()
    with pytest.raises(ValueError, match="already registered"):
        class Impostor(SpectralMeasure, name="gaussian"):
            pass
    assert spectral.measures() == before


def test_density_beyond_float64_is_a_value_error():
    """Gaussian(1e308).density(0) in d = 3 returned inf (the density is (1e308^2/2pi)^{3/2});
    it now refuses naming w and points to logdensity, which is finite."""
    g = Gaussian(1e308)
    with pytest.raises(ValueError, match=r"at w overflows float64 .*use logdensity"):
        g.density(np.zeros((1, 3)))
    np.testing.assert_allclose(g.logdensity(np.zeros((1, 3))), 3 * (math.log(1e308) - 0.5 * math.log(2 * math.pi)),
                               rtol=1e-15)
    # exp of a log density near 709: relative rounding about 709 * 2^-52
    np.testing.assert_allclose(g.density(np.zeros((1, 1))), 1e308 / math.sqrt(2 * math.pi), rtol=1e-13)
    assert Gaussian(1.0).density([[1e200, 0.0]])[0] == 0.0
