"""The GCWS feature map: hashing (``hash``), b-bit coding (``code``, ``transform``) and the GMM
estimate (``kernel_estimate``), a scikit-learn transformer registered on definition.

Randomness: the (r, c, beta) of (coordinate i, sample j) are a pure function of (seed key, i, j)
(:mod:`~varlab.features.cws.randomness`), generated on the fly; no D x k table is stored, so
memory does not depend on D, and a row hashes identically alone or in any batch, dense or
sparse, float32 or float64 (the hash is computed in float64), in any process.
"""
from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
import scipy.sparse as sp

from sklearn.utils._param_validation import Interval, StrOptions

from ... import _random
from .._base import RANDOM_STATE, FeatureMap
from .coding import _MAX_B, _is_integer, _sample_values, bbit_code, gmm_estimate
from .hashing import _hash_rows
from .nonzeros import _check_center, _one_sided, _prepare, _zero_rows
from .randomness import MAX_SAMPLE

__all__ = ["GCWS"]


class GCWS(FeatureMap, name="gcws"):
    """Generalized consistent weighted sampling (paper 000, Algorithm 1; 0-bit/b-bit, Sec. 1.4).

    Parameters
    ----------
    n_components : int in [1, 2**32], default=256
        k, the number of samples (i*, t*) per vector. GCWS is the one hashing map: ``transform``
        codes each of the k samples into a one-hot block of 2^b columns (2^b k columns, k ones
        per row); ``hash`` returns the k samples themselves.
    b : int in [1, 32] or None, default=8
        Bits kept per sample by :meth:`code` and :meth:`transform` (None: hashing only; 000
        recommends b >= 4, 001 uses b = 8).
    zero_bit : bool, default=False
        0-bit GCWS: coding and :meth:`kernel_estimate` use i* only (000, Eq. 13); otherwise
        (i*, t*). The default is the full sample because its collision rate is the exact,
        unbiased GMM estimate of Theorem 1 (Eq. 10-12), while 0-bit is an approximation (Eq. 13)
        to opt into.
    center : None or 1-d array of length n_features, default=None
        Centre vector mu of Eq. (4), one for all rows (None: mu = 0, Eq. 7).
    zero_rows : {"zeros", "raise"}, default="zeros"
        A row that is all zero after centring (x = mu: common in sparse data) has no GCWS sample,
        and GMM with it is 0 (0/0 with itself). ``"zeros"``: it is encoded as an all-zero row by
        :meth:`transform` (so its kernel estimate with every row is 0, the GMM value against any
        nonzero row), ``hash`` gives it i* = t* = -1 (no sample) and :meth:`kernel_estimate` 0;
        ``"raise"``: a ValueError naming the rows.
    sparse_output : bool, default=True
        :meth:`transform` returns a CSR matrix (True) or a dense float64 array (False; then
        ``set_output(transform="pandas")`` works, at 2^b k numbers per row).
    random_state : None, int, numpy Generator, SeedSequence or RandomState, default=None
        Source of the 64-bit key of the counter-based randomness, drawn at ``fit``.

    Attributes
    ----------
    key_ : int
        The 64-bit key drawn by :meth:`fit`. Two GCWS objects with the same key, k and centre
        hash identically; hashing uses nothing else of the data seen by ``fit`` than its width.
    n_features_in_ : int

    ``hash(X)`` returns (i_star, t_star), int64 arrays of shape (n, k); i* indexes the 2D
    transformed coordinates, 0-based (2i: u_i > mu_i, 2i + 1: u_i <= mu_i). Rows must be finite
    (an all-zero row: see ``zero_rows``); u - mu may exceed the float64 range (its logarithm is
    formed without overflow). ``fit`` warns when ``b=1`` and ``zero_bit`` meet data on one side
    of the centre (e.g. nonnegative data with ``center=None``): every i* then has the same parity,
    so the 1-bit code is constant and a model on it is at chance. Dense or CSR input, float32 or float64 (hashed in
    float64: a row hashes the same in every dtype and layout).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import GCWS
    >>> from varlab.kernels import gmm
    >>> X = np.random.default_rng(0).standard_normal((3, 4))
    >>> gcws = GCWS(n_components=4096, b=4, random_state=0).fit(X)
    >>> gcws.transform(X).shape                 # 2^b columns per sample, k ones per row
    (3, 65536)
    >>> bool(np.abs(gcws.kernel_estimate(X) - gmm(X)).max() < 0.05)
    True
    """

    output_dtypes = ("float64",)
    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, MAX_SAMPLE, closed="both")],
        "b": [Interval(Integral, 1, _MAX_B, closed="both"), None],
        "zero_bit": ["boolean"],
        "center": ["array-like", None],
        "zero_rows": [StrOptions({"zeros", "raise"})],
        "sparse_output": ["boolean"],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, n_components: int = 256, *, b: int | None = 8, zero_bit: bool = False, center=None,
                 zero_rows: str = "zeros", sparse_output: bool = True, random_state=None):
        self.n_components = n_components
        self.b = b
        self.zero_bit = zero_bit
        self.center = center
        self.zero_rows = zero_rows
        self.sparse_output = sparse_output
        self.random_state = random_state

    def _fit(self, X) -> int:
        """Check the centre and the rows of ``X`` and draw ``key_``."""
        self._mu = _check_center(self.center)
        X = _prepare(X, self._mu)
        if self.b == 1 and self.zero_bit and _one_sided(X, self._mu):
            warnings.warn("GCWS(b=1, zero_bit=True) on data that lies on one side of the centre (e.g. "
                          "nonnegative features with center=None): every i* has the same parity, so the "
                          "1-bit code is constant and a model on it is at chance; use b >= 2, "
                          "zero_bit=False or a centre inside the data", UserWarning, stacklevel=4)
        self.key_ = _random.seed_key(self.random_state)
        self._zero_rows, self._sparse_output = self.zero_rows, bool(self.sparse_output)
        k = int(self.n_components)
        return k if self.b is None else (1 << int(self.b)) * k

    # -- hashing and coding ----------------------------------------------------------------
    def hash(self, X):
        """(i_star, t_star): int64 arrays (n, k) of Algorithm 1 (log form) on each row of X (-1
        for an all-zero row under ``zero_rows="zeros"``)."""
        X = _prepare(self._checked_input(X), self._mu)
        self._check_output_size(X.shape[0])
        return self._hash(X)

    def _hash(self, X):
        zero = _zero_rows(X, self._mu)
        if not zero.any():
            return _hash_rows(X, self._mu, self.key_, int(self.n_components))
        if self._zero_rows == "raise":
            rows = np.flatnonzero(zero)
            raise ValueError(f"X has {rows.size} all-zero row(s) after centring (u~ = 0), rows "
                             f"{rows[:10].tolist()}{' ...' if rows.size > 10 else ''}: GCWS has no sample for "
                             f"them and GMM with them is 0 (0/0 with themselves); zero_rows='zeros' "
                             f"encodes them as all-zero rows")
        shape = (X.shape[0], int(self.n_components))
        i_star, t_star = np.full(shape, -1, dtype=np.int64), np.full(shape, -1, dtype=np.int64)
        if not zero.all():
            i_star[~zero], t_star[~zero] = _hash_rows(X[np.flatnonzero(~zero)], self._mu, self.key_, shape[1])
        return i_star, t_star

    def _output_elements(self, n_rows: int) -> int:
        """i* and t* (and the coding's indices): 2 n k numbers; 2^b k per row more for dense output."""
        dense = 0 if self.sparse_output or self.b is None else n_rows * (1 << int(self.b)) * int(self.n_components)
        return 2 * n_rows * int(self.n_components) + dense

    def code(self, i_star, t_star=None) -> sp.csr_matrix:
        """b-bit one-hot coding (:mod:`~varlab.features.cws.coding`) of hashes (n, n_components) from :meth:`hash`.

        ``t_star`` is required for full GCWS (``zero_bit=False``) and must have the shape of
        ``i_star``. A row of i* = -1 (an all-zero row, ``zero_rows="zeros"``) codes as an all-zero
        row. Needs only the parameters (no fit); returns CSR whatever ``sparse_output``.
        """
        self._validate_params()
        k, b, zero_bit = int(self.n_components), self.b, bool(self.zero_bit)
        if b is None:
            raise ValueError("b must be set (an integer in [1, 32]) to code or transform; got b=None")
        if not zero_bit and t_star is None:
            raise ValueError("t_star is required to code full GCWS samples (zero_bit=False)")
        arrays = {"i_star": np.asarray(i_star), "t_star": None if t_star is None else np.asarray(t_star)}
        for name, value in arrays.items():
            if value is not None and not _is_integer(value):
                raise TypeError(f"{name} must hold integers (as returned by hash), got dtype {value.dtype}")
        i_star, t_star = arrays["i_star"], arrays["t_star"]
        if i_star.size and np.min(i_star) < 0 and not (
                i_star.ndim == 2 and np.all((i_star >= 0).all(axis=1) | (i_star == -1).all(axis=1))):
            raise ValueError("i_star must hold nonnegative coordinate indices (as returned by hash; -1 "
                             "only for whole all-zero rows)")
        if i_star.ndim != 2 or i_star.shape[1] != k:
            raise ValueError(f"i_star must have shape (n, n_components) = (n, {k}), got shape {i_star.shape}")
        if t_star is not None and t_star.shape != i_star.shape:
            raise ValueError(f"t_star must have the shape of i_star {i_star.shape}, got shape {t_star.shape}")
        empty = np.all(i_star == -1, axis=1)
        if not empty.any():
            return bbit_code(_sample_values(i_star, t_star, zero_bit), b)
        kept = np.flatnonzero(~empty)
        coded = bbit_code(_sample_values(i_star[kept], None if t_star is None else t_star[kept], zero_bit), b) \
            if kept.size else sp.csr_matrix((0, (1 << b) * k))
        counts = np.zeros(i_star.shape[0], dtype=np.int64)
        counts[kept] = np.diff(coded.indptr)
        indptr = np.concatenate([[0], np.cumsum(counts)])
        return sp.csr_matrix((coded.data, coded.indices, indptr), shape=(i_star.shape[0], coded.shape[1]))

    def _transform(self, X):
        """b-bit coded GCWS features: CSR (n, 2^b k) with exactly k ones per row (float64; none in
        an all-zero row), or dense with ``sparse_output=False``."""
        if self.b is None:
            raise ValueError("b must be set (an integer in [1, 32]) to transform; got b=None")
        coded = self.code(*self._hash(_prepare(X, self._mu)))
        return coded if self._sparse_output else coded.toarray()

    def kernel_estimate(self, X, Y=None) -> np.ndarray:
        """The GCWS estimate of GMM(x_i, y_j) for every pair of rows (Y = X if None): the
        collision rate of the full samples (unbiased, 000 Theorem 1) or of i* (``zero_bit``,
        Eq. 13); see :func:`gmm_estimate`."""
        i_x, t_x = self.hash(X)
        i_y, t_y = (i_x, t_x) if Y is None else self.hash(Y)
        estimate = gmm_estimate((i_x[:, None], t_x[:, None]), (i_y[None], t_y[None]), zero_bit=bool(self.zero_bit))
        estimate[i_x[:, 0] == -1] = 0.0                     # all-zero rows (zero_rows="zeros"): GMM 0
        estimate[:, i_y[:, 0] == -1] = 0.0
        return estimate
