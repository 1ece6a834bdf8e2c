"""Hypothesis fuzz test of varlab's public API (issue 12, section 4a).

Every call on fuzzed input must give a result (finite where it is numbers) or raise
ValueError/TypeError whose message names a parameter of the call; any other exception type,
a NaN or an inf in a result fails. Profiles: ``default`` (a few seconds, in ``make test``)
and ``fuzz`` (``make fuzz``: VARLAB_FUZZ_PROFILE=fuzz, >= 2 * 10^4 cases in all).

The second half of the file holds one regression test per bug the fuzzing found.
"""
from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import NotFittedError

from varlab import datasets, kernels, mc, spectral, theory
from varlab.features import (GCWS, RFF, available_feature_maps, available_samplers, bbit_code, gmm_estimate,
                             hash_chunks, transform_chunks)
from varlab.theory.parameters import parameter

_COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
               print_blob=True)
settings.register_profile("default", max_examples=30, **_COMMON)
settings.register_profile("fuzz", max_examples=2500, **_COMMON)       # 9 fuzz tests: 22 500 cases
settings.load_profile(os.environ.get("VARLAB_FUZZ_PROFILE", "default"))


# ------------------------------------------------------------------------------------------
# The contract
# ------------------------------------------------------------------------------------------

def _finite(value, where):
    """Every number inside ``value`` (arrays, sparse, tuples, dicts, results) is finite."""
    if isinstance(value, (tuple, list)):
        for item in value:
            _finite(item, where)
    elif isinstance(value, dict):
        for item in value.values():
            _finite(item, where)
    elif sp.issparse(value):
        _finite(value.data, where)
    elif isinstance(value, (np.ndarray, np.generic, float, int)) and not isinstance(value, bool):
        array = np.asarray(value)
        if array.dtype.kind in "fc":
            assert np.all(np.isfinite(array)), f"{where}: silent NaN/inf in the result"


def outcome(call, names, where, *, finite=True):
    """Run ``call``: a result (checked finite) or ValueError/TypeError naming one of ``names``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call()
    except (ValueError, TypeError) as error:
        message = str(error)
        assert any(re.search(rf"(?<![A-Za-z_]){re.escape(name)}(?![A-Za-z_])", message) for name in names), \
            f"{where}: {type(error).__name__} does not name a parameter of {sorted(names)}: {message!r}"
        return None
    if finite:
        _finite(result, where)
    return result


# ------------------------------------------------------------------------------------------
# Strategies
# ------------------------------------------------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, np.nan, np.inf, -np.inf, 1e308, -1e308, 1.7e308, 5e-324,
           -5e-324, 1e-310, 2.0 ** -1022, 1e-300, 1e300, 3.0, 65504.0, 1e20, -7.5]
DTYPES = ["float64", "float32", "float16", "bool", "int8", "uint64", "int64", "complex128", "object",
          "str", "longdouble"]
SPARSE = ["csr", "csc", "coo", "lil", "dok", "bsr", "dia", "csr_array", "coo_array"]

numbers = st.one_of(st.sampled_from(SPECIAL), st.floats(allow_nan=True, allow_infinity=True),
                    st.floats(-10, 10), st.integers(-5, 5).map(float))
shapes = st.one_of(st.tuples(st.integers(0, 4), st.integers(0, 5)),
                   st.sampled_from([(3,), (), (2, 2, 2), (1, 1), (5, 1), (1, 7)]))
random_states = st.one_of(st.none(), st.integers(-3, 2 ** 65), st.sampled_from(
    [0, 1, 2.5, "0", True, np.int64(3), np.uint64(2 ** 63), object(), [1, 2], np.random.default_rng(1),
     np.random.SeedSequence(5), np.random.RandomState(2), np.random.Generator(np.random.PCG64(3)),
     np.float64(1.0)]))


def _convert(values: np.ndarray, dtype: str, form: str):
    if dtype == "str":
        return values.astype(str)
    if dtype == "object":
        return values.astype(object)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        array = values.astype(dtype)
    if form == "dense":
        return array
    if form == "list":
        return array.tolist()
    if array.ndim != 2 or dtype in ("float16", "longdouble"):
        return array                                        # scipy.sparse refuses these
    if form.endswith("_array"):
        return getattr(sp, form)(array)
    return getattr(sp, form + "_matrix")(array)


@st.composite
def data(draw, shape=None):
    """Fuzzed X: odd shapes, dtypes, magnitudes, NaN/inf, dense, lists or any sparse format."""
    shape = draw(shapes) if shape is None else shape
    size = int(np.prod(shape))
    values = np.array(draw(st.lists(numbers, min_size=size, max_size=size)), dtype=np.float64)
    scale = draw(st.sampled_from([1.0, 1.0, 1e300, 1e-300, 2.0 ** 1000, 1e-320]))
    sparsify = draw(st.booleans())
    with np.errstate(all="ignore"):
        values = values * scale
        if sparsify:
            values[np.arange(size) % 3 != 0] = 0.0
    values = values.reshape(shape)
    dtype = draw(st.sampled_from(DTYPES[:2] * 4 + DTYPES))
    form = draw(st.sampled_from(["dense"] * 4 + ["list"] + SPARSE))
    return _convert(values, dtype, form)


@st.composite
def clean_data(draw):
    """Finite, mostly valid X (to get past validation into the numerics)."""
    n, d = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    values = np.array(draw(st.lists(st.floats(-1e3, 1e3), min_size=n * d, max_size=n * d))).reshape(n, d)
    values *= draw(st.sampled_from([1.0, 1e-300, 1e300, 2.0 ** -1070, 1e150]))
    values[:, 0] += draw(st.sampled_from([1.0, 1e-200, 1e200]))
    form = draw(st.sampled_from(["dense", "dense", "float32", "csr", "csc", "coo"]))
    if form == "float32":
        with np.errstate(all="ignore"):
            return values.astype(np.float32)
    return values if form == "dense" else getattr(sp, form + "_matrix")(values)


positive_ints = st.one_of(st.integers(-2, 40), st.sampled_from([2 ** 40, 2.0, "3", None, True, np.int8(4),
                                                               np.uint64(3), 1.5]))
gammas = st.one_of(numbers, st.sampled_from([1e-300, 1e300, 1.7e308, -1.0, "1", None, [1.0, 2.0],
                                             np.float32(2.0), np.array(0.5), True, 1 + 1j]))


# ------------------------------------------------------------------------------------------
# Kernels
# ------------------------------------------------------------------------------------------

KERNELS = {
    "correlation": (kernels.correlation, {}),
    "rbf_correlation": (kernels.rbf_correlation, {"gamma"}),
    "folded_rbf": (kernels.folded_rbf, {"gamma"}),
    "gaussian": (kernels.gaussian, {"gamma"}),
    "gmm": (kernels.gmm, {"center"}),
    "min_max": (kernels.min_max, {}),
}


@given(st.sampled_from(sorted(KERNELS)), st.one_of(data(), clean_data()),
       st.one_of(st.none(), data(), clean_data()), gammas, st.one_of(st.none(), data(shape=(3,)), numbers))
def test_kernels(name, X, Y, gamma, center):
    function, options = KERNELS[name]
    kwargs = {"gamma": gamma} if "gamma" in options else {}
    if "center" in options:
        kwargs["center"] = center
    outcome(lambda: function(X, Y, **kwargs), {"X", "Y", "gamma", "center"}, name)
    outcome(lambda: kernels.gmm_transform(X, center=center), {"X", "center"}, "gmm_transform")
    outcome(lambda: kernels.unit_rows(X), {"X"}, "unit_rows")


# ------------------------------------------------------------------------------------------
# Features
# ------------------------------------------------------------------------------------------

GAUSSIAN_SAMPLERS = sorted(name for name, cls in available_samplers().items()
                           if isinstance(spectral.Gaussian(1.0), cls.measure_type))
RFF_NAMES = {"X", "n_components", "gamma", "kernel", "normalize", "phase", "sampler", "random_state", "m",
             "d", "dimension", "n_features_in_"}


@given(st.one_of(data(), clean_data()), positive_ints, gammas,
       st.sampled_from(["correlation", "gaussian", "rbf", None]), st.sampled_from([False, True, 1, None]),
       st.sampled_from([True, False, "yes"]), st.sampled_from(GAUSSIAN_SAMPLERS + ["nope", 3]), random_states,
       st.one_of(data(), clean_data()))
def test_rff(X, n_components, gamma, kernel, normalize, phase, sampler, random_state, X2):
    if isinstance(n_components, int) and n_components > 4096:
        n_components = 4096
    rff = RFF(n_components, gamma=gamma, kernel=kernel, normalize=normalize, phase=phase, sampler=sampler,
              random_state=random_state)
    Z = outcome(lambda: rff.fit_transform(X), RFF_NAMES, f"RFF({sampler}).fit_transform")
    if Z is not None:
        outcome(lambda: rff.transform(X2), RFF_NAMES, "RFF.transform")
        outcome(lambda: rff.components(X2), RFF_NAMES, "RFF.components")
        outcome(lambda: transform_chunks(rff, X2, chunk_rows=2), RFF_NAMES | {"chunk_rows"}, "transform_chunks")


GCWS_NAMES = {"X", "n_components", "b", "zero_bit", "center", "random_state", "i_star", "t_star", "hash_u",
              "hash_v", "values", "chunk_rows"}


@given(st.one_of(data(), clean_data()), positive_ints, st.one_of(st.none(), positive_ints),
       st.sampled_from([False, True, 0, "no"]), st.one_of(st.none(), data(shape=(3,)), data(shape=(1,))),
       random_states, st.one_of(data(), clean_data()))
def test_gcws(X, n_components, b, zero_bit, center, random_state, X2):
    if isinstance(n_components, int) and n_components > 512:
        n_components = 512
    params = dict(b=b, zero_bit=zero_bit, center=center, random_state=random_state)
    gcws = GCWS(n_components, **params)
    fitted = outcome(lambda: gcws.fit(X), GCWS_NAMES, "GCWS.fit", finite=False)
    # an unfitted GCWS is fitted by hash_chunks on the width of X2
    outcome(lambda: hash_chunks(GCWS(n_components, **params), X2, chunk_rows=1), GCWS_NAMES, "hash_chunks")
    if fitted is None:                              # no hashing before a successful fit
        with pytest.raises(NotFittedError):
            GCWS(n_components, **params).hash(X)
        return
    hashes = outcome(lambda: gcws.hash(X), GCWS_NAMES, "GCWS.hash")
    outcome(lambda: gcws.transform(X2), GCWS_NAMES, "GCWS.transform")
    outcome(lambda: hash_chunks(gcws, X2, chunk_rows=1), GCWS_NAMES, "hash_chunks")
    if hashes is not None:
        outcome(lambda: gcws.code(*hashes), GCWS_NAMES, "GCWS.code")
        outcome(lambda: gmm_estimate(hashes, hashes, zero_bit=gcws.zero_bit), GCWS_NAMES, "gmm_estimate")
        outcome(lambda: gcws.kernel_estimate(X), GCWS_NAMES, "GCWS.kernel_estimate")
        other = outcome(lambda: gcws.hash(X2), GCWS_NAMES, "GCWS.hash")
        if other is not None:
            outcome(lambda: gmm_estimate(hashes, other), GCWS_NAMES, "gmm_estimate")
            outcome(lambda: gcws.kernel_estimate(X, X2), GCWS_NAMES | {"Y"}, "GCWS.kernel_estimate")


hash_arrays = st.one_of(data(), st.sampled_from([np.zeros((2, 3), np.int64), np.arange(6).reshape(2, 3),
                                                 np.full((1, 4), 2 ** 62, np.int64), -np.ones((2, 2), np.int64),
                                                 np.zeros((2, 0), np.int64), np.zeros((0, 3), np.uint64),
                                                 np.array([[2 ** 64 - 1]], np.uint64), np.ones((3, 3), np.int8)]))


@given(hash_arrays, hash_arrays, st.one_of(positive_ints, st.sampled_from([32, 33, 64])),
       st.sampled_from([False, True, 1]), st.sampled_from(["tuple", "list", "array"]))
def test_coding_and_estimates(i_star, t_star, b, zero_bit, pack):
    outcome(lambda: bbit_code(i_star, b), {"values", "b"}, "bbit_code")
    pair = {"tuple": (i_star, t_star), "list": [i_star, t_star], "array": i_star}[pack]
    outcome(lambda: gmm_estimate(pair, (t_star, i_star), zero_bit=zero_bit), GCWS_NAMES, "gmm_estimate")
    gcws = GCWS(3, b=b if isinstance(b, int) and not isinstance(b, bool) and 0 < b <= 40 else 4, zero_bit=zero_bit)
    outcome(lambda: gcws.code(i_star, t_star), GCWS_NAMES, "GCWS.code")


# ------------------------------------------------------------------------------------------
# Every registered feature map through the scikit-learn protocol (fit, then transform)
# ------------------------------------------------------------------------------------------

@given(st.sampled_from(sorted(available_feature_maps())), st.one_of(data(), clean_data()), positive_ints,
       gammas, random_states, st.one_of(data(), clean_data()))
def test_feature_maps_fit_and_transform(name, X, n_components, gamma, random_state, X2):
    cls = available_feature_maps()[name]
    if isinstance(n_components, int) and n_components > 512:
        n_components = 512
    params = dict(n_components=n_components, random_state=random_state)
    if "gamma" in cls().get_params():
        params["gamma"] = gamma
    estimator = cls(**params)
    names = set(cls().get_params()) | {"X", "Y", "y", "array", "input", "features", "m", "d", "dimension",
                                       "n_features_in_"}
    fitted = outcome(lambda: estimator.fit(X), names, f"{cls.__name__}.fit", finite=False)
    if fitted is not None:
        outcome(lambda: estimator.transform(X2), names, f"{cls.__name__}.transform")
    else:
        with pytest.raises(NotFittedError):
            cls(**params).transform(X2)


# ------------------------------------------------------------------------------------------
# Theory formulas
# ------------------------------------------------------------------------------------------

FORMULAS = theory.formulas()
parameter_values = st.one_of(numbers, st.integers(-3, 10 ** 6), st.sampled_from(
    [2 ** 70, np.int8(3), np.uint64(7), np.float16(0.5), np.float32(0.9), True, "0.5", None, 1j,
     [0.1, 0.5], np.array([[0.2], [0.9]]), np.array([]), np.array([0.5, np.nan]), object()]))


def _typical(name):
    grid = parameter(name).grid
    return st.sampled_from(list(grid)) if grid else numbers


@given(st.sampled_from(sorted(FORMULAS)), st.data())
def test_formulas(name, draw):
    formula = FORMULAS[name]
    values = {p: draw.draw(st.one_of(_typical(p), _typical(p), parameter_values), label=p)
              for p in formula.parameters}
    names = set(formula.parameters) | {"dps"}
    result = outcome(lambda: formula(**values), names, name, finite=False)
    if result is not None:
        assert not np.any(np.isnan(result)), f"{name}: NaN at {values}"
    if draw.draw(st.integers(0, 9), label="mp") == 0 and all(np.ndim(v) == 0 for v in values.values()):
        dps = draw.draw(st.sampled_from([15, 30, 5, 0, -1, 2.5, "30", 10 ** 6]), label="dps")
        outcome(lambda: formula.mp(dps=dps, **values), names, name + ".mp", finite=False)


# ------------------------------------------------------------------------------------------
# Monte Carlo engine
# ------------------------------------------------------------------------------------------

MODELS = sorted(mc.available_models())


@given(st.sampled_from(MODELS), st.data())
def test_simulate(model, draw):
    cls = mc.model_class(model)
    grid = {p: draw.draw(st.one_of(_typical(p), _typical(p), _typical(p), parameter_values), label=p)
            for p in cls.parameters}
    k = draw.draw(st.sampled_from([1, [1, 2], [2, 4], 0, [2, 1], 2.5, "1", None, [], [1, 10 ** 12]]), label="k")
    n = draw.draw(st.sampled_from([10, 33, 1, 0, -5, 2.5, None, "10", 10 ** 15]), label="n_repetitions")
    random_state = draw.draw(random_states, label="random_state")
    names = set(cls.parameters) | {"k", "n_repetitions", "random_state", "model", "max_samples"}
    result = outcome(lambda: mc.simulate(model, k=k, n_repetitions=n, random_state=random_state, **grid),
                     names, model, finite=False)
    if result is not None:
        for statistic in ("mean", "variance", "mse"):
            value = np.asarray(getattr(result, statistic))
            assert not np.any(np.isnan(value)), f"{model}: NaN {statistic} at k={k}, n={n}, {grid}"


# ------------------------------------------------------------------------------------------
# Spectral measures
# ------------------------------------------------------------------------------------------

MEASURES = spectral.measures()


@given(st.sampled_from(sorted(MEASURES)), st.data())
def test_measures(name, draw):
    import inspect

    cls = MEASURES[name]
    options = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if draw.draw(st.integers(0, 2), label=p.name + "?") and p.default is not p.empty:
            continue
        options[p.name] = draw.draw(st.one_of(parameter_values, st.just((0.5, -0.5)), st.just((1.0, 2.0))),
                                    label=p.name)
    measure = outcome(lambda: cls(**options), set(options) | {"weights", "bandwidths", "lengthscales", "masses"},
                      f"{name}({options})", finite=False)
    if measure is None:
        measure = cls() if all(p.default is not p.empty for p in list(inspect.signature(cls.__init__)
                                                                        .parameters.values())[1:]) else None
    if measure is None:
        return
    z = draw.draw(st.one_of(data(), clean_data(), st.sampled_from([0.5, np.zeros((2, 3)), np.ones(3)])), label="z")
    n = draw.draw(positive_ints, label="n")
    d = draw.draw(st.one_of(positive_ints, st.sampled_from([1, 3])), label="d")
    n = min(n, 64) if isinstance(n, int) else n
    d = min(d, 64) if isinstance(d, int) else d
    rs = draw.draw(random_states, label="random_state")
    names = {"z", "w", "n", "d", "m", "r", "dimension", "random_state", "name", "part", "distance"}
    outcome(lambda: measure.kernel(z), names, f"{name}.kernel")
    for method in ("rvs", "density", "logdensity", "sine_kernel", "kernel_of_distance", "norm_law",
                   "total_masses", "parts", "rvs_part"):
        function = getattr(measure, method, None)
        if function is None:
            continue
        if method == "rvs":
            outcome(lambda: function(n, d, rs), names, f"{name}.rvs")
        elif method in ("density", "logdensity", "sine_kernel"):
            outcome(lambda: function(z), names, f"{name}.{method}", finite=method != "logdensity")
        elif method == "kernel_of_distance":
            takes_d = len(inspect.signature(function).parameters) > 1
            outcome(lambda: function(z, d) if takes_d else function(z), names, f"{name}.kernel_of_distance")
        elif method == "norm_law":
            outcome(lambda: function(d), names, f"{name}.norm_law", finite=False)
        elif method == "rvs_part":
            part = draw.draw(st.sampled_from(sorted(outcome(measure.parts, names, "parts", finite=False) or {})
                                             + ["nope", 1]), label="part")
            outcome(lambda: function(part, n, d, rs), names, f"{name}.rvs_part")
        else:
            outcome(function, names, f"{name}.{method}", finite=False)


# ------------------------------------------------------------------------------------------
# Datasets
# ------------------------------------------------------------------------------------------

@given(st.one_of(st.sampled_from(sorted(set(datasets.available()) & {"gaussian_blobs", "two_moons", "digits",
                                                                       "wine", "letter", "sonar"})),
                 st.sampled_from(["", "nope", "LETTER", 3, None, b"wine"])),
       st.dictionaries(st.sampled_from(["n", "random_state", "d", "centers", "cluster_std", "noise", "box", "x"]),
                       st.one_of(positive_ints, numbers, st.sampled_from([2 ** 70, -1, "5"])), max_size=3))
def test_datasets(name, options):
    if options.get("n", 0) is not None and isinstance(options.get("n"), int) and options["n"] > 5000:
        options["n"] = 5000
    if isinstance(options.get("d"), int) and options["d"] > 50:
        options["d"] = 50
    if isinstance(options.get("centers"), int) and options["centers"] > 50:
        options["centers"] = 50
    names = {"name", "n", "random_state", "d", "centers", "cluster_std", "noise", "options", "x",
             "load", "box"}
    result = outcome(lambda: datasets.load(name, **options), names, f"load({name!r}, {options})", finite=False)
    if result is not None:
        for array in (result.X_train, result.X_test):
            assert np.all(np.isfinite(array))


# ==========================================================================================
# Regression tests for what the fuzzing found (one per fix)
# ==========================================================================================

def test_unit_rows_validates_its_input():
    """kernels.unit_rows on a list / a non-canonical CSC matrix / a (0, 0) sparse matrix: was
    AttributeError / a numpy broadcasting ValueError / 'zero-size array to reduction operation'."""
    np.testing.assert_allclose(kernels.unit_rows([[3.0, 4.0]]), [[0.6, 0.8]])
    csc = sp.csc_matrix(np.array([[3.0], [4.0]]))
    np.testing.assert_allclose(kernels.unit_rows(csc).toarray(), [[1.0], [1.0]])
    coo = sp.coo_matrix(([1.0, 2.0, 4.0], ([0, 0, 0], [0, 0, 1])), shape=(1, 2))     # duplicates
    np.testing.assert_allclose(kernels.unit_rows(coo).toarray(), [[0.6, 0.8]])
    assert kernels.correlation(sp.csr_matrix((0, 0))).shape == (0, 0)
    with pytest.raises(ValueError, match="X has all-zero rows"):
        kernels.correlation(sp.csr_matrix((2, 0)))
    with pytest.raises(TypeError, match="X"):
        kernels.unit_rows([["a"]])


def test_unknown_data_set_names_the_parameter():
    """datasets.load('') said "unknown data set ''" without naming ``name``."""
    with pytest.raises(ValueError, match=r"name: unknown data set ''"):
        datasets.load("")


@pytest.mark.parametrize("X", [np.array([[1 + 1j]]), sp.csr_matrix(np.array([[1j, 0]])), [[1.0, 2.0]]])
def test_rff_messages_name_x(X):
    """RFFTransformer.fit on complex data raised scikit-learn's "Complex data not supported"
    (a ValueError naming no parameter); RFF (which replaced the adapter) says "X: ..."."""
    if isinstance(X, list):
        fitted = RFF(n_components=3, random_state=0).fit(X)
        with pytest.raises(ValueError, match=r"\bX\b"):
            fitted.transform([[1.0]])
        return
    with pytest.raises(ValueError, match=r"^X: Complex data not supported"):
        RFF(n_components=3).fit(X)


@pytest.mark.parametrize("method", [np.array([[0.2], [0.9]]), [0.5, 1.0], {"a": 1}])
def test_choice_of_an_array_names_the_parameter(method):
    """CoshGaussian(method=array) raised numpy's 'The truth value of an array ... is ambiguous'
    from _validate.choice's ``value not in allowed``."""
    with pytest.raises(ValueError, match=r"^method must be one of \['exact', 'rejection'\]"):
        spectral.get_measure("cosh_gaussian", method=method)


def test_sobol_models_name_dimension_beyond_scipys_range():
    """mm_sobol at dimension 34593 (reachable once the fuzz stopped capping dimensions at 1024)
    raised the sampler's "d must be <= 21201", which names no parameter of the model."""
    with pytest.raises(ValueError, match=r"^dimension must be <= 21201 for scipy's Sobol points \(model 'mm_sobol'\)"):
        mc.simulate("mm_sobol", k=1, n_repetitions=10, random_state=0, dimension=34593, scaled_distance=0.5)


@pytest.mark.parametrize("n_components", [None, "3", 1.5])
def test_hash_chunks_validates_the_parameters_of_an_unfitted_gcws(n_components):
    """hash_chunks(GCWS(n_components=None), X) raised int()'s "int() argument must be ... not
    'NoneType'" (naming no parameter): it read n_components before the GCWS was validated."""
    with pytest.raises(ValueError, match=r"'n_components' parameter of GCWS"):
        hash_chunks(GCWS(n_components, random_state=0), np.ones((2, 3)))
