"""``n_repetitions="auto"`` for a user's check: a pilot run, then, where it is inconclusive, one
deciding run with a fresh seed at the repetitions the pilot advises (times a margin), within
``max_repetitions`` — the rule of ``varlab check --until-decided`` (``varlab.claims.until_decided``):
the deciding run's seed is derived from the pilot's but draws none of its numbers, only the deciding
run decides, and the verdict keeps the pilot's summary (``Verdict.pilot``).
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import _random
from ..claims.until_decided import UntilDecided, decided, is_undecided, left_undecided
from .verdict import Verdict

__all__ = ["PILOT_REPETITIONS", "until_decided"]

#: the repetitions of an "auto" check's pilot run
PILOT_REPETITIONS = 2_000


def until_decided(run_at, n_repetitions, random_state, *, max_repetitions: int) -> Verdict:
    """``run_at(n_repetitions, seed)`` (a check at that many repetitions and that SeedSequence),
    or, with ``n_repetitions="auto"``, a pilot at :data:`PILOT_REPETITIONS` and one deciding run
    with a fresh seed (module docstring), never above ``max_repetitions``.

    Examples
    --------
    >>> from varlab.testing import check_agreement
    >>> from varlab.theory import rff
    >>> verdict = check_agreement("rff", rff.mean, statistic="mean", k=[10], n_repetitions="auto",
    ...                           max_repetitions=200_000, random_state=0, tolerance=0.01,
    ...                           rho=0.5, gamma=1.0)
    >>> verdict.pilot["outcome"], verdict.outcome, verdict.n_repetitions > 2_000
    ('inconclusive', 'confirmed', True)
    """
    if isinstance(n_repetitions, str):
        if n_repetitions != "auto":
            raise ValueError(f"n_repetitions must be a positive int or 'auto', got {n_repetitions!r}")
    elif isinstance(n_repetitions, numbers.Integral) and not isinstance(n_repetitions, bool):
        return run_at(int(n_repetitions), random_state)
    else:
        raise TypeError(f"n_repetitions must be a positive int or 'auto', got {n_repetitions!r}")
    if not (isinstance(max_repetitions, numbers.Integral) and max_repetitions >= 2 * PILOT_REPETITIONS):
        raise ValueError(f"max_repetitions must be an int of at least {2 * PILOT_REPETITIONS} "
                         f"(twice the pilot's), got {max_repetitions!r}")
    seed = _random.seed_sequence(random_state)
    pilot = run_at(PILOT_REPETITIONS, seed)
    if not is_undecided(pilot):
        return pilot
    policy = UntilDecided(max_factor=max_repetitions // PILOT_REPETITIONS)
    factor, why = policy.factor(pilot.budget_factor, None)
    if factor is None:
        return left_undecided(pilot, why)
    fresh = np.random.SeedSequence(seed.generate_state(4, np.uint64).tolist())
    return decided(pilot, run_at(PILOT_REPETITIONS * factor, fresh), factor, _entropy(seed))


def _entropy(seed: np.random.SeedSequence):
    """The pilot's seed as the verdict records it (its entropy; JSON-able)."""
    entropy = seed.entropy
    return [int(word) for word in entropy] if isinstance(entropy, (list, tuple, np.ndarray)) else int(entropy)
