"""Paper 004: the registered GRFF/GORF variance Formulas of varlab.theory.signed and the three
forms of the cross covariance H0 of two Gaussian parts (the contract of every Formula is in
tests/theory/test_formula_contract.py)."""
import mpmath
import numpy as np
import pytest

from varlab.spectral.signed import DeltaGaussian
from varlab.theory import formulas, orthogonal
from varlab.theory import signed as theory


def _definition_mp(d, x1, x2):
    """H0 by its definition: E_U 1F1(d; d/2; -(x2 + (x1 - x2) U)) - e^{-x1-x2}, U ~ Beta(d/2, d/2)."""
    b = mpmath.mpf(d) / 2
    c = x1 - x2

    def f(u):
        return u ** (b - 1) * (1 - u) ** (b - 1) * mpmath.hyp1f1(d, b, -(x2 + c * u))
    return mpmath.quad(f, [0, 0.25, 0.5, 0.75, 1]) / mpmath.beta(b, b) - mpmath.exp(-x1 - x2)


@pytest.mark.parametrize("d, r", [(1, 0.5), (1, 5.0), (4, 2.0), (4, 20.0), (16, 1.0), (16, 5.0)])
def test_cross_covariance_forms_agree_with_the_definition(d, r):
    with mpmath.workdps(30):
        x1 = mpmath.mpf(r) ** 2 / 2
        x2 = x1 / 100
        series = theory._series_mp(mpmath.mpf(d) / 2, x1, x2)
        integral = theory._integral_mp(mpmath.mpf(d) / 2, x1, x2)
        definition = _definition_mp(d, x1, x2)
    assert abs(series - definition) <= 1e-12 * abs(definition)
    assert abs(integral - definition) <= 1e-12 * abs(definition)
    value = theory.gaussian_cross_covariance(d, float(x1), float(x2))
    assert value == pytest.approx(float(definition), rel=1e-9)


def test_cross_covariance_equal_bandwidths_is_the_single_part_covariance():
    # x1 = x2: Phi_2(b, b; b; -x, -x) - e^{-2x} = 1F1(d; d/2; -x) - e^{-2x} (theory/orthogonal)
    for d, r in ((3, 0.7), (8, 1.5), (8, 4.0)):
        with mpmath.workdps(30):
            x = mpmath.mpf(r) ** 2 / 2
            assert abs(theory._series_mp(mpmath.mpf(d) / 2, x, x)
                       - orthogonal._covariance_mp(d, mpmath.mpf(r))) < mpmath.mpf(10) ** -25


def test_float64_cross_covariance_against_the_reference_over_regimes():
    worst = 0.0
    for d in (1, 2, 5, 16, 64):
        for r in (1e-3, 0.5, 1.9, 2.1, 5.0, 15.0, 40.0, 300.0):      # series, Jacobi, Laguerre
            x1 = r * r / 2
            value = theory.gaussian_cross_covariance(d, x1, x1 / 100)
            with mpmath.workdps(30):
                exact = float(theory.gaussian_cross_covariance_mp(d, x1, x1 / 100))
            assert abs(value - exact) <= max(1e-9 * abs(exact), 1e-15), (d, r, value, exact)
            worst = max(worst, abs(value - exact))
    assert worst < 1e-12


def test_formulas_are_registered_and_match_the_measure_api():
    names = set(formulas())
    assert {"signed.grff_variance", "signed.gorf_variance", "signed.gorf_variance_mutual"} <= names
    measure = DeltaGaussian()                                 # a = (1, -1), sigma = (1, 10)
    r = np.array([0.5, 1.0, 2.0, 5.0])
    for d in (4, 16, 64):
        for s in (d // 2, d, 2 * d, 8 * d):
            np.testing.assert_allclose(theory.grff_variance(distance=r, k=s),
                                       theory.estimator_variance(measure, d, r, s, "iid"), rtol=1e-12)
            np.testing.assert_allclose(theory.gorf_variance(dimension=d, distance=r, k=s),
                                       theory.estimator_variance(measure, d, r, s, "separate"), rtol=1e-10)
            np.testing.assert_allclose(theory.gorf_variance_mutual(mutual_dimension=d, distance=r, k=s),
                                       theory.estimator_variance(measure, d, r, s, "mutual"), rtol=1e-10)


def test_gaussian_forms_match_the_generic_quadrature():
    # two single-Gaussian parts with ratio 3: the closed forms vs the tensor quadrature (1e-6)
    measure = DeltaGaussian((1.0, -0.6), (1.0, 3.0))
    parts = measure.parts()
    r = np.array([0.5, 1.5, 3.0])
    fast = theory.cross_covariance(parts["positive"], parts["negative"], 6, r)
    la, lb = (parts[p].norm_law(6).quadrature(200) for p in ("positive", "negative"))
    slow = orthogonal.covariance_numeric(la, lb, 6, r, nodes=200) - (
        parts["positive"].kernel_of_distance(r) * parts["negative"].kernel_of_distance(r))
    np.testing.assert_allclose(fast, slow, atol=3e-6)


def test_slides_decomposition_for_s_at_most_half_d():
    # Var(GORF) - Var(GRFF) = G+ + G- + H for s <= d/2 (004 'Variance Reduction', P = N = 1)
    measure = DeltaGaussian()
    parts = measure.parts()
    d, r = 16, np.array([0.5, 2.0, 5.0])
    for s in (2, 8):
        gap = (theory.gorf_variance_mutual(mutual_dimension=d, distance=r, k=s)
               - theory.grff_variance(distance=r, k=s))
        pieces = (theory.G(parts["positive"], d, r, s) + theory.G(parts["negative"], d, r, s)
                  + theory.H(measure, d, r))
        np.testing.assert_allclose(gap, pieces, rtol=1e-10, atol=1e-17)


def test_large_dimension_is_refused_by_name():
    """The mutual form's dimension is declared up to 300 (issue 22, defect 4): refused as such."""
    assert theory.gorf_variance_mutual.domain["mutual_dimension"] == "integers >= 1 and <= 300"
    with pytest.raises(ValueError, match=r"mutual_dimension must be an integer in \[1, 300\]"):
        theory.gorf_variance_mutual(mutual_dimension=301, distance=1.0, k=10)
