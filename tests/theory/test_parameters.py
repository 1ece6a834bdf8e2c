"""The declared parameters (varlab.theory.parameters): validators and symbols (issue 7, sec. 1).

One rule for every integer parameter (k, m, dimension): Python and numpy integers and integer
arrays are accepted; floats (even 2.0), bools (also inside lists: [True, 2]), strings and
values that would wrap in int64 (uint64 >= 2^63) are rejected. Real parameters reject bools,
strings (also inside object arrays), complex numbers, NaN and inf; out-of-domain values are a
ValueError naming the parameter and its domain.
"""
import importlib
import math

import numpy as np
import pytest
import sympy

from varlab import theory
from varlab.theory.parameters import MAX_INTEGER, Parameter, declare, declared_parameters, parameter


def test_registry():
    declared = declared_parameters()
    assert declared is not declared_parameters() and declared == theory.declared_parameters()
    assert {"rho", "gamma", "k", "gmm", "g", "E", "dimension", "distance", "bandwidth", "m"} <= set(declared)
    assert all(isinstance(p, Parameter) and p.name == name for name, p in declared.items())
    with pytest.raises(KeyError, match=r"no parameter named 'nope'.*varlab\.theory\.parameters\.declare\('nope'"):
        parameter("nope")


def test_the_module_is_reachable_and_the_former_function_deprecated():
    """Issue 36, item 2: ``import varlab.theory.parameters as p`` gives the module (it used to give
    the function ``parameters``, which shadowed it); the function's former spellings still work,
    with a DeprecationWarning naming ``declared_parameters``."""
    import varlab.theory.parameters as module
    assert module is importlib.import_module("varlab.theory.parameters") is theory.parameters
    assert module.declare is declare and module.parameter is parameter
    with pytest.warns(DeprecationWarning, match="declared_parameters"):
        assert theory.parameters() == declared_parameters()
    with pytest.warns(DeprecationWarning, match="declared_parameters"):
        from varlab.theory.parameters import parameters
        assert parameters() == declared_parameters()


def test_redeclaring_with_another_domain_is_an_error():
    assert declare("rho", "again", low=-1.0, high=1.0) is parameter("rho")
    with pytest.raises(ValueError, match="rho"):
        declare("rho", "wider", low=-2.0, high=2.0)


@pytest.mark.parametrize("name, assumptions", [
    ("rho", {"real": True}),
    ("gamma", {"real": True, "positive": True}),
    ("E", {"real": True, "positive": True}),
    ("gmm", {"real": True, "nonnegative": True}),
    ("g", {"real": True, "nonnegative": True}),
    ("distance", {"real": True, "nonnegative": True}),
    ("bandwidth", {"positive": True}),
    ("k", {"integer": True, "positive": True}),
    ("m", {"integer": True, "positive": True}),
    ("dimension", {"integer": True, "positive": True}),
])
def test_symbols_carry_the_domain_assumptions(name, assumptions):
    symbol = parameter(name).symbol
    assert symbol.name == name and symbol == parameter(name).symbol
    for assumption, value in assumptions.items():
        assert getattr(symbol, f"is_{assumption}") is value, (name, assumption)
    if name == "rho":
        assert symbol.is_positive is None and symbol.is_integer is None
    # the symbols used in the Formulas are these
    assert sympy.sqrt(parameter("gamma").symbol ** 2) == parameter("gamma").symbol


def test_every_formula_uses_the_declared_symbols():
    for formula in theory.formulas().values():
        if not formula.computed:
            assert formula.expr.free_symbols <= {parameter(n).symbol for n in formula.parameters}


def test_domain_text():
    assert parameter("rho").domain == "[-1, 1]"
    assert parameter("gamma").domain == "(0, inf)"
    assert parameter("E").domain == "(0, 1]"
    assert parameter("k").domain == "integers >= 1 and <= 2^53"      # the true limit (issue 22, defect 4)


# --- real parameters ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [0.5, -1, 1, np.float32(0.25), np.float16(-0.5), np.int8(0),
                                   np.uint64(1), [0.1, -0.2], np.array([[0.5], [1.0]], np.float32),
                                   np.array([0.5, 1], dtype=object)])
def test_real_accepts_numbers_and_arrays(value):
    out = parameter("rho").validate(value)
    assert out.dtype == np.float64 and out.shape == np.shape(value)
    np.testing.assert_array_equal(out, np.asarray(value, dtype=np.float64))


@pytest.mark.parametrize("value, error", [
    (True, TypeError), (np.bool_(False), TypeError), ([0.5, True], TypeError), ("0.5", TypeError),
    (np.array(["0.5"], dtype=object), TypeError), ([0.5, "0.5"], TypeError), (None, TypeError),
    (0.5 + 0j, TypeError), (math.nan, ValueError), (math.inf, ValueError), (-math.inf, ValueError),
    (np.array([0.5, np.nan]), ValueError), (1.0000000000000002, ValueError), (-2, ValueError),
])
def test_real_rejects(value, error):
    with pytest.raises(error, match=r"\brho\b"):
        parameter("rho").validate(value)


def test_open_and_closed_ends():
    gamma, E, gmm = parameter("gamma"), parameter("E"), parameter("gmm")
    assert gamma.validate(5e-324) == 5e-324 and gamma.validate(1.7976931348623157e308) > 0
    for bad in (0.0, -0.0, -1e-300):
        with pytest.raises(ValueError, match=r"gamma must be in \(0"):
            gamma.validate(bad)
    assert E.validate(1.0) == 1.0 and gmm.validate(0.0) == 0.0
    with pytest.raises(ValueError, match=r"\bE\b"):
        E.validate(0.0)
    with pytest.raises(ValueError, match=r"\bgamma\b"):
        gamma.validate(10 ** 400)                   # a Python int beyond float64: not an OverflowError


def test_validate_renames():
    with pytest.raises(ValueError, match=r"\bsigma\b"):
        parameter("gamma").validate(-1.0, "sigma")


# --- integer parameters ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", [1, 7, np.int8(3), np.uint64(5), np.int64(2 ** 53), 2 ** 53,
                                   [1, 2, 3], (4, 5), np.array([[1], [2]], np.uint32),
                                   np.array([1, 2], dtype=object), np.array([], dtype=np.int64)])
def test_integer_accepts(value):
    out = parameter("k").validate(value)
    assert out.dtype == np.int64 and out.shape == np.shape(value)
    np.testing.assert_array_equal(out, np.asarray(value).astype(np.int64))


@pytest.mark.parametrize("value", [
    3.0, 2.5, np.float64(2.0), np.float32(2.0), [2.0, 3.0], np.array([1.0, 2.0]), math.nan, math.inf,
    True, False, np.bool_(True), [True, 2], (1, False), np.array([True, False]), "3", ["3"],
    np.array(["3"], dtype=object), None, 3 + 0j,
])
def test_integer_rejects_non_integers_with_type_error(value):
    with pytest.raises(TypeError, match=r"\bk\b"):
        parameter("k").validate(value)


@pytest.mark.parametrize("value", [
    0, -1, np.int64(0), [1, 0], MAX_INTEGER + 1, 2 ** 63, 2 ** 70, np.uint64(2 ** 63),
    np.array([2 ** 63], np.uint64), np.array([2 ** 64 - 1], np.uint64), [1, 2 ** 64],
    np.array([2 ** 70], dtype=object),
])
def test_integer_out_of_range_is_a_value_error_never_a_wrap(value):
    with pytest.raises(ValueError, match=r"\bk\b"):
        parameter("k").validate(value)


def test_uint64_that_would_wrap_in_a_formula():
    # issue 7: gcws.estimator_variance(gmm=.5, k=np.array([2**63], np.uint64)) was negative
    with pytest.raises(ValueError, match=r"\bk\b"):
        theory.gcws.estimator_variance(gmm=0.5, k=np.array([2 ** 63], np.uint64))
    assert theory.gcws.estimator_variance(gmm=0.5, k=np.array([2 ** 53], np.uint64))[0] == 0.25 / 2 ** 53


@pytest.mark.parametrize("formula", ["nrff.mse_expansion", "nrff.bias_expansion", "gcws.estimator_variance",
                                     "gcws.estimator_mean", "gcws.exact_mean", "gcws.exact_variance"])
@pytest.mark.parametrize("k, error", [(2.0, TypeError), (True, TypeError), ([True, 2], TypeError),
                                      (np.array([2 ** 63], np.uint64), ValueError)])
def test_one_rule_for_k_in_every_formula(formula, k, error):
    # issue 7: k=2.0 was accepted by nrff and a TypeError in gcws; k=[True, 2] accepted, k=True not
    f = theory.formulas()[formula]
    params = {"rho": 0.5, "gamma": 1.0, "gmm": 0.5, "k": k}
    with pytest.raises(error, match=r"\bk\b"):
        f(**{name: params[name] for name in f.parameters})


def test_typical_grids():
    for p in declared_parameters().values():
        grid = p.typical()
        assert grid.size >= 3 and grid.dtype == (np.int64 if p.integer else np.float64)
        p.validate(grid)
