"""Paper 002 experiments: Fig. 2's one-pass Gram errors equal the AsKRFF Gram; Eq. (12) helper."""
from __future__ import annotations

import numpy as np
import pytest

from paper_checks.p002 import gram_error
from varlab.features import AsKRFF
from varlab.features.asymmetric import asymmetric_gram, fit_total_masses


def test_normalised_data_in_unit_cube():
    X_train, _, X_test, _ = gram_error.normalised("letter")
    assert X_train.min() >= 0 and X_train.max() <= 1 and X_test.min() >= 0 and X_test.max() <= 1


@pytest.mark.parametrize("kernel", list(gram_error.KERNELS))
def test_one_pass_errors_equal_the_feature_map_gram(kernel):
    X = gram_error.normalised("letter")[0][:60]
    d = X.shape[1]
    _, exact_errors, masses = gram_error.gram_errors(X, kernel, 2, np.random.default_rng(4))
    ask = AsKRFF(kernel, n_components=4 * d, sigma=gram_error.SIGMA, random_state=np.random.default_rng(4),
                 **{gram_error.KERNELS[kernel]: gram_error.kernel_vector(kernel, d)}).fit(X)
    K = asymmetric_gram(kernel, X, X, gram_error.SIGMA, ask.vector_)
    assert exact_errors[-1] == pytest.approx(np.linalg.norm(ask.gram(X) - K) / np.linalg.norm(K), rel=1e-10)
    assert masses.shape == (2, 3) and np.all(masses >= 0)


def test_fit_total_masses_validates_shapes():
    with pytest.raises(ValueError, match="one shape"):
        fit_total_masses(np.eye(3), 1.0, np.eye(3), np.eye(2), np.eye(3))
