"""scikit-learn adapter for :class:`varlab.features.GCWS` (needs the ``ml`` extra).

``GCWSTransformer`` turns rows into b-bit coded GCWS features (paper 000, Sections 1.3-1.4,
Algorithm 1): a sparse CSR matrix of width 2^b * n_samples with exactly n_samples ones per row,
whose inner products estimate the GMM kernel (Eq. 8) for linear models. It validates input the
scikit-learn way (``validate_data``) and delegates hashing and coding to ``varlab.features.GCWS``.
scikit-learn is imported only here.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..features.cws import GCWS

__all__ = ["GCWSTransformer"]

_DTYPES = [np.float64, np.float32]


class GCWSTransformer(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """b-bit (0-bit by default) GCWS features as a scikit-learn transformer.

    Parameters
    ----------
    n_samples : int >= 1
        k, the number of GCWS samples per row (nonzeros per output row).
    b : int in [1, 32]
        Bits kept per sample; each sample becomes a one-hot block of length 2^b (000, Sec. 1.4;
        the paper recommends b >= 4, 001 suggests b = 8).
    zero_bit : bool
        True: code i* only (0-bit GCWS, Eq. 13). False: code (i*, t*) (full GCWS, Eq. 10).
    center : None or array of shape (n_features,)
        Centre vector mu of Eq. (4), shared by all rows (None: mu = 0, Eq. 7).
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        Source of the 64-bit key of the counter-based randomness (drawn at ``fit``).

    Attributes
    ----------
    gcws_ : varlab.features.GCWS
        The hashing object (its ``key`` determines every hash).
    key_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when ``X`` had string column names.

    Rows that are all-zero after centring have no GCWS sample; ``transform`` raises ValueError
    for them, as for non-finite values. Signed data is accepted (that is the point of GMM).
    """

    def __init__(self, n_samples=256, *, b=8, zero_bit=True, center=None, random_state=None):
        self.n_samples = n_samples
        self.b = b
        self.zero_bit = zero_bit
        self.center = center
        self.random_state = random_state

    def fit(self, X, y=None):
        """Validate ``X`` and the parameters and draw the hashing key; ``y`` is ignored."""
        X = validate_data(self, X, accept_sparse="csr", dtype=_DTYPES)
        if self.center is not None and np.shape(self.center) != (X.shape[1],):
            raise ValueError(f"center must have shape (n_features,) = ({X.shape[1]},), "
                             f"got {np.shape(self.center)}")
        if self.b is None:
            raise ValueError("b must be an integer in [1, 32] (the transformer codes b bits per sample)")
        gcws = GCWS(self.n_samples, b=self.b, zero_bit=self.zero_bit, center=self.center,
                    random_state=self.random_state)
        self.gcws_ = gcws
        self.key_ = gcws.key
        self._n_features_out = (1 << gcws.b) * gcws.n_samples
        return self

    def transform(self, X):
        """b-bit coded GCWS features: CSR float64 of shape (n, 2^b * n_samples), k ones per row."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=_DTYPES, reset=False)
        return self.gcws_.transform(X)

    def hash(self, X):
        """The raw samples (i_star, t_star), int64 arrays of shape (n, n_samples)."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=_DTYPES, reset=False)
        return self.gcws_.hash(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
