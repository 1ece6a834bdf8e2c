"""Decide what can be decided: a pilot run at the budget, then, for an inconclusive claim, one
deciding run with fresh seeds at the budget the pilot advises (times a margin), within caps.

The rule that keeps the decision honest:

* the deciding run's budget has a ``random_state`` derived from the pilot's (``Budget.fresh``),
  so no seed of the pilot is reused, and only the deciding run's numbers decide (the pilot's are
  never pooled with them: pooling a run chosen because it was inconclusive would bias the test);
* the budget of the deciding run is fixed before it runs, from the pilot alone;
* the verdict keeps the pilot's summary (``Verdict.pilot``), and both runs stay in the store.

``varlab check --until-decided`` runs every claim this way (``varlab.claims.check``'s
``until_decided``); ``varlab.testing``'s checks take ``n_repetitions="auto"``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..testing.outcomes import INCONCLUSIVE
from ..testing.verdict import Verdict, format_number

__all__ = ["UntilDecided", "pilot_summary"]


@dataclass(frozen=True)
class UntilDecided:
    """How far a deciding run may go.

    ``margin``: the deciding run gets ``margin`` times the budget the pilot advises (the advice
    already carries ``varlab.testing.decision.MARGIN``: at it, a departure the pilot measured
    right is decided with probability at least 97.7%; a margin above 1 buys more); ``max_factor``: the
    most times the pilot's budget a deciding run may have (a claim advised more is left
    inconclusive, saying so); ``max_seconds``: the most seconds a deciding run may be expected to
    take (the pilot's seconds, as first computed, times the factor; None: no cap); ``only``: the
    ids of the claims to decide (None: every inconclusive claim).

    Examples
    --------
    >>> from varlab.claims import UntilDecided
    >>> policy = UntilDecided(max_factor=10)
    >>> policy.factor(budget_factor=3.2, pilot_seconds=1.0)
    (4, '')
    >>> UntilDecided(margin=2).factor(budget_factor=6.0, pilot_seconds=1.0)   # 12x capped at 10x
    (10, '')
    >>> policy.factor(budget_factor=40.0, pilot_seconds=1.0)[1]
    'about 40x the budget would decide it, beyond the cap of 10x'
    """

    max_factor: float = 10.0
    max_seconds: float | None = None
    margin: float = 1.0
    only: frozenset | None = None

    def __post_init__(self):
        if not (self.max_factor >= 2 and self.margin >= 1):
            raise ValueError(f"need max_factor >= 2 and margin >= 1, got {self.max_factor!r}, "
                             f"{self.margin!r}")
        if self.max_seconds is not None and not self.max_seconds > 0:
            raise ValueError(f"max_seconds must be positive or None, got {self.max_seconds!r}")
        if self.only is not None:
            object.__setattr__(self, "only", frozenset(self.only))

    def wants(self, claim_id: str) -> bool:
        """Whether the claim ``claim_id`` is one to decide."""
        return self.only is None or claim_id in self.only

    def factor(self, budget_factor: float | None, pilot_seconds: float | None) -> tuple[int | None, str]:
        """The factor of the deciding run for a pilot that advises ``budget_factor`` and took
        ``pilot_seconds``, and '' — or None and why no deciding run is made."""
        if budget_factor is None or not math.isfinite(budget_factor):
            return None, "no budget would decide it"
        if budget_factor > self.max_factor:
            return None, (f"about {format_number(budget_factor)}x the budget would decide it, "
                          f"beyond the cap of {format_number(self.max_factor)}x")
        factor = int(min(self.max_factor, max(2, math.ceil(budget_factor * self.margin))))
        if self.max_seconds is not None and pilot_seconds is not None and \
                factor * pilot_seconds > self.max_seconds:
            return None, (f"a deciding run at {factor}x would take about "
                          f"{factor * pilot_seconds:.0f} s, beyond the cap of {self.max_seconds:g} s")
        return factor, ""


def pilot_summary(pilot: Verdict, random_state) -> dict:
    """What a decided verdict keeps of its pilot run (``Verdict.pilot``).

    Examples
    --------
    >>> from varlab.testing import Verdict
    >>> pilot = Verdict(id="doc.pilot", source="s", quote="", statement="s", outcome="inconclusive",
    ...                 method="simulation", resolution=0.1, tolerance=0.05, units="relative",
    ...                 reason="resolution 0.1 vs tolerance 0.05", budget="quick", budget_factor=4.0,
    ...                 n_repetitions=20_000)
    >>> pilot_summary(pilot, 7)["budget_factor"]
    4.0
    """
    return {"budget": pilot.budget, "random_state": random_state, "n_repetitions": pilot.n_repetitions,
            "outcome": pilot.outcome, "resolution": pilot.resolution,
            "budget_factor": pilot.budget_factor, "reason": pilot.reason}


def decided(pilot: Verdict, deciding: Verdict, factor: int, random_state) -> Verdict:
    """The deciding run's verdict, keeping its pilot (``Verdict.pilot``) and saying in its reason
    how it was reached."""
    of = (f"the {pilot.budget} budget" if pilot.budget else
          f"the pilot's {pilot.n_repetitions:,} repetitions" if pilot.n_repetitions else "the pilot's budget")
    how = (f" [a second run at {factor}x {of} with fresh seeds; the pilot was inconclusive, "
           f"advising about {format_number(pilot.budget_factor)}x]")
    return replace(deciding, reason=deciding.reason + how, pilot=pilot_summary(pilot, random_state))


def left_undecided(pilot: Verdict, why: str) -> Verdict:
    """The pilot's verdict, its reason saying why no deciding run was made."""
    return replace(pilot, reason=f"{pilot.reason} [not rerun: {why}]")


def is_undecided(verdict: Verdict) -> bool:
    """Whether a deciding run could help: an inconclusive verdict not itself a deciding run."""
    return verdict.outcome == INCONCLUSIVE and verdict.pilot is None
