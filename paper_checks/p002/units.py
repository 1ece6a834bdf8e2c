"""Finished trials of the long 002 experiments (Fig. 2, Table 1) kept on disk, so that a killed
full-budget run resumes where it stopped: ``STORE`` is None (in memory only, as at the quick
budget) or a directory (``simulations/p002_full.py`` sets ``<out>/units``). A unit is one JSON
file named by its key; JSON keeps floats exactly, so a resumed run gives the same numbers."""
from __future__ import annotations

import json
import os
from pathlib import Path

#: directory of the stored units, or None
STORE: Path | None = None


def cached(key: str, compute):
    """The stored result of unit ``key``, or ``compute()`` (a JSON-able dict), stored if STORE is set."""
    if STORE is None:
        return compute()
    path = Path(STORE) / f"{key}.json"
    if path.exists():
        return json.loads(path.read_text())
    value = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(value))
    os.replace(partial, path)
    return value
