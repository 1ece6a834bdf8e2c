"""Run manifests: what produced a directory of outputs, and the SHA-256 of every file in it.

``write(directory, run=...)`` records the versions (varlab, Python, numpy, scipy, platform), the
run's description (command, budget, seeds) and the hash of every file under ``directory``;
``verify(directory)`` re-hashes them and returns the differences (``varlab verify DIR``).
"""
from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path

__all__ = ["write", "verify", "MANIFEST"]

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


def write(directory, *, run: dict) -> Path:
    """Write ``directory/manifest.json`` for the files now in ``directory``."""
    directory = Path(directory)
    payload = {"run": run, "versions": _versions(), "files": _files(directory)}
    path = directory / MANIFEST
    path.write_text(json.dumps(payload, indent=1, sort_keys=True, default=str) + "\n")
    return path


def verify(directory) -> list[str]:
    """Differences between ``directory`` and its manifest: changed, missing and unlisted files
    (an empty list when everything matches)."""
    directory = Path(directory)
    path = directory / MANIFEST
    if not path.exists():
        raise ValueError(f"verify: {directory} has no {MANIFEST}")
    try:
        recorded = json.loads(path.read_text())["files"]
    except (ValueError, KeyError):
        raise ValueError(f"verify: {path} is not a varlab manifest") from None
    current = _files(directory)
    problems = [f"changed: {name}" for name in sorted(recorded)
                if name in current and current[name] != recorded[name]]
    problems += [f"missing: {name}" for name in sorted(set(recorded) - set(current))]
    problems += [f"not in the manifest: {name}" for name in sorted(set(current) - set(recorded))]
    return problems
