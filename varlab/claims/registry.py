"""Where claims are registered and papers found.

A claim registers on definition (declaring it is registering it). Papers are found through the
entry-point group ``varlab.papers``: each entry point names a paper (its key, e.g. "000") and a
module whose import registers that paper's claims and figures and whose ``TITLE`` is the paper's
title. Another package adds its own paper by declaring an entry point in that group. A claim's
paper comes from its id: ``NNN.rest`` or, for varlab's own statements, ``varlab.NNN.rest``.
"""
from __future__ import annotations

import importlib
from importlib import metadata

__all__ = ["GROUP", "register", "claims", "papers", "paper_title", "paper_of", "load"]

GROUP = "varlab.papers"

_CLAIMS: dict = {}
_PAPERS: dict = {}


def paper_of(claim_id: str) -> str:
    """The paper key of a claim id: its first part, after an optional "varlab." prefix.

    >>> paper_of("003.cor1.vmc"), paper_of("varlab.003.cosine")
    ('003', '003')
    """
    parts = claim_id.split(".")
    if parts[0] == "varlab":
        parts = parts[1:]
    if len(parts) < 2 or not parts[0]:
        raise ValueError(f"a claim id is PAPER.name or varlab.PAPER.name, got {claim_id!r}")
    return parts[0]


def register(claim) -> None:
    """Register ``claim`` under its id; a second claim with the same id from another module is an
    error (a module imported twice re-registers its own claims)."""
    paper_of(claim.id)
    old = _CLAIMS.get(claim.id)
    if old is not None and old.origin != claim.origin:
        raise ValueError(f"claim id {claim.id!r} is declared twice ({old.origin} and {claim.origin})")
    _CLAIMS[claim.id] = claim


def _entry_points() -> dict:
    """{paper key: module name} of the GROUP entry points."""
    return {entry.name: entry.value for entry in sorted(metadata.entry_points(group=GROUP),
                                                         key=lambda entry: entry.name)}


def papers() -> list[str]:
    """The papers found through the ``varlab.papers`` entry points ("000", "001", ...)."""
    return list(_entry_points())


def load(paper: str):
    """Import a paper's module (registering its claims and figures) and return it."""
    if paper not in _PAPERS:
        known = _entry_points()
        if paper not in known:
            raise ValueError(f"paper must be one of {list(known)}, got {paper!r}")
        _PAPERS[paper] = importlib.import_module(known[paper])
    return _PAPERS[paper]


def paper_title(paper: str) -> str:
    """The title a paper's module declares (its ``TITLE``)."""
    return getattr(load(paper), "TITLE", f"Paper {paper}")


def claims(paper: str | None = None) -> list:
    """The registered claims (of ``paper``), in declaration order."""
    keys = papers() if paper is None else [paper]
    for key in keys:
        load(key)
    return [c for c in _CLAIMS.values() if paper_of(c.id) in keys]
