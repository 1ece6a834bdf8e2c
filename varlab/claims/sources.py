"""What a claim compares: sources from the engine (a :class:`Simulation` shared by claims and
figures, a :class:`Difference` of two) or from code outside it (a :class:`Measured` source
returning a :class:`Measurement`), and how a declaration reads them: flat estimates, standard
errors, rows and the repetitions behind each point, with theories (``theories``) at the same
points.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np

from .. import mc
from ..mc.grid import broadcast_shape, product_grid
from .budget import budget as as_budget
from .run import simulate_for
from .theories import theory_point, theory_values

__all__ = ["Simulation", "Difference", "Measured", "Measurement", "STATISTICS"]

#: the statistics a claim compares, with the name of their standard error in a SimulationResult
STATISTICS = {"mean": "se_mean", "variance": "se_variance", "mse": "se_mse"}


@dataclass(frozen=True)
class Simulation:
    """A named simulation shared by claims and figures: ``model`` over ``grid`` and ``k``, seeded
    by (``owner``, ``label``) (see ``varlab.claims.seed_for``); ``result(budget)`` runs it once
    per budget and process.

    ``model``: a registered name or a ``varlab.mc.Model`` instance; ``grid`` broadcasts like
    ``mc.simulate``'s, or is a Cartesian product with ``product``; ``share`` divides the budget
    (an expensive model at a part of it), ``repetition_factor`` multiplies it (a cheap model
    that needs more power); ``random_state``: for a user's own check, this seed instead of
    (owner, label), drawn quietly and not cached.

    Examples
    --------
    >>> from varlab.claims import Simulation, budget
    >>> shared = Simulation("doc.shared", "rff", "rff", k=(1, 4), grid=dict(rho=(0.0, 0.5), gamma=1.0))
    >>> result = shared.result(budget("test"))
    >>> result.variance.shape, result.n_repetitions
    ((2, 2), 4000)
    """

    owner: str
    label: str
    model: object
    k: tuple
    grid: Mapping
    product: bool = False
    share: int = 1
    repetition_factor: int = 1
    random_state: object = None

    def arguments(self) -> dict:
        """The grid as ``mc.simulate`` keyword arguments (an open mesh with ``product``)."""
        grid = dict(self.grid)
        if self.product:
            declared = (self.model if isinstance(self.model, mc.Model) else
                        mc.model_class(self.model)).parameters
            axes = product_grid(**{name: value for name, value in grid.items() if name in declared})
            grid.update(axes)
        broadcast_shape({name: value for name, value in grid.items() if not isinstance(value, str)})
        return grid

    def result(self, budget):
        """The SimulationResult at ``budget`` (a Budget or its name)."""
        if self.random_state is not None:
            return mc.simulate(self.model, k=np.asarray(self.k), random_state=self.random_state,
                               n_repetitions=as_budget(budget).n_repetitions * self.repetition_factor,
                               progress=False, **self.arguments())
        return simulate_for(self.owner, as_budget(budget).part(self.share), self.model,
                            label=self.label, repetition_factor=self.repetition_factor,
                            k=np.asarray(self.k), **self.arguments())


@dataclass(frozen=True)
class Difference:
    """The difference of two independent simulations on the same grid (``first`` minus
    ``second``, each a :class:`Simulation`): its statistics are the differences and its standard
    errors their root sum of squares; e.g. Var(ORF) - Var(RFF) against a formula for the gap.

    Examples
    --------
    >>> from varlab.claims import Difference, Simulation, budget
    >>> grid = dict(rho=0.5, gamma=1.0)
    >>> gap = Difference(Simulation("doc.gap", "a", "rff", (1,), grid),
    ...                  Simulation("doc.gap", "b", "rff_no_phase", (1,), grid))
    >>> result = gap.result(budget("test"))
    >>> bool(result.variance[0, 0] > 0), bool(result.se_variance[0, 0] > 0)
    (True, True)
    """

    first: Simulation
    second: Simulation

    def result(self, budget) -> "_DifferenceResult":
        """The difference of the two SimulationResults at ``budget``."""
        a, b = self.first.result(budget), self.second.result(budget)
        if a.mean.shape != b.mean.shape or not np.array_equal(a.k, b.k):
            raise ValueError(f"a Difference needs two simulations on one grid, got {a.model} "
                             f"{a.mean.shape} and {b.model} {b.mean.shape}")
        return _DifferenceResult(a, b)


class _DifferenceResult:
    """What a declaration reads of a SimulationResult, for the difference of two."""

    def __init__(self, first, second):
        self.first, self.second = first, second
        self.k, self.n_points, self.options = first.k, first.n_points, first.options
        self.model = f"{first.model} - {second.model}"
        self.n_repetitions = min(first.n_repetitions, second.n_repetitions)

    def point(self, index: int) -> dict:
        return self.first.point(index)

    def __getattr__(self, name):
        if name.startswith("se_"):
            return np.hypot(getattr(self.first, name), getattr(self.second, name))
        if name in STATISTICS:
            return getattr(self.first, name) - getattr(self.second, name)
        raise AttributeError(name)


@dataclass(frozen=True)
class Measurement:
    """Values measured outside the engine, one entry per point: ``estimate`` and its
    ``standard_error``, the point's ``rows`` (dicts), the ``theory`` at each point when the
    measurement computes it (e.g. GMM(u, v) of generated pairs), ``degrees_of_freedom`` when the
    standard errors come from few independent units (judged with the t quantile; None: a
    large-sample standard error, judged at the quantile's limit Z_MAX = 4.5), a
    ``remark`` appended to the verdict's reason and ``details``, rows appended to the verdict's
    per-point rows (what the points rest on, not points themselves).

    Examples
    --------
    >>> from varlab.claims import Measurement
    >>> m = Measurement(estimate=[0.49, 0.51], standard_error=[0.01, 0.01], theory=[0.5, 0.5],
    ...                 rows=[{"coin": 1}, {"coin": 2}])
    >>> len(m.rows), m.degrees_of_freedom
    (2, None)
    """

    estimate: Sequence
    standard_error: Sequence
    rows: Sequence
    theory: Sequence | None = None
    degrees_of_freedom: Sequence | None = None
    remark: str = ""
    details: Sequence = ()


@dataclass(frozen=True)
class Measured:
    """A source measured by code: ``function(run) -> Measurement``, seeded from the run
    (``run.seed(label)``) at its budget; ``quantity`` names what it measures.

    Examples
    --------
    A fair coin's heads rate over the budget's flips, as an Agreement with 1/2:

    >>> import numpy as np
    >>> from varlab.claims import Agreement, Budget, Measured, Measurement
    >>> def flips(run):
    ...     n = run.budget.n_repetitions
    ...     rate = np.random.default_rng(run.seed("flips")).binomial(n, 0.5) / n
    ...     return Measurement(estimate=[rate], standard_error=[0.5 / np.sqrt(n)], theory=[0.5],
    ...                        rows=[{"flips": n}])
    >>> coin = Agreement(id="doc.coin", source="a coin", quote="heads half the time",
    ...                  statement="The heads rate is 1/2 within 0.01.",
    ...                  model=Measured(flips, "heads rate"), tolerance=0.01, relative=False)
    >>> coin.run(Budget("doc", 1_000_000)).outcome
    'confirmed'
    """

    function: Callable
    quantity: str

    def measure(self, run) -> Measurement:
        """The Measurement at ``run``'s budget."""
        measurement = self.function(run)
        if not isinstance(measurement, Measurement):
            raise TypeError(f"claim {run.claim.id}: a Measured function returns a Measurement, got "
                            f"{type(measurement).__name__}")
        return measurement


def model_label(model) -> str:
    """A model's name in messages: its registered name, or its class name for an instance.

    Examples
    --------
    >>> from varlab import mc
    >>> from varlab.claims.sources import model_label
    >>> model_label("nrff"), model_label(mc.get_model("nrff"))
    ('nrff', 'nrff')
    >>> class Mine(mc.Model):                       # an unregistered model: its class name
    ...     parameters = ("rho",)
    >>> model_label(Mine())
    'Mine'
    """
    return model if isinstance(model, str) else (model.name or type(model).__name__)


def source_name(source, budget) -> str:
    """The name of what a source simulates (``model_label`` of a Simulation's model)."""
    if isinstance(source, Simulation):
        return model_label(source.model)
    return source.result(budget).model


def sources_of(owner: str, source, label: str, k, grid, product: bool, share: int) -> tuple:
    """The simulations a declaration reads: a model name (simulated for the claim ``owner``),
    a Simulation, a Difference, or a tuple of those (their points concatenated)."""
    if isinstance(source, (tuple, list)):
        return tuple(item for part in source
                     for item in sources_of(owner, part, label, k, grid, product, share))
    if isinstance(source, (Simulation, Difference)):
        return (source,)
    return (Simulation(owner, label, source, tuple(k), grid, product, share),)


def _labelled(result, p: int, k, model: bool) -> list[dict]:
    """Rows of point ``p`` of a result: the model's name (``model``: when a declaration reads
    several models), its parameters, its options (which name the simulation when a declaration
    reads several) and k."""
    options = {name: value for name, value in result.options.items()
               if isinstance(value, (str, int, float, bool))}
    name = {"model": result.model} if model else {}
    return [{**name, **result.point(p), **options, "k": int(kk)} for kk in k]


def read(sources, budget, statistic: str, selected_k, *functions):
    """Flat (estimate, standard error, rows, repetitions, [each function's values]) over every
    source and point; ``functions`` are theories (Formula or ``f(k, **point)``) evaluated at the
    same points; repetitions: those each point's estimate rests on (for the threshold)."""
    estimates, errors, rows, repetitions = [], [], [], []
    values = [[] for _ in functions]
    results = [source.result(budget) for source in sources]     # once each: a user's seed
    several = len({result.model for result in results}) > 1      # may be a Generator
    for result in results:
        columns = columns_of(result.k, selected_k)
        k = result.k[columns]
        estimates.append(np.ravel(getattr(result, statistic)[:, columns]))
        errors.append(np.ravel(getattr(result, STATISTICS[statistic])[:, columns]))
        repetitions.append(np.full(errors[-1].size, result.n_repetitions))
        options = {**result.options, "model": result.model}
        for p in range(result.n_points):
            rows += _labelled(result, p, k, several)
            for function, collected in zip(functions, values):
                collected.append(theory_values(function, k, theory_point(
                    function, result.point(p), options)))
    return (np.concatenate(estimates), np.concatenate(errors), rows, np.concatenate(repetitions),
            [np.concatenate(collected) for collected in values])


def positive(unit, claim) -> np.ndarray:
    """A scale's values, which must be finite and positive (they divide the estimates and their
    standard errors)."""
    unit = np.asarray(unit, dtype=float)
    if not np.all(np.isfinite(unit) & (unit > 0)):
        raise ValueError(f"claim {claim.id}: its scale must be finite and positive at every point")
    return unit


def is_source(side) -> bool:
    return isinstance(side, (str, Simulation, Difference, Measured, tuple, list))


def columns_of(k_grid, selected) -> np.ndarray:
    """The indices of ``selected`` k values in ``k_grid`` (all when none are selected)."""
    if not len(selected):
        return np.arange(k_grid.size)
    missing = sorted(set(selected) - set(k_grid.tolist()))
    if missing:
        raise ValueError(f"k = {missing} is not on the shared simulation's k grid")
    return np.array([int(np.flatnonzero(k_grid == kk)[0]) for kk in selected])


def check_statistic(statistic: str) -> None:
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {list(STATISTICS)}, got {statistic!r}")
