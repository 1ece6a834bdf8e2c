"""Samplers: (spectral measure, m, d, random_state) -> an (m, d) matrix of frequencies.

Row j of the matrix is the frequency w_j of random feature j. The i.i.d. sampler draws the
rows independently from the measure (Rahimi and Recht 2007; 003, Eq. 4-5); the next samplers
(orthogonal, QMC, antithetic, moment matching; 003 Alg. 1, 004) couple the rows.

A sampler is one class with one method: subclass :class:`Sampler` with a name and implement
``_frequencies(measure, m, d, rng)`` (``m`` and ``d`` validated ints, ``rng`` a numpy
Generator, ``measure`` an instance of the class attribute ``measure_type``); options are the
keyword arguments of its ``__init__``, stored unchanged (``get_params``/``set_params`` as in
scikit-learn). Defining the class registers it:

>>> import numpy as np
>>> from varlab import spectral
>>> from varlab.features.samplers import Sampler, available_samplers, get_sampler
>>> class Negated(Sampler, name="doc_negated"):        # e.g. one half of an antithetic pair
...     def _frequencies(self, measure, m, d, rng):
...         return -measure.rvs(m, d, rng)
>>> "doc_negated" in available_samplers()
True
>>> W = get_sampler("iid").frequencies(spectral.Gaussian(2.0), 4, 3, random_state=0)
>>> W.shape, W.dtype
((4, 3), dtype('float64'))
>>> np.array_equal(W, np.random.default_rng(0).standard_normal((4, 3)) / 2.0)
True
"""
from __future__ import annotations

import numpy as np

from ... import _random, _validate
from ..._registry import Registry
from ...spectral import SpectralMeasure, _count
from .._base import ParamsMixin

__all__ = ["Sampler", "IID", "get_sampler", "available_samplers"]

_REGISTRY = Registry("sampler", __name__)


def available_samplers() -> dict[str, type]:
    """The registered sampler classes, by name (sorted).

    Examples
    --------
    >>> from varlab.features import available_samplers
    >>> "orthogonal" in available_samplers(), "sobol" in available_samplers()
    (True, True)
    """
    return _REGISTRY.by_name()


def get_sampler(sampler, **options) -> "Sampler":
    """A Sampler from a registered name (built with ``options``) or an instance (returned as is;
    its options are set on it, so passing ``options`` with an instance is an error).

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> W = get_sampler("orthogonal").frequencies(spectral.Gaussian(), 8, 4, random_state=0)
    >>> W.shape
    (8, 4)
    """
    if isinstance(sampler, Sampler):
        if options:
            raise TypeError(f"options {sorted(options)} cannot be passed with a Sampler instance "
                            f"({sampler!r}); set them on the instance")
        return sampler
    _REGISTRY.load()
    if not isinstance(sampler, str):
        raise TypeError(f"sampler must be a Sampler instance or one of {sorted(_REGISTRY)}, got {sampler!r}")
    try:
        cls = _REGISTRY[sampler]
    except KeyError:
        raise ValueError(f"sampler must be one of {sorted(_REGISTRY)}, got {sampler!r}") from None
    unknown = sorted(set(options) - set(cls._parameters()))
    if unknown:
        raise TypeError(f"sampler {sampler!r} has no option(s) {unknown}; its options are "
                        f"{sorted(cls._parameters())}")
    return cls(**options)


class Sampler(ParamsMixin):
    """Base class: validates, seeds and checks; a subclass implements ``_frequencies``.

    Attributes
    ----------
    name : str
        The registered name (given in the class definition: ``class X(Sampler, name="x")``).
    prefix_granularity : int
        g such that, for every j, the first j g rows of one draw of m rows form a valid draw
        of j g frequencies (1 for i.i.d.; d for block-orthogonal; powers of two for Sobol may
        override this as a property). The Monte Carlo engine uses it to reuse prefixes.
    measure_type : type
        The measures the sampler accepts (e.g. RadialMeasure for orthogonal frequencies).
    working_copies : int
        How many (m, d) float64 arrays a draw holds at once (``elements``): ``frequencies``
        refuses up front a draw past ``varlab._validate.MAX_ALLOCATION_BYTES``, naming m
        (``_check_size``; the orthogonal samplers count their blocks and keep their own limit).

    coupling : {"independent", "blocks", "all"}
        How the rows of one draw depend on each other: "independent" (i.i.d. rows: a draw of
        n m rows is n draws of m rows), "blocks" (coupled within blocks of ``block_size(d)``
        rows, the blocks independent: n draws of whole blocks are one draw of their rows), "all"
        (every row of a call is
        coupled, e.g. a whitened or low-discrepancy set: n draws need n calls). A simulation
        draws its repetitions in one call only when that keeps them independent.
    needs_fast_ppf : bool
        Whether the sampler maps every point through the measure's norm law ``ppf`` (QMC), and so
        refuses a RadialMeasure whose ``fast_ppf`` is False.
    exact_rows : bool
        Whether every row of a draw has the measure's law (i.i.d., orthogonal rows with radial
        norms, antithetic pairs, Fastfood, scrambled nets), so that a random-feature estimate
        averaging the rows is unbiased (``unbiased_for``); False where the rows are
        transformed together (moment matching), structured (SORF) or deterministic (Sobol).

    Capabilities a sampler may offer (feature maps ask for them, never for a sampler's type):

    fast_product_from : int or None
        A sampler with a fast structured product sets the dimension d from which it beats the
        dense X W^T, and implements ``factored(measure, m, d, random_state)`` -> (W, factors):
        the draw of ``frequencies`` and a factored form whose ``factors.product(X)`` is X W^T
        for dense float64 X. None: no fast product (the default).
    joint_frequencies : callable or None
        ``joint_frequencies(first, second, s, d, rng)`` -> (W, V): s frequencies for each of two
        measures drawn jointly (e.g. mutually orthogonal, 004's GORF). None: the two parts are
        drawn one after the other (the default).

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features import Sampler
    >>> class Negated(Sampler):                   # no ``name``: used directly, not registered
    ...     def _frequencies(self, measure, m, d, rng):
    ...         return -measure.rvs(m, d, rng)
    >>> W = Negated().frequencies(spectral.Gaussian(), 4, 3, random_state=0)
    >>> W.shape, Negated().prefix_granularity
    ((4, 3), 1)
    """

    name: str | None = None
    prefix_granularity: int = 1
    coupling: str = "independent"
    exact_rows: bool = False
    needs_fast_ppf: bool = False
    measure_type: type = SpectralMeasure
    fast_product_from: int | None = None
    joint_frequencies = None
    working_copies: int = 1

    def __init_subclass__(cls, name: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if name is None:
            return
        _REGISTRY.add(cls, name)
        cls.name = name

    def unbiased_for(self, measure) -> bool:
        """Whether an estimate averaging functions of the rows drawn from ``measure`` is unbiased
        for their expectation under it (``exact_rows``, for a measure the sampler accepts).

        Examples
        --------
        >>> from varlab import spectral
        >>> from varlab.features import get_sampler
        >>> [get_sampler(name).unbiased_for(spectral.Gaussian()) for name in ("iid", "moment_matching")]
        [True, False]
        """
        return self.exact_rows and isinstance(measure, self.measure_type)

    def block_size(self, d: int) -> int | None:
        """Rows per independent block of a draw in R^d (``coupling``): 1 for independent rows,
        ``prefix_granularity`` for blocks (``BlockSampler`` subclasses give their own), None
        where every row of a call is coupled.

        Examples
        --------
        >>> from varlab.features import get_sampler
        >>> [get_sampler(name).block_size(5) for name in ("iid", "antithetic", "orthogonal", "sobol")]
        [1, 2, 5, None]
        """
        return {"independent": 1, "blocks": self.prefix_granularity}.get(self.coupling)

    def frequencies(self, measure, m, d, random_state=None) -> np.ndarray:
        """An (m, d) float64 array whose rows are the frequencies w_1..w_m for ``measure`` in R^d.

        ``random_state``: None, int, SeedSequence, Generator (used directly; it advances) or
        RandomState (see :mod:`varlab._random`).
        """
        self.check_measure(measure)
        m = _count(m, "m", "m")
        d = _count(d, "d", "dimension")
        self._check_size(m, d)
        rng = _random.generator(random_state)
        w = np.asarray(self._frequencies(measure, m, d, rng))
        if w.shape != (m, d) or w.dtype != np.float64:  # a subclass bug, not a user error
            raise RuntimeError(f"{type(self).__name__}._frequencies returned {w.dtype} of shape "
                               f"{w.shape}, expected float64 of shape {(m, d)}")
        return w

    def accepts(self, measure) -> bool:
        """Whether the sampler draws from ``measure`` (its ``measure_type``, and a fast norm-law
        ppf where ``needs_fast_ppf``); ``frequencies`` refuses the others with the reason.

        Examples
        --------
        >>> from varlab import spectral
        >>> from varlab.features import get_sampler
        >>> [get_sampler(name).accepts(spectral.kernel_measure("rational_quadratic")) for name in ("orthogonal", "sobol")]
        [True, False]
        """
        return isinstance(measure, self.measure_type) and (not self.needs_fast_ppf or getattr(measure, "fast_ppf", True))

    def check_measure(self, measure) -> None:
        """TypeError unless ``measure`` is a ``measure_type``, with the measure's own reason where
        it gives one (``not_radial``: e.g. the Laplacian's product of Cauchy laws), and unless its
        norm law has the fast ppf the sampler maps every point through (``needs_fast_ppf``)."""
        if not isinstance(measure, self.measure_type):
            reason = getattr(measure, "not_radial", None) if self.measure_type.__name__ == "RadialMeasure" else None
            raise TypeError(f"measure must be a {self.measure_type.__name__} for sampler {self.name!r}, "
                            f"got {measure!r}" + (f": {reason}" if reason else ""))
        if self.needs_fast_ppf and not getattr(measure, "fast_ppf", True):
            raise TypeError(f"sampler {self.name!r} maps every point through the norm law's ppf, and "
                            f"the measure {measure!r} has no fast one (fast_ppf = False: scipy's generic root finder, one "
                            "point at a time); use sampler='iid', 'orthogonal' or 'antithetic'")

    def _frequencies(self, measure, m: int, d: int, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def factored(self, measure, m, d, random_state=None):
        """(W, factors) with ``factors.product(X)`` = X W^T: only where ``fast_product_from``
        is set."""
        raise NotImplementedError(f"sampler {self.name!r} offers no fast structured product "
                                  "(fast_product_from is None)")

    def elements(self, m: int, d: int) -> int:
        """How many float64 numbers a draw of m frequencies in R^d holds at once."""
        return self.working_copies * m * d

    def _check_size(self, m: int, d: int) -> None:
        """Refuse up front a draw past ``varlab._validate.MAX_ALLOCATION_BYTES``, naming m."""
        _validate.check_allocation("m", self.elements(m, d),
                                   what=f"{self.working_copies} (m, d) = ({m}, {d}) arrays of frequencies")

    def __eq__(self, other):
        return type(other) is type(self) and other.get_params() == self.get_params()

    def __hash__(self):
        return hash((type(self), repr(sorted(self.get_params().items()))))


class IID(Sampler, name="iid"):
    """i.i.d. frequencies: ``measure.rvs(m, d, rng)`` (Rahimi and Recht 2007; 003, Eq. 4-5).
    Every prefix of a draw is a draw (``prefix_granularity = 1``).

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features import IID
    >>> IID().frequencies(spectral.Gaussian(lengthscale=2.0), 5, 3, random_state=0).shape
    (5, 3)
    """

    prefix_granularity = 1
    exact_rows = True

    def _frequencies(self, measure, m, d, rng):
        return measure.rvs(m, d, rng)
