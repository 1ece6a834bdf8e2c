"""The result of a check: its outcome, the numbers behind it and a per-point table."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Verdict", "format_table", "format_number", "format_point"]


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check of a statement against the Monte Carlo engine.

    ``outcome``: one of ``varlab.testing.OUTCOMES``; ``statement``: what was checked, in words;
    ``resolution``: the smallest departure from the statement the check could have detected at
    its budget (threshold x standard error, in ``units``), ``tolerance``: the departure the
    statement cares about (same units); ``units``: "relative" (a fraction of the theory) or
    "absolute" (the statistic's units); ``threshold``: the |z| beyond which a departure is
    significant; ``n_repetitions``: the budget used, ``n_repetitions_needed``: for an
    inconclusive outcome, the budget that would resolve it (None if none would, or none below
    1.8e308 repetitions: ``reason`` says which);
    ``reason``: one line with the key number; ``rows``: one dict per (point, k).

    Examples
    --------
    >>> from varlab.testing import check_agreement
    >>> from varlab.theory import rff
    >>> verdict = check_agreement("rff", rff.mean, statistic="mean", k=[1], n_repetitions=2000,
    ...                           random_state=0, tolerance=0.5, rho=0.5, gamma=1.0)
    >>> verdict.outcome, verdict.units, round(verdict.resolution, 3)
    ('confirmed', 'relative', 0.142)
    >>> sorted(verdict.rows[0])
    ['SE', 'estimate', 'gamma', 'k', 'rho', 'theory', 'z']
    """

    outcome: str
    statement: str
    resolution: float
    tolerance: float
    units: str
    threshold: float
    n_repetitions: int
    n_repetitions_needed: int | None
    reason: str
    rows: tuple

    @classmethod
    def from_decision(cls, decision, statement, tolerance, units, threshold, result,
                      rows) -> "Verdict":
        """The Verdict of a ``decision`` over the simulation ``result`` (for its budget)."""
        factor = decision.budget_factor
        needed = (None if factor is None or not np.isfinite(result.n_repetitions * factor) else
                  int(np.ceil(result.n_repetitions * factor)))
        return cls(decision.outcome, statement, decision.resolution, tolerance, units,
                   float(threshold), result.n_repetitions, needed, decision.reason, rows)

    def table(self) -> str:
        """The per-point table as aligned text (numbers formatted, no reprs)."""
        return format_table(self.rows)

    def __str__(self) -> str:
        return (f"{self.outcome}: {self.statement}\n{self.reason}\n"
                f"resolution {self.resolution:.3g} ({self.units}), tolerance {self.tolerance:.3g}, "
                f"threshold |z| <= {self.threshold:.2f}, {self.n_repetitions:,} repetitions\n"
                f"{self.table()}")


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
