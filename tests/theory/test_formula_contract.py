"""Contract tests over every registered Formula (``varlab.theory.formulas()``; issue 7, sec. 5).

A Formula is tested by being registered: nothing here names a family. For each Formula:

* **accuracy**: the numpy value against ``Formula.mp`` (50 digits) at the typical grids of its
  parameters crossed, at random points (seeded by the Formula's name) and at the edges of its
  declared domain crossed with a typical value. Relative error <= ``formula.tolerance``
  (1e-12 for closed forms; the stated tolerance of computed ones). Where the exact value is not
  a normal float64 the rule is about representation, not accuracy: exact 0 must give exactly
  0.0 (the only absolute floor, and it is 0); |exact| below the normal range (< 2.2e-308) must
  give a value within 2.2e-308 of it (0 or a subnormal); |exact| above the float64 maximum
  must give inf of the same sign. For computed Formulas the points are restricted to
  ``reference_domain`` (where the mpmath reference, a sum of k + 1 terms, is feasible) and, to
  keep the suite fast, k <= 2000;
* no NaN anywhere in the declared domain (vectorized random points and the edges);
* scalars in give a Python float out; arrays broadcast;
* every out-of-domain value raises ValueError naming the parameter, in ``__call__`` and ``mp``;
* a closed form with an explicit ``reference`` agrees with its lambdified ``expr`` wherever the
  latter is defined.
"""
from __future__ import annotations

import itertools
import math
import zlib

import mpmath
import numpy as np
import pytest
import sympy

from varlab import theory
from varlab.theory.parameters import MAX_INTEGER, parameter

FORMULAS = list(theory.formulas().values())
IDS = [formula.name for formula in FORMULAS]
TINY = np.finfo(np.float64).tiny
HUGE = np.finfo(np.float64).max
COMPUTED_MAX_K = 2000


def _rng(formula, salt=""):
    return np.random.default_rng(zlib.crc32((formula.name + salt).encode()))


def _bounds(formula, name):
    """(lowest, highest) representable values of the parameter inside its domain (and inside
    the reference's domain and the speed cap for computed Formulas)."""
    declared = parameter(name)
    if declared.integer:
        low = int(declared.low)
        high = MAX_INTEGER if declared.high is None else min(int(declared.high), MAX_INTEGER)
        ref_low, ref_high = formula.reference_domain.get(name, (None, None))
        if ref_low is not None:
            low = max(low, ref_low)
        if ref_high is not None:
            high = min(high, ref_high)
        if formula.computed:
            high = min(high, COMPUTED_MAX_K)
        return low, high
    if declared.low is None:
        low = -HUGE
    else:
        low = float(np.nextafter(declared.low, np.inf)) if declared.low_open else float(declared.low)
    if declared.high is None:
        high = HUGE
    else:
        high = float(np.nextafter(declared.high, -np.inf)) if declared.high_open else float(declared.high)
    return low, high


def _random_values(formula, name, size, rng):
    declared = parameter(name)
    low, high = _bounds(formula, name)
    if declared.integer:
        top = math.log10(high)
        return [int(v) for v in np.unique(np.round(10.0 ** rng.uniform(0, top, size)).astype(np.int64))]
    if low >= -1.0 and high <= 1.0 and low < 0.0:               # a correlation: bulk and both ends
        bulk = rng.uniform(low, high, size)
        near = 10.0 ** -rng.uniform(1, 16, size)
        values = np.concatenate([bulk, high - near, low + near])
    elif low >= 0.0 and high <= 1.0:                            # a probability or kernel value
        near = 10.0 ** -rng.uniform(1, 16, size)
        values = np.concatenate([rng.uniform(0, 1, size), near, 1.0 - near])
    else:                                                       # a scale, e.g. gamma
        span = 4.0 if formula.computed else 8.0
        values = 10.0 ** rng.uniform(-span, span, size)
    return [float(v) for v in np.clip(values, low, high)]


def _points(formula, n_random=None):
    if n_random is None:
        n_random = 12 if formula.computed else 40
    names = formula.parameters
    typical = [[v.item() for v in parameter(name).typical()] for name in names]
    rng = _rng(formula)
    if formula.computed:
        typical = [[v for v in grid if _bounds(formula, name)[0] <= v <= _bounds(formula, name)[1]]
                   for grid, name in zip(typical, names)]
    points = [dict(zip(names, values)) for values in itertools.product(*typical)]
    # random points: each parameter drawn independently, then zipped
    draws = [_random_values(formula, name, n_random, rng) for name in names]
    for i in range(max(len(d) for d in draws)):
        points.append({name: draw[i % len(draw)] for name, draw in zip(names, draws)})
    # domain edges, crossed with a typical value
    edges = [sorted(set(_bounds(formula, name)) | {grid[len(grid) // 2]})
             for name, grid in zip(names, typical)]
    points += [dict(zip(names, values)) for values in itertools.product(*edges)]
    return points


def _agrees(value, exact, tolerance):
    if mpmath.isinf(exact) or abs(exact) > HUGE:
        return math.isinf(value) and (value > 0) == (exact > 0)
    if exact == 0:
        return value == 0.0
    if abs(exact) < TINY:
        return abs(value - float(exact)) <= TINY
    return math.isfinite(value) and abs(mpmath.mpf(value) - exact) <= tolerance * abs(exact)


def test_registry_is_complete_and_unique():
    names = set(IDS)
    assert len(names) == len(IDS)
    assert {"rff.mean", "rff.variance", "nrff.asymptotic_variance", "nrff.mse_expansion",
            "gcws.estimator_variance", "gcws.variance_ratio", "gcws.exact_mean",
            "gcws.exact_variance"} <= names
    assert theory.formulas()["gcws.exact_mean"].computed
    assert set(theory.declared_parameters()) >= {"rho", "gamma", "k", "gmm", "g", "E"}


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_metadata(formula):
    assert formula.source and formula.name.count(".") == 1
    assert set(formula.domain) == set(formula.parameters)
    if formula.computed:
        assert formula.reference is not None and 0 < formula.tolerance < 1e-6
    else:
        assert formula.tolerance == 1e-12
        assert formula.expr.free_symbols <= set(formula.symbols)


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_numpy_against_mpmath_over_the_domain(formula):
    failures = []
    for point in _points(formula):
        value = formula(**point)
        assert isinstance(value, float), point
        assert not math.isnan(value), point
        exact = formula.mp(dps=50, **point)
        if not _agrees(value, exact, formula.tolerance):
            failures.append((point, value, mpmath.nstr(exact, 17)))
    assert not failures, failures[:5]


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_no_nan_anywhere_in_the_domain_vectorized(formula):
    rng = _rng(formula, "nan")
    size = 60 if formula.computed else 4000
    columns = {}
    for name in formula.parameters:
        values = _random_values(formula, name, size, rng) + list(_bounds(formula, name))
        columns[name] = np.array([values[i] for i in rng.integers(0, len(values), size)])
    values = formula(**columns)
    assert values.shape == (size,) and not np.any(np.isnan(values))


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_broadcasting_and_scalars(formula):
    names = formula.parameters
    grids = [parameter(name).typical() for name in names]
    shaped = {name: grid.reshape((-1,) + (1,) * (len(names) - 1 - i)) for i, (name, grid) in
              enumerate(zip(names, grids))}
    values = formula(**shaped)
    assert values.shape == tuple(len(grid) for grid in grids)
    index = tuple(len(grid) // 2 for grid in grids)
    scalar = formula(**{name: grid[len(grid) // 2].item() for name, grid in zip(names, grids)})
    assert isinstance(scalar, float) and values[index] == scalar
    # positional arguments in declared order give the same value
    assert formula(*(grid[len(grid) // 2].item() for grid in grids)) == scalar


def _out_of_domain(name):
    declared = parameter(name)
    if declared.integer:
        return [int(declared.low) - 1, MAX_INTEGER + 1]
    bad = [math.nan, math.inf, -math.inf]
    if declared.low is not None:
        bad += [declared.low if declared.low_open else float(np.nextafter(declared.low, -np.inf)),
                declared.low - 1.0]
    if declared.high is not None:
        bad += [declared.high if declared.high_open else float(np.nextafter(declared.high, np.inf)),
                declared.high + 1.0]
    return bad


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_out_of_domain_values_raise_value_error_naming_the_parameter(formula):
    good = {name: parameter(name).typical()[0].item() for name in formula.parameters}
    for name in formula.parameters:
        for bad in _out_of_domain(name):
            for value in (bad, np.array([good[name], bad], dtype=object if isinstance(bad, int) else None)):
                params = dict(good, **{name: value})
                with pytest.raises(ValueError, match=rf"\b{name}\b"):
                    formula(**params)
            with pytest.raises(ValueError, match=rf"\b{name}\b"):
                formula.mp(**dict(good, **{name: bad}))


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_shape_mismatch_and_array_mp_name_the_parameters(formula):
    good = {name: parameter(name).typical()[0].item() for name in formula.parameters}
    name = formula.parameters[-1]
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        formula.mp(**dict(good, **{name: parameter(name).typical()}))
    if len(formula.parameters) > 1:
        first = formula.parameters[0]
        params = dict(good, **{first: parameter(first).typical()[:2],
                               name: parameter(name).typical()[:3]})
        with pytest.raises(ValueError, match=rf"\b{first}\b.*\b{name}\b"):
            formula(**params)


@pytest.mark.parametrize("formula", [f for f in FORMULAS if f.reference is not None and not f.computed],
                         ids=lambda f: f.name)
def test_explicit_reference_agrees_with_expr(formula):
    lambdified = sympy.lambdify(formula.symbols, formula.expr, modules="mpmath")
    for point in _points(formula, n_random=6):
        with mpmath.workdps(60):
            try:
                direct = lambdified(*(mpmath.mpf(point[name]) for name in formula.parameters))
            except ZeroDivisionError:
                continue                                  # the reference supplies the limit here
            reference = formula.reference(**{name: mpmath.mpf(point[name]) for name in formula.parameters})
            assert abs(direct - reference) <= mpmath.mpf(10) ** -45 * abs(direct), point


# --- the Formula class itself: registry, construction, the mp fuzz findings of issue 7 -------------

from varlab.theory import gcws, nrff, rff  # noqa: E402
from varlab.theory.formula import Formula  # noqa: E402


def _toy(name="test.toy", register=False, **fields):
    rho, gamma = parameter("rho").symbol, parameter("gamma").symbol
    defaults = dict(name=name, parameters=("rho", "gamma"), numeric=lambda rho, gamma: gamma * (1 - rho),
                    expr=gamma * (1 - rho), source="test", register=register)
    defaults.update(fields)
    return Formula(**defaults)


def test_registration_by_definition_and_duplicates():
    toy = _toy(name="test.registered_once", register=True)
    try:
        assert theory.formulas()["test.registered_once"] is toy
        with pytest.raises(ValueError, match="test.registered_once"):
            _toy(name="test.registered_once", register=True)
    finally:
        import varlab.theory.formula as formula_module
        del formula_module._REGISTRY["test.registered_once"]
    with pytest.raises(ValueError, match="rff.mean"):
        _toy(name="rff.mean", register=True)
    assert "test.toy" not in theory.formulas() and _toy()(rho=0.5, gamma=2.0) == 1.0


def test_construction_checks():
    with pytest.raises(KeyError, match="nope"):
        _toy(parameters=("rho", "nope"))
    with pytest.raises(ValueError, match="symbols"):          # a plain real gamma is not the declared one
        _toy(expr=sympy.Symbol("gamma", real=True) * 2)
    with pytest.raises(ValueError, match="computed"):
        _toy(expr=None)
    with pytest.raises(ValueError, match="computed"):
        _toy(expr=None, reference=lambda rho, gamma: gamma)
    computed = _toy(expr=None, reference=lambda rho, gamma: gamma * (1 - rho), tolerance=1e-14)
    assert computed.computed and computed.mp(rho=0.5, gamma=2.0) == 1


def test_mp_limit_instead_of_zero_division():
    # issue 7: gcws.variance_ratio.mp(rho=1.0, gamma=1.0) raised a bare ZeroDivisionError
    assert gcws.variance_ratio.mp(rho=1.0, gamma=1.0) == 0
    assert mpmath.isinf(gcws.variance_ratio.mp(rho=-1.0, gamma=1.0))
    assert gcws.variance_ratio(rho=1.0, gamma=1.0) == 0.0
    undefined = _toy(expr=parameter("gamma").symbol / (1 - parameter("rho").symbol))
    with pytest.raises(ValueError, match=r"test.toy.*rho.*1\.0"):
        undefined.mp(rho=1.0, gamma=1.0)


def test_mp_accepts_numpy_scalars():
    # issue 7: .mp rejected numpy float32/uint64 scalars
    assert rff.mean.mp(rho=np.float32(0.5), gamma=np.uint64(2)) == rff.mean.mp(rho=0.5, gamma=2.0)
    assert gcws.estimator_variance.mp(gmm=np.float32(0.25), k=np.uint64(3)) == gcws.estimator_variance.mp(
        gmm=0.25, k=3)
    assert nrff.mse_expansion.mp(rho=np.float16(0.5), gamma=np.int8(1), k=np.int32(4)) > 0


@pytest.mark.parametrize("dps, error", [(0, ValueError), (4, ValueError), (-3, ValueError), (2.5, TypeError),
                                        (50.0, TypeError), (True, TypeError), ("50", TypeError),
                                        (10 ** 6, ValueError)])
def test_mp_rejects_bad_dps(dps, error):
    # issue 7: dps=0 was accepted (and gave a wrong value), dps=2.5 too
    with pytest.raises(error, match="dps"):
        rff.mean.mp(rho=0.5, gamma=1.0, dps=dps)
    with pytest.raises(error, match="dps"):
        gcws.exact_moments_mp(0.5, 1.0, 3, dps=dps)


@pytest.mark.parametrize("gamma", [1e-26, 1e-60, 1e-200, 5e-324])
def test_mp_raises_its_precision_where_the_expression_cancels(gamma):
    # issue 7: at dps=50 .mp was wrong once gamma (1 - rho) < 1e-25 (V_n = V - ... cancels)
    rho = 0.5
    with mpmath.workdps(2000):
        y = mpmath.mpf(gamma) * (1 - mpmath.mpf(rho))
        s = -mpmath.expm1(-2 * y)
        truth = s ** 2 * (5 - s) / 4
        truth_ratio = s ** 2 * (5 - s) / (2 * (1 + s ** 2))
    for formula, exact in ((nrff.asymptotic_variance, truth), (nrff.variance_ratio, truth_ratio)):
        value = formula.mp(rho=rho, gamma=gamma, dps=50)
        with mpmath.workdps(60):
            assert abs(value - exact) <= mpmath.mpf(10) ** -49 * exact, (formula.name, gamma)
    assert nrff.asymptotic_variance(rho=rho, gamma=1e-26) == pytest.approx(float(truth), rel=1e-14)


def test_mp_says_when_it_cannot_converge():
    noisy = _toy(expr=None, reference=lambda rho, gamma: mpmath.rand(), tolerance=1e-12)
    with pytest.raises(ValueError, match="cannot reach"):
        noisy.mp(rho=0.5, gamma=1.0, dps=10)


def test_mp_with_arrays_and_bad_names():
    with pytest.raises(ValueError, match=r"\bgamma\b.*shape"):
        rff.variance.mp(rho=0.5, gamma=[1.0, 2.0])
    with pytest.raises(TypeError, match="unexpected"):
        rff.variance(rho=0.5, gamma=1.0, k=3)
    with pytest.raises(TypeError, match="missing"):
        rff.variance(rho=0.5)
    with pytest.raises(ValueError, match=r"\bk\b"):
        gcws.exact_mean.mp(rho=0.5, gamma=1.0, k=10 ** 6)       # beyond the reference's domain


def test_computed_formulas_match_exact_moments_mp():
    mean, variance = gcws.exact_moments_mp(0.3, 2.0, 40)
    assert gcws.exact_mean.mp(rho=0.3, gamma=2.0, k=40) == mean
    with mpmath.workdps(50):
        assert abs(gcws.exact_variance.mp(rho=0.3, gamma=2.0, k=40) - variance) <= 1e-45 * variance
    assert gcws.exact_mean(0.3, 2.0, 40) == gcws.exact_moments(0.3, 2.0, 40)[0]
    assert gcws.exact_mean.computed and gcws.exact_variance.tolerance == 1e-10
