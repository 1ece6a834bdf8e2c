"""AsK-RFF: random Fourier features for asymmetric kernels (paper 002, Eq. 7-8 and §5.3).

For k(D) = k(x - y) with complex spectral measure mu (see :mod:`varlab.spectral.asymmetric`),
M frequencies are drawn from each normalised part (omega ~ mu_R+, zeta ~ mu_R-, nu ~ mu_I+;
002 Alg. 1) and, with phi(w, x) = [cos Wx, sin Wx]/sqrt(M) and psi(w, y) = [-sin Wy, cos Wy]/sqrt(M)
(Eq. 8),

    s(x - y) = ||R+|| phi(omega,x).phi(omega,y) - ||R-|| phi(zeta,x).phi(zeta,y)
               - 2 ||I+|| phi(nu,x).psi(nu,y)                                         (Eq. 7)

is an unbiased estimate of k(x - y). An asymmetric kernel needs two embeddings: ``transform(X)``
(the left one) and ``right(Y)`` (each (n, 6M), real) with transform(X) @ right(Y).T =
[s(x_i - y_j)] (``kernel_estimate``). ``concatenated(X)``
is §5.3's single map for a linear classifier, with its i dropped (a real classifier cannot use
it); ``symmetric_features(X)`` the RFF map of the symmetric part (k(D) + k(-D))/2 ("Sym" of
Table 1). Total masses are the exact ones (``masses="exact"``) or estimated by Eq. (12)
(``masses="estimated"``: constrained least squares on ``n_subset`` rows of the data passed to fit;
:func:`estimate_total_masses`).

>>> import numpy as np
>>> X = np.random.default_rng(0).random((5, 3))
>>> ask = AsKRFF(n_components=10000, kernel="shift_gaussian", gamma=0.125, shift=0.3, random_state=0).fit(X)
>>> G = ask.kernel_estimate(X)                 # transform(X) @ right(X).T: k(x_i - x_j), not symmetric
>>> G.shape
(5, 5)
"""
from __future__ import annotations

import math

from numbers import Integral, Real

import numpy as np
import scipy.optimize
from sklearn.utils._param_validation import Interval, StrOptions

from .. import _random, _validate
from .._validate import check_allocation
from ..spectral import get_measure
from ..spectral.asymmetric import kernel_value
from ._base import RANDOM_STATE, FeatureMap, angles, declared

__all__ = ["AsKRFF", "estimate_total_masses", "fit_total_masses", "asymmetric_gram"]

_KERNELS = ("shift_gaussian", "sinh_gaussian", "cosh_gaussian")
_USED = ("real_positive", "real_negative", "imaginary_positive")


def _trig_features(X, W, name="X"):
    """[cos XW^T, sin XW^T] / sqrt(M): the phi of Eq. (8) for every row of X, shape (n, 2M)."""
    phases = angles(X, W, name)
    M = W.shape[0]
    return np.hstack([np.cos(phases), np.sin(phases)]) / math.sqrt(M)


def _psi(X, W, name="X"):
    """psi of Eq. (8): [-sin XW^T, cos XW^T] / sqrt(M)."""
    phases = angles(X, W, name)
    M = W.shape[0]
    return np.hstack([-np.sin(phases), np.cos(phases)]) / math.sqrt(M)


def asymmetric_gram(kernel, X, Y, sigma, vector) -> np.ndarray:
    """The exact asymmetric Gram K[i, j] = k(x_i - y_j) (002, Eq. 9-11).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.asymmetric import asymmetric_gram
    >>> X = np.array([[0.0, 0.0], [0.5, 0.0]])
    >>> K = asymmetric_gram("shift_gaussian", X, X, sigma=1.0, vector=np.array([0.5, 0.0]))
    >>> K.round(4)                                # k(x_i - x_j): not symmetric
    array([[0.8825, 1.    ],
           [0.6065, 0.8825]])
    """
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    return kernel_value(kernel, X[:, None, :] - Y[None, :, :], sigma, vector)


class AsKRFF(FeatureMap, name="askrff"):
    """Random Fourier features of an asymmetric 002 kernel (Alg. 1-2).

    Parameters
    ----------
    n_components : int, default=100
        M, the number of frequencies drawn from each part (varlab's rule: n_components counts the
        random draws). ``transform`` and ``right`` have 6M columns (cos and sin of omega, zeta
        and nu).
    kernel : {"shift_gaussian", "sinh_gaussian", "cosh_gaussian"}, default="shift_gaussian"
        002's kernels, Eq. (9)-(11).
    gamma : float > 0, default=0.5
        Bandwidth as in scikit-learn's RBF kernel: gamma = 1 / (2 sigma^2) for 002's sigma.
    shift : None, float or (d,) vector, default=None
        The shift r of the shift_gaussian kernel (a float means r = shift * 1; None: 0.5 * 1, the
        measure's default). Must be None for the other kernels.
    beta : None, float or (d,) vector, default=None
        The beta of sinh_gaussian / cosh_gaussian (as ``shift``); must be None for shift_gaussian.
    method : {"exact", "rejection"}, default="exact"
        How frequencies of the parts are drawn.
    masses : {"exact", "estimated"}, default="exact"
        The parts' total masses: exact, or Eq. (12) on ``n_subset`` rows of the fit data.
    n_subset : int >= 2, default=50
        N_s of Eq. (12).
    random_state : None, int, Generator, SeedSequence or RandomState

    Attributes: ``frequencies_`` {part: (M, d)}, ``masses_`` {part: mass}, ``measure_``,
    ``vector_`` (the shift or beta vector), ``n_features_in_``.

    ``transform(X)`` is the left map and ``right(Y)`` the right one: transform(X) @ right(Y).T
    (``kernel_estimate``) estimates K[i, j] = k(x_i - y_j), which is not symmetric.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import AsKRFF
    >>> X = np.random.default_rng(0).standard_normal((3, 2)) / 2
    >>> ask = AsKRFF(n_components=100, kernel="shift_gaussian", gamma=0.5, random_state=0).fit(X)
    >>> ask.transform(X).shape, ask.right(X).shape          # 6M columns each
    ((3, 600), (3, 600))
    >>> K = ask.kernel_estimate(X)                           # transform(X) @ right(X).T
    >>> bool(np.allclose(K, K.T))                            # the kernel is not symmetric
    False
    """

    accept_sparse = False          # Eq. (12) needs the exact dense Gram of a subset
    _parameter_constraints = {
        "n_components": [declared("k")],
        "kernel": [StrOptions(set(_KERNELS))],
        "gamma": [declared("gamma")],
        "shift": ["array-like", Real, None],
        "beta": ["array-like", Real, None],
        "method": [StrOptions({"exact", "rejection"})],
        "masses": [StrOptions({"exact", "estimated"})],
        "n_subset": [Interval(Integral, 2, None, closed="left")],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, n_components: int = 100, *, kernel: str = "shift_gaussian", gamma: float = 0.5,
                 shift=None, beta=None, method: str = "exact", masses: str = "exact", n_subset: int = 50,
                 random_state=None):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.shift = shift
        self.beta = beta
        self.method = method
        self.masses = masses
        self.n_subset = n_subset
        self.random_state = random_state

    @property
    def sigma(self) -> float:
        """002's bandwidth sigma = 1 / sqrt(2 gamma)."""
        return 1.0 / math.sqrt(2.0 * float(self.gamma))

    # -- fit ------------------------------------------------------------------------------------
    def _vector(self, d):
        name = "shift" if self.kernel == "shift_gaussian" else "beta"
        other = "beta" if name == "shift" else "shift"
        if getattr(self, other) is not None:
            raise ValueError(f"{other} is not a parameter of the {self.kernel} kernel; give {name}")
        value = getattr(self, name)
        vector = _validate.real_array(0.5 if value is None else value, name)
        if vector.ndim == 0:
            vector = np.full(d, float(vector))
        if vector.shape != (d,):
            raise ValueError(f"{name} must be a float or a vector of length d = {d}, got shape {vector.shape}")
        return name, vector

    def _fit(self, X) -> int:
        """Draw the frequencies for data of X's width (and estimate the masses from X if asked)."""
        d = X.shape[1]
        M = int(self.n_components)
        check_allocation("n_components", 3 * M * d, what="the frequencies of three parts")
        name, vector = self._vector(d)
        measure = get_measure(self.kernel, lengthscale=self.sigma, method=self.method, **{name: vector})
        rng = _random.generator(self.random_state)
        parts = measure.parts()
        self.measure_ = measure
        self.vector_ = vector
        self.frequencies_ = {part: (np.zeros((M, d)) if parts[part] is None
                                    else parts[part].rvs(M, d, rng)) for part in _USED}
        exact = measure.total_masses()
        if self.masses == "exact":
            self.masses_ = {part: exact[part] for part in _USED}
        else:
            rows = rng.choice(X.shape[0], size=min(int(self.n_subset), X.shape[0]), replace=False)
            self.masses_ = estimate_total_masses(self, np.asarray(X[rows], dtype=float))
        return 6 * M

    # -- blocks ---------------------------------------------------------------------------------
    def blocks(self, X, name="X"):
        """{part: phi(w_part, X)} and psi(nu, X): the unscaled Eq. (8) maps, each (n, 2M)."""
        return self._blocks(self._checked_input(X, name), name)

    def _blocks(self, X, name):
        W = self.frequencies_
        return ({part: _trig_features(X, W[part], name) for part in _USED},
                _psi(X, W["imaginary_positive"], name))

    def _transform(self, X):
        """(n, 6M) left map: [sqrt R+ phi(omega, x), sqrt R- phi(zeta, x), sqrt(2 I+) phi(nu, x)]."""
        phi, _ = self._blocks(X, "X")
        m = self.masses_
        return np.hstack([math.sqrt(m["real_positive"]) * phi["real_positive"],
                          math.sqrt(m["real_negative"]) * phi["real_negative"],
                          math.sqrt(2 * m["imaginary_positive"]) * phi["imaginary_positive"]])

    def right(self, Y):
        """(n, 6M) right map: [sqrt R+ phi(omega, y), -sqrt R- phi(zeta, y), -sqrt(2 I+) psi(nu, y)],
        so that transform(X) @ right(Y).T = s(x_i - y_j) of Eq. (7)."""
        phi, psi = self.blocks(Y, "Y")
        m = self.masses_
        return np.hstack([math.sqrt(m["real_positive"]) * phi["real_positive"],
                          -math.sqrt(m["real_negative"]) * phi["real_negative"],
                          -math.sqrt(2 * m["imaginary_positive"]) * psi])

    def kernel_estimate(self, X, Y=None):
        """transform(X) @ right(Y).T, the estimate of K[i, j] = k(x_i - y_j) (Y = X if omitted)."""
        return self.transform(X) @ self.right(X if Y is None else Y).T

    def concatenated(self, X):
        """§5.3's map [sqrt R+ phi(omega), (i) sqrt R- phi(zeta), sqrt(2 I+) phi(nu), sqrt(2 I+)
        psi(nu)] with the i dropped: (n, 8M) real features for a linear classifier. Note that
        any single map's inner products are symmetric, so this map does not represent k."""
        phi, psi = self.blocks(X)
        m = self.masses_
        return np.hstack([math.sqrt(m["real_positive"]) * phi["real_positive"],
                          math.sqrt(m["real_negative"]) * phi["real_negative"],
                          math.sqrt(2 * m["imaginary_positive"]) * phi["imaginary_positive"],
                          math.sqrt(2 * m["imaginary_positive"]) * psi])

    def symmetric_features(self, X):
        """The "Sym" map of Table 1: RFF of the symmetric part (k(D) + k(-D))/2 = R+ E cos -
        R- E cos, as [sqrt R+ phi(omega), sqrt R- phi(zeta)] (the minus sign goes to the right
        map for a Gram; a linear classifier uses the features as they are)."""
        phi, _ = self.blocks(X)
        m = self.masses_
        return np.hstack([math.sqrt(m["real_positive"]) * phi["real_positive"],
                          math.sqrt(m["real_negative"]) * phi["real_negative"]])


def estimate_total_masses(features: AsKRFF, X_subset, *, printed_sign: bool = False) -> dict:
    """Eq. (12): min_{xi} ||K - xi1 A1 + xi2 A2 + 2 xi3 A3||_F^2 s.t. xi1 - xi2 = k(0), xi >= 0,
    with A1 = phi(omega)phi(omega)^T, A2 = phi(zeta)phi(zeta)^T, A3 = phi(nu)psi(nu)^T on the
    subset and K[i, j] = k(x_i - x_j); solved by ``scipy.optimize.lsq_linear`` in (xi2, xi3)
    after eliminating xi1 = k(0) + xi2. ``printed_sign=True`` uses the sign of the A3 term as
    printed in 002 (-2 xi3 A3, the opposite of Eq. 7) to show its effect. Returns the masses by
    part name (xi3 is ||I+||).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features import AsKRFF
    >>> from varlab.features.asymmetric import estimate_total_masses
    >>> X = np.random.default_rng(0).standard_normal((20, 2)) / 2
    >>> ask = AsKRFF(n_components=500, shift=0.3, random_state=0).fit(X)
    >>> estimated = estimate_total_masses(ask, X)
    >>> {part: round(mass, 2) for part, mass in ask.masses_.items()}          # exact
    {'real_positive': 0.91, 'real_negative': 0.0, 'imaginary_positive': 0.16}
    >>> max(abs(estimated[part] - ask.masses_[part]) for part in estimated) < 0.01   # Eq. (12)
    True
    """
    X_subset = np.asarray(X_subset, dtype=float)
    kernel, sigma, vector = features.kernel, features.sigma, features.vector_
    K = asymmetric_gram(kernel, X_subset, X_subset, sigma, vector)
    k0 = float(kernel_value(kernel, np.zeros(X_subset.shape[1]), sigma, vector))
    W = features.frequencies_
    phi = {part: _trig_features(X_subset, W[part]) for part in _USED}
    A1 = phi["real_positive"] @ phi["real_positive"].T
    A2 = phi["real_negative"] @ phi["real_negative"].T
    A3 = phi["imaginary_positive"] @ _psi(X_subset, W["imaginary_positive"]).T
    return fit_total_masses(K, k0, A1, A2, A3, printed_sign=printed_sign)


def fit_total_masses(K, k0, A1, A2, A3, *, printed_sign: bool = False) -> dict:
    """The constrained least squares of Eq. (12) given the sub-Gram K (N_s x N_s), k(0) and the
    part Grams A1[i, j] = mean cos<omega, x_i - x_j>, A2 (zeta, cos), A3 = mean sin<nu, x_i - x_j>
    (= phi(nu) psi(nu)^T): min ||K - xi1 A1 + xi2 A2 + 2 xi3 A3||_F s.t. xi1 - xi2 = k0, xi >= 0,
    by ``scipy.optimize.lsq_linear`` in (xi2, xi3) after eliminating xi1 = k0 + xi2.

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.features.asymmetric import fit_total_masses
    >>> A1, A2, A3 = np.eye(2), 0.5 * np.eye(2), np.array([[0.0, 0.1], [-0.1, 0.0]])
    >>> K = 1.5 * A1 - 0.5 * A2 - 2 * 0.2 * A3         # masses (1.5, 0.5, 0.2), k(0) = 1
    >>> masses = fit_total_masses(K, 1.0, A1, A2, A3)
    >>> {part: round(mass, 6) for part, mass in masses.items()}
    {'real_positive': 1.5, 'real_negative': 0.5, 'imaginary_positive': 0.2}
    """
    K, A1, A2, A3 = (np.asarray(a, dtype=float) for a in (K, A1, A2, A3))
    if not (K.shape == A1.shape == A2.shape == A3.shape) or K.ndim != 2:
        raise ValueError(f"K, A1, A2 and A3 must be matrices of one shape, got {K.shape}, {A1.shape}, "
                         f"{A2.shape}, {A3.shape}")
    sign = -1.0 if printed_sign else 1.0
    # residual = (K - k0 A1) - xi2 (A1 - A2) + sign 2 xi3 A3
    design = np.column_stack([(A1 - A2).ravel(), (-sign * 2.0 * A3).ravel()])
    result = scipy.optimize.lsq_linear(design, (K - k0 * A1).ravel(), bounds=(0.0, np.inf))
    xi2, xi3 = (float(v) for v in result.x)
    return {"real_positive": k0 + xi2, "real_negative": xi2, "imaginary_positive": xi3}
