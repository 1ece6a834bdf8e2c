"""Hypothesis strategies that draw parameter values from their declared domains
(``varlab.theory.parameters``: low/high, open or closed ends, integer or real).

hypothesis is a test extra (``pip install 'varlab[test]'``); it is imported when a strategy is
built. Narrow a domain with ``low``/``high`` (or ``name=(low, high)`` in :func:`points`) to the
region where a simulation is informative (e.g. gamma in (0, 5] rather than (0, inf)).

>>> from hypothesis import HealthCheck, given, settings
>>> @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
... @given(points("rff", gamma=(0.1, 5.0)))
... def test_domain(point):
...     assert -1.0 <= point["rho"] <= 1.0 and 0.1 <= point["gamma"] <= 5.0
>>> test_domain()
"""
from __future__ import annotations

from .. import mc
from ..theory.parameters import MAX_INTEGER, parameter

__all__ = ["parameter_values", "points"]


def _strategies():
    try:
        from hypothesis import strategies
    except ImportError:
        raise ImportError("varlab.testing.strategies needs hypothesis: pip install 'varlab[test]' "
                          "(or pip install hypothesis)") from None
    return strategies


def parameter_values(name: str, low=None, high=None):
    """A strategy for values of the declared parameter ``name``, optionally within [low, high]
    (which must lie inside its domain).

    Examples
    --------
    >>> from hypothesis import HealthCheck, given, settings
    >>> from varlab.testing.strategies import parameter_values
    >>> parameter_values("k", high=100)
    integers(min_value=1, max_value=100)
    >>> @settings(max_examples=10, deadline=None, database=None,
    ...           suppress_health_check=[HealthCheck.too_slow])
    ... @given(parameter_values("gamma", high=5.0))
    ... def test_gamma(gamma):
    ...     assert 0.0 < gamma <= 5.0           # gamma's domain is (0, inf)
    >>> test_gamma()
    """
    st = _strategies()
    declared = parameter(name)
    for bound in (low, high):
        if bound is not None:
            declared.validate(bound)           # a bound outside the domain names it
    if declared.integer:
        top = MAX_INTEGER if declared.high is None else min(int(declared.high), MAX_INTEGER)
        return st.integers(min_value=int(declared.low if low is None else low),
                           max_value=top if high is None else int(high))
    return st.floats(min_value=declared.low if low is None else low,
                     max_value=declared.high if high is None else high,
                     exclude_min=declared.low_open and low is None,
                     exclude_max=declared.high_open and high is None,
                     allow_nan=False, allow_infinity=False)


def points(model, **ranges):
    """A strategy for points {name: value} of a model's declared parameters (a registered name, a
    Model instance or class, or anything with ``parameters``, e.g. a Formula); ``name=(low,
    high)`` narrows one parameter.

    Examples
    --------
    >>> from hypothesis import HealthCheck, given, settings
    >>> from varlab.testing.strategies import points
    >>> @settings(max_examples=10, deadline=None, database=None,
    ...           suppress_health_check=[HealthCheck.too_slow])
    ... @given(points("mm_mc", dimension=(1, 8), scaled_distance=(0.0, 2.0)))
    ... def test_point(point):
    ...     assert sorted(point) == ["dimension", "scaled_distance"]
    ...     assert 1 <= point["dimension"] <= 8 and isinstance(point["dimension"], int)
    >>> test_point()
    """
    st = _strategies()
    declared = (mc.model_class(model) if isinstance(model, str) else model).parameters
    unknown = sorted(set(ranges) - set(declared))
    if unknown:
        raise ValueError(f"points: {unknown} are not parameters of {model!r}; it declares "
                         f"{list(declared)}")
    return st.fixed_dictionaries({name: parameter_values(name, *ranges.get(name, (None, None)))
                                  for name in declared})
