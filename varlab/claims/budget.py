"""Budgets: how much simulation a check or figure may spend, and where long work keeps its pieces."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..seeding import derive_seed

__all__ = ["Budget", "BUDGETS", "budget", "base_name", "factor_of", "setting"]


@dataclass(frozen=True)
class Budget:
    """How much simulation a check or figure may spend.

    ``n_jobs``: worker processes (None: ``varlab.mc.configure``'s); ``store``: a directory in
    which long work (claims, real-data units, experiment pieces) keeps
    what it finished (``varlab.claims.Store``), so that a killed run resumes; None keeps nothing.

    Examples
    --------
    >>> BUDGETS["quick"].part(4).n_repetitions
    5000
    """

    name: str
    n_repetitions: int
    random_state: int = 20161122
    n_jobs: int | None = None
    store: str | None = None

    def scaled(self, factor: int) -> "Budget":
        """The budget with ``factor`` times the repetitions, named "<name>x<factor>" (so that its
        stored verdicts and cached simulations are kept apart)."""
        return replace(self, name=f"{self.name}x{int(factor)}",
                       n_repetitions=self.n_repetitions * int(factor))

    @property
    def base(self) -> str:
        """The name of the budget this one derives from by ``scaled`` and ``part``: "full" for
        "fullx8" or "full/4" (the key of the tables that size real-data experiments).

        Examples
        --------
        >>> BUDGETS["full"].scaled(8).part(4).base, BUDGETS["quick"].base
        ('full', 'quick')
        """
        return base_name(self.name)

    @property
    def factor(self) -> int:
        """How many times its base budget's repetitions this budget's name says it has (the
        product of its "x<factor>" parts; 1 for a named budget).

        Examples
        --------
        >>> BUDGETS["full"].scaled(8).factor, BUDGETS["full"].scaled(2).scaled(3).factor
        (8, 6)
        """
        return factor_of(self.name)

    def fresh(self, label: str) -> "Budget":
        """The same budget with a ``random_state`` derived from this one's and ``label``, so that
        every seed of a run at it (``varlab.claims.seed_for``, the units' seeds) is independent
        of this budget's: a deciding run never reuses its pilot's draws.

        Examples
        --------
        >>> pilot = BUDGETS["full"]
        >>> deciding = pilot.scaled(4).fresh("until-decided")
        >>> deciding.name, deciding.random_state != pilot.random_state
        ('fullx4', True)
        """
        state = derive_seed(self.random_state, "fresh", label).generate_state(1)[0]
        return replace(self, random_state=int(state))

    def part(self, divisor: int, minimum: int = 50) -> "Budget":
        """A part of the budget: n_repetitions // divisor (at least ``minimum``), named
        "<name>/<divisor>" so that its simulations are seeded and cached apart."""
        if divisor == 1:
            return self
        return replace(self, name=f"{self.name}/{divisor}",
                       n_repetitions=max(minimum, self.n_repetitions // divisor))

    def stored_in(self, directory) -> "Budget":
        """The same budget keeping its finished pieces in ``directory``."""
        return replace(self, store=None if directory is None else str(directory))


BUDGETS = {
    "test": Budget("test", 4_000),
    "quick": Budget("quick", 20_000),
    "full": Budget("full", 100_000),
}


def budget(name_or_budget) -> Budget:
    """A Budget from its name ('test', 'quick', 'full') or a Budget.

    Examples
    --------
    >>> from varlab.claims import Budget, budget
    >>> budget("quick")
    Budget(name='quick', n_repetitions=20000, random_state=20161122, n_jobs=None, store=None)
    >>> mine = Budget("mine", 500)
    >>> budget(mine) is mine
    True
    """
    if isinstance(name_or_budget, Budget):
        return name_or_budget
    if name_or_budget not in BUDGETS:
        raise ValueError(f"budget must be one of {sorted(BUDGETS)}, got {name_or_budget!r}")
    return BUDGETS[name_or_budget]


#: a budget's name: its base, then the suffixes ``scaled`` ("x<factor>") and ``part`` ("/<divisor>")
#: append, at its end only
_SUFFIXES = re.compile(r"(.*?)((?:x\d+|/\d+)*)", re.DOTALL)


def base_name(name: str) -> str:
    """The named budget a budget's name derives from: "full" for "fullx8", "full/4", "fullx8/4".

    Examples
    --------
    >>> base_name("fullx8/4"), base_name("quick"), base_name("box2d")
    ('full', 'quick', 'box2d')
    """
    return _SUFFIXES.fullmatch(name).group(1)


def factor_of(name: str) -> int:
    """The product of the "x<factor>" parts of a budget's name (1 for a named budget).

    Examples
    --------
    >>> factor_of("fullx8/4"), factor_of("quick"), factor_of("box2d")
    (8, 1, 1)
    """
    factor = 1
    for part in re.findall(r"x(\d+)", _SUFFIXES.fullmatch(name).group(2)):
        factor *= int(part)
    return factor


def setting(table: dict, budget, default: str = "quick"):
    """The entry of ``table`` (budget name -> sizes of an experiment) for ``budget`` (a Budget or
    its name) by its base name (:func:`base_name`; ``default``'s entry for a name not in the table).

    Examples
    --------
    >>> setting({"quick": 3, "full": 10}, BUDGETS["full"].scaled(4)), setting({"quick": 3}, "mine")
    (10, 3)
    """
    return table.get(base_name(budget.name if isinstance(budget, Budget) else budget), table[default])
