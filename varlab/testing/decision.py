"""The three-outcome decisions, defined once: agreement with a reference and ordering of two
quantities, from per-point departures, standard errors and significance thresholds.

Both ``varlab.testing``'s checks and the paper claims (``varlab.claims``) decide through these two
functions, so "confirmed" means the same everywhere: no significant departure *and* a resolution
(threshold x largest standard error) no coarser than the tolerance.

>>> decision = decide_agreement(estimate=[1.01, 0.98], reference=[1.0, 1.0], error=[0.01, 0.01],
...                             threshold=4.5, tolerance=0.05)
>>> decision.outcome, round(decision.resolution, 3)
('confirmed', 0.045)
>>> decide_agreement(estimate=[1.3], reference=[1.0], error=[0.01], threshold=4.5,
...                  tolerance=0.05).outcome
'contradicted'
>>> decision = decide_agreement(estimate=[1.0], reference=[1.0], error=[0.04], threshold=4.5,
...                             tolerance=0.05)
>>> decision.outcome, round(decision.budget_factor, 2)
('inconclusive', 27.04)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..mc.stats import z_score
from .outcomes import CONFIRMED, CONTRADICTED, INCONCLUSIVE

__all__ = ["Decision", "decide_agreement", "decide_ordering", "MARGIN", "noise_level", "significance_note"]

#: the margin of the budget advice, in standard errors beyond the threshold: the advised budget
#: decides every point by ``MARGIN`` SE more than the threshold, were the present estimates the
#: true values (a departure within ``noise_level`` SE of zero read as zero), so that a rerun there
#: falls on the same side of each point's requirement with probability at least Phi(MARGIN) =
#: 97.7 % (a point whose departure is noise is confirmed almost surely: its resolution is then at
#: most threshold / (threshold + MARGIN) of the tolerance)
MARGIN = 2.0


def noise_level(n_points: int) -> float:
    """The universal threshold sqrt(2 ln n), in standard errors: about the largest |z| that n
    points with no departure at all show (Donoho & Johnstone 1994, "Ideal spatial adaptation by
    wavelet shrinkage", Biometrika 81, 425-455). The budget advice reads a departure within it as
    none and takes a larger one as measured (hard thresholding), so that among many points the
    noisiest one is not read as a real departure near the tolerance (that inflated the advice of a
    144-point check with max |z| = 2.95 from 3.7x to 29x), while a significant one keeps its size;
    one point is taken as measured.

    Examples
    --------
    >>> noise_level(1), round(noise_level(144), 2)
    (0.0, 3.15)
    """
    return math.sqrt(2.0 * math.log(n_points)) if n_points > 1 else 0.0


@dataclass(frozen=True)
class Decision:
    """An outcome with the numbers behind it.

    ``resolution``: threshold x the largest standard error (the smallest departure the check
    could have detected); ``z``: the per-point z of the departure; ``worst``: the flat index of
    the point the reason names; ``budget_factor``: for an inconclusive outcome, the factor by
    which the budget must grow (standard errors ~ 1/sqrt(n)) to decide it, None if no budget
    would; ``reason``: one line with the key number (points named by their flat index; callers
    add the point's parameters); ``significant``: for a confirmed agreement, the largest departure
    that is significant though shown within the tolerance (None if none is).

    Examples
    --------
    >>> from varlab.testing.decision import decide_ordering
    >>> decision = decide_ordering(lower=[0.8, 0.9], upper=[1.0, 1.0], error=[0.01, 0.02],
    ...                            threshold=4.5, effect_size=0.1)
    >>> decision.outcome, decision.worst, decision.budget_factor
    ('confirmed', 1, None)
    >>> decision.z.round(2)
    array([20.,  5.])
    >>> decision.reason
    'smallest z of B - A = 5.0 > 4.50 at all 2 points; resolution 0.09 <= effect size 0.1'
    """

    outcome: str
    resolution: float
    z: np.ndarray
    worst: int
    budget_factor: float | None
    reason: str
    significant: float | None = None


def _arrays(*values):
    arrays = [np.asarray(value, dtype=float).ravel() for value in values]
    return np.broadcast_arrays(*arrays)


def _validated(tolerance: float, name: str, values, error, threshold, labels) -> None:
    """ValueError for a tolerance that is not a positive number, an empty grid, a value that is
    not a number, a negative standard error (an infinite one is allowed: unknown), or labels
    that are not one per point."""
    if not (np.isfinite(tolerance) and tolerance > 0):
        raise ValueError(f"the {name} must be a positive number, got {tolerance!r}")
    if error.size == 0:
        raise ValueError("the check has no points")
    if labels is not None and len(labels) != error.size:
        raise ValueError(f"labels must name each of the {error.size} points, got {len(labels)} labels")
    first, second = values
    bad = (~np.isfinite(first) | ~np.isfinite(second) | np.isnan(error) | (error < 0)
           | ~(threshold > 0))
    if bad.any():
        raise ValueError(f"{int(bad.sum())} of {bad.size} points have a value that is not a "
                         f"number, or a negative standard error (first at index "
                         f"{int(np.flatnonzero(bad)[0])})")


def _budget_factor(confirm, contradict) -> tuple[float | None, int | None, str]:
    """The budget factor that decides the check, the point that sets it and which way: the smaller
    of the factor that confirms it (every point's requirement met: ``confirm`` holds one ratio of
    standard errors per point, NaN where the point cannot be confirmed) and the factor that
    contradicts it at its most advanced point (``contradict``: NaN where a point cannot be
    contradicted); a standard error falls as 1/sqrt(n), so a factor is the square of a ratio.
    None where no budget decides; inf where the ratio or its square exceeds float64."""
    confirm, contradict = np.asarray(confirm, dtype=float), np.asarray(contradict, dtype=float)
    ways = []
    if not np.isnan(confirm).any():
        ways.append((float(np.max(confirm)), int(np.argmax(confirm)), "confirm"))
    if not np.isnan(contradict).all():
        ways.append((float(np.nanmin(contradict)), int(np.nanargmin(contradict)), "contradict"))
    if not ways:
        return None, None, ""
    ratio, index, way = min(ways)
    ratio = max(ratio, 1.0)
    return ratio * ratio, index, way            # inf, not OverflowError, beyond float64


def decide_agreement(*, estimate, reference, error, threshold, tolerance: float,
                     relative: bool = False, labels=None, n_repetitions=None,
                     describe_budget=None) -> Decision:
    """Decide "estimate equals reference (up to the tolerance)" at every point.

    With d the departure (estimate - reference, divided by |reference| if ``relative``), s its
    standard error in the same units, t the threshold (scalar or per point) and e the tolerance,
    a point *agrees* when its departure is not significant (|d| <= t s) or is shown to be
    within the tolerance (|d| + t s <= e: a departure the statement does not care about);

    * confirmed: every point agrees and the resolution t max(s) <= e;
    * contradicted: somewhere |d| - e > t s (significantly beyond the tolerance);
    * inconclusive otherwise, with the budget factor that decides it (SE ~ 1/sqrt(n)), by
      ``MARGIN`` SE, were each d its true value (a d within :func:`noise_level` SE of 0 read as 0).

    ``labels`` (one string per point) name the worst point in the reason; ``n_repetitions`` (the
    budget) turns the budget factor into repetitions there, or ``describe_budget(factor)`` says
    in words what would resolve it (e.g. a number of trials). A point with s = 0 (an exact number)
    decides on |d| <= e.

    Examples
    --------
    >>> from varlab.testing.decision import decide_agreement
    >>> decision = decide_agreement(estimate=[0.51, 0.99], reference=[0.5, 1.0], error=[0.002, 0.004],
    ...                             threshold=4.5, tolerance=0.05, relative=True,
    ...                             labels=["rho = 0", "rho = 0.5"], n_repetitions=1000)
    >>> decision.outcome                    # 0.51 is 5 SE off 0.5, but shown within 5%
    'confirmed'
    >>> decision.reason
    'confirmed within 5%; a departure of about +2% is significant (1 of 2 points; largest at rho = 0, z = 5.0), each shown within the tolerance; resolution 0.018 <= tolerance 0.05'
    >>> decision = decide_agreement(estimate=[0.5, 1.0], reference=[0.5, 1.0], error=[0.02, 0.04],
    ...                             threshold=4.5, tolerance=0.05, relative=True, n_repetitions=1000)
    >>> decision.outcome, decision.reason
    ('inconclusive', 'resolution 0.18 vs tolerance 0.05, max |z| = 0.00; about 27,041 repetitions would resolve it (to confirm)')
    """
    estimate, reference, error, threshold = _arrays(estimate, reference, error, threshold)
    _validated(tolerance, "tolerance", (estimate, reference), error, threshold, labels)
    if relative and np.any(reference == 0):
        raise ValueError("a relative tolerance needs a nonzero reference at every point; use an "
                         "absolute tolerance")
    scale = np.abs(reference) if relative else np.ones_like(reference)
    departure, error = (estimate - reference) / scale, error / scale
    z = z_score(estimate, reference, error * scale)
    size = np.abs(departure)
    agrees = (np.abs(z) <= threshold) | (size + threshold * error <= tolerance)
    beyond = z_score(size, tolerance, error)
    resolution = float(np.max(threshold * error))
    units = "relative " if relative else ""
    if np.all(agrees) and resolution <= tolerance:
        worst = int(np.argmax(np.abs(z) / threshold))
        shown = np.abs(z) > threshold
        significant = None
        if shown.any():
            largest = int(np.flatnonzero(shown)[np.argmax(size[shown])])
            significant = float(departure[largest])
            head = (f"{significance_note(tolerance, significant, relative)} ({int(shown.sum())} of "
                    f"{z.size} points; largest{_at(labels, largest)}, z = {z[largest]:.1f}), each "
                    f"shown within the tolerance")
        else:
            head = (f"max |z| = {abs(z[worst]):.2f}{_at(labels, worst, '(', ')')} <= "
                    f"{threshold[worst]:.2f} at all {z.size} points")
        return Decision(CONFIRMED, resolution, z, worst, None,
                        f"{head}; resolution {resolution:.3g} <= tolerance {tolerance:.3g}", significant)
    if np.any(beyond > threshold):
        worst = int(np.argmax(beyond / threshold))
        return Decision(CONTRADICTED, resolution, z, worst, None,
                        f"{units}departure {departure[worst]:+.3g}{_at(labels, worst)} (z = "
                        f"{z[worst]:.1f}): beyond the tolerance {tolerance:.3g} by "
                        f"{beyond[worst]:.1f} SE")
    size = np.where(size > noise_level(size.size) * error, size, 0.0)   # what the advice takes as true
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        confirm = np.where(size < tolerance, (threshold + MARGIN) * error / (tolerance - size), np.nan)
        contradict = np.where(size > tolerance, (threshold + MARGIN) * error / (size - tolerance), np.nan)
    factor, index, way = _budget_factor(confirm, contradict)
    worst = index if index is not None else int(np.argmax(np.abs(z) / threshold))
    return Decision(INCONCLUSIVE, resolution, z, worst, factor,
                    f"resolution {resolution:.3g} vs tolerance {tolerance:.3g}, max |z| = "
                    f"{float(np.max(np.abs(z))):.2f}; " +
                    _needed(factor, index, way, labels, n_repetitions, "a departure equal to the tolerance",
                            describe_budget))


def decide_ordering(*, lower, upper, error, threshold, effect_size: float,
                    strict: bool = True, labels=None, n_repetitions=None,
                    describe_budget=None) -> Decision:
    """Decide "lower < upper" at every point (D = upper - lower, s its standard error, e the
    effect size).

    * ``strict`` (the statement "A is below B"): a point holds when D > t s (A seen below B);
    * not ``strict`` (the statement "A is not above B by more than e"): a point holds when A is
      not significantly above B (D >= -t s) or is shown above by less than e (D + e >= t s);
    * confirmed: every point holds and the resolution t max(s) <= e;
    * contradicted: somewhere -D - e > t s (A above B by significantly more than e);
    * inconclusive otherwise, with the budget factor as for :func:`decide_agreement` (a negative D
      of a not ``strict`` ordering within :func:`noise_level` SE of 0 read as 0).

    ``labels`` and ``n_repetitions`` as for :func:`decide_agreement`.

    Examples
    --------
    >>> from varlab.testing.decision import decide_ordering
    >>> decide_ordering(lower=[0.8, 0.9], upper=[1.0, 1.0], error=[0.01, 0.02], threshold=4.5,
    ...                 effect_size=0.1).outcome
    'confirmed'
    >>> decide_ordering(lower=[1.3], upper=[1.0], error=[0.01], threshold=4.5,
    ...                 effect_size=0.1).outcome                      # A above B by 0.3
    'contradicted'
    >>> decide_ordering(lower=[1.01], upper=[1.0], error=[0.01], threshold=4.5, effect_size=0.1,
    ...                 strict=False).outcome                         # "A is not above B by 0.1"
    'confirmed'
    """
    lower, upper, error, threshold = _arrays(lower, upper, error, threshold)
    _validated(effect_size, "effect size", (lower, upper), error, threshold, labels)
    difference = upper - lower
    z = z_score(upper, lower, error)
    beyond = z_score(-difference, effect_size, error)
    resolution = float(np.max(threshold * error))
    if strict:
        holds = z > threshold
    else:
        holds = (z >= -threshold) | (z_score(difference, -effect_size, error) >= threshold)
    if np.all(holds) and resolution <= effect_size:
        worst = int(np.argmin(z / threshold))
        return Decision(CONFIRMED, resolution, z, worst, None,
                        f"smallest z of B - A = {z[worst]:.1f}{_at(labels, worst, '(', ')')}"
                        +
                        (f" > {threshold[worst]:.2f} at all {z.size} points" if strict else
                         f"; A not above B by more than the effect size at all {z.size} points")
                        + f"; resolution {resolution:.3g} <= effect size {effect_size:.3g}")
    if np.any(beyond > threshold):
        worst = int(np.argmax(beyond / threshold))
        return Decision(CONTRADICTED, resolution, z, worst, None,
                        f"A - B = {-difference[worst]:+.3g}{_at(labels, worst)}: beyond the "
                        f"effect size {effect_size:.3g} by {beyond[worst]:.1f} SE")
    if not strict:                              # what the advice takes as true: A above B within the noise is none
        difference = np.where(-difference > noise_level(difference.size) * error, difference,
                              np.maximum(difference, 0.0))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if strict:                              # every point seen above: D > t s
            confirm = np.where(difference > 0, (threshold + MARGIN) * error / difference, np.nan)
        else:                                   # every point shown above -e: D + e >= t s
            confirm = np.where(difference >= 0, 0.0,
                               np.where(difference > -effect_size,
                                        (threshold + MARGIN) * error / (difference + effect_size), np.nan))
        confirm = np.maximum(confirm, (threshold + MARGIN) * error / effect_size)   # and the resolution (NaN stays)
        contradict = np.where(-difference > effect_size,
                              (threshold + MARGIN) * error / (-difference - effect_size), np.nan)
    factor, index, way = _budget_factor(confirm, contradict)
    worst = index if index is not None else int(np.argmin(z / threshold))
    return Decision(INCONCLUSIVE, resolution, z, worst, factor,
                    f"resolution {resolution:.3g} vs effect size {effect_size:.3g}, smallest z of "
                    f"B - A = {float(np.min(z)):.2f}; " +
                    _needed(factor, index, way, labels, n_repetitions, "somewhere A is not below B, by less than "
                                                                       "the effect size", describe_budget))


def significance_note(tolerance: float, departure: float, relative: bool) -> str:
    """The words of a confirmation that saw a significant departure within its tolerance.

    Examples
    --------
    >>> significance_note(0.05, -0.031, relative=True)
    'confirmed within 5%; a departure of about -3.1% is significant'
    >>> significance_note(0.01, 0.004, relative=False)
    'confirmed within 0.01; a departure of about +0.004 is significant'
    """
    if relative:
        return (f"confirmed within {100 * tolerance:.3g}%; a departure of about "
                f"{100 * departure:+.2g}% is significant")
    return f"confirmed within {tolerance:.3g}; a departure of about {departure:+.2g} is significant"


def _at(labels, index: int, before: str = "at ", after: str = "") -> str:
    return "" if labels is None else f" {before}{labels[index]}{after}"


def _needed(factor, index, way: str, labels, n_repetitions, why_never: str, describe_budget=None) -> str:
    """What budget decides the check, and where: ``n_repetitions`` (a number, or one per point:
    the deciding point's) or ``describe_budget(factor, index)`` (e.g. trials of the deciding cell)."""
    if factor is None:
        return f"{why_never}: no budget resolves it (is the tolerance what the statement means?)"
    where = f" (to {way}" + ("" if labels is None else f", set at {labels[index]}") + ")"
    if math.isinf(factor):
        return f"more than 1e308 times the budget would be needed to resolve it{where}"
    if describe_budget is not None:
        return describe_budget(factor, index) + where
    if n_repetitions is None:
        return f"about {factor:.3g}x the budget would resolve it{where}"
    n = float(np.broadcast_to(np.asarray(n_repetitions, dtype=float), (index + 1,))[index]) \
        if np.ndim(n_repetitions) else float(n_repetitions)
    needed = n * factor
    return (f"about {int(math.ceil(needed)):,} repetitions would resolve it{where}" if needed < 1e15 else
            f"about {needed:.3g} repetitions would resolve it (beyond any simulation){where}")
