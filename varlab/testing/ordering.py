"""``check_ordering``: is a model's simulated statistic below another's at every grid point?

A and B are simulated independently, from two children of ``random_state``'s seed tree. With the
difference D = B - A, its standard error s = sqrt(se_A^2 + se_B^2) at each (point, k), the
threshold t and the effect size e (the smallest violation the statement cares about, in the
statistic's units):

* confirmed: D > t s at every (point, k), and the resolution t max(s) <= e;
* contradicted: somewhere -D - e > t s (A is above B by significantly more than e);
* inconclusive otherwise, with the repetitions that would decide it (SE ~ 1/sqrt(n)).
"""
from __future__ import annotations

import numpy as np

from .. import _random, _validate
from .decision import decide_ordering
from .outcomes import CONFIRMED, threshold
from .simulation import model_label, simulate_statistic
from .verdict import Verdict, format_point

__all__ = ["check_ordering", "assert_ordering"]


def check_ordering(model_a, model_b, *, statistic: str, k, n_repetitions: int,
                   random_state, effect_size: float, product: bool = False, **grid) -> Verdict:
    """Check that ``statistic`` of ``model_a`` is below that of ``model_b`` at every point and k.

    Parameters are those of :func:`varlab.testing.check_agreement`, with two models (each a
    registered name or a Model instance, both declaring the grid's parameters) and
    ``effect_size`` (> 0, in the statistic's units) in place of the theory and tolerance.

    Examples
    --------
    >>> verdict = check_ordering("rff", "rff_no_phase", statistic="variance", k=[1],
    ...                          n_repetitions=20_000, random_state=0, effect_size=0.1,
    ...                          rho=0.5, gamma=1.0)
    >>> verdict.outcome
    'contradicted'
    >>> print(verdict.reason)
    A - B = +0.533 at rho = 0.5, gamma = 1, k = 1: beyond the effect size 0.1 by 73.3 SE
    """
    effect_size = float(_validate.positive(effect_size, "effect_size"))
    seed_a, seed_b = _random.spawn(random_state, 2)
    common = dict(k=k, n_repetitions=n_repetitions, product=product, grid=grid)
    result, a, se_a = simulate_statistic(model_a, statistic, random_state=seed_a, **common)
    _, b, se_b = simulate_statistic(model_b, statistic, random_state=seed_b, **common)
    points = [result.point(p) for p in range(result.n_points)]
    error = np.sqrt(se_a ** 2 + se_b ** 2)
    t = threshold(result.n_repetitions)
    labels = [format_point({**point, "k": kk}) for point in points for kk in result.k]
    decision = decide_ordering(lower=a, upper=b, error=error, threshold=t, effect_size=effect_size,
                               labels=labels, n_repetitions=result.n_repetitions)
    z = decision.z.reshape(a.shape)
    rows = tuple({**point, "k": int(kk), "A": float(a[p, j]), "SE A": float(se_a[p, j]),
                  "B": float(b[p, j]), "SE B": float(se_b[p, j]),
                  "B - A": float(b[p, j] - a[p, j]), "z": float(z[p, j])}
                 for p, point in enumerate(points) for j, kk in enumerate(result.k))
    statement = (f"the {statistic} of A = {model_label(model_a)} is below that of "
                 f"B = {model_label(model_b)} (effect size {effect_size:g})")
    return Verdict.from_decision(decision, statement, effect_size, "absolute", t, result, rows)


def assert_ordering(model_a, model_b, **arguments) -> Verdict:
    """``check_ordering``, raising AssertionError with the per-point table unless confirmed.

    Examples
    --------
    >>> assert_ordering("rff_no_phase", "rff", statistic="variance", k=[1, 8],
    ...                 n_repetitions=20_000, random_state=0, effect_size=0.1,
    ...                 rho=0.5, gamma=1.0).outcome
    'confirmed'
    """
    verdict = check_ordering(model_a, model_b, **arguments)
    if verdict.outcome != CONFIRMED:
        raise AssertionError(str(verdict))
    return verdict
