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
from sklearn.utils._param_validation import StrOptions

from .. import _random, _validate, spectral
from .._validate import check_allocation
from ._base import RANDOM_STATE, FeatureMap, angles, declared
from .samplers import Sampler, get_sampler

__all__ = ["GRFF", "signed_frequencies"]


def signed_frequencies(measure, s, d, *, sampler="iid", orthogonality="mutual", rng=None):
    """(W, V): s positive-part and s negative-part frequencies (rows; V is (0, d) for an empty
    part), drawn in this order from ``rng``; with ``orthogonality="mutual"`` and a sampler that
    draws two parts jointly (``sampler.joint_frequencies``, e.g. "orthogonal"), W and V together.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab import spectral
    >>> from varlab.features.signed import signed_frequencies
    >>> measure = spectral.get_measure("delta_gaussian")         # exp(-r^2/2) - exp(-r^2/200)
    >>> W, V = signed_frequencies(measure, 2, 4, sampler="orthogonal", rng=np.random.default_rng(0))
    >>> W.shape, V.shape
    ((2, 4), (2, 4))
    >>> bool(np.abs(W @ V.T).max() < 1e-12)       # one Haar block: W and V mutually orthogonal
    True
    """
    parts, masses = measure.parts(), measure.total_masses()
    _validate.choice(orthogonality, "orthogonality", ("mutual", "separate"))
    chosen = get_sampler(sampler)
    if orthogonality == "mutual" and chosen.joint_frequencies is not None and parts["negative"] is not None \
            and parts["positive"] is not None and d >= 2:
        return chosen.joint_frequencies(parts["positive"], parts["negative"], s, d, rng)
    empty = np.zeros((0, d))
    W = chosen.frequencies(parts["positive"], s, d, rng) if parts["positive"] is not None and masses["positive"] > 0 else empty
    V = chosen.frequencies(parts["negative"], s, d, rng) if parts["negative"] is not None and masses["negative"] > 0 else empty
    return W, V


class GRFF(FeatureMap, name="grff"):
    """Generalized random Fourier features (GRFF) and generalized orthogonal ones (GORF).

    Parameters
    ----------
    n_components : int, default=100
        s, the number of frequencies drawn from each part (varlab's rule: n_components counts the
        random draws). ``transform`` and ``right`` have 4s columns for a signed kernel (cos and
        sin of each part's frequencies), 2s for a positive definite one (a measure with no
        negative part, or one of zero mass).
    kernel : str or varlab.spectral.SignedMeasure or SpectralMeasure, default="delta_gaussian"
        The kernel's signed spectral measure (a probability measure is a signed one with an
        empty negative part), or the name of a registered measure (``varlab.spectral.measures()``,
        e.g. "polynomial_sphere") built with ``kernel_params`` at ``fit``, where a measure taking
        ``dimension`` gets the width of X unless ``kernel_params`` gives it.
    kernel_params : dict or None, default=None
        Parameters of the measure named by ``kernel`` (e.g. {"a": 3.0, "degree": 1}), as
        scikit-learn's ``Nystroem`` takes them.
    sampler : str or Sampler, default="iid"
        "iid" (GRFF), "orthogonal" (GORF) or another registered sampler of each part.
    orthogonality : {"mutual", "separate"}, default="separate"
        For a sampler that can draw both parts jointly (``"orthogonal"``): W and V orthogonal to
        each other (004's GORF), or each on its own (the default: claim
        004.gorf.mutual_vs_separate finds the cross term H(z) > 0 for the delta-Gaussian, so
        mutual orthogonality never lowers the variance there, and its blocks of d/2 rows per part
        give fewer orthogonal pairs for s > d/2).
    random_state : None, int, Generator, SeedSequence or RandomState

    Attributes
    ----------
    positive_frequencies_ : ndarray (s, d)
    negative_frequencies_ : ndarray (s or 0, d)
    masses_ : (P, N), the parts' total masses
    measure_ : varlab.spectral.SignedMeasure
    n_features_in_ : int

    ``transform(X)`` is the left map s^{-1/2} [sqrt P cos Wx, sqrt P sin Wx, sqrt N cos Vx,
    sqrt N sin Vx] and ``right(Y)`` the right one (the negative part's blocks negated), so
    ``kernel_estimate(X, Y) = transform(X) @ right(Y).T`` estimates k(x_i - y_j); for a positive
    definite kernel the two maps are equal. As a pipeline step, ``transform`` feeds a linear
    model the left features.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import GRFF
    >>> X = np.random.default_rng(0).standard_normal((4, 3))
    >>> grff = GRFF(n_components=10000, random_state=0).fit(X)      # the delta-Gaussian kernel
    >>> grff.transform(X).shape                  # 4 columns per frequency pair
    (4, 40000)
    >>> exact = grff.measure_.kernel_of_distance(np.linalg.norm(X[:, None] - X[None], axis=-1))
    >>> bool(np.abs(grff.kernel_estimate(X) - exact).max() < 0.05)
    True
    """

    _parameter_constraints = {
        "n_components": [declared("k")],
        "kernel": [str, spectral.SpectralMeasure, spectral.SignedMeasure],
        "kernel_params": [dict, None],
        "sampler": [str, Sampler],
        "orthogonality": [StrOptions({"mutual", "separate"})],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, n_components: int = 100, *, kernel="delta_gaussian", kernel_params: dict | None = None,
                 sampler: str | Sampler = "iid", orthogonality: str = "separate", random_state=None):
        self.n_components = n_components
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.sampler = sampler
        self.orthogonality = orthogonality
        self.random_state = random_state

    def _measure(self, d):
        kernel = self.kernel
        if isinstance(kernel, str):
            params = dict(self.kernel_params or {})
            if "dimension" in inspect.signature(spectral.measures().get(kernel, dict).__init__).parameters:
                params.setdefault("dimension", d)
            kernel = spectral.get_measure(kernel, **params)
        elif self.kernel_params is not None:
            raise ValueError("kernel_params is only used with a kernel given by name, got a measure object")
        return spectral.as_signed(kernel)

    def _fit(self, X) -> int:
        """Draw the frequencies for the width of ``X`` (rows are not used otherwise)."""
        measure = self._measure(X.shape[1])
        masses = measure.total_masses()
        s = int(self.n_components)
        check_allocation("n_components", 2 * s * X.shape[1], what="the frequencies of both parts")
        rng = _random.generator(self.random_state)
        W, V = signed_frequencies(measure, s, X.shape[1], sampler=self.sampler,
                                  orthogonality=self.orthogonality, rng=rng)
        self.positive_frequencies_, self.negative_frequencies_ = W, V
        self.masses_ = (masses["positive"], masses["negative"])
        self.measure_ = measure
        return 2 * (W.shape[0] + V.shape[0])

    def _blocks(self, X, name):
        s = self.positive_frequencies_.shape[0]
        P, N = self.masses_
        a = angles(X, self.positive_frequencies_, name)
        b = angles(X, self.negative_frequencies_, name)
        scale_p, scale_n = math.sqrt(P / s), math.sqrt(N / s)
        return [scale_p * np.cos(a), scale_p * np.sin(a)], [scale_n * np.cos(b), scale_n * np.sin(b)]

    def _transform(self, X) -> np.ndarray:
        """(n, 4s) left features (2s for a positive definite kernel), with transform(X) @ right(Y).T estimating k(x_i - y_j)."""
        positive, negative = self._blocks(X, "X")
        return np.hstack(positive + negative)

    def right(self, Y) -> np.ndarray:
        """(n, 4s) right features (2s for a positive definite kernel): ``transform`` with the negative part's blocks negated."""
        positive, negative = self._blocks(self._checked_input(Y, "Y"), "Y")
        return np.hstack(positive + [-block for block in negative])

    def kernel_estimate(self, X, Y=None) -> np.ndarray:
        """transform(X) @ right(Y).T, the estimate of K[i, j] = k(x_i - y_j) (Y = X if None)."""
        return self.transform(X) @ self.right(X if Y is None else Y).T
