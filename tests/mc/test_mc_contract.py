"""Contract tests over the model registry: a model is tested by being registered.

Every varlab model: runs on its declared parameters' typical grid, its result records the grid
and options, is bit-identical across n_jobs, chunk size and backend, and, if it declares itself
unbiased, its mean agrees with its target within Z_MAX standard errors; where it declares exact
theory ("variance"), that too.
"""
import numpy as np
import pytest

from varlab.mc import Z_MAX, available_models, model_class, simulate
from varlab.theory.parameters import parameter

MODELS = [name for name in available_models() if model_class(name).__module__.startswith("varlab.")]


def small_grid(cls):
    """Two points per model: the typical grid's second and third values of each parameter."""
    return {name: parameter(name).typical()[1:3] for name in cls.parameters}


def valid_k(cls, grid):
    model = cls()
    k = np.array([1, 2, 3, 4, 8, 16, 32, 64])
    ok = np.ones(k.size, bool)
    for index in range(2):
        ok &= model.valid_k(k, **{name: values[index].item() for name, values in grid.items()})
    return k[ok][:3]


#: repetitions of the statistical checks (an unbiased model's mean, and its exact variance, within
#: Z_MAX standard errors; fixed seed)
N_STATISTICS = 1000
#: repetitions of the structural checks (the recorded grid and options, finite values,
#: bit-identity across n_jobs, chunk size and backend): every (point, k) of every model's small
#: grid is as many blocks at this size as at N_STATISTICS (one: asserted below), so the
#: bit-identity check cuts the same blocks into tasks as it would at N_STATISTICS. Run at
#: N_STATISTICS, the structural checks of the Sobol models (a Python loop over scipy's engine)
#: took 46 s and 10 s of make test.
N_STRUCTURE = 100


@pytest.mark.parametrize("name", MODELS)
def test_model_contract(name):
    cls = model_class(name)
    grid = small_grid(cls)
    k = valid_k(cls, grid)
    kw = dict(k=k, n_repetitions=N_STRUCTURE, random_state=11, **grid)
    result = simulate(name, **kw)
    assert result.parameters == tuple(cls.parameters) and result.options == cls().options()
    for parameter_name in cls.parameters:
        np.testing.assert_array_equal(result.grid[parameter_name], grid[parameter_name])
    assert np.all(np.isfinite(result.mean)) and np.all(result.se_mean >= 0)
    assert np.array_equal(result.n_blocks, -(-N_STATISTICS // result.block_repetitions))
    other = simulate(name, n_jobs=2, backend="threading", chunk_size=1, **kw)
    assert other == result
    if cls.unbiased:
        result = simulate(name, **dict(kw, n_repetitions=N_STATISTICS))
        assert np.all(np.isfinite(result.mean)) and np.all(result.se_mean >= 0)
        z = np.abs(result.mean - result.target) / result.se_mean
        assert np.all((z <= Z_MAX) | (result.se_mean == 0) & (result.mean == result.target)), z
    if cls.unbiased and "variance" in result.theory:
        z = np.abs(result.variance - result.theory["variance"]) / result.se_variance
        assert np.all(z <= Z_MAX), z


@pytest.mark.parametrize("name", ["rff", "nrff", "gcws_rbf"])
def test_bit_identical_with_process_backend(name):
    kw = dict(k=[1, 5], rho=[0.3, 0.8], gamma=1.0, n_repetitions=5000, random_state=3)
    assert simulate(name, **kw) == simulate(name, n_jobs=2, backend="loky", chunk_size=2, **kw)


def test_z_max_is_defined_once():
    from varlab import claims
    from varlab.mc import stats

    assert claims.Z_MAX is stats.Z_MAX == 4.5
