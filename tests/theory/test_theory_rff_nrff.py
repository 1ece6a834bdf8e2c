"""Numerics of every Formula in varlab.theory.rff and varlab.theory.nrff.

* accuracy: the numpy value against ``Formula.mp`` at 50 digits on a grid reaching rho -> 1 and
  gamma in [1e-3, 1e3]: relative error <= 1e-12 wherever the exact value is a normal float64;
  exactly 0.0 where the exact value is 0; where the exact value lies outside float64's normal
  range (e.g. exp(-2000)) the numpy value is its nearest representable neighbour (0 or inf),
  never NaN;
* broadcasting over parameter arrays;
* validators reject every out-of-domain value with a ValueError naming the parameter;
* properties proved in the comments (hypothesis).
"""
import math

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from varlab.theory import nrff, rff
from varlab.theory.formula import Formula


def _formulas():
    found = {}
    for module in (rff, nrff):
        for value in vars(module).values():
            if isinstance(value, Formula):
                found[value.name] = value
    return [found[name] for name in sorted(found)]


FORMULAS = _formulas()
IDS = [formula.name for formula in FORMULAS]

RHO_GRID = [-1.0, -1.0 + 1e-12, -1.0 + 1e-6, -0.9, -0.5, -0.1, 0.0, 0.1, 0.5, 0.9, 0.99,
            1 - 1e-6, 1 - 1e-9, 1 - 1e-12, 1.0]
GAMMA_GRID = list(np.logspace(-3, 3, 13))
K_GRID = [1, 2, 7, 100, 10 ** 6]
E_GRID = sorted(set(list(np.logspace(-150, 0, 61)) + [1e-300, 1e-160, 7.6e-155, 0.1, 0.5, 0.9,
                                                      1 - 1e-6, 1 - 1e-9, 1 - 1e-12, 1.0]))

TINY = np.finfo(np.float64).tiny
HUGE = np.finfo(np.float64).max


def _grid(formula):
    names = formula.parameters
    if names == ("E",):
        return [{"E": e} for e in E_GRID]
    points = [{"rho": r, "gamma": g} for r in RHO_GRID for g in GAMMA_GRID]
    if "k" in names:
        points = [dict(point, k=k) for point in points for k in K_GRID]
    assert set(points[0]) == set(names), names
    return points


def test_every_formula_is_collected():
    names = set(IDS)
    assert {"rff.mean", "rff.variance", "rff.no_phase_mean", "rff.no_phase_variance",
            "nrff.asymptotic_variance", "nrff.variance_ratio", "nrff.bias_coefficient",
            "nrff.mse_second_order_coefficient", "nrff.mse_expansion", "nrff.bias_expansion"} <= names


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_numpy_against_mpmath_50_digits(formula):
    failures = []
    for point in _grid(formula):
        with np.errstate(over="ignore", divide="ignore", under="ignore"):
            value = formula(**point)
        exact = formula.mp(dps=50, **point)
        assert not math.isnan(value), point
        if exact == 0:
            ok = value == 0.0
        elif abs(exact) > HUGE:                      # not representable: must overflow to inf
            ok = math.isinf(value) and (value > 0) == (exact > 0)
        elif abs(exact) < TINY:                      # below the normal range: round to 0/subnormal
            ok = abs(value - float(exact)) <= TINY
        else:
            ok = math.isfinite(value) and abs(mpmath.mpf(value) - exact) <= 1e-12 * abs(exact)
        if not ok:
            failures.append((point, value, mpmath.nstr(exact, 17)))
    assert not failures, failures[:5]


def test_exact_zeros_at_rho_one():
    gammas = np.array(GAMMA_GRID)
    for formula in (nrff.asymptotic_variance, nrff.variance_ratio, nrff.bias_coefficient,
                    nrff.mse_second_order_coefficient):
        values = formula(rho=np.ones_like(gammas), gamma=gammas)
        assert np.all(values == 0.0) and not np.any(np.signbit(values)), formula.name
    for formula in (nrff.mse_expansion, nrff.bias_expansion):
        values = formula(rho=1.0, gamma=gammas[:, None], k=np.array(K_GRID)[None, :])
        assert np.all(values == 0.0), formula.name


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_broadcasting(formula):
    names = formula.parameters
    if names == ("E",):
        E = np.array([[0.1, 0.5], [0.9, 1.0]])
        values = formula(E=E)
        assert values.shape == (2, 2)
        assert values[1, 0] == formula(E=0.9)
        return
    rho = np.array([-1.0, 0.0, 0.5, 1.0])[:, None]
    gamma = np.array([1e-3, 1.0, 10.0])[None, :]
    params = {"rho": rho, "gamma": gamma}
    expected_shape = (4, 3)
    if "k" in names:
        params = {"rho": rho[:, :, None], "gamma": gamma[:, :, None], "k": np.array([1, 50])[None, None, :]}
        expected_shape = (4, 3, 2)
    values = formula(**params)
    assert isinstance(values, np.ndarray) and values.shape == expected_shape
    scalar = {"rho": 0.5, "gamma": 10.0, "k": 50}
    index = (2, 2, 1) if "k" in names else (2, 2)
    assert values[index] == formula(**{name: scalar[name] for name in names})
    assert isinstance(formula(**{name: scalar[name] for name in names}), float)


# --- validators ---------------------------------------------------------------------------------

_NON_FINITE = st.sampled_from([math.nan, math.inf, -math.inf])
_BAD = {
    "rho": st.one_of(_NON_FINITE, st.floats(min_value=1.0, exclude_min=True, allow_infinity=False),
                     st.floats(max_value=-1.0, exclude_max=True, allow_infinity=False)),
    "gamma": st.one_of(_NON_FINITE, st.floats(max_value=0.0, allow_infinity=False)),
    "E": st.one_of(_NON_FINITE, st.floats(max_value=0.0, allow_infinity=False),
                   st.floats(min_value=1.0, exclude_min=True, allow_infinity=False)),
    # k is an integer parameter: integers out of range are a ValueError; any float (even 2.0,
    # NaN or inf) is a TypeError, tested in test_k_rejects_floats_and_bools
    "k": st.one_of(st.integers(max_value=0), st.integers(min_value=2 ** 53 + 1, max_value=2 ** 70)),
}
_GOOD = {"rho": 0.5, "gamma": 1.0, "E": 0.5, "k": 10}


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_validators_reject_out_of_domain_values(formula, data):
    name = data.draw(st.sampled_from(formula.parameters))
    bad = data.draw(_BAD[name])
    as_array = data.draw(st.booleans())
    params = {p: _GOOD[p] for p in formula.parameters}
    # (an object array for k: numpy would turn [10, 2**63] into floats, a TypeError)
    params[name] = (np.array([_GOOD[name], bad], dtype=object if name == "k" else None) if as_array
                    else bad)
    with pytest.raises(ValueError, match=name):
        formula(**params)
    with pytest.raises(ValueError, match=name):
        formula.mp(**params) if not as_array else formula(**params)


@pytest.mark.parametrize("bad", [2.0, 3.5, np.nan, np.inf, True, np.bool_(True), [True, 2], [2.0, 3.0],
                                 np.array([1.0, 2.0]), "7", np.array(["7"], dtype=object)])
@pytest.mark.parametrize("formula", [nrff.mse_expansion, nrff.bias_expansion], ids=lambda f: f.name)
def test_k_rejects_floats_and_bools(formula, bad):
    # issue 7: k=2.0 was accepted by nrff formulas and a TypeError in gcws; now one rule
    with pytest.raises(TypeError, match=r"\bk\b"):
        formula(rho=0.5, gamma=1.0, k=bad)


def test_k_accepts_numpy_integers_and_rejects_wrapping_uint64():
    expected = nrff.mse_expansion(rho=0.5, gamma=1.0, k=7)
    assert nrff.mse_expansion(rho=0.5, gamma=1.0, k=np.uint64(7)) == expected
    assert nrff.mse_expansion(rho=0.5, gamma=1.0, k=np.int8(7)) == expected
    assert nrff.mse_expansion(rho=0.5, gamma=1.0, k=np.array([7], np.uint16))[0] == expected
    with pytest.raises(ValueError, match=r"\bk\b"):
        nrff.mse_expansion(rho=0.5, gamma=1.0, k=np.array([2 ** 63], np.uint64))
    # k = 2^53 (the largest accepted) does not wrap in k^2
    assert nrff.mse_expansion(rho=0.5, gamma=1.0, k=2 ** 53) > 0.0


@pytest.mark.parametrize("formula", FORMULAS, ids=IDS)
def test_no_nan_at_rho_edges_and_huge_gamma(formula):
    # issue 7: -2.0 * gamma overflowed to -inf and -inf * (1 - rho) = NaN at rho = 1 (nine formulas)
    if "rho" not in formula.parameters:
        return
    for rho in (-1.0, 1.0):
        for gamma in (1e308, 1.7e308, np.finfo(np.float64).max):
            params = {"rho": rho, "gamma": gamma, "k": 3}
            value = formula(**{name: params[name] for name in formula.parameters})
            assert not math.isnan(value), (rho, gamma)
            exact = formula.mp(**{name: params[name] for name in formula.parameters})
            if abs(exact) > HUGE:
                assert math.isinf(value)
            elif exact == 0 or abs(exact) < TINY:
                assert abs(value) <= TINY
            else:
                assert abs(mpmath.mpf(value) - exact) <= 1e-12 * abs(exact), (rho, gamma, value, exact)


def test_validators_accept_the_closed_domain_ends():
    assert nrff.asymptotic_variance(rho=-1.0, gamma=5e-324) >= 0.0
    assert nrff.mse_expansion(rho=np.array([-1.0, 1.0]), gamma=1.0, k=1).shape == (2,)
    assert rff.relative_variance_of_mean(E=1.0) == 0.5
    with pytest.raises(ValueError, match="E"):
        rff.relative_variance_of_mean(E=0.0)


# --- properties (hypothesis), each proved -----------------------------------------------------------

_rho = st.floats(min_value=-1.0, max_value=1.0)
_gamma = st.floats(min_value=1e-3, max_value=1e3)


@given(_rho, _gamma)
def test_nrff_variance_is_below_rff_variance(rho, gamma):
    # V - V_n = e^{-2 gamma (1-rho)} [3 - e^{-4 gamma (1-rho)}] / 4 >= 0 (Eq. 20-21)
    v_n = nrff.asymptotic_variance(rho=rho, gamma=gamma)
    v = rff.variance(rho=rho, gamma=gamma)
    assert 0.0 <= v_n <= v * (1 + 4e-16)


@given(_gamma)
def test_nrff_variance_and_finite_k_terms_vanish_at_rho_one(gamma):
    assert nrff.asymptotic_variance(rho=1.0, gamma=gamma) == 0.0
    assert nrff.bias_coefficient(rho=1.0, gamma=gamma) == 0.0
    assert nrff.mse_second_order_coefficient(rho=1.0, gamma=gamma) == 0.0
    assert rff.variance(rho=1.0, gamma=gamma) == 0.5


@given(_rho, _rho, _gamma)
def test_monotone_in_rho(rho1, rho2, gamma):
    # s = 1 - e^{-2 gamma (1 - rho)} is decreasing in rho; V_n = h(s) = s^2 (5 - s)/4 with
    # h'(s) = s (10 - 3 s)/4 >= 0 on [0, 1]; V = (1 + s^2)/2; V_n / V = s^2 (5 - s) / (2 (1 + s^2))
    # has derivative 2 s (10 - 3 s - s^3) / D^2 >= 0 on [0, 1]. So V_n, V, V_n/V are non-increasing
    # in rho and the RFF mean e^{-gamma (1 - rho)} is increasing. Tolerance: 1e-12 relative.
    low, high = min(rho1, rho2), max(rho1, rho2)
    assume(low < high)
    for formula in (nrff.asymptotic_variance, rff.variance, nrff.variance_ratio):
        assert formula(rho=low, gamma=gamma) >= formula(rho=high, gamma=gamma) * (1 - 1e-12), formula.name
    assert rff.mean(rho=low, gamma=gamma) <= rff.mean(rho=high, gamma=gamma) * (1 + 1e-12)


@given(_rho, _gamma, _gamma)
def test_nrff_variance_is_non_decreasing_in_gamma(rho, gamma1, gamma2):
    # s increases with gamma for rho < 1, and V_n = h(s) with h non-decreasing
    low, high = min(gamma1, gamma2), max(gamma1, gamma2)
    assert (nrff.asymptotic_variance(rho=rho, gamma=low)
            <= nrff.asymptotic_variance(rho=rho, gamma=high) * (1 + 1e-12))


@given(_rho, _gamma, st.integers(min_value=1, max_value=10 ** 6))
def test_signs_of_the_finite_k_terms(rho, gamma, k):
    # b1 = t (t^4 - 1)/8 <= 0 and c2 = t^2 (1 - t^2)^2 (...)/64 >= 0 for t in (0, 1]
    assert nrff.bias_coefficient(rho=rho, gamma=gamma) <= 0.0
    assert nrff.mse_second_order_coefficient(rho=rho, gamma=gamma) >= 0.0
    v_n = nrff.asymptotic_variance(rho=rho, gamma=gamma)
    assert nrff.mse_expansion(rho=rho, gamma=gamma, k=k) >= v_n / k
    assert nrff.bias_expansion(rho=rho, gamma=gamma, k=k) == nrff.bias_coefficient(rho=rho, gamma=gamma) / k


@given(_rho, st.floats(min_value=1e-3, max_value=30.0))
def test_relative_variance_forms_agree(rho, gamma):
    # Var/E^2 as a function of (rho, gamma) equals the E-form at E = exp(-gamma (1 - rho)).
    # The E-forms of V_n/E^2 hold (1 - E^2)^2, whose condition number in E is ~2/(1 - E): the
    # rounding of E itself is amplified near E = 1, so compare the NRFF forms only where
    # 1 - E >~ 1e-3 (an inherent limit of the E parametrisation, not of the formulas).
    E = rff.mean(rho=rho, gamma=gamma)
    assert rff.relative_variance(rho=rho, gamma=gamma) == pytest.approx(
        rff.relative_variance_of_mean(E=E), rel=1e-12)
    assume(gamma * (1 - rho) >= 1e-3)
    assert nrff.asymptotic_variance(rho=rho, gamma=gamma) / E ** 2 == pytest.approx(
        nrff.relative_variance_of_mean(E=E), rel=1e-12, abs=1e-300)
