"""Where claims are registered and papers found.

A claim registers on definition (declaring it is registering it). Papers are found through the
entry-point group ``varlab.papers``: each entry point names a paper (its key, e.g. "000") and a
module whose import registers that paper's claims and figures and whose ``TITLE`` is the paper's
title. Another package adds its own paper by declaring an entry point in that group. A claim's
paper comes from its id: ``NNN.rest`` or, for varlab's own statements, ``varlab.NNN.rest``. The
results a paper leaves unchecked (``varlab.claims.NotChecked``) register the same way, under ids
that no claim has.
"""
from __future__ import annotations

import importlib
from importlib import metadata

__all__ = ["GROUP", "register", "register_not_checked", "claims", "not_checked", "papers", "paper_title",
           "paper_of", "load"]

GROUP = "varlab.papers"

_CLAIMS: dict = {}
_NOT_CHECKED: dict = {}
_PAPERS: dict = {}


def paper_of(claim_id: str) -> str:
    """The paper key of a claim id: its first part, after an optional "varlab." prefix.

    Examples
    --------
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
    error (a module imported twice re-registers its own claims).

    Examples
    --------
    >>> import dataclasses
    >>> from varlab.claims import claims
    >>> from varlab.claims.registry import register
    >>> first = claims("001")[0]
    >>> register(first)                           # done on declaration; again from its module: a no-op
    >>> claims("001")[0] is first
    True
    >>> dataclasses.replace(first, origin="my_module")    # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: claim id '...' is declared twice (... and my_module)
    """
    paper_of(claim.id)
    old = _CLAIMS.get(claim.id)
    if old is not None and old.origin != claim.origin:
        raise ValueError(f"claim id {claim.id!r} is declared twice ({old.origin} and {claim.origin})")
    if claim.id in _NOT_CHECKED:
        raise ValueError(f"claim id {claim.id!r} is also declared not checked ({_NOT_CHECKED[claim.id].origin})")
    _CLAIMS[claim.id] = claim


def register_not_checked(entry) -> None:
    """Register a paper's result that no claim decides (``varlab.claims.NotChecked``) under its id;
    the same id declared again (other words, or from another module) or a claim's id is an error.

    Examples
    --------
    >>> from varlab.claims import Identity, NotChecked
    >>> taken = Identity(id="doc.taken.sum", source="s", quote="q", statement="1 + 1 = 2",
    ...                  compute=lambda: (True, "", []))
    >>> NotChecked("doc.taken.sum", where="doc, Fig. 1", quote="q", reason="r")   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: not-checked result 'doc.taken.sum' is a claim's id (declared in ...)
    """
    paper_of(entry.id)
    if entry.id in _CLAIMS:
        raise ValueError(f"not-checked result {entry.id!r} is a claim's id (declared in {_CLAIMS[entry.id].origin})")
    old = _NOT_CHECKED.get(entry.id)
    if old is not None and (old != entry or old.origin != entry.origin):
        raise ValueError(f"not-checked result {entry.id!r} is declared twice ({old.origin} and {entry.origin})")
    _NOT_CHECKED[entry.id] = entry


def _entry_points() -> dict:
    """{paper key: module name} of the GROUP entry points."""
    return {entry.name: entry.value for entry in sorted(metadata.entry_points(group=GROUP),
                                                         key=lambda entry: entry.name)}


def papers() -> list[str]:
    """The papers found through the ``varlab.papers`` entry points ("000", "001", ...).

    Examples
    --------
    >>> from varlab.claims import papers
    >>> found = papers()                          # the entry points of the group varlab.papers
    >>> {"000", "001", "002", "003", "004"} <= set(found)
    True
    """
    return list(_entry_points())


def load(paper: str):
    """Import a paper's module (registering its claims and figures) and return it.

    Examples
    --------
    >>> from varlab.claims import load
    >>> module = load("001")
    >>> module.TITLE[:12], module is load("001")    # imported once
    ('P. Li, "Gene', True)
    """
    if paper not in _PAPERS:
        known = _entry_points()
        if paper not in known:
            raise ValueError(f"paper must be one of {list(known)}, got {paper!r}")
        _PAPERS[paper] = importlib.import_module(known[paper])
    return _PAPERS[paper]


def paper_title(paper: str) -> str:
    """The title a paper's module declares (its ``TITLE``).

    Examples
    --------
    >>> from varlab.claims import paper_title
    >>> paper_title("001")
    'P. Li, "Generalized Min-Max Kernel and Generalized Consistent Weighted Sampling"'
    """
    return getattr(load(paper), "TITLE", f"Paper {paper}")


def claims(paper: str | None = None) -> list:
    """The registered claims (of ``paper``), in declaration order.

    Examples
    --------
    >>> from varlab.claims import claims
    >>> found = claims("001")                     # imports paper 001's module, which declares them
    >>> all(claim.paper == "001" for claim in found), len(claims()) > len(found)
    (True, True)
    """
    keys = papers() if paper is None else [paper]
    for key in keys:
        load(key)
    return [c for c in _CLAIMS.values() if paper_of(c.id) in keys]


def not_checked(paper: str) -> list:
    """The results of ``paper`` that no claim decides, in declaration order.

    Examples
    --------
    >>> from varlab.claims import not_checked
    >>> [entry.id for entry in not_checked("004")][:1]     # imports paper 004's module
    ['004.table2.ijcnn1']
    """
    load(paper)
    return [entry for entry in _NOT_CHECKED.values() if paper_of(entry.id) == paper]
