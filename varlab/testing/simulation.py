"""One simulation of a model's statistic over a grid, for the checks of ``varlab.testing``."""
from __future__ import annotations

from .. import mc
from .grid import broadcast_shape, product_grid

__all__ = ["STATISTICS", "model_label", "simulate_statistic"]

#: the statistics a check compares, with the name of their standard error in a SimulationResult
STATISTICS = {"mean": "se_mean", "variance": "se_variance", "mse": "se_mse"}


def model_label(model) -> str:
    """A model's name in messages: its registered name, or its class name for an instance.

    Examples
    --------
    >>> from varlab import mc
    >>> from varlab.testing.simulation import model_label
    >>> model_label("nrff"), model_label(mc.get_model("nrff"))
    ('nrff', 'nrff')
    >>> class Mine(mc.Model):                       # an unregistered model: its class name
    ...     parameters = ("rho",)
    >>> model_label(Mine())
    'Mine'
    """
    return model if isinstance(model, str) else (model.name or type(model).__name__)


def simulate_statistic(model, statistic: str, *, k, n_repetitions, random_state, product: bool,
                       grid: dict):
    """(result, estimate, se): ``mc.simulate`` of ``model`` over the grid (broadcast, or the
    Cartesian product of the declared parameters' values with ``product``) and the (n_points,
    n_k) arrays of ``statistic`` and its standard error.

    Examples
    --------
    >>> from varlab.testing.simulation import simulate_statistic
    >>> result, estimate, se = simulate_statistic("rff", "variance", k=[1, 10], n_repetitions=200,
    ...                                           random_state=0, product=True,
    ...                                           grid={"rho": [0.0, 0.5], "gamma": [1.0, 2.0]})
    >>> result.shape, estimate.shape, se.shape          # 2 x 2 points, 2 k's
    ((2, 2), (4, 2), (4, 2))
    >>> bool((se > 0).all())
    True
    """
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {list(STATISTICS)}, got {statistic!r}")
    declared = (model if isinstance(model, mc.Model) else mc.model_class(model)).parameters
    axes = {name: values for name, values in grid.items() if name in declared}
    axes = product_grid(**axes) if product else axes
    broadcast_shape(axes)
    result = mc.simulate(model, k=k, n_repetitions=n_repetitions, random_state=random_state,
                         progress=False, **{**grid, **axes})
    return result, getattr(result, statistic), getattr(result, STATISTICS[statistic])
