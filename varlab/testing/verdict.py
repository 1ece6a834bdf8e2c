"""The result of a check: its outcome, the numbers behind it and a per-point table."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Verdict", "format_table"]


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check of a statement against the Monte Carlo engine.

    ``outcome``: one of ``varlab.testing.OUTCOMES``; ``statement``: what was checked, in words;
    ``resolution``: the smallest departure from the statement the check could have detected at
    its budget (threshold x standard error, in ``units``), ``tolerance``: the departure the
    statement cares about (same units); ``units``: "relative" (a fraction of the theory) or
    "absolute" (the statistic's units); ``threshold``: the |z| beyond which a departure is
    significant; ``n_repetitions``: the budget used, ``n_repetitions_needed``: for an
    inconclusive outcome, the budget that would resolve it (None if none would: see ``reason``);
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

    def table(self) -> str:
        """The per-point table as aligned text (numbers formatted, no reprs)."""
        return format_table(self.rows)

    def __str__(self) -> str:
        return (f"{self.outcome}: {self.statement}\n{self.reason}\n"
                f"resolution {self.resolution:.3g} ({self.units}), tolerance {self.tolerance:.3g}, "
                f"threshold |z| <= {self.threshold:.2f}, {self.n_repetitions:,} repetitions\n"
                f"{self.table()}")


def _format(value) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.6g}"


def format_table(rows) -> str:
    """Rows of dicts as an aligned text table: a header of the keys, one line per row."""
    if not rows:
        return ""
    keys = list(rows[0])
    cells = [keys] + [[_format(row[key]) for key in keys] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(keys))]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(line, widths))
                     for line in cells)
