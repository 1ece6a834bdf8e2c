"""Models: registry, the model contract, shared draws, and the feature-map path."""
import numpy as np
import pytest

from varlab.mc import (Model, NRFFModel, RFFModel, RFFNoPhaseModel, Workspace, available_models,
                       get_model, register, simulate)
from varlab.mc import models as models_module


def test_builtin_models_are_registered():
    assert {"rff", "rff_no_phase", "nrff"} <= set(available_models())
    assert isinstance(get_model("nrff"), NRFFModel)
    model = RFFModel()
    assert get_model(model) is model


def test_register_rejects_duplicates_and_bad_names():
    with pytest.raises(ValueError, match="already registered"):
        register(lambda: RFFModel(), name="rff")
    with pytest.raises(ValueError, match="name"):
        register(lambda: RFFModel(), name="")


def sample_terms(model, seed, n=4, k=50, rho=0.3, gamma=1.5):
    out = np.empty((model.n_terms, n, k))
    model.sample(np.random.default_rng(seed), n, k, rho, gamma, out, Workspace())
    return out


def test_rff_family_shares_draws():
    """Same generator state -> same (x, y, w): NRFF's cross term equals RFF's term."""
    rff = sample_terms(RFFModel(), 3)
    nrff = sample_terms(NRFFModel(), 3)
    np.testing.assert_array_equal(nrff[1], rff[0])


def test_rff_terms_are_the_papers_products():
    """Recompute X = sqrt2 cos(sqrt(gamma) x + w) from the same draws in the paper's form."""
    n, k, rho, gamma = 3, 40, -0.4, 2.0
    rng = np.random.default_rng(12)
    z1 = rng.standard_normal((n, k))
    z2 = rng.standard_normal((n, k))
    w = 2 * np.pi * rng.random((n, k))
    x, y = z1, rho * z1 + np.sqrt(1 - rho ** 2) * z2
    X = np.sqrt(2) * np.cos(np.sqrt(gamma) * x + w)
    Y = np.sqrt(2) * np.cos(np.sqrt(gamma) * y + w)
    terms = sample_terms(NRFFModel(), 12, n, k, rho, gamma)
    np.testing.assert_allclose(2 * terms[0], X * X, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(2 * terms[1], X * Y, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(2 * terms[2], Y * Y, rtol=1e-9, atol=1e-12)
    sums = np.cumsum(terms, axis=2)[:, :, [0, 9, 39]].transpose(0, 2, 1)
    kk = np.array([1.0, 10.0, 40.0])[:, None]
    nrff = NRFFModel().combine(sums, kk, rho, gamma)
    expected = (np.cumsum(X * Y, 1) / np.sqrt(np.cumsum(X * X, 1) * np.cumsum(Y * Y, 1)))[:, [0, 9, 39]].T
    np.testing.assert_allclose(nrff, expected, rtol=1e-9)
    rff = RFFModel().combine(sums[1:2], kk, rho, gamma)
    np.testing.assert_allclose(rff, (np.cumsum(X * Y, 1) / np.arange(1, k + 1))[:, [0, 9, 39]].T,
                               rtol=1e-9, atol=1e-12)


def test_no_phase_terms():
    n, k, rho, gamma = 2, 30, 0.6, 0.7
    rng = np.random.default_rng(1)
    z1, z2 = rng.standard_normal((n, k)), rng.standard_normal((n, k))
    y = rho * z1 + np.sqrt(1 - rho ** 2) * z2
    terms = sample_terms(RFFNoPhaseModel(), 1, n, k, rho, gamma)
    np.testing.assert_allclose(terms[0], np.cos(np.sqrt(gamma) * z1) * np.cos(np.sqrt(gamma) * y),
                               rtol=1e-9, atol=1e-12)


class BernoulliRBF(Model):
    """The Thm-4-style model from the models docstring: a ~20-line plug-in."""

    name = "test_bernoulli_rbf"
    n_terms = 1

    def __init__(self, g=0.7):
        self.g = g

    def target(self, rho, gamma):
        return np.exp(-gamma * (1.0 - np.asarray(rho)))

    def sample(self, rng, n, k, rho, gamma, out, workspace):
        uniform = workspace.buffer("uniform", (n, k))
        rng.random(out=uniform)
        np.less(uniform, self.g, out=out[0])

    def combine(self, sums, k, rho, gamma):
        xbar = sums[0] / k
        return np.exp(-2.0 * gamma * ((1.0 - xbar) / (1.0 + xbar)) ** 2)


def test_plug_in_model_via_registry():
    register(BernoulliRBF, overwrite=True)
    r = simulate("test_bernoulli_rbf", k=[1, 1000], rho=0.5, gamma=1.0, n_repetitions=2000,
                 random_state=0, g=0.25)
    # Xbar = Binomial(k, g)/k: the exact mean of h(Xbar) is gcws.exact_mean at rho = rho(g)
    # (000, Eq. 22-23), within 4.5 of the engine's standard errors for both k
    from varlab.theory import gcws

    exact = gcws.exact_mean(gcws.rho_of_g(g=0.25), 1.0, np.array([1, 1000]))
    assert np.all(np.abs(r.mean[0] - exact) <= 4.5 * r.se_mean[0])
    assert r.model == "test_bernoulli_rbf"
    with pytest.raises(ValueError, match="not supported"):
        simulate(BernoulliRBF(), k=[1], rho=0.5, gamma=1.0, n_repetitions=2, through="features")


class NaNModel(BernoulliRBF):
    name = "test_nan"

    def combine(self, sums, k, rho, gamma):
        return np.full_like(sums[0], np.nan)


def test_non_finite_estimates_raise():
    with pytest.raises(FloatingPointError, match="non-finite"):
        simulate(NaNModel(), k=[1], rho=0.5, gamma=1.0, n_repetitions=5, random_state=0)


# --- the real feature map ----------------------------------------------------------------------

def test_correlated_unit_vectors():
    from varlab.mc import correlated_unit_vectors
    for rho in (-1.0, -0.3, 0.0, 0.999, 1.0):
        uv = correlated_unit_vectors(rho, 5)
        np.testing.assert_allclose(np.linalg.norm(uv, axis=1), 1.0, rtol=1e-15)
        assert abs(uv[0] @ uv[1] - rho) <= 1e-15


@pytest.mark.parametrize("model", ["rff", "nrff", "rff_no_phase"])
def test_feature_map_simulation_agrees_with_model_simulation(model):
    pytest.importorskip("varlab.features.rff", reason="varlab.features.RFF is not available")
    kw = dict(k=[1, 4, 50], rho=[0.7, -0.2], gamma=[1.5, 0.5], n_repetitions=20_000)
    direct = simulate(model, random_state=101, **kw)
    through = simulate(model, random_state=202, through="features", dimension=3, **kw)
    assert through.through == "features" and through.dimension == 3
    np.testing.assert_array_equal(direct.target, through.target)
    z_mean = (direct.mean - through.mean) / np.hypot(direct.se_mean, through.se_mean)
    z_var = (direct.variance - through.variance) / np.hypot(direct.se_variance, through.se_variance)
    assert np.all(np.abs(z_mean) <= 4.5), z_mean
    assert np.all(np.abs(z_var) <= 4.5), z_var


def test_feature_map_slabs(monkeypatch):
    pytest.importorskip("varlab.features.rff", reason="varlab.features.RFF is not available")
    from varlab.mc import engine
    monkeypatch.setattr(engine, "FEATURE_MATRIX_ELEMENTS", 8 * 40)     # D = 7 -> budget 40
    r = simulate("rff", k=[1, 30, 100], rho=0.5, gamma=1.0, n_repetitions=600, random_state=4,
                 through="features", dimension=7)
    assert r.block_repetitions == 1
    z = (r.mean - r.target) / r.se_mean
    V = 0.5 + 0.5 * (1 - np.exp(-1.0)) ** 2
    z_var = (r.variance * r.k - V) / (r.se_variance * r.k)
    assert np.all(np.abs(z) <= 4.5) and np.all(np.abs(z_var) <= 4.5)


def test_models_module_docstring_example_is_short():
    """The Thm-4-style example in the models docstring is the ~20-line plug-in promised, and its
    name does not collide with the registered "gcws_rbf" model (register would refuse it)."""
    doc = models_module.__doc__
    start = doc.index("class BernoulliRBF")
    end = doc.index("register(BernoulliRBF)")
    assert len(doc[start:end].strip().splitlines()) <= 22
    assert 'name = "my_bernoulli_rbf"' in doc and "my_bernoulli_rbf" not in available_models()
