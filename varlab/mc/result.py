"""The result of a simulation: statistics over a grid of declared parameters and a grid of k."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

__all__ = ["SimulationResult", "STATISTICS"]

#: the statistics, each an (n_points, n_k) array
STATISTICS = ("target", "mean", "se_mean", "bias", "variance", "se_variance", "mse", "se_mse")


@dataclass(repr=False, eq=False)
class SimulationResult:
    """Statistics of a simulated estimator; every statistic is an (n_points, n_k) array.

    ``grid`` maps each declared parameter of the model to its flat (n_points,) values (the
    broadcast grid, flattened in C order); ``shape`` is the broadcast shape, so
    ``reshaped(name)`` gives ``shape + (n_k,)``. Parameter values are also attributes
    (``result.rho``). ``options`` are the model's constructor arguments; ``theory`` holds the
    model's known values ("variance", "mse"; (n_points, n_k)) where it declares them.

    Examples
    --------
    >>> from varlab import mc
    >>> result = mc.simulate("rff", k=[1, 10], rho=[0.0, 0.9], gamma=1.0, n_repetitions=100, random_state=0)
    >>> result.mse.shape, result.point(1)
    ((2, 2), {'rho': 0.9, 'gamma': 1.0})
    >>> result.select(rho=0.9).mse.shape
    (1, 2)
    """

    model: str
    options: dict
    grid: dict
    shape: tuple
    k: np.ndarray
    n_repetitions: int
    target: np.ndarray
    mean: np.ndarray
    se_mean: np.ndarray
    bias: np.ndarray
    variance: np.ndarray
    se_variance: np.ndarray
    mse: np.ndarray
    se_mse: np.ndarray
    theory: dict = field(default_factory=dict)
    prefix: bool = True
    seed_entropy: object = None
    seed_spawn_key: tuple = ()
    seed_scheme: str = ""
    block_repetitions: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    n_blocks: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: where the model's array code ran ("cpu", "cuda"; ``varlab.mc.devices``)
    device: str = "cpu"
    resumed_blocks: int = field(default=0, compare=False)
    elapsed_seconds: float = field(default=float("nan"), compare=False)

    def __getattr__(self, name):
        grid = self.__dict__.get("grid")
        if grid is not None and name in grid:
            return grid[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    @property
    def parameters(self) -> tuple:
        """Names of the grid's parameters."""
        return tuple(self.grid)

    @property
    def n_points(self) -> int:
        return int(next(iter(self.grid.values())).size) if self.grid else 1

    @property
    def se_bias(self) -> np.ndarray:
        """The SE of the bias (= the SE of the mean)."""
        return self.se_mean

    def reshaped(self, statistic: str) -> np.ndarray:
        """Statistic ``statistic`` (or a theory value) reshaped to ``shape + (n_k,)``."""
        if statistic in STATISTICS:
            values = getattr(self, statistic)
        elif statistic.startswith("theory_") and statistic[7:] in self.theory:
            values = self.theory[statistic[7:]]
        else:
            raise ValueError(f"statistic must be one of {list(STATISTICS)} or theory_<name> for "
                             f"{sorted(self.theory)}, got {statistic!r}")
        return values.reshape(tuple(self.shape) + (self.k.size,))

    def point(self, index: int) -> dict:
        """The parameter values of point ``index`` as Python scalars."""
        return {name: values[index].item() for name, values in self.grid.items()}

    def records(self) -> list[dict]:
        """One dict per (point, k): model, parameters, k, n_repetitions, statistics, theory."""
        rows = []
        for p in range(self.n_points):
            for j, kk in enumerate(self.k):
                row = {"model": self.model, **self.point(p), "k": int(kk),
                       "n_repetitions": self.n_repetitions}
                for name in STATISTICS:
                    row[name] = float(getattr(self, name)[p, j])
                for name, values in self.theory.items():
                    row[f"theory_{name}"] = float(values[p, j])
                rows.append(row)
        return rows

    def to_frame(self):
        """The :meth:`records` as a pandas DataFrame, one row per (point, k): the form to
        tabulate, group and plot (needs pandas: the ``pandas`` extra).

        Examples
        --------
        >>> from varlab.mc import simulate
        >>> frame = simulate("rff", k=[1, 10], rho=[0.0, 0.5], gamma=1.0, n_repetitions=100,
        ...                  random_state=0).to_frame()          # doctest: +SKIP
        >>> frame.shape, list(frame.columns[:4])                # doctest: +SKIP
        ((4, 15), ['model', 'rho', 'gamma', 'k'])
        """
        try:
            import pandas
        except ImportError:
            raise ImportError("SimulationResult.to_frame needs pandas: pip install 'varlab[pandas]' "
                              "(or use .records(), a list of dicts)") from None
        return pandas.DataFrame(self.records())

    def select(self, *, index=None, **conditions) -> "SimulationResult":
        """The sub-result of the points whose parameters equal ``conditions`` (np.isclose), or
        of the points at ``index``. Raises ValueError if nothing matches."""
        unknown = sorted(set(conditions) - set(self.grid))
        if unknown:
            raise ValueError(f"select: unknown parameters {unknown}; the grid has {list(self.grid)}")
        if index is not None:
            if conditions:
                raise TypeError("give either index or parameter conditions, not both")
            chosen = np.atleast_1d(np.arange(self.n_points)[index])
        else:
            mask = np.ones(self.n_points, dtype=bool)
            for name, value in conditions.items():
                mask &= np.isclose(self.grid[name], float(value), rtol=1e-12, atol=1e-12)
            chosen = np.flatnonzero(mask)
        if chosen.size == 0:
            raise ValueError(f"no simulated point has {conditions}; the grid is "
                             f"{ {name: values.tolist() for name, values in self.grid.items()} }")
        return replace(self, shape=(int(chosen.size),),
                       grid={name: values[chosen] for name, values in self.grid.items()},
                       theory={name: values[chosen] for name, values in self.theory.items()},
                       **{name: getattr(self, name)[chosen] for name in STATISTICS})

    def __repr__(self) -> str:
        ks = self.k.tolist()
        k_text = repr(ks) if len(ks) <= 6 else f"[{ks[0]}, {ks[1]}, ..., {ks[-1]}] ({len(ks)} values)"
        options = f", options={self.options}" if self.options else ""
        return (f"SimulationResult(model={self.model!r}{options}, parameters={list(self.grid)}, "
                f"shape={self.shape}, k={k_text}, n_repetitions={self.n_repetitions})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return all(_equal(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self) if f.compare)


def _equal(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[key], b[key]) for key in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return a == b
