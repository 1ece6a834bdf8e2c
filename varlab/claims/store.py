"""One resumable store for all long work: claims' verdicts, real-data units, experiment pieces.

A store is an append-only JSON-lines file of records (dicts with their ``key``): each record is
written, flushed and fsynced as its piece finishes; on opening, a partial last line left by a
killed writer is cut off, so a restart recomputes only what did not finish. JSON keeps floats
exactly, so a resumed run gives the same numbers. A store without a path keeps its records in
memory (a quick run that need not resume).

>>> store = Store()
>>> store.remember("piece", lambda: {"value": 1.5})["value"]
1.5
>>> "piece" in store
True
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

__all__ = ["Store", "store_for"]


class Store:
    """Finished pieces, key -> record (see the module docstring); ``path``: a ``.jsonl`` file or
    None (in memory).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from varlab.claims import Store
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "pieces.jsonl"
    ...     Store(path).put("piece 1", {"value": 0.25})["key"]
    ...     resumed = Store(path)                       # a new process would read the same
    ...     print(len(resumed), resumed.get("piece 1")["value"])
    ...     print(resumed.remember("piece 1", lambda: {"value": -1.0})["value"])   # not recomputed
    'piece 1'
    1 0.25
    0.25
    """

    def __init__(self, path=None):
        self.path = None if path is None else Path(path)
        self.records: dict[str, dict] = {}
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists():
                self._load()

    def _load(self):
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):                         # a partial line from a killed writer
            with open(self.path, "r+b") as handle:
                handle.truncate(end)
        for number, line in enumerate(data[:end].splitlines(), 1):
            if line.strip():
                try:
                    record = json.loads(line)
                    self.records[record["key"]] = record
                except (ValueError, KeyError, TypeError):
                    raise ValueError(f"{self.path}, line {number}: not a stored record; delete the "
                                     f"line (or the file) to recompute it") from None

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def __len__(self) -> int:
        return len(self.records)

    def get(self, key: str) -> dict:
        """The record stored under ``key`` (KeyError if none)."""
        return self.records[key]

    def put(self, key: str, record: dict) -> dict:
        """Store ``record`` (a JSON-able dict) under ``key``; returns it with its key."""
        record = dict(record, key=key)
        line = json.dumps(record, sort_keys=True) + "\n"     # not JSON-able: raise before storing
        if self.path is not None:
            with open(self.path, "a") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        self.records[key] = record
        return record

    def remember(self, key: str, compute) -> dict:
        """The record of ``key``: stored, or ``compute()`` (a JSON-able dict) stored with the
        seconds it took (``"seconds"``)."""
        if key not in self.records:
            began = time.perf_counter()
            record = compute()
            self.put(key, dict(record, seconds=round(time.perf_counter() - began, 1)))
        return self.records[key]


_STORES: dict = {}


def store_for(budget, name: str) -> Store:
    """The store ``name`` of a run: ``<budget.store>/<name>.jsonl``, or an in-memory store (one
    per budget and name in this process) when the budget keeps nothing.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from varlab.claims import Budget, store_for
    >>> in_memory = store_for(Budget("doc-memory", 100), "pieces")
    >>> in_memory.path is None, store_for(Budget("doc-memory", 100), "pieces") is in_memory
    (True, True)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     kept = store_for(Budget("doc-kept", 100).stored_in(folder), "pieces")
    ...     print(kept.path.name)
    pieces.jsonl
    """
    key = (budget.name, budget.random_state, name,
           None if budget.store is None else str(Path(budget.store).resolve()))
    if key not in _STORES:
        _STORES[key] = Store(None if budget.store is None else Path(budget.store) / f"{name}.jsonl")
    return _STORES[key]
