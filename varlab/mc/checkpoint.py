"""A checkpoint store for long simulations: every finished task's block summaries on disk.

A simulation is identified by everything that determines its numbers (model, options, grid, k,
repetitions, seed, seeding scheme, block layout); its store is a directory holding
``identity.json`` and one ``.npz`` file per finished task (the central moments of its blocks,
with a SHA-256 of their bytes). Files are written to a temporary name and renamed, so a process
killed at any moment leaves only complete files. Resuming loads the finished blocks and computes
only the others; the result is bit-identical to an uninterrupted run, because block summaries
are merged in block order whichever run computed them. A store of another simulation, or a file
whose checksum or shape does not match, is an error: it is never mixed in silently.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from .stats import Moments

__all__ = ["CheckpointStore", "identity_hash"]

_FIELDS = ("mean", "m2", "m3", "m4")


def identity_hash(identity: dict) -> str:
    """SHA-256 of the canonical JSON of ``identity``.

    Examples
    --------
    >>> from varlab.mc.checkpoint import identity_hash
    >>> key = identity_hash({"model": "rff", "k": [1, 10]})
    >>> len(key), key == identity_hash({"k": [1, 10], "model": "rff"})     # key order does not matter
    (64, True)
    """
    text = json.dumps(identity, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _digest(arrays: dict) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).tobytes())
    return digest.hexdigest()


class CheckpointStore:
    """The on-disk store of one simulation (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> from varlab import mc
    >>> from varlab.mc.checkpoint import CheckpointStore
    >>> with tempfile.TemporaryDirectory() as root:
    ...     store = CheckpointStore(os.path.join(root, "run"), {"model": "rff", "k": [10]})
    ...     print(sorted(os.listdir(store.directory)), len(store.key))
    ...     with mc.configure(checkpoint_root=root):      # how simulate uses stores
    ...         first = mc.simulate("rff", k=[10], rho=0.5, gamma=1.0, n_repetitions=100, random_state=0)
    ...         again = mc.simulate("rff", k=[10], rho=0.5, gamma=1.0, n_repetitions=100, random_state=0)
    ['identity.json'] 64
    >>> again.resumed_blocks, again == first      # the second run loaded its block from the store
    (1, True)
    """

    def __init__(self, directory, identity: dict):
        self.directory = Path(directory)
        self.identity = identity
        self.key = identity_hash(identity)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"checkpoint: cannot create {self.directory}: {error.strerror}") from None
        marker = self.directory / "identity.json"
        if marker.exists():
            try:
                stored = json.loads(marker.read_text())
            except (OSError, ValueError):
                raise ValueError(f"checkpoint {self.directory} is corrupt: identity.json is "
                                 "unreadable; delete the directory to start afresh") from None
            if stored.get("key") != self.key:
                raise ValueError(f"checkpoint {self.directory} belongs to another simulation "
                                 f"({stored.get('identity', {}).get('model')!r}, key "
                                 f"{str(stored.get('key'))[:12]}); use another directory")
        else:
            self._write_atomic(marker, json.dumps({"key": self.key, "identity": identity},
                                                  sort_keys=True, indent=1, default=repr).encode())

    @staticmethod
    def _write_atomic(path: Path, payload: bytes) -> None:
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(temporary, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)

    def save(self, point: int, k_index, first_block: int, summaries) -> None:
        """Store the summaries of blocks first_block.. of one task."""
        arrays = {}
        for offset, (errors, squared) in enumerate(summaries):
            for label, moments in (("e", errors), ("s", squared)):
                arrays[f"{offset}_{label}_n"] = np.asarray(moments.n, dtype=np.int64)
                for name in _FIELDS:
                    value = getattr(moments, name)
                    if value is not None:
                        arrays[f"{offset}_{label}_{name}"] = np.asarray(value, dtype=np.float64)
        arrays["checksum"] = np.frombuffer(_digest(arrays).encode(), dtype=np.uint8)
        import io

        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        j = "p" if k_index is None else int(k_index)
        name = f"task_{point}_{j}_{first_block}_{first_block + len(summaries)}.npz"
        self._write_atomic(self.directory / name, buffer.getvalue())

    def load(self, n_k_of_unit) -> dict:
        """{(point, k_index): {block: (Moments, Moments)}} of every stored task.

        ``n_k_of_unit(point, k_index)`` gives the expected length of the moments, to reject a
        file that does not fit this simulation."""
        found: dict = {}
        for path in sorted(self.directory.glob("task_*.npz")):
            try:
                _, point, j, first, last = path.stem.split("_")
                point, first, last = int(point), int(first), int(last)
                k_index = None if j == "p" else int(j)
                with np.load(path) as data:
                    arrays = {name: data[name] for name in data.files}
                checksum = arrays.pop("checksum").tobytes().decode()
                if checksum != _digest(arrays):
                    raise ValueError("checksum mismatch")
                expected = n_k_of_unit(point, k_index)
                for offset in range(last - first):
                    pair = []
                    for label in ("e", "s"):
                        fields = {name: arrays.get(f"{offset}_{label}_{name}") for name in _FIELDS}
                        moments = Moments(int(arrays[f"{offset}_{label}_n"]), **fields)
                        if moments.mean.shape != (expected,):
                            raise ValueError("moments of the wrong shape")
                        pair.append(moments)
                    found.setdefault((point, k_index), {})[first + offset] = tuple(pair)
            except Exception as error:      # any unreadable or inconsistent file
                raise ValueError(f"checkpoint file {path} is corrupt ({error}); delete it to "
                                 "recompute its blocks") from None
        return found
