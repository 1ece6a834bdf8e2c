"""scikit-learn adapter for :class:`varlab.features.RFF` (needs the ``ml`` extra).

``RFFTransformer`` is a scikit-learn transformer (``BaseEstimator`` + ``TransformerMixin``) with
the parameters of ``varlab.features.RFF``; it validates input the scikit-learn way
(``validate_data``: feature names, ``n_features_in_``, messages) and delegates the feature map
(paper 000, §2, Eq. 14-21) to ``varlab.features.RFF``. scikit-learn is imported only here.
"""
from __future__ import annotations

from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ..features.rff import RFF
from .gcws import _validated

__all__ = ["RFFTransformer"]


class RFFTransformer(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Random Fourier features (RFF, NRFF, no-phase) as a scikit-learn transformer.

    Parameters are those of :class:`varlab.features.RFF` (see it for the formulas):
    ``n_components`` (k >= 1), ``gamma`` (> 0), ``kernel`` ("correlation": exp(-gamma (1 - rho))
    of 000 Eq. 14 with rows scaled to unit norm; "gaussian": exp(-gamma ||u - v||^2) as
    ``RBFSampler``), ``normalize`` (NRFF, Eq. 19), ``phase`` (False: the no-phase map, Eq. 17),
    ``sampler`` (a name from ``varlab.features.samplers.available_samplers()`` or a Sampler
    instance; default "iid") and ``random_state`` (None, int, numpy Generator, SeedSequence or
    RandomState).

    Attributes
    ----------
    rff_ : varlab.features.RFF
        The fitted feature map.
    frequencies_ : ndarray of shape (n_features_in_, n_components)
    phases_ : ndarray of shape (n_components,) or None
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when ``X`` had string column names.
    """

    def __init__(self, n_components=100, *, gamma=1.0, kernel="correlation", normalize=False, phase=True,
                 sampler="iid", random_state=None):
        self.n_components = n_components
        self.gamma = gamma
        self.kernel = kernel
        self.normalize = normalize
        self.phase = phase
        self.sampler = sampler
        self.random_state = random_state

    def fit(self, X, y=None):
        """Draw frequencies and phases for the columns of ``X``; ``y`` is ignored."""
        X = _validated(self, X, reset=True)
        rff = RFF(self.n_components, gamma=self.gamma, kernel=self.kernel, normalize=self.normalize,
                  phase=self.phase, sampler=self.sampler, random_state=self.random_state)
        self.rff_ = rff.fit(X)
        self.frequencies_ = rff.frequencies_
        self.phases_ = rff.phases_
        self._n_features_out = rff.frequencies_.shape[1]
        return self

    def transform(self, X):
        """Feature vectors, shape (n_samples, n_components), dtype float32 or float64."""
        check_is_fitted(self)
        X = _validated(self, X, reset=False)
        return self.rff_.transform(X)

    def components(self, X):
        """Unscaled per-component values (see :meth:`varlab.features.RFF.components`)."""
        check_is_fitted(self)
        X = _validated(self, X, reset=False)
        return self.rff_.components(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags
