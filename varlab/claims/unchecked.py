"""Results of a paper that no claim decides, declared beside its claims: the paper's words, where
they are, and why varlab does not check them (a data set not shipped offline, a method varlab does
not implement, a measurement no rerun reproduces). Declaring one registers it; the paper's report
lists them after its decided claims and counts them in its headline ("N of M results checked").

A declaration is a few lines::

    NotChecked("004.table4.srf", where="004, 'SVR regression problem', Table IV (the SRF row)",
               quote="SRF 5.432 \\pm 0.729 3.845 \\pm 0.379 3.321 \\pm 0.274",
               reason="varlab does not implement Spherical Random Features (SRF) ...")

The quote is the paper's words (parts joined by " ... ", each verbatim); ``stand_in`` says which
shipped data set of the same kind stands in elsewhere in the report, and why.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from .registry import register_not_checked

__all__ = ["NotChecked"]

#: the origin of an entry read back from a report (not registered again)
_FROM_RECORD = "report.json"


@dataclass(frozen=True)
class NotChecked:
    """One result of a paper left unchecked. ``id``: ``NNN.name`` (the paper from its first
    part, as a claim's); ``where``: the figure, table or section; ``quote``: the paper's words,
    verbatim; ``reason``: why no claim decides it; ``stand_in``: where a shipped data set of the
    same kind stands in elsewhere in the report, which one and why (else "").

    Examples
    --------
    >>> from varlab.claims import NotChecked
    >>> entry = NotChecked("doc.fig9", where="doc, Fig. 9", quote="Figure 9: error rates.",
    ...                    reason="its data set is not shipped offline")
    >>> entry.paper, NotChecked.from_json(entry.to_json()) == entry
    ('doc', True)
    >>> NotChecked("doc.fig10", where="doc, Fig. 10", quote="Figure 10.", reason="  ")
    Traceback (most recent call last):
    ...
    ValueError: not-checked result 'doc.fig10': give its reason (it is empty)
    """

    id: str
    where: str
    quote: str
    reason: str
    stand_in: str = ""
    origin: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        for name in ("where", "quote", "reason"):
            if not getattr(self, name).strip():
                raise ValueError(f"not-checked result {self.id!r}: give its {name} (it is empty)")
        if not self.origin:
            from .kinds import _caller_module

            object.__setattr__(self, "origin", _caller_module())
        if self.origin != _FROM_RECORD:
            register_not_checked(self)

    @property
    def paper(self) -> str:
        """The paper's key, from the id."""
        from .registry import paper_of

        return paper_of(self.id)

    def to_json(self) -> dict:
        """The record in report.json (its origin, the declaring module, left out)."""
        return {name: value for name, value in asdict(self).items() if name != "origin"}

    @classmethod
    def from_json(cls, record: dict) -> "NotChecked":
        """The entry of a ``to_json`` record, not registered again (unknown keys refused)."""
        names = {f.name for f in fields(cls)} - {"origin"}
        unknown = set(record) - names
        if unknown:
            raise ValueError(f"not a not-checked record: unknown fields {sorted(unknown)}")
        return cls(**record, origin=_FROM_RECORD)
