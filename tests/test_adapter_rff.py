"""Tests of the scikit-learn adapter varlab.adapters.rff.RFFTransformer."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from varlab.adapters.rff import RFFTransformer  # noqa: E402
from varlab.features import RFF  # noqa: E402

_ZERO_ROWS = ("this check casts uniform [0, 3) data to integers, which gives all-zero rows; "
              "kernel='correlation' rejects them by design (the correlation of a zero vector is "
              "undefined, 000 Eq. 1)")


def _expected_failed_checks(estimator):
    if estimator.kernel == "correlation":
        return {"check_estimators_dtypes": _ZERO_ROWS}
    return {}


@parametrize_with_checks(
    [RFFTransformer(), RFFTransformer(kernel="gaussian"), RFFTransformer(normalize=True, phase=False)],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_delegates_to_features_rff():
    X = np.random.default_rng(0).standard_normal((20, 5))
    for params in (dict(), dict(kernel="gaussian", gamma=0.3), dict(normalize=True), dict(phase=False)):
        adapter = RFFTransformer(64, random_state=7, **params).fit(X)
        core = RFF(64, random_state=7, **params).fit(X)
        np.testing.assert_array_equal(adapter.transform(X), core.transform(X))
        np.testing.assert_array_equal(adapter.components(X), core.components(X))
        np.testing.assert_array_equal(adapter.frequencies_, core.frequencies_)
        assert adapter.n_features_in_ == 5
    names = RFFTransformer(3, random_state=0).fit(X).get_feature_names_out()
    assert list(names) == ["rfftransformer0", "rfftransformer1", "rfftransformer2"]


def test_same_parameters_and_defaults_as_features_rff():
    import inspect
    adapter = inspect.signature(RFFTransformer.__init__).parameters
    core = inspect.signature(RFF.__init__).parameters
    assert list(adapter) == list(core)
    assert {n: p.default for n, p in adapter.items()} == {n: p.default for n, p in core.items()}
    assert RFFTransformer().get_params()["sampler"] == "iid"


def test_sampler_passed_through_and_cloned():
    from varlab.features.samplers import IID
    X = np.random.default_rng(0).standard_normal((10, 3))
    sampler = IID()
    model = RFFTransformer(16, sampler=sampler, random_state=3).fit(X)
    assert model.sampler is sampler and model.rff_.sampler_ is sampler
    np.testing.assert_array_equal(model.transform(X), RFF(16, random_state=3).fit(X).transform(X))
    cloned = clone(model)
    assert cloned.sampler == sampler and cloned.sampler is not sampler  # cloned like a sub-estimator
    with pytest.raises(ValueError, match="sampler"):
        RFFTransformer(sampler="nope").fit(X)


def test_random_state_instance_and_clone():
    X = np.random.default_rng(0).standard_normal((10, 3))
    a = RFFTransformer(8, random_state=np.random.RandomState(1)).fit(X).frequencies_
    b = RFFTransformer(8, random_state=np.random.RandomState(1)).fit(X).frequencies_
    np.testing.assert_array_equal(a, b)
    model = RFFTransformer(8, gamma=2.0, random_state=0)
    assert clone(model).get_params() == model.get_params()
    with pytest.raises(NotFittedError):
        model.transform(X)
    with pytest.raises(ValueError, match="gamma"):
        RFFTransformer(gamma=-1.0).fit(X)


@pytest.mark.parametrize("params", [dict(gamma=5.0), dict(gamma=5.0, normalize=True),
                                    dict(kernel="gaussian", gamma=0.001)])
def test_pipeline_with_linear_svc_on_digits(params):
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    baseline = LinearSVC().fit(X_train, y_train).score(X_test, y_test)
    pipeline = make_pipeline(RFFTransformer(500, random_state=0, **params), LinearSVC())
    score = pipeline.fit(X_train, y_train).score(X_test, y_test)
    assert score > 0.95 and score > baseline
    assert pipeline.predict(X_test[:3].astype(np.float32)).shape == (3,)
