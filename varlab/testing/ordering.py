"""``check_ordering``: is a model's simulated statistic below another's at every grid point?

The check is a paper claim's :class:`varlab.claims.Ordering`, unregistered, run at your budget:
A and B are simulated independently, from two children of ``random_state``'s seed tree. With the
difference D = B - A, its standard error s = sqrt(se_A^2 + se_B^2) at each (point, k), the
threshold t (``varlab.testing.outcomes.threshold`` of the repetitions) and the effect size e (the
smallest violation the statement cares about, in the statistic's units):

* confirmed: D > t s at every (point, k), and the resolution t max(s) <= e;
* contradicted: somewhere -D - e > t s (A is above B by significantly more than e);
* inconclusive otherwise, with the repetitions that would decide it (SE ~ 1/sqrt(n)).
"""
from __future__ import annotations

from .. import _random, _validate
from ..claims.budget import Budget
from ..claims.kinds import Ordering
from ..claims.sources import model_label
from .agreement import user_simulation
from .auto import until_decided
from .outcomes import CONFIRMED
from .verdict import Verdict

__all__ = ["check_ordering", "assert_ordering"]


def check_ordering(model_a, model_b, *, statistic: str, k, n_repetitions: int | str,
                   random_state, effect_size: float, product: bool = False,
                   max_repetitions: int = 1_000_000, **grid) -> Verdict:
    """Check that ``statistic`` of ``model_a`` is below that of ``model_b`` at every point and k.

    Parameters are those of :func:`varlab.testing.check_agreement`, with two models (each a
    registered name or a Model instance, both declaring the grid's parameters) and
    ``effect_size`` (> 0, in the statistic's units) in place of the theory and tolerance
    (``n_repetitions="auto"`` and ``max_repetitions`` as there). The
    verdict's rows name A and B by their models (with "(A)", "(B)" for one model twice).

    Examples
    --------
    >>> verdict = check_ordering("rff", "rff_no_phase", statistic="variance", k=[1],
    ...                          n_repetitions=20_000, random_state=0, effect_size=0.1,
    ...                          rho=0.5, gamma=1.0)
    >>> verdict.outcome
    'contradicted'
    >>> print(verdict.reason)
    variance (A = rff, B = rff_no_phase): rff - rff_no_phase = +0.533 at rho = 0.5, gamma = 1, k = 1: beyond the effect size 0.1 by 73.3 SE
    """
    effect_size = float(_validate.positive(effect_size, "effect_size"))
    a, b = model_label(model_a), model_label(model_b)
    names = (a, b) if a != b else (f"{a} (A)", f"{b} (B)")
    statement = (f"the {statistic} of A = {a} is below that of B = {b} "
                 f"(effect size {effect_size:g})")

    def run_at(repetitions: int, seed) -> Verdict:
        seed_a, seed_b = _random.spawn(seed, 2)
        common = dict(k=k, product=product, grid=grid)
        lower = user_simulation(model_a, "A", random_state=seed_a, **common)
        upper = user_simulation(model_b, "B", random_state=seed_b, **common)
        check = Ordering(id="", source="", statement=statement, registered=False, lower=lower,
                         upper=upper, statistic=statistic, k=lower.k, effect_size=effect_size,
                         names=names)
        return check.run(Budget("", repetitions))

    return until_decided(run_at, n_repetitions, random_state, max_repetitions=max_repetitions)


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
