"""scikit-learn adapter for :class:`varlab.features.GCWS` (needs the ``ml`` extra).

``GCWSTransformer`` turns rows into b-bit coded GCWS features (paper 000, Sections 1.3-1.4,
Algorithm 1): a sparse CSR matrix of width 2^b * n_components with exactly n_components ones per
row, whose inner products estimate the GMM kernel (Eq. 8) for linear models. It validates input
the scikit-learn way (``validate_data``) and delegates parameter checks, hashing and coding to
``varlab.features.GCWS``, whose parameters and defaults it shares (a test checks the two
signatures). scikit-learn is imported only here.
"""
from __future__ import annotations

import re

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..features.cws import GCWS

__all__ = ["GCWSTransformer"]

_DTYPES = [np.float64, np.float32]
_NAMES_X = re.compile(r"\bX\b")


def _validated(estimator, X, *, reset: bool):
    """``validate_data`` whose error messages always name the parameter ``X``.

    scikit-learn's own messages often do not ("Expected 2D array, got 1D array instead"); they
    are re-raised with the prefix "X: " and the same exception type, the original text kept.
    """
    try:
        return validate_data(estimator, X, accept_sparse="csr", dtype=_DTYPES, reset=reset)
    except (ValueError, TypeError) as error:
        message = str(error)
        if _NAMES_X.search(message):
            raise
        try:
            renamed = type(error)(f"X: {message}")
        except Exception:  # an exception type with another constructor
            renamed = (ValueError if isinstance(error, ValueError) else TypeError)(f"X: {message}")
        raise renamed from error


class GCWSTransformer(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """b-bit coded GCWS features as a scikit-learn transformer.

    Parameters (the same names and defaults as :class:`varlab.features.GCWS`)
    ----------
    n_components : int >= 1, default=256
        k, the number of GCWS samples per row (nonzeros per output row).
    b : int in [1, 32], default=8
        Bits kept per sample; each sample becomes a one-hot block of length 2^b (000, Sec. 1.4;
        the paper recommends b >= 4, 001 suggests b = 8). None is rejected here (GCWS accepts it
        for hashing only).
    zero_bit : bool, default=False
        True: code i* only (0-bit GCWS, Eq. 13). False: code (i*, t*) (full GCWS, Eq. 10). The
        default is GCWS's: the full sample, whose collision rate is the exact, unbiased GMM
        estimate (Theorem 1), rather than the 0-bit approximation.
    center : None or array of shape (n_features,), default=None
        Centre vector mu of Eq. (4), shared by all rows (None: mu = 0, Eq. 7).
    random_state : None, int, numpy Generator, SeedSequence or RandomState, default=None
        Source of the 64-bit key of the counter-based randomness (drawn at ``fit``).

    Attributes
    ----------
    gcws_ : varlab.features.GCWS
        The fitted hashing object (its ``key_`` determines every hash).
    key_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when ``X`` had string column names.

    Rows that are all-zero after centring have no GCWS sample; ``transform`` raises ValueError
    for them, as for non-finite values. Signed data is accepted (that is the point of GMM).
    """

    def __init__(self, n_components=256, *, b=8, zero_bit=False, center=None, random_state=None):
        self.n_components = n_components
        self.b = b
        self.zero_bit = zero_bit
        self.center = center
        self.random_state = random_state

    def fit(self, X, y=None):
        """Validate ``X`` and the parameters and draw the hashing key; ``y`` is ignored."""
        X = _validated(self, X, reset=True)
        if self.b is None:
            raise ValueError("b must be an integer in [1, 32] (the transformer codes b bits per sample), got None")
        gcws = GCWS(self.n_components, b=self.b, zero_bit=self.zero_bit, center=self.center,
                    random_state=self.random_state).fit(X)
        self.gcws_ = gcws
        self.key_ = gcws.key_
        self._n_features_out = (1 << int(gcws.b)) * int(gcws.n_components)
        return self

    def transform(self, X):
        """b-bit coded GCWS features: CSR float64 of shape (n, 2^b * n_components), k ones per row."""
        check_is_fitted(self)
        X = _validated(self, X, reset=False)
        return self.gcws_.transform(X)

    def hash(self, X):
        """The raw samples (i_star, t_star), int64 arrays of shape (n, n_components)."""
        check_is_fitted(self)
        X = _validated(self, X, reset=False)
        return self.gcws_.hash(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
