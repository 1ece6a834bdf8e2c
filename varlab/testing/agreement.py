"""``check_agreement``: does a model's simulated statistic equal a formula over a grid?

The check is a paper claim's :class:`varlab.claims.Agreement`, unregistered, run at your budget
and seed: the same Verdict, the same decision and the same threshold as the papers' claims. The
theory is a ``varlab.theory`` Formula or a callable ``theory(k, **point)`` (the convention of
``varlab.claims.theories``; ``varlab.claims.per_sample`` states a law of one sample).

The rule (``varlab.testing.decision``): with the departure d = estimate - theory (relative:
divided by |theory|) and its standard error s at each (point, k), and the threshold t (the t
quantile of n - 1 degrees of freedom, ``varlab.testing.outcomes.threshold``),

* confirmed: at every (point, k) the departure is not significant (|d| <= t s) or is shown
  within the tolerance (|d| + t s <= tolerance), and the resolution t max(s) <= tolerance;
* contradicted: somewhere |d| - tolerance > t s (a departure significantly beyond the tolerance);
* inconclusive otherwise, with the repetitions that would decide it with a margin: every point
  ``decision.MARGIN`` = 2 SE beyond its threshold, were the present estimates the true values.
"""
from __future__ import annotations

import numpy as np

from .. import _random, _validate, mc
from ..claims.budget import Budget
from ..claims.kinds import Agreement
from ..claims.sources import Simulation, model_label
from ..claims.theories import name_of
from .auto import until_decided
from .outcomes import CONFIRMED
from .verdict import Verdict

__all__ = ["check_agreement", "assert_agreement"]


def user_simulation(model, label: str, *, k, random_state, product: bool, grid: dict) -> Simulation:
    """The Simulation of a user's check: ``model`` (a name or a ``varlab.mc.Model``) over the
    grid at ``random_state`` (as ``mc.simulate`` takes it; None: fresh entropy), drawn quietly
    and not cached."""
    if not isinstance(model, (str, mc.Model)):
        raise TypeError(f"model must be a registered name or a varlab.mc.Model, got "
                        f"{type(model).__name__}")
    return Simulation("", label, model, tuple(int(kk) for kk in np.atleast_1d(k)), dict(grid),
                      product, random_state=_random.seed_sequence(random_state))


def check_agreement(model, theory, *, statistic: str, k, n_repetitions: int | str,
                    random_state, tolerance: float, relative: bool = True, product: bool = False,
                    max_repetitions: int = 1_000_000, **grid) -> Verdict:
    """Check that ``statistic`` of ``model``'s k-sample estimator equals ``theory`` over a grid.

    Parameters
    ----------
    model : str or varlab.mc.Model
        A registered model name or a Model instance (e.g. a user's own subclass).
    theory : Formula or callable
        ``theory(k, **point)``; see the module docstring.
    statistic : "mean", "variance" or "mse"
    k, n_repetitions, random_state : as for ``varlab.mc.simulate``; ``n_repetitions="auto"``
        runs a pilot and, where it is inconclusive, one deciding run with a fresh seed at the
        repetitions it advises (``varlab.testing.auto``; ``Verdict.pilot`` keeps the pilot).
    tolerance : float > 0
        The departure the statement cares about: a fraction of |theory| if ``relative`` (then the
        theory must be nonzero everywhere), else in the statistic's units.
    product : bool
        Simulate every combination of the parameters' values (``product_grid``) instead of
        broadcasting them.
    max_repetitions : int
        With ``n_repetitions="auto"``, the most repetitions the deciding run may have.
    **grid
        The model's declared parameters (and, with a model name, its options).

    Returns
    -------
    Verdict
        With empty ``id``, ``source``, ``quote`` and ``budget``.

    Examples
    --------
    >>> from varlab.claims import per_sample
    >>> from varlab.theory import rff
    >>> verdict = check_agreement("rff", per_sample(rff.variance), statistic="variance", k=[1, 4],
    ...                           n_repetitions=20_000, random_state=0, tolerance=0.1,
    ...                           rho=[0.0, 0.5], gamma=1.0)
    >>> verdict.outcome, round(verdict.resolution, 3), round(verdict.threshold, 3)
    ('confirmed', 0.044, 4.502)
    """
    tolerance = float(_validate.positive(tolerance, "tolerance"))
    units = "relative" if relative else "absolute"
    statement = (f"the {statistic} of {model_label(model)} equals {name_of(theory)} "
                 f"(within {units} tolerance {tolerance:g})")

    def run_at(repetitions: int, seed) -> Verdict:
        source = user_simulation(model, statistic, k=k, random_state=seed, product=product, grid=grid)
        check = Agreement(id="", source="", statement=statement, registered=False, model=source,
                          theory=theory, statistic=statistic, k=source.k, tolerance=tolerance,
                          relative=relative)
        return check.run(Budget("", repetitions))

    return until_decided(run_at, n_repetitions, random_state, max_repetitions=max_repetitions)


def assert_agreement(model, theory, *, exact: bool = False, **arguments) -> Verdict:
    """``check_agreement``, raising AssertionError with the per-point table unless confirmed, or
    (``exact=True``) if confirmed with a departure that is significant though within the
    tolerance (``Verdict.significant_departure``): the formula is then not exact.

    Examples
    --------
    >>> from varlab.theory import rff
    >>> assert_agreement("rff", rff.mean, statistic="mean", k=[10], n_repetitions=200,
    ...                  random_state=0, tolerance=0.01, rho=0.5, gamma=1.0)
    Traceback (most recent call last):
    ...
    AssertionError: inconclusive: the mean of rff equals rff.mean (within relative tolerance 0.01)
    mean of rff: resolution 0.139 vs tolerance 0.01, max |z| = 2.48; about 9.51x the budget would resolve it (to contradict, set at rho = 0.5, gamma = 1, k = 10)
    resolution 0.139 (relative), tolerance 0.01, threshold |z| <= 4.62, 200 repetitions (1,902 would resolve it)
    rho  gamma   k    theory  estimate         SE         z
    0.5      1  10  0.606531  0.561353  0.0182088  -2.48111
    """
    verdict = check_agreement(model, theory, **arguments)
    if verdict.outcome != CONFIRMED:
        raise AssertionError(str(verdict))
    if exact and verdict.significant_departure is not None:
        raise AssertionError(f"{verdict.outcome_words} (exact=True): {verdict}")
    return verdict
