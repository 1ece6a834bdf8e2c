"""Tests of varlab.features.samplers: the base class (validation, seeding, registration by
definition), get_sampler / available_samplers and the i.i.d. sampler. The statistical contract
over every registered sampler is in tests/features/test_feature_contract.py."""
from __future__ import annotations

import numpy as np
import pytest

from varlab import spectral
from varlab.features import samplers
from varlab.features.samplers import IID, Sampler, available_samplers, get_sampler


@pytest.fixture
def registry():
    """Restore the sampler registry after a test that defines samplers."""
    saved = dict(samplers._REGISTRY)
    yield samplers._REGISTRY
    samplers._REGISTRY.clear()
    samplers._REGISTRY.update(saved)


def test_iid_is_measure_rvs():
    g = spectral.Gaussian(0.5)
    W = IID().frequencies(g, 6, 3, random_state=4)
    np.testing.assert_array_equal(W, g.rvs(6, 3, 4))
    np.testing.assert_array_equal(W, np.random.default_rng(np.random.SeedSequence(4)).standard_normal((6, 3)) / 0.5)
    rng, reference = np.random.default_rng(1), np.random.default_rng(1)
    np.testing.assert_array_equal(IID().frequencies(g, 2, 2, rng), reference.standard_normal((2, 2)) / 0.5)
    np.testing.assert_array_equal(IID().frequencies(g, 2, 2, rng), reference.standard_normal((2, 2)) / 0.5)
    assert IID.name == "iid" and IID.prefix_granularity == 1 and IID().get_params() == {}
    assert repr(IID()) == "IID()" and IID() == IID() and hash(IID()) == hash(IID())


def test_get_sampler_and_available():
    assert available_samplers()["iid"] is IID
    assert list(available_samplers()) == sorted(available_samplers())
    assert isinstance(get_sampler("iid"), IID)
    instance = IID()
    assert get_sampler(instance) is instance
    with pytest.raises(TypeError, match="options.*instance"):
        get_sampler(instance, scale=2)
    with pytest.raises(ValueError, match=r"sampler must be one of \[.*'iid'"):
        get_sampler("sobol?")
    for bad in (None, 3, IID, ["iid"]):
        with pytest.raises(TypeError, match="sampler must be"):
            get_sampler(bad)
    with pytest.raises(TypeError, match=r"sampler 'iid' has no option\(s\) \['scale'\]; its options are \[\]"):
        get_sampler("iid", scale=2)


@pytest.mark.parametrize("m, d, error, name", [
    (0, 2, ValueError, "m"), (2.0, 2, TypeError, "m"), (True, 2, TypeError, "m"), (None, 2, TypeError, "m"),
    (2, 0, ValueError, "d"), (2, 2.5, TypeError, "d"), (2, [2], TypeError, "d"),
])
def test_bad_m_and_d(m, d, error, name):
    with pytest.raises(error, match=rf"^{name} must"):
        IID().frequencies(spectral.Gaussian(), m, d, 0)


def test_bad_measure_and_random_state():
    with pytest.raises(TypeError, match="measure must be a SpectralMeasure"):
        IID().frequencies("gaussian", 2, 2, 0)
    with pytest.raises(TypeError, match="measure must be a SpectralMeasure"):
        IID().frequencies(spectral.as_signed(spectral.Gaussian()), 2, 2, 0)
    with pytest.raises(TypeError, match="random_state"):
        IID().frequencies(spectral.Gaussian(), 2, 2, random_state=1.5)


def test_new_sampler_is_one_class_with_one_method(registry):
    """Registration by definition, options from __init__ (get/set_params, equality, repr), the
    measure type check, and the output check that catches a wrong shape or dtype."""

    class Scaled(Sampler, name="test_scaled"):
        prefix_granularity = 2

        def __init__(self, factor=1.0):
            self.factor = factor

        def _frequencies(self, measure, m, d, rng):
            return self.factor * measure.rvs(m, d, rng)

    assert available_samplers()["test_scaled"] is Scaled
    sampler = get_sampler("test_scaled", factor=3.0)
    assert sampler.get_params() == {"factor": 3.0} and repr(sampler) == "Scaled(factor=3.0)"
    assert sampler == Scaled(3.0) and sampler != Scaled(2.0) and sampler != IID()
    np.testing.assert_array_equal(sampler.frequencies(spectral.Gaussian(), 4, 2, 0),
                                  3.0 * spectral.Gaussian().rvs(4, 2, 0))
    assert sampler.set_params(factor=1.0) is sampler and sampler.factor == 1.0

    class RadialOnly(Sampler, name="test_radial_only"):
        measure_type = spectral.RadialMeasure

        def _frequencies(self, measure, m, d, rng):
            return measure.rvs(m, d, rng)

    class AnyMeasure(spectral.SpectralMeasure):
        def _rvs(self, n, d, rng):
            return rng.standard_normal((n, d))

    with pytest.raises(TypeError, match="measure must be a RadialMeasure for sampler 'test_radial_only'"):
        RadialOnly().frequencies(AnyMeasure(), 2, 2, 0)

    class Broken(Sampler, name="test_broken"):
        def _frequencies(self, measure, m, d, rng):
            return np.zeros((m, d), dtype=np.float32)

    with pytest.raises(RuntimeError, match="expected float64 of shape"):
        Broken().frequencies(spectral.Gaussian(), 2, 2, 0)

    with pytest.raises(ValueError, match="already registered"):
        class Other(Sampler, name="iid"):
            pass
    with pytest.raises(ValueError, match="non-empty string"):
        class Unnamed(Sampler, name=""):
            pass


def test_unregistered_sampler_instances_work(registry):
    class Plain(Sampler):
        def _frequencies(self, measure, m, d, rng):
            return measure.rvs(m, d, rng)

    assert Plain.name is None and Plain not in available_samplers().values()
    assert Plain().frequencies(spectral.Gaussian(), 3, 1, 0).shape == (3, 1)
