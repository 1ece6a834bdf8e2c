"""Run manifests: what produced a directory of outputs, and the SHA-256 of every file in it.

``write(directory, run=...)`` records the versions (varlab, Python, numpy, scipy, platform), the
run's description (command, budget, seeds) and the hash of every file under ``directory``;
``write(directory, run=..., files=[...])`` (a partial run, e.g. ``varlab figures --only ID``)
re-hashes only those files and records the run beside them under ``partial_runs``, leaving the
other entries as the earlier runs wrote them; ``verify(directory)`` re-hashes every file and
returns the differences (``varlab verify DIR``).

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "a.txt").write_text("a"), (folder / "b.txt").write_text("b")
>>> _ = write(folder, run={"command": "all"})
>>> _ = (folder / "b.txt").write_text("B")
>>> verify(folder)
['changed: b.txt']
>>> _ = write(folder, run={"command": "only b"}, files=["b.txt"])
>>> verify(folder), read(folder)["run"], read(folder)["partial_runs"][0]["files"]
([], {'command': 'all'}, ['b.txt'])
"""
from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path

__all__ = ["write", "read", "verify", "MANIFEST"]

MANIFEST = "manifest.json"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _files(directory: Path) -> dict:
    return {str(path.relative_to(directory)): _sha256(path)
            for path in sorted(directory.rglob("*"))
            if path.is_file() and path.name != MANIFEST and not path.name.startswith(".")}


def _versions() -> dict:
    import numpy
    import scipy

    from . import __version__

    return {"varlab": __version__, "python": sys.version.split()[0], "numpy": numpy.__version__,
            "scipy": scipy.__version__, "platform": platform.platform(),
            "machine": platform.machine()}


def write(directory, *, run: dict, files=None) -> Path:
    """Write ``directory/manifest.json`` for the files now in ``directory``; with ``files`` (names
    relative to ``directory``), update only their entries and record ``run`` as the partial run
    that wrote them (a directory without a manifest gets a full one).

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> from varlab import manifest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "fig1.png").write_bytes(b"png")
    ...     path = manifest.write(folder, run={"command": "varlab figures", "budget": "test"})
    ...     recorded = json.loads(path.read_text())
    >>> path.name, sorted(recorded), list(recorded["files"])
    ('manifest.json', ['files', 'run', 'versions'], ['fig1.png'])
    >>> recorded["files"]["fig1.png"][:12]                 # its SHA-256
    '8f8cbb7dcf46'
    """
    directory = Path(directory)
    path = directory / MANIFEST
    if files is None or not path.exists():
        payload = {"run": run, "versions": _versions(), "files": _files(directory)}
    else:
        payload = read(directory)
        names = sorted({str(Path(name)) for name in files})
        for name in names:
            if (directory / name).is_file():
                payload["files"][name] = _sha256(directory / name)
            else:
                payload["files"].pop(name, None)
        earlier = [dict(entry, files=[n for n in entry["files"] if n not in names])
                   for entry in payload.get("partial_runs", [])]
        payload["partial_runs"] = [entry for entry in earlier if entry["files"]] + [
            {"run": run, "versions": _versions(), "files": names}]
    path.write_text(json.dumps(payload, indent=1, sort_keys=True, default=str) + "\n")
    return path


def read(directory) -> dict:
    """The manifest of ``directory`` (ValueError if it has none or it is not a varlab manifest).

    Examples
    --------
    >>> import tempfile
    >>> from varlab import manifest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = manifest.write(folder, run={"command": "varlab check"})    # an empty directory
    ...     recorded = manifest.read(folder)
    >>> recorded["run"], recorded["files"], sorted(recorded["versions"])[:3]
    ({'command': 'varlab check'}, {}, ['machine', 'numpy', 'platform'])
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     manifest.read(empty)                            # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: verify: ... has no manifest.json
    """
    path = Path(directory) / MANIFEST
    if not path.exists():
        raise ValueError(f"verify: {directory} has no {MANIFEST}")
    try:
        payload = json.loads(path.read_text())
        payload["files"]
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"verify: {path} is not a varlab manifest") from None
    return payload


def verify(directory) -> list[str]:
    """Differences between ``directory`` and its manifest: changed, missing and unlisted files
    (an empty list when everything matches).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from varlab import manifest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     folder = Path(folder)
    ...     _ = (folder / "a.txt").write_text("a"), (folder / "b.txt").write_text("b")
    ...     _ = manifest.write(folder, run={"command": "all"})
    ...     print(manifest.verify(folder))
    ...     _ = (folder / "a.txt").write_text("A")
    ...     (folder / "b.txt").unlink()
    ...     _ = (folder / "c.txt").write_text("c")
    ...     print(manifest.verify(folder))
    []
    ['changed: a.txt', 'missing: b.txt', 'not in the manifest: c.txt']
    """
    directory = Path(directory)
    recorded = read(directory)["files"]
    current = _files(directory)
    problems = [f"changed: {name}" for name in sorted(recorded)
                if name in current and current[name] != recorded[name]]
    problems += [f"missing: {name}" for name in sorted(set(recorded) - set(current))]
    problems += [f"not in the manifest: {name}" for name in sorted(set(current) - set(recorded))]
    return problems
