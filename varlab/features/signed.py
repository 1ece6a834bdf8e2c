"""GRFF and GORF: random features of an indefinite shift-invariant kernel from its signed
spectral measure (004, "Generalized Random Fourier Features"; Liu et al. 2021).

With mu = mu+ - mu- (masses P = ||mu+||, N = ||mu-||), s frequencies w_i ~ mu+/P and v_i ~ mu-/N,

    k(x - y) ~ (1/s) sum_i [P cos<w_i, x - y> - N cos<v_i, x - y>]
             = left(x) . right(y),

left(x) = s^{-1/2} [sqrt P cos Wx, sqrt P sin Wx, sqrt N cos Vx, sqrt N sin Vx] and right(y) the
same with the last two blocks negated (004's psi_i with i^2 = -1, written as two real maps). A
kernel that is not positive definite needs the two maps; ``left(X) @ right(Y).T`` estimates
K[i, j] = k(x_i - y_j) and is unbiased for every sampler that draws each row from its part.

``sampler="iid"``: GRFF. ``sampler="orthogonal"``: GORF, with ``orthogonality``:
"mutual" (004: each Haar block of d directions gives d//2 positive and d//2 negative rows, so W
and V are orthogonal to each other while 2s <= d, and in blocks beyond) or "separate" (W and V
orthogonalised each on its own, blocks of d). Norms always come from each part's radial law.
Which is better depends on the cross term H(z) (varlab/theory/signed.py; paper_checks/p004).
"""
from __future__ import annotations

import inspect
import math

import numpy as np

from .. import _random, _validate, spectral
from ._base import NotFittedError, ParamsMixin
from .samplers import get_sampler
from .samplers.orthogonal import haar_orthogonal

__all__ = ["GRFF", "signed_frequencies"]


def signed_frequencies(measure, s, d, *, sampler="iid", orthogonality="mutual", rng=None):
    """(W, V): s positive-part and s negative-part frequencies (rows; V is (0, d) for an empty
    part), drawn in this order from ``rng``."""
    parts, masses = measure.parts(), measure.total_masses()
    _validate.choice(orthogonality, "orthogonality", ("mutual", "separate"))
    empty = np.zeros((0, d))
    if sampler == "orthogonal" and orthogonality == "mutual" and parts["negative"] is not None \
            and parts["positive"] is not None and d >= 2:
        half = d // 2
        n_blocks = -(-s // half)
        q = haar_orthogonal(rng, n_blocks, d)
        directions_w = q[:, :half, :].reshape(-1, d)[:s]
        directions_v = q[:, half:2 * half, :].reshape(-1, d)[:s]
        norms_w = np.asarray(parts["positive"].norm_law(d).rvs(size=s, random_state=rng), dtype=np.float64)
        norms_v = np.asarray(parts["negative"].norm_law(d).rvs(size=s, random_state=rng), dtype=np.float64)
        return directions_w * norms_w[:, None], directions_v * norms_v[:, None]
    chosen = get_sampler(sampler)
    W = chosen.frequencies(parts["positive"], s, d, rng) if parts["positive"] is not None and masses["positive"] > 0 else empty
    V = chosen.frequencies(parts["negative"], s, d, rng) if parts["negative"] is not None and masses["negative"] > 0 else empty
    return W, V


class GRFF(ParamsMixin):
    """Generalized random Fourier features (GRFF) and generalized orthogonal ones (GORF).

    Parameters
    ----------
    kernel : varlab.spectral.SignedMeasure or SpectralMeasure or str, default DeltaGaussian()
        The kernel's signed spectral measure (a probability measure is a signed one with an
        empty negative part), or the name of a registered measure (``varlab.spectral.measures()``,
        e.g. "polynomial_sphere") built with ``kernel_params`` at ``fit``, where a measure taking
        ``dimension`` gets the width of X unless ``kernel_params`` gives it.
    n_components : int, default=100
        s, the number of frequencies drawn from each part.
    sampler : {"iid", "orthogonal"} or a registered sampler name, default="iid"
    orthogonality : {"mutual", "separate"}, default="separate"
        For ``sampler="orthogonal"``: W and V orthogonal to each other (004's GORF), or each on its
        own (the default: claim 004.gorf.mutual_vs_separate finds the cross term H(z) > 0 for the
        delta-Gaussian, so mutual orthogonality never lowers the variance there, and its blocks of
        d/2 rows per part give fewer orthogonal pairs for s > d/2).
    random_state : None, int, Generator, SeedSequence or RandomState
    kernel_params : dict or None, default=None
        Parameters of the measure named by ``kernel`` (e.g. {"a": 3.0, "degree": 1}).

    Attributes: ``positive_frequencies_`` (s, d), ``negative_frequencies_`` (s or 0, d),
    ``masses_`` (P, N), ``n_features_in_``.
    """

    def __init__(self, kernel=None, n_components=100, *, sampler="iid", orthogonality="separate",
                 random_state=None, kernel_params=None):
        self.kernel = kernel
        self.n_components = n_components
        self.sampler = sampler
        self.orthogonality = orthogonality
        self.random_state = random_state
        self.kernel_params = kernel_params

    def _measure(self, d):
        kernel = self.kernel
        if kernel is None:
            from ..spectral.signed import DeltaGaussian
            kernel = DeltaGaussian()
        if isinstance(kernel, str):
            params = {} if self.kernel_params is None else self.kernel_params
            if not hasattr(params, "items"):
                raise TypeError(f"kernel_params must be a dict of the measure's parameters or None, got {params!r}")
            params = dict(params)
            if "dimension" in inspect.signature(spectral.measures().get(kernel, dict).__init__).parameters:
                params.setdefault("dimension", d)
            kernel = spectral.get_measure(kernel, **params)
        elif self.kernel_params is not None:
            raise ValueError("kernel_params is only used with a kernel given by name, got a measure object")
        return spectral.as_signed(kernel)

    def fit(self, X, y=None):
        """Draw the frequencies for the width of ``X`` (rows are not used otherwise)."""
        X = _validate.data_matrix(X, "X", allow_sparse=False)
        s = _validate.positive_int(self.n_components, "n_components")
        if not isinstance(self.sampler, str):
            raise TypeError(f"sampler must be a registered sampler name, got {self.sampler!r}")
        measure = self._measure(X.shape[1])
        rng = _random.generator(self.random_state)
        W, V = signed_frequencies(measure, s, X.shape[1], sampler=self.sampler,
                                  orthogonality=self.orthogonality, rng=rng)
        masses = measure.total_masses()
        self.positive_frequencies_, self.negative_frequencies_ = W, V
        self.masses_ = (masses["positive"], masses["negative"])
        self.measure_ = measure
        self.n_features_in_ = X.shape[1]
        return self

    def _blocks(self, X, name):
        if not hasattr(self, "positive_frequencies_"):
            raise NotFittedError(f"this GRFF instance is not fitted yet; call fit before {name}")
        X = _validate.data_matrix(X, "X", allow_sparse=False).astype(np.float64, copy=False)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but GRFF was fitted with {self.n_features_in_}")
        s = self.positive_frequencies_.shape[0]
        P, N = self.masses_
        a, b = X @ self.positive_frequencies_.T, X @ self.negative_frequencies_.T
        scale_p, scale_n = math.sqrt(P / s), math.sqrt(N / s)
        return [scale_p * np.cos(a), scale_p * np.sin(a)], [scale_n * np.cos(b), scale_n * np.sin(b)]

    def left(self, X) -> np.ndarray:
        """(n, 4s) real features with left(X) @ right(Y).T estimating k(x_i - y_j)."""
        positive, negative = self._blocks(X, "left")
        return np.hstack(positive + negative)

    def right(self, Y) -> np.ndarray:
        """(n, 4s) real features: ``left`` with the negative part's blocks negated."""
        positive, negative = self._blocks(Y, "right")
        return np.hstack(positive + [-block for block in negative])

    def kernel_estimate(self, X, Y=None) -> np.ndarray:
        """left(X) @ right(Y).T (Y = X if None)."""
        return self.left(X) @ self.right(X if Y is None else Y).T
