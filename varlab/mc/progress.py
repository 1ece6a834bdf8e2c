"""A one-line progress report on stderr for long simulations.

``enabled=None`` (auto) stays silent unless the run is still going after ``delay`` seconds
(3 s), so quick runs print nothing; True always prints (including the first update); False
never prints.
"""
from __future__ import annotations

import sys
import time

__all__ = ["Progress"]


def _format_seconds(seconds: float) -> str:
    seconds = max(0.0, float(seconds))
    if seconds < 60:
        return f"{seconds:4.1f}s"
    minutes, seconds = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """Counts units of work (blocks) and prints ``label: done/total blocks, elapsed, ETA``."""

    def __init__(self, total: int, enabled: bool | None = None, *, label: str = "varlab.mc",
                 stream=None, delay: float = 3.0, interval: float = 0.5):
        if enabled not in (None, True, False):
            raise TypeError(f"progress must be None, True or False, got {enabled!r}")
        self.total = int(total)
        self.enabled = enabled
        self.label = label
        self.stream = stream
        self.delay = 0.0 if enabled else float(delay)
        self.interval = float(interval)
        self.done = 0
        self.start = time.perf_counter()
        self._last_print = None
        self._printed = False

    def _line(self, now: float) -> str:
        elapsed = now - self.start
        if self.done > 0 and self.done < self.total:
            eta = "ETA " + _format_seconds(elapsed * (self.total - self.done) / self.done)
        elif self.done >= self.total:
            eta = "done"
        else:
            eta = "ETA ?"
        percent = 100.0 * self.done / self.total if self.total else 100.0
        return (f"{self.label}: {self.done}/{self.total} blocks ({percent:5.1f}%), "
                f"elapsed {_format_seconds(elapsed)}, {eta}")

    def update(self, n: int = 1) -> None:
        self.done += int(n)
        if self.enabled is False:
            return
        now = time.perf_counter()
        if now - self.start < self.delay:
            return
        if self._last_print is not None and now - self._last_print < self.interval and self.done < self.total:
            return
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write("\r" + self._line(now))
        stream.flush()
        self._last_print = now
        self._printed = True

    def close(self) -> None:
        """Finish the line (only if something was printed)."""
        if self._printed:
            stream = self.stream if self.stream is not None else sys.stderr
            stream.write("\r" + self._line(time.perf_counter()) + "\n")
            stream.flush()
            self._printed = False
