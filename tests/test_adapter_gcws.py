"""Tests of the scikit-learn adapter varlab.adapters.gcws.GCWSTransformer."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from varlab.adapters.gcws import GCWSTransformer  # noqa: E402
from varlab.features import GCWS  # noqa: E402

_ZERO_ROWS = ("this check casts uniform [0, 3) data to integers, which gives all-zero rows; a row "
              "with u~ = 0 has no GCWS sample (Algorithm 1 takes an argmin over the nonzeros of u~, "
              "and GMM with it is 0/0), so transform rejects it by design")


def _expected_failed_checks(estimator):
    return {"check_estimators_dtypes": _ZERO_ROWS}


@parametrize_with_checks(
    [GCWSTransformer(n_components=32), GCWSTransformer(n_components=16, b=4, zero_bit=True)],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_delegates_to_features_gcws():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 6))
    for params in (dict(), dict(b=2, zero_bit=False), dict(center=rng.standard_normal(6))):
        adapter = GCWSTransformer(40, random_state=7, **params).fit(X)
        core = GCWS(40, random_state=7, **params)
        assert adapter.key_ == core.fit().key_
        Z = adapter.transform(X)
        assert sp.issparse(Z) and Z.format == "csr" and Z.dtype == np.float64
        assert Z.shape == (20, (1 << adapter.gcws_.b) * 40)
        np.testing.assert_array_equal(Z.toarray(), core.transform(X).toarray())
        np.testing.assert_array_equal(adapter.hash(X)[0], core.hash(X)[0])
        np.testing.assert_array_equal(np.diff(Z.indptr), 40)
    names = GCWSTransformer(1, b=1, random_state=0).fit(X).get_feature_names_out()
    assert list(names) == ["gcwstransformer0", "gcwstransformer1"]


def test_parameters_and_errors():
    X = np.random.default_rng(0).standard_normal((10, 3))
    a = GCWSTransformer(8, random_state=np.random.RandomState(1)).fit(X).key_
    b = GCWSTransformer(8, random_state=np.random.RandomState(1)).fit(X).key_
    assert a == b
    model = GCWSTransformer(8, b=3, center=[0.0, 1.0, 2.0], random_state=0)
    assert clone(model).get_params() == model.get_params()
    assert model.get_params()["center"] == [0.0, 1.0, 2.0]             # stored unchanged
    with pytest.raises(NotFittedError):
        model.transform(X)
    with pytest.raises(ValueError, match="center"):
        GCWSTransformer(8, center=[1.0, 2.0]).fit(X)
    with pytest.raises(ValueError, match="b must"):
        GCWSTransformer(8, b=None).fit(X)
    with pytest.raises(ValueError, match="n_components"):
        GCWSTransformer(0).fit(X)
    with pytest.raises(ValueError, match="all-zero"):
        GCWSTransformer(8, random_state=0).fit(X).transform(np.zeros((1, 3)))
    # signed data and a sparse input give the same features
    fitted = GCWSTransformer(8, random_state=0).fit(X)
    np.testing.assert_array_equal(fitted.transform(sp.csr_matrix(X)).toarray(), fitted.transform(X).toarray())


def test_pipeline_with_linear_svc_on_digits():
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    baseline = LinearSVC().fit(X_train, y_train).score(X_test, y_test)
    pipeline = make_pipeline(GCWSTransformer(n_components=128, b=8, random_state=0), LinearSVC())
    score = pipeline.fit(X_train, y_train).score(X_test, y_test)
    assert score > 0.95 and score > baseline
    assert pipeline.predict(X_test[:3].astype(np.float32)).shape == (3,)
