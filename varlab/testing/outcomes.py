"""The three outcomes of a check, and the rules they share (defined once; the claims use them).

* ``CONFIRMED``: the statement held at every point *and* the check could have seen a departure as
  small as the tolerance (its resolution is at most the tolerance);
* ``CONTRADICTED``: somewhere the departure is significantly larger than the tolerance;
* ``INCONCLUSIVE``: neither; the budget that would resolve it follows from the standard errors'
  1/sqrt(n) scaling (``varlab.testing.decision``).

Significance is one rule, :func:`threshold`: |z| above the t quantile of n - 1 degrees of freedom
(n: the repetitions or independent trials the standard error comes from) with the two-sided tail
of ``varlab.mc.Z_MAX`` = 4.5 under N(0, 1); it falls to 4.5 as n grows. The paper claims and a
user's ``check_agreement`` / ``check_ordering`` both judge by it, at the repetitions actually
used (a shared simulation's part of the budget, a Difference's fewer of its two).

>>> round(threshold(100_000), 2), round(threshold(50), 2)
(4.5, 5.04)
"""
from __future__ import annotations

import numpy as np

from ..mc.stats import t_threshold

__all__ = ["CONFIRMED", "CONTRADICTED", "INCONCLUSIVE", "OUTCOMES", "threshold"]

CONFIRMED = "confirmed"
CONTRADICTED = "contradicted"
INCONCLUSIVE = "inconclusive"
OUTCOMES = (CONFIRMED, CONTRADICTED, INCONCLUSIVE)


def threshold(n_repetitions):
    """The |z| above which a departure measured from ``n_repetitions`` repetitions (or
    independent trials; >= 2, inf for a large-sample standard error) is significant: a float,
    or an array for an array.

    Examples
    --------
    >>> from varlab.testing.outcomes import threshold
    >>> round(threshold(1000), 3), round(threshold(10 ** 6), 3), threshold(float("inf"))
    (4.524, 4.5, 4.5)
    >>> threshold([50, 4000]).round(2)
    array([5.04, 4.51])
    """
    n = np.asarray(n_repetitions, dtype=float)
    if np.any(~(n >= 2)):
        raise ValueError(f"a threshold needs at least 2 repetitions, got {n_repetitions}")
    values = t_threshold(n - 1)
    return float(values) if values.ndim == 0 else values
