"""The paper's acceptance-rejection sampler (002 §4, steps 1-4; proof in its Appendix B) as a
registered Sampler, ``get_sampler("rejection")``.

To draw w from f / ||f||: (1) take a proposal g / ||g|| with sup f / g <= c; (2) draw zeta ~
g / ||g||; (3) draw U ~ U[0, 1]; (4) accept w = zeta if U <= f(zeta) / (c g(zeta)), else go back
to (2). The proposal is Gaussian, N(0, I / sigma^2), and the acceptance rate is ||f|| / (c ||g||).
It applies to the measures of :class:`GaussianProposal`:

* a Jordan part of an 002 kernel, normalised (:class:`varlab.spectral.asymmetric.ProjectedPart`,
  f = tilt p(w) h(<c, w>) with p the N(0, I / sigma^2) density, g = tilt p, c = 1): step 4
  accepts with probability h(<c, w>) <= 1 and the rate is E h(X) = ``part.acceptance_rate``
  (the part's ``rejection_rvs``, which proposes in bounded blocks);
* :class:`varlab.spectral.Gaussian`, its own proposal (f = g, c = 1): every proposal is
  accepted, so the draw is ``measure.rvs`` and the rate is 1.

:meth:`Rejection.draw` also returns the number of proposals, so the observed acceptance rate
can be set against the theoretical one. Accepted draws are i.i.d., so every prefix of a draw is a
draw (``prefix_granularity = 1``). ``method="exact"`` of the 002 measures (varlab's inverse-CDF
sampler) is reached through the i.i.d. sampler.

>>> import numpy as np
>>> from varlab import spectral
>>> from varlab.features.samplers import get_sampler
>>> part = spectral.get_measure("shift_gaussian", lengthscale=1.0, shift=[1.5, 0.0]).parts()["real_positive"]
>>> W, proposals = get_sampler("rejection").draw(part, 1000, 2, random_state=0)
>>> W.shape, proposals > 1000, round(part.acceptance_rate, 4)
((1000, 2), True, 0.483)
"""
from __future__ import annotations

import abc

import numpy as np

from ... import _random
from ...spectral import Gaussian, _count
from ...spectral.asymmetric import ProjectedPart
from . import Sampler

__all__ = ["GaussianProposal", "Rejection"]


class GaussianProposal(abc.ABC):
    """The measures the acceptance-rejection sampler draws from with a Gaussian proposal:
    :class:`varlab.spectral.Gaussian` and the normalised parts of the 002 kernels
    (:class:`varlab.spectral.asymmetric.ProjectedPart`); virtual subclasses, registered below.

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features.samplers.rejection import GaussianProposal
    >>> part = spectral.get_measure("shift_gaussian", shift=[1.5, 0.0]).parts()["real_positive"]
    >>> isinstance(part, GaussianProposal), isinstance(spectral.Gaussian(), GaussianProposal)
    (True, True)
    >>> isinstance(spectral.get_measure("laplacian"), GaussianProposal)
    False
    """


GaussianProposal.register(Gaussian)
GaussianProposal.register(ProjectedPart)


class Rejection(Sampler, name="rejection"):
    """002 §4's acceptance-rejection with a Gaussian proposal (see the module docstring).

    Examples
    --------
    >>> from varlab import spectral
    >>> from varlab.features import get_sampler
    >>> part = spectral.get_measure("shift_gaussian", shift=[1.5, 0.0]).parts()["real_positive"]
    >>> W, proposals = get_sampler("rejection").draw(part, 500, 2, random_state=0)
    >>> W.shape, round(part.acceptance_rate, 3)
    ((500, 2), 0.483)
    >>> bool(abs(500 / proposals - part.acceptance_rate) < 0.1)     # the observed rate
    True
    """

    prefix_granularity = 1
    measure_type = GaussianProposal
    exact_rows = True               # acceptance-rejection draws the measure's law exactly

    def draw(self, measure, m, d, random_state=None) -> tuple[np.ndarray, int]:
        """(W, proposals): the (m, d) accepted frequencies and the number of Gaussian proposals
        it took, so that m / proposals estimates the acceptance rate ||f|| / (c ||g||)."""
        if not isinstance(measure, GaussianProposal):
            raise TypeError(f"measure must be a GaussianProposal (spectral.Gaussian or a part of an "
                            f"002 kernel) for sampler {self.name!r}, got {measure!r}")
        m = _count(m, "m", "m")
        d = _count(d, "d", "dimension")
        rng = _random.generator(random_state)
        if isinstance(measure, Gaussian):
            return measure.rvs(m, d, rng), m
        return measure.rejection_rvs(m, d, rng)

    def _frequencies(self, measure, m, d, rng):
        return self.draw(measure, m, d, rng)[0]
