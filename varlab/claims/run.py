"""What a check gets: the claim, the budget, seeds derived from the claim's id, cached
simulations and the run's stores. A check builds its Verdict with ``varlab.testing.builders``
(agreement, ordering, exact, combined), which decide by the one rule of ``varlab.testing``."""
from __future__ import annotations

import json

import numpy as np

from ..seeding import derive_seed
from .budget import Budget
from .store import store_for

__all__ = ["ClaimRun", "simulate_for", "seed_for", "points"]

_SIMULATIONS: dict = {}


def seed_for(claim_id: str, budget: Budget, label: str = "") -> np.random.SeedSequence:
    """A SeedSequence from the budget's random_state, the claim's id and ``label`` (stable hashes
    of the strings; no hand-picked salts).

    Examples
    --------
    >>> from varlab.claims import budget, seed_for
    >>> seed = seed_for("000.thm1", budget("test"), "pairs")
    >>> seed.entropy == seed_for("000.thm1", budget("test"), "pairs").entropy
    True
    """
    return derive_seed(budget.random_state, claim_id, label)


def simulate_for(claim_id: str, budget: Budget, model, *, label: str = "",
                 repetition_factor: int = 1, **arguments):
    """``mc.simulate`` of ``model`` at ``budget`` (x ``repetition_factor``), seeded by
    ``seed_for(claim_id, budget, label)``; cached in-process, so that claims and figures that
    ask for the same simulation share it.

    Examples
    --------
    >>> from varlab.claims import budget, simulate_for
    >>> result = simulate_for("doc.simulate", budget("test"), "rff", k=[1, 4], rho=0.5, gamma=1.0)
    >>> result is simulate_for("doc.simulate", budget("test"), "rff", k=[1, 4], rho=0.5, gamma=1.0)
    True
    """
    from .. import mc

    key = (claim_id, budget.name, budget.n_repetitions, budget.random_state, label,
           repetition_factor, model,
           json.dumps({name: np.asarray(value).tolist() for name, value in arguments.items()},
                      sort_keys=True))
    if key not in _SIMULATIONS:
        _SIMULATIONS[key] = mc.simulate(model, n_repetitions=budget.n_repetitions * repetition_factor,
                                        random_state=seed_for(claim_id, budget, label),
                                        n_jobs=budget.n_jobs, **arguments)
    return _SIMULATIONS[key]


def points(result, k=None) -> list[dict]:
    """One dict per (point, k) of a SimulationResult, in the engine's (point, k) order: the
    point's declared parameters and k (``k``: the k values, default the result's).

    Examples
    --------
    >>> from varlab.claims import budget, points, simulate_for
    >>> result = simulate_for("doc.points", budget("test"), "rff", k=[1, 4], rho=(0.0, 0.5), gamma=1.0)
    >>> points(result)[:2]
    [{'rho': 0.0, 'gamma': 1.0, 'k': 1}, {'rho': 0.0, 'gamma': 1.0, 'k': 4}]
    """
    k = result.k if k is None else k
    return [{**result.point(p), "k": int(kk)} for p in range(result.n_points) for kk in k]


class ClaimRun:
    """What a check gets (see the module docstring).

    Examples
    --------
    >>> from varlab.claims import Budget, ClaimRun, Identity
    >>> claim = Identity(id="doc.run", source="s", quote="q", statement="s",
    ...                  compute=lambda: (True, "", []))
    >>> run = ClaimRun(claim, Budget("doc", 1_000))
    >>> run.part(4).n_repetitions, run.seed("x").entropy == ClaimRun(claim, run.budget).seed("x").entropy
    (250, True)
    """

    def __init__(self, claim, budget: Budget):
        self.claim = claim
        self.budget = budget

    def seed(self, label: str = "") -> np.random.SeedSequence:
        """The claim's SeedSequence for ``label`` (see :func:`seed_for`)."""
        return seed_for(self.claim.id, self.budget, label)

    def part(self, divisor: int) -> Budget:
        """A part of the run's budget (``Budget.part``)."""
        return self.budget.part(divisor)

    def simulate(self, model, *, label: str = "", share: int = 1, repetition_factor: int = 1,
                 **arguments):
        """``simulate_for`` of this claim at its budget (divided by ``share``)."""
        return simulate_for(self.claim.id, self.part(share), model, label=label,
                            repetition_factor=repetition_factor, **arguments)

    def store(self, name: str):
        """The run's resumable store ``name`` (``varlab.claims.store_for``)."""
        return store_for(self.budget, name)
