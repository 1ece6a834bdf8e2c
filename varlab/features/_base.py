"""The base of every feature map: a scikit-learn transformer registered on definition.

:class:`FeatureMap` is ``BaseEstimator`` + ``TransformerMixin`` (with feature names
``<name>0, <name>1, ...`` and ``set_output``); it owns what every map shares:

* parameter validation: ``_parameter_constraints`` (scikit-learn's declarative constraints; a
  varlab-declared parameter such as ``gamma`` takes its domain from
  :mod:`varlab.theory.parameters` through :func:`declared`), checked at ``fit``;
* input validation: ``validate_data`` (``n_features_in_``, ``feature_names_in_``, finite values,
  sparse input where the class accepts it, float32 kept where it computes in floating point);
* the fitted check (``check_is_fitted``) before ``transform`` and every other output method;
* sizes: a request whose arrays would exceed ``varlab._validate.MAX_ALLOCATION_BYTES`` is refused
  up front, naming the parameter (``check_allocation``), never a MemoryError later;
* registration: ``class MyMap(FeatureMap, name="my_map")`` adds the class to the registry
  (:func:`available_feature_maps`) over which the contract tests run scikit-learn's
  ``parametrize_with_checks``, pipelines, pickling and dtypes, so a new map is covered with no
  edit of a list.

A subclass implements ``_fit(X)`` (draw its randomness for the validated ``X``; returns the
number of output columns) and ``_transform(X)``.

One rule for ``n_components`` in every map: it counts the random draws the estimate averages
over (frequencies, per part for the maps with several parts, or hash samples); each draw gives
the map's fixed number of output columns: 1 (RFF, RandomMaclaurin; 2 for RFF's paired cos/sin
features), 4 per frequency pair of a
signed kernel or 2 of a positive one (GRFF), 6 (AsKRFF), 2^b one-hot columns (GCWS). This is
also what scikit-learn's own checks assume (any n_components >= 1 is valid).

``ParamsMixin`` gives the same ``get_params``/``set_params``/``repr`` protocol to objects that
are not estimators (the samplers).
"""
from __future__ import annotations

import inspect
import re
from numbers import Integral, Real
from typing import ClassVar

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin, _fit_context
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._registry import Registry
from .._validate import check_allocation

__all__ = ["FeatureMap", "NotFittedError", "ParamsMixin", "available_feature_maps", "declared",
           "angles", "RANDOM_STATE", "scikit_learn_gamma", "fitted_gamma"]

_REGISTRY = Registry("feature map", "varlab.features")
_NAMES_X = re.compile(r"\b[XY]\b")

#: the random_state values varlab accepts: scikit-learn's, any nonnegative int (a SeedSequence
#: entropy, not only 32 bits), numpy Generator and SeedSequence (``varlab._random.generator``)
RANDOM_STATE = ["random_state", Interval(Integral, 0, None, closed="left"), np.random.Generator,
                np.random.SeedSequence]


def available_feature_maps() -> dict[str, type]:
    """The registered feature-map classes, by name (sorted).

    Examples
    --------
    >>> from varlab.features import available_feature_maps
    >>> sorted(available_feature_maps())[:4]
    ['askrff', 'gcws', 'grff', 'random_maclaurin']
    """
    return _REGISTRY.by_name()


def declared(name: str) -> Interval:
    """scikit-learn's Interval for the varlab-declared parameter ``name`` (its domain in
    :mod:`varlab.theory.parameters`), e.g. ``declared("gamma")`` is Interval(Real, 0, None,
    closed="neither")."""
    from ..theory.parameters import parameter

    declaration = parameter(name)
    closed = {(False, False): "both", (True, False): "right", (False, True): "left", (True, True): "neither"}
    low_open = declaration.low_open or declaration.low is None
    high_open = declaration.high_open or declaration.high is None
    return Interval(Integral if declaration.integer else Real, declaration.low, declaration.high,
                    closed=closed[(low_open, high_open)])


def scikit_learn_gamma() -> list:
    """The constraints of scikit-learn's ``gamma``: a positive number or ``"scale"`` (as
    ``RBFSampler`` and ``SVC``), resolved at fit by :func:`fitted_gamma`."""
    return [declared("gamma"), StrOptions({"scale"})]


def fitted_gamma(gamma, X) -> float:
    """``gamma`` as a number: ``"scale"`` is 1 / (n_features X.var()) over every entry of ``X``
    (dense or sparse, in float64), 1.0 for a constant X, as scikit-learn's ``RBFSampler``.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features._base import fitted_gamma
    >>> X = np.array([[0.0, 2.0], [2.0, 0.0]])           # X.var() = 1
    >>> fitted_gamma("scale", X), fitted_gamma(0.25, X)
    (0.5, 0.25)
    """
    if not (isinstance(gamma, str) and gamma == "scale"):
        return float(gamma)
    if sp.issparse(X):
        X = X.astype(np.float64)
        variance = float(X.multiply(X).mean() - X.mean() ** 2)
    else:
        variance = float(np.asarray(X, dtype=np.float64).var())
    return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0


class FeatureMap(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Base class of varlab's feature maps (see the module docstring).

    Class attributes a subclass may set: ``name`` (given as ``name=`` in the class statement),
    ``accept_sparse`` (False, or "csr" when ``_transform`` takes CSR input), ``dtypes`` (the
    floating dtypes kept as they are; others become the first), ``output_dtypes`` (what
    ``transform`` returns for them, for scikit-learn's ``preserves_dtype`` tag).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import FeatureMap
    >>> class Squares(FeatureMap):                # no ``name``: used directly, not registered
    ...     def _fit(self, X):
    ...         return X.shape[1]                 # the number of output columns
    ...     def _transform(self, X):
    ...         return X * X
    >>> X = np.arange(6.0).reshape(3, 2)
    >>> squares = Squares().fit(X)
    >>> squares.transform(X)
    array([[ 0.,  1.],
           [ 4.,  9.],
           [16., 25.]])
    >>> squares.get_feature_names_out()
    array(['squares0', 'squares1'], dtype=object)
    >>> squares.kernel_estimate(X[:2])            # transform(X) @ transform(X).T
    array([[ 1.,  9.],
           [ 9., 97.]])
    """

    name: ClassVar[str | None] = None
    accept_sparse: ClassVar[bool | str] = "csr"
    dtypes: ClassVar[tuple] = (np.float64, np.float32)
    output_dtypes: ClassVar[tuple[str, ...]] = ("float64", "float32")
    _parameter_constraints: ClassVar[dict] = {}

    def __init_subclass__(cls, name: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if name is not None:
            _REGISTRY.add(cls, name)
            cls.name = name

    # -- validation ---------------------------------------------------------------------------
    def _validate_params(self):
        """scikit-learn's constraints, and no bool where a number is meant (``n_components=True``
        passes ``Interval(Integral)``, since bool is an int)."""
        super()._validate_params()
        for name, value in self.get_params(deep=False).items():
            if isinstance(value, (bool, np.bool_)) and "boolean" not in self._parameter_constraints.get(name, ()):
                raise InvalidParameterError(f"The {name!r} parameter of {type(self).__name__} must be a "
                                            f"number, not a bool. Got {value!r} instead.")

    def _validated(self, X, *, reset: bool, name: str = "X"):
        """``validate_data`` whose messages always name the argument (``X`` or ``Y``); strings,
        even numeric ones, are refused (a list of float dtypes would let numpy convert them)."""
        if not sp.issparse(X):
            array = np.asarray(X) if isinstance(X, (list, tuple, np.ndarray)) else None
            if array is not None and array.dtype.kind in "USV":
                raise TypeError(f"{name} must hold real numbers, got dtype {array.dtype}")
            if array is not None and array.dtype.kind == "O":
                text = next((e for e in array.ravel() if isinstance(e, (str, bytes))), None)
                if text is not None:
                    raise TypeError(f"{name} must hold real numbers, got {type(text).__name__} {text!r}")
        try:
            return validate_data(self, X, accept_sparse=self.accept_sparse, dtype=list(self.dtypes),
                                 reset=reset)
        except (ValueError, TypeError) as error:
            message = str(error)
            if _NAMES_X.search(message):
                raise
            try:
                renamed = type(error)(f"{name}: {message}")
            except Exception:  # an exception type with another constructor
                renamed = (ValueError if isinstance(error, ValueError) else TypeError)(f"{name}: {message}")
            raise renamed from error

    def _checked_input(self, X, name: str = "X"):
        """The fitted check, then ``X`` validated against the fit (width, names, dtype)."""
        check_is_fitted(self)
        return self._validated(X, reset=False, name=name)

    # -- the scikit-learn protocol -------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Validate the parameters and ``X`` and draw the map's randomness for X's width (rows
        are used only where the map says so); ``y`` is ignored. Returns ``self``."""
        X = self._validated(X, reset=True)
        try:
            self._n_features_out = int(self._fit(X))
        except BaseException:           # a failed fit leaves no half-fitted estimator behind
            for attribute in ("n_features_in_", "feature_names_in_"):
                self.__dict__.pop(attribute, None)
            raise
        return self

    def transform(self, X):
        """The features of every row of ``X``: shape (n_samples, n_features_out)."""
        X = self._checked_input(X)
        self._check_output_size(X.shape[0])
        return self._transform(X)

    def _check_output_size(self, n_rows: int) -> None:
        """Refuse up front an output beyond MAX_ALLOCATION_BYTES: n_components is named when one
        row alone is too large, X otherwise."""
        what = f"the output of {type(self).__name__}"
        check_allocation("n_components", self._output_elements(1), what=what)
        check_allocation("X", self._output_elements(n_rows), what=what)

    def _output_elements(self, n_rows: int) -> int:
        """How many numbers ``transform`` builds for ``n_rows`` rows (for the up-front size check)."""
        return n_rows * self._n_features_out

    def kernel_estimate(self, X, Y=None) -> np.ndarray:
        """The kernel estimate K~[i, j] between the rows of ``X`` and ``Y`` (``Y = X`` if None):
        ``transform(X) @ transform(Y).T`` for a symmetric map (maps with a left and a right
        embedding override it)."""
        left = self.transform(X)
        right = left if Y is None else self.transform(Y)
        product = left @ right.T
        return product.toarray() if hasattr(product, "toarray") else np.asarray(product)

    def _fit(self, X) -> int:
        raise NotImplementedError

    def _transform(self, X):
        raise NotImplementedError

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = bool(self.accept_sparse)
        tags.transformer_tags.preserves_dtype = list(self.output_dtypes)
        return tags


def angles(X, W, name: str = "X") -> np.ndarray:
    """X W^T, the phases <w, x> of every row of ``X`` (dense or CSR) against the frequency rows of
    ``W``, in X's dtype; ValueError naming ``name`` where one overflows (its cosine would be
    NaN)."""
    with np.errstate(over="ignore", invalid="ignore"):
        product = X @ W.T.astype(X.dtype, copy=False)
    product = np.asarray(product)
    if not np.all(np.isfinite(product)):
        largest = float(abs(X).max()) if X.size else 0.0
        raise ValueError(f"{name}: the phases <w, x> overflow {product.dtype} (largest |entry| of {name}: "
                         f"{largest:.3g}, of the frequencies: {float(np.max(np.abs(W))):.3g}); rescale {name}"
                         f"{' or pass float64 data' if product.dtype != np.float64 else ''}")
    return product


class ParamsMixin:
    """``get_params``, ``set_params`` and ``__repr__`` from the ``__init__`` signature (for
    objects that are not estimators, e.g. samplers)."""

    @classmethod
    def _parameters(cls) -> dict:
        signature = inspect.signature(cls.__init__)
        return {name: p.default for name, p in signature.parameters.items()
                if name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}

    def get_params(self, deep: bool = True) -> dict:
        """The constructor parameters, as stored (``deep`` is accepted for compatibility)."""
        return {name: getattr(self, name) for name in self._parameters()}

    def set_params(self, **params):
        """Set constructor parameters; they are validated at the next use."""
        valid = self._parameters()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"invalid parameter {name!r} for {type(self).__name__}; "
                                 f"valid parameters are {sorted(valid)}")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        changed = []
        for name, default in self._parameters().items():
            value = getattr(self, name)
            try:
                same = value is default or bool(value == default)
            except Exception:  # e.g. arrays: compare by identity only
                same = False
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"
