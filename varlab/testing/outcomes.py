"""The three outcomes of a check, and the rules they share (defined once; the claims use them).

* ``CONFIRMED``: the statement held at every point *and* the check could have seen a departure as
  small as the tolerance (its resolution is at most the tolerance);
* ``CONTRADICTED``: somewhere the departure is significantly larger than the tolerance;
* ``INCONCLUSIVE``: neither; the budget that would resolve it follows from the standard errors'
  1/sqrt(n) scaling (``varlab.testing.decision``).

Significance is ``varlab.mc.stats``'s: |z| above the t quantile of n_repetitions - 1 degrees of
freedom with the two-sided tail of ``Z_MAX`` (:func:`threshold`; Z_MAX = 4.5 for large n).

>>> round(threshold(100_000), 2), round(threshold(50), 2)
(4.5, 5.04)
"""
from __future__ import annotations

from ..mc.stats import t_threshold

__all__ = ["CONFIRMED", "CONTRADICTED", "INCONCLUSIVE", "OUTCOMES", "threshold"]

CONFIRMED = "confirmed"
CONTRADICTED = "contradicted"
INCONCLUSIVE = "inconclusive"
OUTCOMES = (CONFIRMED, CONTRADICTED, INCONCLUSIVE)


def threshold(n_repetitions: int) -> float:
    """The |z| above which a departure measured from ``n_repetitions`` repetitions is
    significant.

    Examples
    --------
    >>> from varlab.testing.outcomes import threshold
    >>> round(threshold(1000), 3), round(threshold(10 ** 6), 3)     # -> Z_MAX = 4.5 for large n
    (4.524, 4.5)
    """
    return float(t_threshold(n_repetitions - 1))
