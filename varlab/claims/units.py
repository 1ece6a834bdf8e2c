"""The one resumable runner of experiment units (real-data runs, experiment pieces).

A *unit* is a dict of JSON-able fields that says all its piece of work depends on (data set,
method, grid point, trial, seed, ...); ``run(unit)`` computes it and returns a JSON-able dict.
:func:`run_units` reads each finished unit from a :class:`~varlab.claims.Store` and runs only
the missing ones, storing each as it finishes, so that a killed run resumes with the same
numbers (each unit seeds itself from its fields, e.g. with :func:`varlab.seeding.derive_seed`).

>>> from varlab.claims import Store, run_units
>>> store = Store()                                      # in memory; Store(path) keeps a file
>>> square = lambda unit: {"value": unit["x"] ** 2}
>>> [record["value"] for record in run_units([{"x": 2}, {"x": 3}], store, square)]
[4, 9]
>>> [record["value"] for record in run_units([{"x": 3}], store, lambda unit: {"value": -1})]   # stored
[9]
"""
from __future__ import annotations

import json
import time

from .store import Store

__all__ = ["DeadlineReached", "run_units", "unit_key"]


class DeadlineReached(Exception):
    """:func:`run_units` started no unit after its deadline; the finished ones are stored.

    Examples
    --------
    >>> import time
    >>> from varlab.claims import DeadlineReached, Store, run_units
    >>> store = Store()
    >>> try:
    ...     run_units([{"x": 1}], store, lambda unit: {"y": 2}, deadline=time.monotonic() - 1)
    ... except DeadlineReached:
    ...     print("stopped;", len(store), "units stored")
    stopped; 0 units stored
    """


def unit_key(unit: dict) -> str:
    """The default key of a unit: its fields as sorted JSON.

    Examples
    --------
    >>> from varlab.claims import unit_key
    >>> unit_key({"trial": 1, "dataset": "letter"})
    '{"dataset": "letter", "trial": 1}'
    """
    return json.dumps(unit, sort_keys=True)


def run_units(units, store: Store, run, *, key=unit_key, fingerprint=None, n_jobs: int = 1,
              deadline: float | None = None, progress: bool | None = None, description: str = "") -> list[dict]:
    """The records of ``units``, in their order: each from ``store`` if finished, else ``run(unit)``
    stored as it finishes, as ``dict(unit, **result, seconds=wall seconds)`` under ``key(unit)``
    (a stored record that predates the unit's fields gets them from the unit).

    ``fingerprint(unit)``: a string naming the data the unit reads (e.g. a hash of the data set as
    loaded), stored as the record's ``"data"``; a stored record with another is refused
    (ValueError) before anything runs, not reused. ``n_jobs``: joblib worker processes for the
    missing units (each unit seeds itself, so the records do not depend on it). ``deadline`` (a
    ``time.monotonic()`` value): start no unit after it, store the running ones, then raise
    :class:`DeadlineReached`. ``progress``: a tqdm bar (None: only where stderr is a terminal).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from varlab.claims import Store, run_units
    >>> units = [{"dataset": "a", "trial": t} for t in range(3)]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "units.jsonl"
    ...     first = run_units(units[:2], Store(path), lambda unit: {"value": unit["trial"] / 4})
    ...     resumed = run_units(units, Store(path), lambda unit: {"value": -1.0})   # a new process
    >>> [record["value"] for record in resumed]
    [0.0, 0.25, -1.0]
    """
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    units = list(units)
    keys = [key(unit) for unit in units]
    missing = {}
    for unit, name in zip(units, keys):
        data = None if fingerprint is None else fingerprint(unit)
        if name not in store:
            missing[name] = (unit, data)
        elif data is not None and store.get(name).get("data") != data:
            raise ValueError(f"{store.path or 'the store'} holds {name} computed on other data than the unit "
                             f"reads now (fingerprint {store.get(name).get('data')} != {data}); delete its "
                             f"records to recompute them")
    with tqdm(total=len(units), initial=len(units) - len(missing), desc=description, unit="unit",
              disable=None if progress is None else not progress) as bar:
        started = (delayed(_timed)(run, name, unit, deadline) for name, (unit, _) in missing.items()
                   if deadline is None or time.monotonic() < deadline)
        for name, result, seconds in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(started):
            if result is not None:
                unit, data = missing[name]
                store.put(name, dict(unit, **result, **({} if data is None else {"data": data}),
                                     seconds=round(seconds, 1)))
                bar.update()
    if any(name not in store for name in missing):
        raise DeadlineReached(f"{description or 'run_units'}: deadline reached; the finished units are stored")
    return [{**unit, **store.get(name)} for unit, name in zip(units, keys)]


def _timed(run, name, unit, deadline):
    """``(key, record, seconds)``, or ``(key, None, 0)`` where the worker picks the unit up after the
    deadline (joblib queues units ahead; ``time.monotonic`` is one clock for all processes of a
    machine)."""
    if deadline is not None and time.monotonic() >= deadline:
        return name, None, 0.0
    began = time.perf_counter()
    result = run(unit)
    return name, result, time.perf_counter() - began
