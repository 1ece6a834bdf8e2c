"""``check_agreement``: does a model's simulated statistic equal a formula over a grid?

The theory is a ``varlab.theory`` Formula or a callable:

* a **Formula** is evaluated at each point's values of the parameters it declares, and at the
  whole k grid if it declares ``k``; one without ``k`` has the same value at every k (e.g.
  ``rff.mean``, the mean of an unbiased estimator);
* a **callable** is called as ``theory(k, **point)``: ``k`` the 1-d int64 array of the k grid,
  ``point`` the model's declared parameters at one grid point (Python floats or ints, as in
  ``Model.theory``); it returns the statistic at each k (an array of k's shape, or a scalar),
  e.g. ``lambda k, rho, gamma: rff.variance(rho=rho, gamma=gamma) / k``.

The rule (``varlab.testing.outcomes``): with the departure d = estimate - theory (relative: divided
by |theory|) and its standard error s at each (point, k), and the threshold t,

* confirmed: at every (point, k) the departure is not significant (|d| <= t s) or is shown
  within the tolerance (|d| + t s <= tolerance), and the resolution t max(s) <= tolerance;
* contradicted: somewhere |d| - tolerance > t s (a departure significantly beyond the tolerance);
* inconclusive otherwise, with the repetitions that would bring the resolution to the tolerance
  and decide the departures that are significant but not yet beyond it.
"""
from __future__ import annotations

import numpy as np

from .. import _validate
from ..theory.formula import Formula
from .decision import decide_agreement
from .outcomes import CONFIRMED, threshold
from .simulation import model_label, simulate_statistic
from .verdict import Verdict, format_point

__all__ = ["check_agreement", "assert_agreement", "theory_values"]


def theory_values(theory, k, point: dict) -> np.ndarray:
    """The theory's (n_k,) values at one point (see the module docstring for the convention).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.testing.agreement import theory_values
    >>> from varlab.theory import rff
    >>> k = np.array([1, 10, 100])
    >>> theory_values(rff.mean, k, {"rho": 0.5, "gamma": 1.0}).round(4)        # no k: every k alike
    array([0.6065, 0.6065, 0.6065])
    >>> def variance(k, rho, gamma):
    ...     return rff.variance(rho=rho, gamma=gamma) / k
    >>> theory_values(variance, k, {"rho": 0.5, "gamma": 1.0}).round(4)
    array([0.6998, 0.07  , 0.007 ])
    """
    if isinstance(theory, Formula):
        missing = [name for name in theory.parameters if name != "k" and name not in point]
        if missing:
            raise ValueError(f"the Formula {theory.name} needs {missing}, which the model does not "
                             f"declare (its parameters: {list(point)})")
        arguments = {name: point[name] for name in theory.parameters if name != "k"}
        values = theory(**arguments, **({"k": k} if "k" in theory.parameters else {}))
    elif callable(theory):
        values = theory(k.copy(), **point)
    else:
        raise TypeError(f"theory must be a varlab.theory Formula or a callable theory(k, **point), "
                        f"got {type(theory).__name__}")
    values = np.asarray(values, dtype=float)
    if values.shape not in ((), k.shape):
        raise ValueError(f"the theory must give one value per k ({k.size}) or a scalar, got shape "
                         f"{values.shape} at {point}")
    return np.broadcast_to(values, k.shape)


def _name(theory) -> str:
    return theory.name if isinstance(theory, Formula) else getattr(theory, "__qualname__", "theory")


def check_agreement(model, theory, *, statistic: str, k, n_repetitions: int,
                    random_state, tolerance: float, relative: bool = True, product: bool = False,
                    **grid) -> Verdict:
    """Check that ``statistic`` of ``model``'s k-sample estimator equals ``theory`` over a grid.

    Parameters
    ----------
    model : str or varlab.mc.Model
        A registered model name or a Model instance (e.g. a user's own subclass).
    theory : Formula or callable
        ``theory(k, **point)``; see the module docstring.
    statistic : "mean", "variance" or "mse"
    k, n_repetitions, random_state : as for ``varlab.mc.simulate``.
    tolerance : float > 0
        The departure the statement cares about: a fraction of |theory| if ``relative`` (then the
        theory must be nonzero everywhere), else in the statistic's units.
    product : bool
        Simulate every combination of the parameters' values (``product_grid``) instead of
        broadcasting them.
    **grid
        The model's declared parameters (and, with a model name, its options).

    Returns
    -------
    Verdict

    Examples
    --------
    >>> from varlab.theory import rff
    >>> def variance(k, rho, gamma):
    ...     return rff.variance(rho=rho, gamma=gamma) / k
    >>> verdict = check_agreement("rff", variance, statistic="variance", k=[1, 4],
    ...                           n_repetitions=20_000, random_state=0, tolerance=0.1,
    ...                           rho=[0.0, 0.5], gamma=1.0)
    >>> verdict.outcome, round(verdict.resolution, 3)
    ('confirmed', 0.044)
    """
    tolerance = float(_validate.positive(tolerance, "tolerance"))
    result, estimate, se = simulate_statistic(model, statistic, k=k, n_repetitions=n_repetitions,
                                              random_state=random_state, product=product, grid=grid)
    points = [result.point(p) for p in range(result.n_points)]
    expected = np.stack([theory_values(theory, result.k, point) for point in points])
    t = threshold(result.n_repetitions)
    labels = [format_point({**point, "k": kk}) for point in points for kk in result.k]
    decision = decide_agreement(estimate=estimate, reference=expected, error=se, threshold=t,
                                tolerance=tolerance, relative=relative, labels=labels,
                                n_repetitions=result.n_repetitions)
    z = decision.z.reshape(estimate.shape)
    rows = tuple({**point, "k": int(kk), "estimate": float(estimate[p, j]),
                  "SE": float(se[p, j]), "theory": float(expected[p, j]), "z": float(z[p, j])}
                 for p, point in enumerate(points) for j, kk in enumerate(result.k))
    units = "relative" if relative else "absolute"
    statement = (f"the {statistic} of {model_label(model)} equals {_name(theory)} "
                 f"(within {units} tolerance {tolerance:g})")
    return Verdict.from_decision(decision, statement, tolerance, units, t, result, rows)


def assert_agreement(model, theory, **arguments) -> Verdict:
    """``check_agreement``, raising AssertionError with the per-point table unless confirmed.

    Examples
    --------
    >>> from varlab.theory import rff
    >>> assert_agreement("rff", rff.mean, statistic="mean", k=[10], n_repetitions=200,
    ...                  random_state=0, tolerance=0.01, rho=0.5, gamma=1.0)
    Traceback (most recent call last):
    ...
    AssertionError: inconclusive: the mean of rff equals rff.mean (within relative tolerance 0.01)
    resolution 0.139 vs tolerance 0.01, max |z| = 2.48 at rho = 0.5, gamma = 1, k = 10; about 38,525 repetitions would resolve it
    resolution 0.139 (relative), tolerance 0.01, threshold |z| <= 4.62, 200 repetitions
    rho  gamma   k  estimate         SE    theory         z
    0.5      1  10  0.561353  0.0182088  0.606531  -2.48111
    """
    verdict = check_agreement(model, theory, **arguments)
    if verdict.outcome != CONFIRMED:
        raise AssertionError(str(verdict))
    return verdict
