"""A one-line progress report on stderr for long simulations.

``enabled=None`` (auto) stays silent unless the run is still going after ``delay`` seconds
(3 s), so quick runs print nothing; True always prints (including the first update); False
never prints. On a terminal the line is rewritten in place (``\r``) every ``interval`` seconds;
otherwise (a log file) a full line is written every ``log_interval`` seconds.
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
                 stream=None, delay: float = 3.0, interval: float = 0.5,
                 log_interval: float = 10.0):
        if enabled not in (None, True, False):
            raise TypeError(f"progress must be None, True or False, got {enabled!r}")
        self.total = int(total)
        self.enabled = enabled
        self.label = label
        self.stream = stream
        self.delay = 0.0 if enabled else float(delay)
        self.interval = float(interval)
        self.log_interval = float(log_interval)
        self.done = 0
        self.start = time.perf_counter()
        self._last_print = None
        self._printed = False
        self._pending = False     # a terminal line without its newline yet
        self._last_done = -1

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

    def _stream(self):
        return self.stream if self.stream is not None else sys.stderr

    def _is_terminal(self) -> bool:
        try:
            return bool(self._stream().isatty())
        except (AttributeError, ValueError):
            return False

    def _write(self, now: float, final: bool = False) -> None:
        stream = self._stream()
        if self._is_terminal():
            stream.write("\r" + self._line(now) + ("\n" if final else ""))
            self._pending = not final
        else:
            stream.write(self._line(now) + "\n")
        stream.flush()
        self._last_print = now
        self._last_done = self.done
        self._printed = True

    def update(self, n: int = 1) -> None:
        self.done += int(n)
        if self.enabled is False:
            return
        now = time.perf_counter()
        if now - self.start < self.delay:
            return
        interval = self.interval if self._is_terminal() else self.log_interval
        if self._last_print is not None and now - self._last_print < interval and self.done < self.total:
            return
        self._write(now)

    def close(self) -> None:
        """Write the final state (only if something was printed before)."""
        if not self._printed:
            return
        if self._last_done != self.done:
            self._write(time.perf_counter(), final=True)
        elif self._pending:
            self._stream().write("\n")
            self._stream().flush()
        self._pending = False
        self._printed = False
