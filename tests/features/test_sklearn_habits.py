"""The habits scikit-learn users bring to varlab's maps (issue 36, item 6): GCWS's all-zero rows
(``zero_rows``), dense and pandas output (``sparse_output=False``), the warning for a constant
1-bit code, and ``gamma="scale"`` wherever a map takes scikit-learn's gamma."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.kernel_approximation import RBFSampler

from varlab.features import GCWS, RFF, RandomMaclaurin


@pytest.fixture
def with_zero_rows():
    X = np.random.default_rng(0).standard_normal((6, 5))
    X[[1, 4]] = 0.0
    return X


def test_all_zero_rows_encode_as_zeros_by_default(with_zero_rows):
    X = with_zero_rows
    gcws = GCWS(64, b=4, random_state=0).fit(X)
    dense, sparse = gcws.transform(X), gcws.transform(sp.csr_matrix(X))
    assert (dense != sparse).nnz == 0
    assert dense.sum(axis=1).A1.tolist() == [64, 0, 64, 64, 0, 64]
    kept = [0, 2, 3, 5]
    assert (gcws.transform(X[kept]) != dense[kept]).nnz == 0          # other rows as without the zero rows
    i_star, t_star = gcws.hash(X)
    assert (i_star[[1, 4]] == -1).all() and (t_star[[1, 4]] == -1).all() and (i_star[kept] >= 0).all()
    assert (gcws.code(i_star, t_star) != dense).nnz == 0
    estimate = gcws.kernel_estimate(X)
    assert (estimate[[1, 4]] == 0).all() and (estimate[:, [1, 4]] == 0).all()
    assert np.array_equal(estimate[np.ix_(kept, kept)], gcws.kernel_estimate(X[kept]))


def test_all_zero_rows_raise_naming_them_on_request(with_zero_rows):
    gcws = GCWS(64, b=4, zero_rows="raise", random_state=0).fit(with_zero_rows)
    for method in (gcws.transform, gcws.hash, gcws.kernel_estimate):
        with pytest.raises(ValueError, match=r"2 all-zero row\(s\) after centring \(u~ = 0\), rows \[1, 4\]"):
            method(with_zero_rows)
    centred = GCWS(8, center=np.ones(5), zero_rows="raise", random_state=0).fit(np.ones((2, 5)))
    with pytest.raises(ValueError, match=r"rows \[0\]"):
        centred.transform(sp.csr_matrix(np.ones((1, 5))))
    assert GCWS(8, center=np.ones(5), random_state=0).fit(np.ones((2, 5))).transform(np.ones((1, 5))).nnz == 0


def test_dense_and_pandas_output():
    X = np.random.default_rng(1).standard_normal((4, 3))
    sparse = GCWS(8, b=3, random_state=0).fit(X).transform(X)
    dense = GCWS(8, b=3, sparse_output=False, random_state=0).fit(X).transform(X)
    assert isinstance(dense, np.ndarray) and dense.dtype == np.float64
    assert np.array_equal(dense, sparse.toarray())
    pandas = pytest.importorskip("pandas")
    frame = GCWS(8, b=3, sparse_output=False, random_state=0).set_output(transform="pandas").fit(X).transform(X)
    assert isinstance(frame, pandas.DataFrame) and np.array_equal(frame.to_numpy(), dense)
    assert list(frame.columns[:2]) == ["gcws0", "gcws1"]


def _warnings(model, X):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X)
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_one_bit_zero_bit_code_on_one_sided_data_warns_at_fit():
    X = np.abs(np.random.default_rng(2).standard_normal((20, 4)))
    message = _warnings(GCWS(32, b=1, zero_bit=True, random_state=0), X)
    assert len(message) == 1 and "at chance" in message[0] and "same parity" in message[0]
    assert len(_warnings(GCWS(32, b=1, zero_bit=True, random_state=0), sp.csr_matrix(X))) == 1
    assert len(_warnings(GCWS(32, b=1, zero_bit=True, random_state=0), -X)) == 1
    for quiet, data in [(GCWS(32, b=1, zero_bit=True, random_state=0), X - 0.5),        # both sides
                        (GCWS(32, b=1, zero_bit=True, center=np.full(4, 0.5), random_state=0), X),
                        (GCWS(32, b=2, zero_bit=True, random_state=0), X),
                        (GCWS(32, b=1, random_state=0), X)]:                          # full samples mix t*
        assert _warnings(quiet, data) == []
    # the warning is right: the 1-bit code of one-sided data is one column per sample, always
    code = GCWS(32, b=1, zero_bit=True, random_state=0).fit(X - 0.5).transform(X)
    assert np.unique(code.toarray(), axis=0).shape[0] == 1


@pytest.mark.parametrize("sparse", [False, True])
def test_gamma_scale_as_rbf_sampler(sparse):
    X = 3.0 * np.random.default_rng(3).standard_normal((40, 6)) + 1.0
    X = sp.csr_matrix(X) if sparse else X
    expected = RBFSampler(gamma="scale", random_state=0).fit(X)._gamma
    assert RFF(16, gamma="scale", random_state=0).fit(X).gamma_ == pytest.approx(expected, rel=1e-12)
    assert RandomMaclaurin(16, gamma="scale", random_state=0).fit(X).gamma_ == pytest.approx(expected, rel=1e-12)
    numeric = RFF(16, gamma=expected, random_state=0).fit(X)
    assert np.array_equal(RFF(16, gamma="scale", random_state=0).fit(X).transform(X), numeric.transform(X))
    assert RFF(16, gamma=0.3, random_state=0).fit(X).gamma_ == 0.3
    assert RFF(4, gamma="scale", random_state=0).fit(np.ones((3, 2))).gamma_ == 1.0      # constant X
