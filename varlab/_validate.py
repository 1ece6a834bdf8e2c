"""Argument checks shared by every public function.

Each check raises ``ValueError`` or ``TypeError`` whose message names the parameter and the
allowed range, so that nothing downstream returns a silent NaN.
"""
from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp


#: the largest array (in bytes) that varlab allocates for one request before refusing it up front
#: (``check_allocation``); a call may pass its own ``limit``
MAX_ALLOCATION_BYTES = 2 ** 32

#: numpy dtype kinds that are not real numbers: bool, complex, str, bytes, void, datetimes
_NON_REAL_KINDS = frozenset("bcUSVMm")


def real_array(value, name: str, *, low=None, high=None, low_open=False, high_open=False):
    """Return ``value`` as a float64 array, checking it is finite and inside [low, high].

    ``low_open``/``high_open`` make the corresponding bound strict.
    """
    # reject what float64 conversion would silently accept: None (-> nan), strings ("0.5"),
    # booleans (True -> 1.0) and complex numbers (imaginary part discarded)
    try:
        if value is None or np.asarray(value).dtype.kind in _NON_REAL_KINDS:
            raise TypeError
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number or array of real numbers, got {value!r}") from None
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if low is not None:
        bad = array <= low if low_open else array < low
        if np.any(bad):
            bracket = "(" if low_open else "["
            raise ValueError(f"{name} must be in {bracket}{low}, {high if high is not None else 'inf'}"
                             f"{')' if high_open or high is None else ']'}, got {value!r}")
    if high is not None:
        bad = array >= high if high_open else array > high
        if np.any(bad):
            bracket = "(" if low_open or low is None else "["
            raise ValueError(f"{name} must be in {bracket}{low if low is not None else '-inf'}, {high}"
                             f"{')' if high_open else ']'}, got {value!r}")
    return array


def correlation(rho, name: str = "rho"):
    """rho in [-1, 1]."""
    return real_array(rho, name, low=-1.0, high=1.0)


def positive(value, name: str):
    """A finite value > 0 (e.g. gamma)."""
    return real_array(value, name, low=0.0, low_open=True)


def probability(value, name: str, *, open_low=False, open_high=False):
    """A value in [0, 1] (optionally open at either end)."""
    return real_array(value, name, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def positive_int(value, name: str, *, minimum: int = 1) -> int:
    """A Python int >= minimum (rejects bools, floats and numpy floats)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def int_grid(values, name: str, *, minimum: int = 1) -> np.ndarray:
    """A 1-d strictly increasing array of integers >= minimum (e.g. a grid of k)."""
    array = np.atleast_1d(np.asarray(values))
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d sequence of integers, got {values!r}")
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold integers, got {values!r}")
    if not np.issubdtype(array.dtype, np.integer):
        if not np.all(np.isfinite(array.astype(float))) or np.any(array != np.round(array)):
            raise TypeError(f"{name} must hold integers, got {values!r}")
        array = array.astype(np.int64)
    if np.any(array < minimum):
        raise ValueError(f"{name} must hold integers >= {minimum}, got {values!r}")
    if np.any(np.diff(array) <= 0):
        raise ValueError(f"{name} must be strictly increasing, got {values!r}")
    return array.astype(np.int64)


def _real_objects(values: np.ndarray, name: str):
    """Raise TypeError unless every element of an object array is a real number.

    Strings (even numeric ones such as "1.5"), bytes, None, complex numbers and nested
    sequences are rejected: float64 conversion would silently accept some of them.
    """
    flat = values.ravel()
    for index, element in enumerate(flat):
        if not isinstance(element, (numbers.Real, np.bool_)):
            where = np.unravel_index(index, values.shape) if values.ndim > 1 else index
            raise TypeError(f"{name} must hold real numbers, got {type(element).__name__} {element!r} "
                            f"at index {where}")


def data_matrix(X, name: str = "X", *, allow_sparse: bool = True, dtypes=(np.float64, np.float32)):
    """A finite 2-d dense array or scipy.sparse matrix (converted to CSR).

    Floating dtypes in ``dtypes`` are kept; anything else becomes float64. Object arrays are
    accepted only when every element is a real number (numeric strings are rejected).
    """
    if sp.issparse(X):
        if not allow_sparse:
            raise TypeError(f"{name} must be a dense array; sparse input is not supported here")
        if X.dtype.kind in _NON_REAL_KINDS - {"b"}:
            raise TypeError(f"{name} must hold real numbers, got dtype {X.dtype}")
        if X.dtype.kind == "O":
            _real_objects(sp.csr_matrix(X).data, name)
        X = sp.csr_matrix(X)
        if X.dtype not in dtypes:
            X = X.astype(np.float64)
        if not np.all(np.isfinite(X.data)):
            raise ValueError(f"{name} must be finite (found NaN or inf)")
        return X
    try:
        array = np.asarray(X)
    except Exception:
        raise TypeError(f"{name} must be a 2-d array-like of real numbers") from None
    if array.dtype.kind in _NON_REAL_KINDS - {"b"}:
        raise TypeError(f"{name} must hold real numbers, got dtype {array.dtype}")
    if array.dtype.kind == "O":
        _real_objects(array, name)
    if array.dtype not in dtypes:
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold real numbers, got dtype {array.dtype}") from None
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-d (n_rows, n_features), got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (found NaN or inf)")
    return array


def same_width(X, Y, name_x: str = "X", name_y: str = "Y"):
    """Raise if two data matrices have different numbers of columns."""
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"{name_x} and {name_y} must have the same number of columns, "
                         f"got {X.shape[1]} and {Y.shape[1]}")


def choice(value, name: str, allowed):
    """value must be one of ``allowed`` (an array or other unhashable value never is: its
    comparison's truth value is ambiguous)."""
    try:
        found = bool(value in allowed)
    except (TypeError, ValueError):
        found = False
    if not found:
        hint = did_you_mean(value, allowed) if isinstance(value, str) else ""
        raise ValueError(f"{name} must be one of {sorted(allowed)!r}, got {value!r}{hint}")
    return value


def did_you_mean(name: str, known) -> str:
    """' (did you mean 'x'?)' for the closest of ``known`` to a misspelt ``name``, else ''.

    >>> did_you_mean("chek", ["check", "list"]), did_you_mean("zzz", ["check"])
    (" (did you mean 'check'?)", '')
    """
    import difflib

    close = difflib.get_close_matches(name, [str(item) for item in known], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_allocation(name: str, n_elements, itemsize: int = 8, limit: int | None = None, what: str = "") -> int:
    """Refuse up front a request whose arrays would hold more than ``limit`` bytes (default
    ``MAX_ALLOCATION_BYTES``, 4 GiB): a ValueError naming the parameter ``name`` that sets the size
    and the size itself, instead of a MemoryError (or a swapping machine) later. ``n_elements`` is
    the estimated number of elements (an int, exact however large, or a float), ``itemsize`` their
    size in bytes, ``what`` a description of the arrays. Returns the size in bytes.

    >>> check_allocation("n_components", 10 ** 10 * 2, what="an (n, n_components) array")
    Traceback (most recent call last):
    ...
    ValueError: n_components is too large: an (n, n_components) array would need 20000000000 elements (149 GiB), above the limit of 4 GiB (varlab._validate.MAX_ALLOCATION_BYTES)
    """
    limit = MAX_ALLOCATION_BYTES if limit is None else limit
    n_bytes = (int(n_elements) if float(n_elements) < 2.0 ** 63 else float(n_elements)) * int(itemsize)
    if n_bytes > limit:
        raise ValueError(f"{name} is too large: {what or 'the request'} would need {int(n_elements)} elements "
                         f"({n_bytes / 2 ** 30:.3g} GiB), above the limit of {limit / 2 ** 30:.3g} GiB "
                         f"(varlab._validate.MAX_ALLOCATION_BYTES)")
    return n_bytes
