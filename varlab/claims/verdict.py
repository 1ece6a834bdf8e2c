"""The record of one checked claim: the paper's words, what varlab tests, the outcome and the
numbers behind it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

import numpy as np

from ..testing.outcomes import CONFIRMED, OUTCOMES

__all__ = ["Verdict"]

#: how an outcome was reached
METHODS = ("simulation", "exact", "trials")


@dataclass
class Verdict:
    """The outcome of one claim.

    ``quote``: the paper's words (empty for varlab's own statement, ``derived_by_varlab``);
    ``statement``: what varlab tests; ``note``: one line where the test is stronger or weaker
    than the words; ``outcome``: one of ``varlab.testing.OUTCOMES``; ``method``: "simulation"
    (judged in the engine's standard errors), "trials" (over independent trials, e.g. real-data
    splits) or "exact" (an exact or symbolic computation: resolution 0); ``resolution``: the
    smallest departure the check could have detected (threshold x largest standard error),
    ``tolerance``: the departure the statement cares about, both in ``units``;
    ``budget_factor``: for an inconclusive outcome, how many times the budget would resolve it
    (None: no budget would, or not inconclusive); ``reason``: one line with the key number;
    ``rows``: the per-point data; ``accuracy``: for columns of rows without a standard error
    whose numbers are coarser than 1e-12 relative (floating point with cancellation), the
    absolute accuracy the claim documents for them (``varlab.claims.compare`` allows that much
    between a regenerated and a stored record).

    Examples
    --------
    >>> from varlab.claims import Verdict
    >>> verdict = Verdict(id="003.example", source="003, Eq. (5)", quote="E|E - k|^2 = V_MC / m",
    ...                   statement="the MSE of mm_mc equals V_MC / m", outcome="confirmed",
    ...                   method="simulation", resolution=0.02, tolerance=0.05, units="relative",
    ...                   reason="max |z| = 1.2 <= 4.50 at all 4 points", budget="quick")
    >>> verdict.paper
    '003'
    >>> Verdict.from_json(verdict.to_json()) == verdict
    True
    >>> Verdict(**{**verdict.to_json(), "resolution": 0.1})   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: claim 003.example: confirmed needs a resolution (0.1) no coarser than the tolerance (0.05)
    """

    id: str
    source: str
    quote: str
    statement: str
    outcome: str
    method: str
    resolution: float
    tolerance: float
    units: str
    reason: str
    budget: str
    note: str = ""
    budget_factor: float | None = None
    derived_by_varlab: bool = False
    rows: list = field(default_factory=list)
    accuracy: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {self.outcome!r}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if self.outcome == CONFIRMED and not self.resolution <= self.tolerance:
            raise ValueError(f"claim {self.id}: confirmed needs a resolution ({self.resolution!r}) "
                             f"no coarser than the tolerance ({self.tolerance!r})")

    @property
    def paper(self) -> str:
        """The paper's key: the id's first part after an optional "varlab." ("003")."""
        from .registry import paper_of

        return paper_of(self.id)

    def to_json(self) -> dict:
        """A JSON-serialisable dict (numpy scalars to Python, non-finite floats to strings)."""
        return _jsonable(asdict(self))

    @classmethod
    def from_json(cls, record: dict) -> "Verdict":
        """The Verdict of a ``to_json`` record (unknown keys refused)."""
        names = {f.name for f in fields(cls)}
        unknown = set(record) - names
        if unknown:
            raise ValueError(f"not a claim verdict record: unknown fields {sorted(unknown)}")
        record = dict(record)
        for name in ("resolution", "tolerance"):
            record[name] = float(record[name])
        return cls(**record)


def _jsonable(value):
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if np.isfinite(value) else str(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value
