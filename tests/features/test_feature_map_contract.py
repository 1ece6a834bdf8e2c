"""Every registered feature map is a full scikit-learn transformer (issue: one FeatureMap base).

The maps come from the registry (``available_feature_maps``), so a new map is covered here with
no edit: scikit-learn's own estimator checks, a pipeline before a classifier, a fitted pipeline
transforming new data, pickling, float32 in -> float32 out where the map computes in floating
point, the fitted check, and and output widths that follow the one n_components rule.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from varlab.features import available_feature_maps

MAPS = available_feature_maps()


def _instances():
    return [cls(random_state=0) for cls in MAPS.values()]


@parametrize_with_checks(_instances())
def test_scikit_learn_estimator_checks(estimator, check):
    """Every check passes, with no expected failure declared (issue 36: GCWS encodes an all-zero
    row as zeros by default, ``zero_rows="zeros"``)."""
    check(estimator)


def test_check_estimator_passes_for_gcws_as_users_call_it():
    """``check_estimator(GCWS())`` with the defaults, as a user runs it (issue 36, item 6: it
    failed check_estimators_dtypes, whose integer data has an all-zero row)."""
    from sklearn.utils.estimator_checks import check_estimator

    results = check_estimator(MAPS["gcws"](), on_fail=None)
    assert results and [r["check_name"] for r in results if r["status"] == "failed"] == []


def test_the_registry_holds_every_public_map():
    import varlab.features as features

    public = {getattr(features, name) for name in features.__all__}
    assert set(MAPS.values()) <= public
    assert {"rff", "gcws", "grff", "askrff", "random_maclaurin"} <= set(MAPS)


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return X[::2], y[::2], X[1::2], y[1::2]


@pytest.mark.parametrize("name", sorted(MAPS))
def test_map_before_a_classifier_in_a_pipeline(name, iris):
    X, y, X_test, y_test = iris
    pipeline = make_pipeline(StandardScaler(), MAPS[name](random_state=0), LogisticRegression(max_iter=2000))
    accuracy = pipeline.fit(X, y).score(X_test, y_test)
    assert accuracy > 0.8, f"{name}: test accuracy {accuracy:.3f} on iris"


@pytest.mark.parametrize("name", sorted(MAPS))
def test_a_fitted_pipeline_transforms_new_data(name, iris):
    X, _, X_test, _ = iris
    pipeline = Pipeline([("scale", StandardScaler()), ("map", MAPS[name](random_state=0))]).fit(X)
    out = pipeline.transform(X_test)
    alone = pipeline["map"].transform(pipeline["scale"].transform(X_test))
    assert out.shape == (X_test.shape[0], pipeline["map"]._n_features_out)
    np.testing.assert_array_equal(_dense(out), _dense(alone))
    assert len(pipeline.get_feature_names_out()) == out.shape[1]


@pytest.mark.parametrize("name", sorted(MAPS))
def test_pickling_round_trips(name, iris):
    X = StandardScaler().fit_transform(iris[0])
    fitted = MAPS[name](random_state=0).fit(X)
    again = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(_dense(again.transform(X)), _dense(fitted.transform(X)))
    unfitted = pickle.loads(pickle.dumps(clone(fitted)))
    with pytest.raises(NotFittedError):
        unfitted.transform(X)


@pytest.mark.parametrize("name", sorted(MAPS))
def test_float32_in_float32_out_where_the_map_computes_in_floating_point(name, iris):
    X = StandardScaler().fit_transform(iris[0])
    fitted = MAPS[name](random_state=0).fit(X.astype(np.float32))
    out = fitted.transform(X.astype(np.float32))
    expected = np.float32 if "float32" in MAPS[name].output_dtypes else np.float64
    assert out.dtype == expected
    assert fitted.transform(X).dtype == np.float64


#: output columns per draw (varlab's one rule: n_components counts the draws); a new map whose
#: draws give one column each needs no entry
COLUMNS_PER_DRAW = {"gcws": lambda m: 2 ** m.b, "grff": lambda m: 4, "askrff": lambda m: 6}


@pytest.mark.parametrize("name", sorted(MAPS))
def test_output_width_follows_the_n_components_rule(name, iris):
    X = StandardScaler().fit_transform(iris[0])
    estimator = MAPS[name](n_components=7, random_state=0)
    out = estimator.fit_transform(X)
    per_draw = COLUMNS_PER_DRAW.get(name, lambda m: 1)(estimator)
    assert out.shape == (X.shape[0], 7 * per_draw)
    assert len(estimator.get_feature_names_out()) == out.shape[1]


def _dense(matrix):
    return matrix.toarray() if hasattr(matrix, "toarray") else np.asarray(matrix)
