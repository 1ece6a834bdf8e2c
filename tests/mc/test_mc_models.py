"""Models: registry by definition, the model contract, shared draws through the samplers, the
feature-map models, and a model with its own declared parameters that is not a prefix estimator."""
import textwrap

import numpy as np
import pytest

from varlab import mc
from varlab.mc import Model, Workspace, available_models, get_model, register, simulate
from varlab.mc import models as models_module
from varlab.mc.models.rff import (NRFFModel, RFFModel, RFFNoPhaseModel, correlated_unit_vectors)


def test_builtin_models_are_registered_by_definition():
    assert {"rff", "rff_no_phase", "nrff", "gcws_rbf", "gcws_rbf_hashed", "rff_feature_map",
            "nrff_feature_map", "rff_no_phase_feature_map"} <= set(available_models())
    assert isinstance(get_model("nrff"), NRFFModel)
    model = RFFModel()
    assert get_model(model) is model


def test_register_rejects_a_second_class_under_a_taken_name():
    with pytest.raises(ValueError, match="already registered"):
        type("Impostor", (Model,), {"name": "rff", "__module__": "somewhere_else"})
    with pytest.raises(ValueError, match="name"):
        register(RFFModel, name="")


def sample_terms(model, seed, n=4, k=50, rho=0.3, gamma=1.5):
    out = np.empty((model.n_terms, n, k))
    model.sample(np.random.default_rng(seed), n, k, out, Workspace(), rho=rho, gamma=gamma)
    return out


def test_rff_family_shares_draws():
    """Same generator state -> same (x, y, w): NRFF's cross term equals RFF's term."""
    np.testing.assert_array_equal(sample_terms(NRFFModel(), 3)[1], sample_terms(RFFModel(), 3)[0])


def test_rff_terms_are_the_papers_products_from_the_sampler_draws():
    """Recompute X = sqrt2 cos(sqrt(gamma) x + w) from the same draws (the iid Gaussian sampler:
    an (n k, 2) standard normal matrix scaled by sqrt(gamma), then the phase) in the paper's form."""
    n, k, rho, gamma = 3, 40, -0.4, 2.0
    rng = np.random.default_rng(12)
    w = rng.standard_normal((n * k, 2)) * np.sqrt(gamma)
    phase = 2 * np.pi * rng.random((n, k))
    x = w[:, 0].reshape(n, k)
    y = (rho * w[:, 0] + np.sqrt(1 - rho ** 2) * w[:, 1]).reshape(n, k)
    X = np.sqrt(2) * np.cos(x + phase)
    Y = np.sqrt(2) * np.cos(y + phase)
    terms = sample_terms(NRFFModel(), 12, n, k, rho, gamma)
    np.testing.assert_allclose(2 * terms[0], X * X, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(2 * terms[1], X * Y, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(2 * terms[2], Y * Y, rtol=1e-9, atol=1e-12)
    sums = np.cumsum(terms, axis=2)[:, :, [0, 9, 39]].transpose(0, 2, 1)
    kk = np.array([1.0, 10.0, 40.0])[:, None]
    nrff = NRFFModel().combine(sums, kk, rho=rho, gamma=gamma)
    expected = (np.cumsum(X * Y, 1) / np.sqrt(np.cumsum(X * X, 1) * np.cumsum(Y * Y, 1)))[:, [0, 9, 39]].T
    np.testing.assert_allclose(nrff, expected, rtol=1e-9)


def test_no_phase_terms():
    n, k, rho, gamma = 2, 30, 0.6, 0.7
    rng = np.random.default_rng(1)
    w = rng.standard_normal((n * k, 2)) * np.sqrt(gamma)
    x = w[:, 0].reshape(n, k)
    y = (rho * w[:, 0] + np.sqrt(1 - rho ** 2) * w[:, 1]).reshape(n, k)
    terms = sample_terms(RFFNoPhaseModel(), 1, n, k, rho, gamma)
    np.testing.assert_allclose(terms[0], np.cos(x) * np.cos(y), rtol=1e-9, atol=1e-12)


# --- a new family in one file: declared parameters, a fresh (non-prefix) estimator --------------

class NormalizedGaussianKernelEstimate(Model):
    """k(z) = exp(-|z|^2 / 2) in R^dimension estimated by the *normalised* RFF estimator with m = k
    frequencies drawn afresh for every k (a non-prefix model, as moment matching is)."""

    name = "test_normalized_gaussian"
    parameters = ("dimension", "distance")
    prefix = False

    def __init__(self, bandwidth=1.0):
        self.bandwidth = bandwidth

    def target(self, dimension, distance):
        return np.exp(-np.asarray(distance, float) ** 2 / (2 * self.bandwidth ** 2))

    def estimate(self, rng, n, k, workspace, *, dimension, distance):
        from varlab import spectral
        from varlab.features.samplers import get_sampler

        w = get_sampler("iid").frequencies(spectral.Gaussian(lengthscale=self.bandwidth), n * k,
                                           dimension, rng)
        z = np.zeros(dimension)
        z[0] = distance
        angle = (w @ z).reshape(n, k)
        phase = rng.uniform(0, 2 * np.pi, (n, k))
        X, Y = np.cos(phase), np.cos(angle + phase)
        return (X * Y).sum(1) / np.sqrt((X * X).sum(1) * (Y * Y).sum(1))


def test_a_model_with_its_own_parameters_and_fresh_draws_per_k():
    assert "test_normalized_gaussian" in available_models()
    kw = dict(k=[2, 50, 400], dimension=[2, 5], distance=[[0.5], [1.0]], n_repetitions=3000,
              random_state=7, bandwidth=1.5)
    result = simulate("test_normalized_gaussian", **kw)
    assert result.shape == (2, 2) and result.parameters == ("dimension", "distance")
    np.testing.assert_array_equal(result.grid["dimension"], [2, 5, 2, 5])
    np.testing.assert_array_equal(result.grid["distance"], [0.5, 0.5, 1.0, 1.0])
    assert result.grid["dimension"].dtype == np.int64 and result.options == {"bandwidth": 1.5}
    assert not result.prefix and result.block_repetitions.shape == (4, 3)
    # a normalised ratio is biased at small k but consistent: at k = 400 its bias is O(1/k)
    assert np.all(np.abs(result.bias[:, -1]) < 0.01)
    # the variance shrinks like 1/k (fresh draws per k, independent across k)
    assert np.all(result.variance[:, 0] > 10 * result.variance[:, -1])
    # bit-identical across parallel settings; k's seeds do not depend on the other k's
    other = simulate("test_normalized_gaussian", n_jobs=2, backend="threading", chunk_size=1, **kw)
    assert other == result
    alone = simulate("test_normalized_gaussian", **{**kw, "k": [2, 50]})
    np.testing.assert_array_equal(alone.mean, result.mean[:, :2])
    assert result.select(dimension=5, distance=1.0).n_points == 1


class BlockOf3(Model):
    """Prefix model whose prefixes are valid at multiples of 3 only."""

    name = "test_block_of_three"
    parameters = ("distance",)
    unbiased = True

    def granularity(self, *, distance):
        return 3

    def target(self, distance):
        return np.asarray(distance, float)

    def sample(self, rng, n, k, out, workspace, *, distance):
        assert k % 3 == 0
        rng.standard_normal(out=out[0])
        out[0] += distance

    def combine(self, sums, k, *, distance):
        return sums[0] / k


def test_prefix_granularity_is_enforced_and_respected_by_slabs(monkeypatch):
    with pytest.raises(ValueError, match="granularity 3"):
        simulate("test_block_of_three", k=[3, 4], distance=1.0, n_repetitions=4)
    from varlab.mc import seeds
    monkeypatch.setattr(seeds, "BLOCK_ELEMENTS", 64)      # slabs of 63 columns, never 64
    monkeypatch.setattr(Model, "samples_per_block", lambda self, **point: 64)
    r = simulate("test_block_of_three", k=[3, 300], distance=0.5, n_repetitions=200, random_state=1)
    assert np.all(np.abs(r.mean - 0.5) <= 4.5 * r.se_mean)


class NaNModel(BlockOf3):
    name = "test_nan"

    def combine(self, sums, k, *, distance):
        return np.full_like(sums[0], np.nan)


def test_non_finite_estimates_raise():
    with pytest.raises(FloatingPointError, match="non-finite"):
        simulate(NaNModel(), k=[3], distance=0.5, n_repetitions=5, random_state=0)


# --- the real feature map -----------------------------------------------------------------------

def test_correlated_unit_vectors():
    for rho in (-1.0, -0.3, 0.0, 0.999, 1.0):
        uv = correlated_unit_vectors(rho, 5)
        np.testing.assert_allclose(np.linalg.norm(uv, axis=1), 1.0, rtol=1e-15)
        assert abs(uv[0] @ uv[1] - rho) <= 1e-15


@pytest.mark.parametrize("model", ["rff", "nrff", "rff_no_phase"])
def test_feature_map_simulation_agrees_with_model_simulation(model):
    kw = dict(k=[1, 4, 50], rho=[0.7, -0.2], gamma=[1.5, 0.5], n_repetitions=20_000)
    direct = simulate(model, random_state=101, **kw)
    through = simulate(f"{model}_feature_map", random_state=202, data_dimension=3, **kw)
    assert through.options == {"data_dimension": 3}
    np.testing.assert_array_equal(direct.target, through.target)
    z_mean = (direct.mean - through.mean) / np.hypot(direct.se_mean, through.se_mean)
    z_var = (direct.variance - through.variance) / np.hypot(direct.se_variance, through.se_variance)
    assert np.all(np.abs(z_mean) <= 4.5), z_mean
    assert np.all(np.abs(z_var) <= 4.5), z_var


def test_feature_map_blocks_bound_the_weight_matrix():
    """A map of data_dimension 1000: one repetition per block, and k = 3000 in slabs of the bound
    (the layout; its statistics are checked by the slow test below)."""
    model = get_model("rff_feature_map", data_dimension=1000)
    per_block = model.samples_per_block(rho=0.5, gamma=1.0)
    assert per_block * 1001 <= 2 ** 21
    r = simulate(model, k=[1, 30, 3000], rho=0.5, gamma=1.0, n_repetitions=10, random_state=4)
    assert np.all(r.block_repetitions == 1) and np.all(r.n_blocks == 10)
    assert mc.block_layout(3000, budget=per_block) == (1, per_block) and per_block < 3000
    assert np.all(np.isfinite(r.mean)) and np.all(np.isfinite(r.variance))


#: 19.6 s in make test. Its properties stay there: the layout above; the statistics of slabbed
#: one-repetition blocks (tests/mc/test_mc_engine.py::test_slabbed_layout_for_huge_k) and of the
#: feature-map models (test_feature_map_simulation_agrees_with_model_simulation, and
#: rff_feature_map's mean and exact variance in tests/mc/test_mc_contract.py)
@pytest.mark.slow
def test_feature_map_statistics_with_one_repetition_per_block():
    model = get_model("rff_feature_map", data_dimension=1000)
    r = simulate(model, k=[1, 30, 3000], rho=0.5, gamma=1.0, n_repetitions=300, random_state=4)
    assert np.all(r.block_repetitions == 1)
    z = (r.mean - r.target) / r.se_mean
    z_var = (r.variance - r.theory["variance"]) / r.se_variance
    assert np.all(np.abs(z) <= 4.5) and np.all(np.abs(z_var) <= 4.5)


def test_gcws_hashed_model_records_its_options():
    r = simulate("gcws_rbf_hashed", k=[1, 10], rho=0.5, gamma=1.0, n_repetitions=200,
                 random_state=0, data_dimension=50)
    assert r.options == {"data_dimension": 50, "data_seed": 0}


def test_package_docstring_example_registers_and_runs():
    namespace = {"Model": Model, "np": np}
    doc = models_module.__doc__
    source = doc[doc.index("    class MeanOfNormals"):doc.index("Models must be picklable")]
    exec(compile(textwrap.dedent(source), "<docstring>", "exec"), namespace)
    r = mc.simulate("doc_mean_of_normals", k=[1, 100], distance=2.0, n_repetitions=500,
                    random_state=0)
    assert np.all(np.abs(r.mean - 2.0) <= 4.5 * r.se_mean)
