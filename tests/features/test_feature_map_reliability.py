"""Feature maps never return NaN or inf from finite input, and refuse oversized requests up front
(issue 22, defects 3 and 7): each case below returned NaN/inf or died with MemoryError before."""
from __future__ import annotations

import numpy as np
import pytest

from varlab.features import GRFF, AsKRFF, RandomMaclaurin

EXTREME = np.array([[-1.7976931348623157e308, 0.0], [1.0, 2.2250738585072014e-308]])


@pytest.mark.parametrize("kernel, kernel_params", [("gaussian", {"lengthscale": 1e-3}),
                                                   ("delta_gaussian", {"lengthscales": (1e-3, 1e-2)})])
@pytest.mark.parametrize("orthogonality", ["mutual", "separate"])
@pytest.mark.parametrize("sampler", ["iid", "orthogonal"])
def test_grff_refuses_phases_that_overflow_instead_of_nan(sampler, orthogonality, kernel, kernel_params):
    """The issue's case (GRFF(kernel='gaussian', n_components=1, orthogonality='mutual') on
    EXTREME gave NaN), with frequencies of size ~1e3 so that <w, x> overflows for every seed."""
    grff = GRFF(1, kernel=kernel, kernel_params=kernel_params, sampler=sampler, orthogonality=orthogonality,
                random_state=0).fit(EXTREME)
    for method in (grff.transform, grff.right):
        with pytest.raises(ValueError, match="overflow"):
            method(EXTREME)
    assert np.all(np.isfinite(grff.transform(EXTREME[1:])))


def test_askrff_refuses_phases_that_overflow_instead_of_nan():
    ask = AsKRFF(4, random_state=0).fit(EXTREME[1:])
    with pytest.raises(ValueError, match="overflow"):
        ask.transform(EXTREME)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_random_maclaurin_refuses_features_that_overflow_instead_of_inf(dtype):
    X = np.array([[1e150, 1.0], [0.5, 0.25]]) if dtype == np.float64 else np.array([[1e20, 1.0], [0.5, 0.25]])
    rm = RandomMaclaurin(64, degree=3, coef0=1.0, random_state=0).fit(X.astype(dtype))
    with pytest.raises(ValueError, match="overflow"):
        rm.transform(X.astype(dtype))
    small = rm.transform(X[1:].astype(dtype))
    assert small.dtype == dtype and np.all(np.isfinite(small))


@pytest.mark.parametrize("make, X", [
    (lambda: __import__("varlab.features", fromlist=["GCWS"]).GCWS(n_components=2 ** 32), np.ones((1, 2))),
    (lambda: __import__("varlab.features", fromlist=["RFF"]).RFF(n_components=10 ** 10), np.ones((1, 2))),
    (lambda: GRFF(n_components=10 ** 9), np.ones((1, 2))),
    (lambda: RandomMaclaurin(10 ** 8, degree=20), np.ones((1, 2))),
    (lambda: AsKRFF(n_components=10 ** 9), np.ones((1, 2))),
])
def test_oversized_requests_are_refused_up_front_naming_the_parameter(make, X):
    """The issue's cases died with MemoryError (or swapped); now a ValueError names n_components
    and the size, before anything is allocated."""
    with pytest.raises(ValueError, match="n_components is too large.*GiB"):
        make().fit_transform(X)


def test_a_transform_output_too_large_names_x():
    from varlab.features import RFF

    rff = RFF(4096, random_state=0).fit(np.ones((1, 2)))
    big = np.broadcast_to(np.ones((1, 2)), (2 ** 18, 2))     # 2^18 rows x 4096 columns = 8 GiB
    with pytest.raises(ValueError, match="X is too large"):
        rff.transform(big)
