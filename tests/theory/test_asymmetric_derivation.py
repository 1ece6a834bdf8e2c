"""Paper 002: sympy re-derivations (varlab.theory.asymmetric_derivation) equal the implemented forms."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from varlab.theory import asymmetric as theory
from varlab.theory import asymmetric_integrals as integrals
from varlab.theory import asymmetric_derivation as ad


@pytest.mark.parametrize("kernel", ["shift_gaussian", "sinh_gaussian", "cosh_gaussian"])
def test_printed_transforms_invert_to_the_kernels(kernel):
    assert ad.transform_residual(kernel) == 0


def test_projection_is_gaussian_with_spread_c_over_sigma():
    phi, c = ad.projection_characteristic_function(3)
    expected = sp.exp(-ad.t ** 2 * sum(cj ** 2 for cj in c) / (2 * ad.sigma ** 2))
    assert sp.simplify(phi - expected) == 0


@pytest.mark.parametrize("h", ad.H_FUNCTIONS)
def test_fourier_coefficients_match_the_implementation(h):
    orders = np.arange(-7, 8)
    derived = np.array([complex(ad.fourier_coefficient(h, int(k))) for k in orders])
    np.testing.assert_allclose(integrals._coefficients(h, orders), derived, atol=1e-15)


@pytest.mark.parametrize("order", [-3, -2, -1, 0, 1, 2, 3])
def test_corollary5_from_the_coefficients(order):
    assert ad.corollary5_coefficients(order) == (0, 0)


@pytest.mark.parametrize("h, formula", [("cos+", theory.cos_positive_mass), ("cos-", theory.cos_negative_mass),
                                        ("sin+", theory.sin_positive_mass)])
@pytest.mark.parametrize("spread", [0.8, 1.5])
def test_mass_series_equals_the_one_dimensional_masses(h, formula, spread):
    assert abs(float(ad.mass_series(h, spread)) - formula(spread=spread)) < 1e-12


def test_bad_arguments():
    with pytest.raises(ValueError, match="h must be one of"):
        ad.fourier_coefficient_general("tan+")
    with pytest.raises(TypeError, match="order must be an int"):
        ad.fourier_coefficient("cos+", 1.5)
    with pytest.raises(ValueError, match="kernel must be one of"):
        ad.transform_residual("laplace")
