"""Grids of parameter points: broadcast (as ``mc.simulate`` does) or a Cartesian product.

>>> broadcast_shape({"rho": [0.0, 0.5, 0.9], "gamma": [1.0, 2.0]})
Traceback (most recent call last):
...
ValueError: the grid values rho (3,) and gamma (2,) do not broadcast together (a grid is broadcast like mc.simulate's); pass product=True, or product_grid(...), for every combination
"""
from __future__ import annotations

import numpy as np

__all__ = ["product_grid", "broadcast_shape"]


def product_grid(**axes) -> dict:
    """Every combination of the axes' values: {name: array} shaped so that they broadcast to the
    grid of shape (len(axis_1), len(axis_2), ...) (an open mesh); a scalar
    axis is one value.

    Examples
    --------
    >>> grid = product_grid(rho=[0.0, 0.5, 0.9], gamma=[1.0, 2.0])
    >>> grid["rho"].shape, grid["gamma"].shape
    ((3, 1), (1, 2))
    """
    shapes = {name: np.shape(values) for name, values in axes.items()}
    if any(len(shape) > 1 for shape in shapes.values()):
        raise ValueError(f"product_grid takes a scalar or a 1-d sequence per axis, got shapes "
                         f"{shapes}")
    return {name: np.reshape(values, [-1 if j == i else 1 for j in range(len(axes))])
            for i, (name, values) in enumerate(axes.items())}


def broadcast_shape(grid: dict) -> tuple:
    """The shape the grid's values broadcast to; a ValueError naming broadcasting otherwise.

    Examples
    --------
    >>> from varlab.mc.grid import broadcast_shape, product_grid
    >>> broadcast_shape({"rho": [0.0, 0.5, 0.9], "gamma": 1.0})
    (3,)
    >>> broadcast_shape(product_grid(rho=[0.0, 0.5, 0.9], gamma=[1.0, 2.0]))
    (3, 2)
    """
    shapes = {name: np.shape(values) for name, values in grid.items()}
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        listed = " and ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(f"the grid values {listed} do not broadcast together (a grid is "
                         f"broadcast like mc.simulate's); pass product=True, or "
                         f"product_grid(...), for every combination") from None
