"""The one record of a check, for a paper's claim and a user's own check alike: the statement's
words, the outcome, the numbers behind it and a per-point table."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

import numpy as np

from .decision import significance_note
from .outcomes import CONFIRMED, OUTCOMES

__all__ = ["Verdict", "METHODS", "format_table", "format_number", "format_point"]

#: how an outcome was reached
METHODS = ("simulation", "exact", "trials")


@dataclass
class Verdict:
    """The outcome of one check (a paper's claim, or a user's check with empty ``id``,
    ``source`` and ``quote``).

    ``quote``: the paper's words (empty for varlab's own statement, ``derived_by_varlab``);
    ``statement``: what was tested; ``note``: one line where the test is stronger or weaker
    than the words; ``outcome``: one of ``varlab.testing.OUTCOMES``; ``method``: "simulation"
    (judged in the engine's standard errors), "trials" (over few independent trials, e.g.
    real-data splits) or "exact" (an exact or symbolic computation: resolution 0);
    ``resolution``: the smallest departure the check could have detected (threshold x largest
    standard error), ``tolerance``: the departure the statement cares about, both in ``units``;
    ``reason``: one line with the key number; ``budget``: the budget's name; ``budget_factor``:
    for an inconclusive outcome, how many times the budget would resolve it (for method "trials",
    times the trials; None: no budget would, or not inconclusive); ``rows``: the per-point data;
    ``accuracy``: for columns of rows without a standard error whose numbers are coarser than 1e-12 relative (floating point with
    cancellation), the absolute accuracy the claim documents for them
    (``varlab.claims.compare`` allows that much between a regenerated and a stored record);
    ``threshold``: the largest |z| threshold used (``varlab.testing.outcomes.threshold``; None
    for an exact check); ``n_repetitions``: the fewest repetitions of a simulation it rests on
    (None if none); ``pilot``: for a verdict decided by a second run with fresh seeds
    (``varlab.claims.until_decided``), the first run's budget, outcome, resolution and advice
    (None otherwise); ``significant_departure``: for a confirmed agreement, the largest departure
    that is significant though shown within the tolerance (None if none; ``outcome_words`` says
    it).

    Examples
    --------
    >>> from varlab.testing import Verdict
    >>> verdict = Verdict(id="003.example", source="003, Eq. (5)", quote="E|E - k|^2 = V_MC / m",
    ...                   statement="the MSE of mm_mc equals V_MC / m", outcome="inconclusive",
    ...                   method="simulation", resolution=0.1, tolerance=0.05, units="relative",
    ...                   reason="resolution 0.1 vs tolerance 0.05", budget="quick",
    ...                   budget_factor=4.0, threshold=4.5, n_repetitions=20_000)
    >>> verdict.paper, verdict.n_repetitions_needed
    ('003', 80000)
    >>> Verdict.from_json(verdict.to_json()) == verdict
    True
    >>> Verdict(**{**verdict.to_json(), "outcome": "confirmed"})
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
    threshold: float | None = None
    n_repetitions: int | None = None
    pilot: dict | None = None
    significant_departure: float | None = None

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
        from ..claims.registry import paper_of

        return paper_of(self.id)

    @property
    def outcome_words(self) -> str:
        """The outcome, with a significant departure seen within the tolerance where there is one
        ("confirmed within 5%; a departure of about +3.1% is significant")."""
        if self.significant_departure is None:
            return self.outcome
        return significance_note(self.tolerance, self.significant_departure, self.units == "relative")

    @property
    def n_repetitions_needed(self) -> int | None:
        """For an inconclusive simulation, the repetitions that would resolve it (None if no
        budget would, or none below 1.8e308 repetitions: ``reason`` says which): the budget at
        which every point is decided by ``varlab.testing.decision.MARGIN`` standard errors beyond
        the threshold, were the present estimates the true values (so a rerun there decides each
        point that way with probability >= 97.7 %; a departure that is noise is confirmed)."""
        if self.budget_factor is None or self.n_repetitions is None:
            return None
        needed = self.n_repetitions * self.budget_factor
        return int(np.ceil(needed)) if np.isfinite(needed) else None

    def table(self) -> str:
        """The per-point table as aligned text (numbers formatted, no reprs)."""
        return format_table(self.rows)

    def __str__(self) -> str:
        needed = self.n_repetitions_needed
        rule = ("" if self.threshold is None else f", threshold |z| <= {self.threshold:.2f}") + (
            "" if self.n_repetitions is None else f", {self.n_repetitions:,} repetitions") + (
            "" if needed is None else f" ({needed:,} would resolve it)")
        return (f"{self.outcome}: {self.statement}\n{self.reason}\n"
                f"resolution {self.resolution:.3g} ({self.units}), tolerance "
                f"{self.tolerance:.3g}{rule}\n{self.table()}")

    def to_json(self) -> dict:
        """A JSON-serialisable dict (numpy scalars to Python, non-finite floats to strings)."""
        return _jsonable(asdict(self))

    @classmethod
    def from_json(cls, record: dict) -> "Verdict":
        """The Verdict of a ``to_json`` record (unknown keys refused; a record written before a
        field existed gets its default)."""
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


def format_number(value) -> str:
    """A number as text: integers in full, floats to 6 significant digits (numpy scalars as
    Python's); anything else by ``str``.

    Examples
    --------
    >>> format_number(np.float64(0.1234567)), format_number(np.int64(3)), format_number(None)
    ('0.123457', '3', '')
    """
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return str(value)


def format_point(point: dict) -> str:
    """A grid point as "name = value, ..." (numbers formatted, no reprs).

    Examples
    --------
    >>> format_point({"rho": np.float64(0.5), "k": 10})
    'rho = 0.5, k = 10'
    """
    return ", ".join(f"{name} = {format_number(value)}" for name, value in point.items())


def format_table(rows) -> str:
    """Rows of dicts as an aligned text table: a header of the keys, one line per row.

    Examples
    --------
    >>> from varlab.testing.verdict import format_table
    >>> print(format_table([{"rho": 0.5, "k": 10, "z": -2.48111}, {"rho": 0.25, "k": 100, "z": 0.5}]))
     rho    k         z
     0.5   10  -2.48111
    0.25  100       0.5
    """
    if not rows:
        return ""
    keys = list(dict.fromkeys(key for row in rows for key in row))
    cells = [keys] + [[format_number(row.get(key)) for key in keys] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(keys))]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(line, widths))
                     for line in cells)
