"""Random Fourier features: RFF, normalised RFF (NRFF) and the no-phase variant.

Paper 000, §2. For unit vectors u, v with correlation rho (000, Eq. 1), draw r_j ~ N(0, I_D)
and w_j ~ U[0, 2 pi) i.i.d. over j = 1..k, and let x_j = <u, r_j>, y_j = <v, r_j>. Then

* RFF: E[sqrt2 cos(sqrt(gamma) x_j + w_j) sqrt2 cos(sqrt(gamma) y_j + w_j)] = exp(-gamma (1 - rho))
  (000, Eq. 15/16), with per-sample variance 1/2 + 1/2 (1 - exp(-2 gamma (1 - rho)))^2 (Eq. 18,
  Eq. 21). The feature vector z(u) = sqrt(2/k) [cos(sqrt(gamma) x_j + w_j)]_j has
  <z(u), z(v)> = the average of the k products, an unbiased estimate of Eq. (14).
* NRFF: z(u) / ||z(u)||, whose inner product is the ratio of Eq. (19); asymptotic variance
  V_n of Eq. (20).
* No phase: z(u) = k^{-1/2} [cos(sqrt(gamma) x_j)]_j, whose inner product estimates
  E[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = exp(-gamma (1 - rho))/2 + exp(-gamma (1 + rho))/2
  (000, Eq. 17), the folded RBF of 001, Eq. (11). Its per-sample variance,
  1/8 [(1 - e^{-2 gamma (1 - rho)})^2 + (1 - e^{-2 gamma (1 + rho)})^2], is varlab's own
  derivation (x - y and x + y are independent Gaussians).

``kernel="correlation"`` normalises each input row to unit l2 norm first (so any non-zero
vectors u, v give the kernel of their correlation); ``kernel="gaussian"`` does not normalise
and uses frequencies N(0, 2 gamma I), so that the expectation is exp(-gamma ||u - v||^2), as
in scikit-learn's ``RBFSampler``. Both draw their frequencies through a sampler
(:mod:`varlab.features.samplers`) from :class:`varlab.spectral.Gaussian` with bandwidth
1/sqrt(gamma) (correlation: |u - v|^2 = 2 (1 - rho) for unit vectors) or 1/sqrt(2 gamma)
(Gaussian), computed as 1/(sqrt(2) sqrt(gamma)) so that no gamma up to the float64 maximum
overflows.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .. import _random, spectral
from .._validate import check_allocation
from ._base import RANDOM_STATE, FeatureMap, declared, fitted_gamma, scikit_learn_gamma
from .samplers import Sampler, get_sampler

__all__ = ["RFF"]

def _measure(kernel: str, gamma: float):
    """The spectral measure of ``kernel`` with parameter ``gamma``: for "correlation" the Gaussian
    of lengthscale 1/sqrt(gamma) (|u - v|^2 = 2 (1 - rho) on unit rows); else the registered
    stationary kernel's measure in its gamma convention (``varlab.spectral.kernel_measure``; e.g.
    lengthscale 1/(sqrt2 sqrt(gamma)) for the Gaussian, never forming 2 gamma)."""
    if kernel == "correlation":
        return spectral.Gaussian(1.0 / math.sqrt(gamma))
    return spectral.kernel_measure(kernel, gamma=gamma)        # ValueError naming the registered kernels


def _unit_rows(X, name: str = "X"):
    """Rows of ``X`` divided by their l2 norms (a new array/matrix; ``X`` is not modified).

    Each row is first divided by its largest absolute entry, so that the norm neither
    underflows nor overflows; an all-zero row raises ValueError (its correlation, 000 Eq. 1,
    is undefined).
    """
    if sp.issparse(X):
        largest = np.asarray(abs(X).max(axis=1).toarray()).ravel()
    else:
        largest = np.max(np.abs(X), axis=1) if X.shape[0] else np.zeros(0, X.dtype)
    zero = np.flatnonzero(largest == 0)
    if zero.size:
        raise ValueError(f"{name} has an all-zero row (first at index {zero[0]}); kernel='correlation' "
                         "needs non-zero rows, since the correlation of a zero vector is undefined")
    if sp.issparse(X):
        Y = X.copy()
        counts = np.diff(Y.indptr)
        Y.data /= np.repeat(largest, counts)
        squared = np.bincount(np.repeat(np.arange(Y.shape[0]), counts), weights=Y.data.astype(np.float64) ** 2,
                              minlength=Y.shape[0])
        Y.data /= np.repeat(np.sqrt(squared).astype(Y.dtype), counts)
        return Y
    Y = X / largest[:, None]
    Y /= np.sqrt(np.einsum("ij,ij->i", Y, Y))[:, None]
    return Y


class RFF(FeatureMap, name="rff"):
    """Random Fourier features of shift-invariant kernels (RFF, NRFF, the no-phase variant and
    paired cos/sin features).

    Parameters
    ----------
    n_components : int, default=100
        k, the number of frequencies drawn (>= 1; varlab's rule: n_components counts the random
        draws). The output has k columns, one per frequency (2k with ``paired=True``: the cosine
        and the sine of each), for every sampler and for NRFF and the no-phase map alike.
    gamma : float or "scale", default=1.0
        Kernel parameter (> 0): exp(-gamma ||u - v||^2) for ``kernel="gaussian"`` (as
        scikit-learn's ``RBFSampler``), exp(-gamma (1 - rho)) for ``kernel="correlation"``
        (000, Eq. 14). ``"scale"``: 1 / (n_features X.var()) of the ``X`` given to ``fit``, as
        ``RBFSampler`` (the value used is ``gamma_``).
    kernel : {"gaussian", "correlation", "laplacian", "exponential", "matern32", "matern52", \
"cauchy", "rational_quadratic"} or a registered stationary kernel, default="gaussian"
        ``"gaussian"``: no row scaling, frequencies sqrt(2 gamma) r_j, i.e. N(0, 2 gamma I)
        (scikit-learn's ``RBFSampler``). ``"correlation"`` (paper 000's kernel): rows are scaled
        to unit l2 norm, frequencies are sqrt(gamma) r_j with r_j ~ N(0, I) (000, Eq. 15).
        Beyond the Gaussian (``varlab.spectral.stationary``; ``varlab.kernels`` gives the exact
        kernels): ``"laplacian"`` exp(-gamma ||x - y||_1) (scikit-learn's ``laplacian_kernel``;
        Cauchy frequencies, not radial: orthogonal samplers refuse it), ``"exponential"``
        exp(-gamma ||x - y||), ``"matern32"`` / ``"matern52"`` the Matern kernels of lengthscale
        1/gamma (multivariate t frequencies), ``"cauchy"`` 1 / (1 + gamma ||x - y||^2),
        ``"rational_quadratic"`` (1 + gamma ||x - y||^2 / 4)^-2 (frequencies from its gamma
        mixing law); any kernel registered with ``varlab.theory.StationaryKernel`` works, in its
        ``gamma_words`` convention. gamma must keep the frequencies finite in float64 (e.g. at
        most 2.8e306 for the exponential and Matern kernels, whose frequencies grow as gamma).
    normalize : bool, default=False
        If True, NRFF: every output row is divided by its l2 norm, so that the inner product of
        two outputs is the ratio of 000, Eq. (19).
    phase : bool, default=True
        If False, the no-phase variant: features cos(<x, frequency_j>) / sqrt(k) (no w_j, no
        sqrt2), whose inner product estimates the folded kernel of 000, Eq. (17) / 001, Eq. (11).
    paired : bool, default=False
        If True, paired cos/sin features [cos <x, frequency_j>, sin <x, frequency_j>] / sqrt(k)
        (no random phase; Sutherland and Schneider 2015): 2 columns per frequency, all cosines
        first, then all sines, so the output has 2 n_components columns. Each pair's product is
        cos <x - y, frequency_j>, with variance (1 + k(2z))/2 - k(z)^2, 1/2 less than a
        random-phase column (``varlab.theory.stationary``). Needs ``phase=True`` (the default;
        ``phase=False`` is the no-phase map).
    sampler : str or varlab.features.samplers.Sampler, default="iid"
        How the n_components frequencies are drawn: a registered name
        (``varlab.features.samplers.available_samplers()``) or a Sampler instance carrying its
        options. Validated in ``fit``.
    random_state : None, int, numpy.random.Generator, SeedSequence or RandomState
        Source of the frequencies and phases (see ``varlab._random``). A Generator is used as
        is and advances, so two fits from the same Generator differ.

    Attributes
    ----------
    frequencies_ : ndarray of shape (n_features_in_, n_components)
        The frequencies, one per column: column j is row j of
        ``sampler.frequencies(Gaussian(lengthscale), n_components, n_features_in_, rng)``, with
        bandwidth 1/sqrt(gamma) (correlation kernel; w_j = sqrt(gamma) r_j, r_j ~ N(0, I) for
        ``"iid"``) or 1/sqrt(2 gamma) (Gaussian kernel; w_j = sqrt(2 gamma) r_j). They are drawn in
        float64 and stored in the dtype of the data passed to ``fit`` (cast once there), so a
        float32 fit holds the float32 rounding of the float64 fit's frequencies.
    measure_ : varlab.spectral.SpectralMeasure
        The spectral measure the frequencies were drawn from (``varlab.spectral.Gaussian`` for the
        Gaussian and correlation kernels).
    sampler_ : varlab.features.samplers.Sampler
        The sampler used.
    phases_ : ndarray of shape (n_components,) or None
        w_j ~ U[0, 2 pi) i.i.d. (same dtype as ``frequencies_``); None when ``phase=False`` or
        ``paired=True``.
    n_features_in_ : int
        Number of columns seen in ``fit``.

    Notes
    -----
    With ``sampler="iid"`` components are i.i.d. over j: the frequencies are drawn as one
    C-ordered (n_components, n_features) standard normal block divided by the bandwidth, then
    the phases from the same generator, so the first k columns of a fit with n_components = K >= k
    have the law of a fit with n_components = k (for another sampler, when k is a multiple of its
    ``prefix_granularity``). ``components`` gives the
    unscaled per-component values, e.g. for simulating the estimator "through the real feature
    map": ``c = RFF(k * m, random_state=s).fit(U).components(U)`` and
    ``(c[0] * c[1]).reshape(m, k)`` holds m independent repetitions of the k per-sample products
    of Eq. (16).

    Output dtype follows the input (float32 -> float32, anything else -> float64); dense arrays
    and scipy.sparse matrices are accepted. Each row is transformed independently: a batch gives
    the same rows as transforming each row alone, up to the rounding of the matrix product
    (BLAS may sum the n_features products in a different order for one row than for many).
    With a sampler that offers a fast structured product (``sampler.fast_product_from``, e.g.
    ``"structured_orthogonal"`` from d = 512), dense float64 data of at least that width is
    transformed through the draw's factored form (O(n k log d) instead of O(n k d)), equal to
    the dense product up to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import RFF
    >>> from varlab.kernels import gaussian
    >>> X = np.random.default_rng(0).standard_normal((5, 3))
    >>> rff = RFF(n_components=20000, gamma=0.5, random_state=0).fit(X)
    >>> rff.transform(X).shape
    (5, 20000)
    >>> bool(np.abs(rff.kernel_estimate(X) - gaussian(X, gamma=0.5)).max() < 0.05)
    True
    """

    _parameter_constraints = {
        "n_components": [declared("k")],
        "gamma": scikit_learn_gamma(),
        "kernel": [str],                   # "correlation" or a registered stationary kernel (checked in fit)
        "normalize": ["boolean"],
        "phase": ["boolean"],
        "paired": ["boolean"],
        "sampler": [str, Sampler],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, n_components: int = 100, *, gamma: float = 1.0, kernel: str = "gaussian",
                 normalize: bool = False, phase: bool = True, paired: bool = False,
                 sampler: str | Sampler = "iid", random_state=None):
        self.n_components = n_components
        self.gamma = gamma
        self.kernel = kernel
        self.normalize = normalize
        self.phase = phase
        self.paired = paired
        self.sampler = sampler
        self.random_state = random_state

    # -- fitting ---------------------------------------------------------------------------
    def _fit(self, X) -> int:
        """Draw the frequencies (n_features, n_components) and phases (n_components,); only the
        shape and dtype of ``X`` are used."""
        n_components, gamma = int(self.n_components), fitted_gamma(self.gamma, X)
        if self.paired and not self.phase:
            raise ValueError("paired=True and phase=False cannot be combined: paired cos/sin features "
                             "have no random phase, and phase=False selects the no-phase cosine map; "
                             "pass one of them")
        check_allocation("n_components", n_components * X.shape[1], what="the frequencies")
        sampler = get_sampler(self.sampler)
        measure = _measure(self.kernel, gamma)
        rng = _random.generator(self.random_state)
        if sampler.fast_product_from is not None:     # the same draw, also in factored form
            frequencies, self._factors = sampler.factored(measure, n_components, X.shape[1], rng)
        else:
            frequencies, self._factors = sampler.frequencies(measure, n_components, X.shape[1], rng), None
        if X.dtype != np.float64 and np.max(np.abs(frequencies)) > np.finfo(X.dtype).max:
            raise ValueError(f"gamma={gamma!r} is too large for {X.dtype} data: the frequencies "
                             f"(of size about sqrt(gamma)) overflow {X.dtype}; pass float64 data or a "
                             f"smaller gamma")
        phases = rng.uniform(0.0, 2.0 * np.pi, size=n_components) if self.phase and not self.paired else None
        self.frequencies_ = frequencies.T.astype(X.dtype, copy=False)
        self.phases_ = None if phases is None else phases.astype(X.dtype, copy=False)
        self.measure_ = measure
        self.sampler_ = sampler
        self.gamma_ = self._gamma = gamma  # _gamma for messages, even if set_params changes gamma before a refit
        self._largest_frequency = float(np.max(np.abs(frequencies)))
        self._kernel = self.kernel  # transform follows the fitted map even if set_params changes kernel
        self._paired = bool(self.paired)
        return 2 * n_components if self._paired else n_components

    # -- transforming ----------------------------------------------------------------------
    def _cosines(self, X) -> np.ndarray:
        """cos(<x, frequency_j> + w_j) (or without w_j), a new C-contiguous (n, k) array, for a
        validated ``X``."""
        if sp.issparse(X) and not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
        if self._kernel == "correlation":
            X = _unit_rows(X)
        frequencies = self.frequencies_
        if frequencies.dtype != X.dtype:
            with np.errstate(over="ignore"):
                frequencies = frequencies.astype(X.dtype)
            if not np.all(np.isfinite(frequencies)):
                raise ValueError(f"gamma={self._gamma!r} is too large for {X.dtype} data: the fitted "
                                 f"frequencies overflow {X.dtype}; pass float64 data")
        with np.errstate(over="ignore", invalid="ignore"):
            if self._fast_product(X):
                arguments = self._factors.product(X)
            else:
                arguments = X @ frequencies
            if not isinstance(arguments, np.ndarray):  # sparse @ dense may give np.matrix
                arguments = np.asarray(arguments)
            if self.phases_ is not None:
                arguments += self.phases_.astype(X.dtype, copy=False)
        self._check_arguments(X, arguments)
        if self._paired:
            return np.concatenate([np.cos(arguments), np.sin(arguments)], axis=1)
        return np.cos(arguments, out=arguments)

    def _fast_product(self, X) -> bool:
        """A sampler with a fast structured product, dense float64 data at least as wide as its
        ``fast_product_from``: X W^T from the draw's factors (equal to the dense product up to
        rounding; for SORF, benchmarks/results/orthogonal.md)."""
        return (getattr(self, "_factors", None) is not None and isinstance(X, np.ndarray)
                and X.dtype == np.float64 and X.shape[1] >= self.sampler_.fast_product_from)

    def _check_arguments(self, X, arguments):
        """Raise ValueError if some <x, frequency_j> (+ w_j) overflowed (cos would give NaN).

        A cheap bound first: |<x, w>| + 2 pi <= d max|x| max|w| + 2 pi; only when that bound is
        not safely finite are the arguments themselves scanned.
        """
        if X.shape[0] == 0:
            return
        limit = float(np.finfo(arguments.dtype).max)
        largest_x = max(float(X.max()), -float(X.min()))      # |X|.max() without a copy of X
        bound = X.shape[1] * largest_x * self._largest_frequency + 2.0 * np.pi
        if bound < 0.5 * limit or np.all(np.isfinite(arguments)):
            return
        raise ValueError(f"the arguments <x, frequency_j> overflow {arguments.dtype}: gamma={self._gamma!r} "
                         f"is too large for data of this scale (largest |x| = {largest_x:.3g}); use a "
                         f"smaller gamma, rescale X{' or pass float64 data' if arguments.dtype != np.float64 else ''}")

    def components(self, X) -> np.ndarray:
        """Unscaled per-component values, shape (n_samples, n_components).

        Entry (i, j) is sqrt2 cos(<x_i, frequency_j> + w_j) (000, Eq. 15/16), or
        cos(<x_i, frequency_j>) when ``phase=False`` (Eq. 17), with x_i the unit-normalised row
        for ``kernel="correlation"``; with ``paired=True`` the 2 n_components values
        [cos <x_i, frequency_j>]_j then [sin <x_i, frequency_j>]_j. No 1/sqrt(k) factor and no NRFF normalisation:
        ``components(U)[0] * components(U)[1]`` are the k i.i.d. per-sample products whose mean
        estimates the kernel, and ``transform`` is these values times 1/sqrt(k) (or divided by
        their row norms when ``normalize=True``), up to rounding.
        """
        values = self._cosines(self._checked_input(X))
        if self.phases_ is not None:
            values *= math.sqrt(2.0)
        return values

    def _transform(self, X) -> np.ndarray:
        """Feature vectors z(x), shape (n_samples, n_components) (2 n_components with ``paired``),
        dtype float32 or float64.

        RFF: sqrt(2/k) cos(<x, frequency_j> + w_j); no phase: cos(<x, frequency_j>)/sqrt(k);
        ``normalize=True``: the same divided by its l2 norm (NRFF, 000 Eq. 19).
        """
        values = self._cosines(X)
        if self.normalize:
            # one BLAS dot per row (accurate and fast in float32 too)
            squared = np.matmul(values[:, None, :], values[:, :, None]).ravel().astype(np.float64)
            zero = np.flatnonzero(squared == 0)
            if zero.size:  # all cosines exactly 0: practically impossible, but never return NaN
                raise ValueError(f"the features of row {zero[0]} of X are all zero; NRFF cannot "
                                 "normalise them")
            values *= (1.0 / np.sqrt(squared)).astype(values.dtype)[:, None]
        else:
            values *= math.sqrt((1.0 if self.phases_ is None else 2.0) / self.frequencies_.shape[1])
        return values
