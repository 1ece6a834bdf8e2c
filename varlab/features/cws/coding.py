"""b-bit coding of GCWS samples and the GMM estimate from two hashes (paper 000, Section 1.4).

With ``b`` set, ``GCWS.transform`` stores the lowest b bits of each sample's value v (i* itself
when ``zero_bit``; otherwise a 64-bit mix of (i*, t*), so equal samples share a column and
different ones collide with probability about 2^-b) as a one-hot block of length 2^b in which v
sits at position 2^b - 1 - (v mod 2^b): for b = 2, v = 3 codes as [1 0 0 0] and v = 0 as
[0 0 0 1], as in the paper. The k blocks are concatenated into a CSR row of width 2^b k with
exactly k ones.

``gmm_estimate`` is the collision rate of two hashes: of the full samples (i*, t*), unbiased for
GMM (000, Theorem 1, Eq. 10-12), or of i* only (0-bit GCWS, Eq. 13).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ... import _random, _validate

__all__ = ["bbit_code", "gmm_estimate"]

_MAX_B = 32


def _check_b(b, name="b"):
    b = _validate.positive_int(b, name)
    if b > _MAX_B:
        raise ValueError(f"{name} must be an integer in [1, {_MAX_B}], got {b}")
    return b


def _sample_values(i_star, t_star, zero_bit: bool) -> np.ndarray:
    """The value whose low bits are coded: i* (0-bit) or mix64(i* XOR fmix64(t* + GAMMA))."""
    values = np.array(i_star, dtype=np.int64).astype(np.uint64)
    if zero_bit:
        return values
    t_word = np.array(t_star, dtype=np.int64).astype(np.uint64)       # two's complement
    t_word += _random.GAMMA
    _random.fmix64(t_word)
    values ^= t_word
    return _random.mix64(values)


def bbit_code(values, b: int) -> sp.csr_matrix:
    """One-hot b-bit coding of an (n, k) array of nonnegative integer sample values (000, Sec. 1.4).

    The lowest b bits v of each value go to position 2^b - 1 - v of that sample's block of
    length 2^b (b = 2: 3 -> [1 0 0 0], 0 -> [0 0 0 1]); the k blocks are concatenated into a CSR
    matrix of shape (n, 2^b k) with exactly k ones per row (float64). k must be >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import bbit_code
    >>> bbit_code(np.array([[3, 0]]), b=2).toarray()      # two samples, a block of 2^b columns each
    array([[1., 0., 0., 0., 0., 0., 0., 1.]])
    """
    b = _check_b(b)
    values = np.asarray(values)
    if values.ndim != 2:
        raise ValueError(f"values must be a 2-d (n, k) array, got shape {values.shape}")
    if not _is_integer(values):
        raise TypeError(f"values must hold integers, got dtype {values.dtype}")
    if values.dtype.kind == "i" and values.size and values.min() < 0:
        raise ValueError("values must be nonnegative integers")
    n, k = values.shape
    if k < 1:
        raise ValueError(f"values must hold k >= 1 samples per row (shape (n, k)), got shape {values.shape}")
    width = 1 << b
    low = (values.astype(np.uint64) & np.uint64(width - 1)).astype(np.int64)
    columns = np.arange(k, dtype=np.int64) * width + (width - 1 - low)
    return sp.csr_matrix((np.ones(n * k), columns.ravel(), np.arange(0, n * k + 1, k, dtype=np.int64)),
                         shape=(n, width * k))


def _is_integer(array: np.ndarray) -> bool:
    return array.dtype != bool and np.issubdtype(array.dtype, np.integer)


def _check_hashes(hashes, name):
    if not isinstance(hashes, tuple) or len(hashes) != 2:
        raise TypeError(f"{name} must be an (i_star, t_star) pair as returned by GCWS.hash")
    i_star, t_star = (np.asarray(h) for h in hashes)
    if not (_is_integer(i_star) and _is_integer(t_star)):
        raise TypeError(f"{name}: i_star and t_star must hold integers, got dtypes "
                        f"{i_star.dtype} and {t_star.dtype}")
    if i_star.shape != t_star.shape or i_star.ndim == 0:
        raise ValueError(f"{name}: i_star and t_star must have the same shape (..., k), got "
                         f"{i_star.shape} and {t_star.shape}")
    if i_star.shape[-1] < 1:
        raise ValueError(f"{name} must hold k >= 1 samples (shape (..., k)), got shape {i_star.shape}")
    return i_star, t_star


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def gmm_estimate(hash_u, hash_v, *, zero_bit: bool = False) -> np.ndarray:
    """GCWS estimate of GMM(u, v) from two hash pairs, vectorized over rows.

    Full GCWS: the mean over the k samples of 1{i*_u = i*_v and t*_u = t*_v}, unbiased with
    variance GMM (1 - GMM) / k (000, Eq. 10-12). 0-bit GCWS (``zero_bit``): the mean of
    1{i*_u = i*_v}, which is >= the full estimate and approximately GMM (000, Eq. 13).
    ``hash_u`` and ``hash_v`` are (i_star, t_star) pairs of shape (..., k), k >= 1, whose leading
    dimensions broadcast (e.g. (n, k) against (n, k) for row-paired estimates, or (n, 1, k)
    against (1, m, k) for a Gram matrix); the result has the broadcast leading shape.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import GCWS, gmm_estimate
    >>> from varlab.kernels import gmm
    >>> X = np.abs(np.random.default_rng(0).standard_normal((2, 30)))
    >>> i_star, t_star = GCWS(n_components=4000, random_state=0).fit(X).hash(X)
    >>> estimate = gmm_estimate((i_star[0], t_star[0]), (i_star[1], t_star[1]))
    >>> round(float(estimate), 2), round(float(gmm(X)[0, 1]), 2)
    (0.44, 0.44)
    """
    zero_bit = _check_bool(zero_bit, "zero_bit")
    iu, tu = _check_hashes(hash_u, "hash_u")
    iv, tv = _check_hashes(hash_v, "hash_v")
    if iu.shape[-1] != iv.shape[-1]:
        raise ValueError(f"hash_u and hash_v must have the same number of samples k, got "
                         f"{iu.shape[-1]} and {iv.shape[-1]}")
    try:
        np.broadcast_shapes(iu.shape, iv.shape)
    except ValueError:
        raise ValueError(f"hash_u and hash_v must have broadcastable leading shapes, got {iu.shape} "
                         f"and {iv.shape}") from None
    equal = iu == iv
    if not zero_bit:
        equal &= tu == tv
    return equal.mean(axis=-1)
