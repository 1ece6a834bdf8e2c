"""Monte Carlo: a vectorized, blocked, parallel, bit-reproducible simulation engine for any
estimator over a grid of declared parameters (``engine``: ``simulate``; ``seeds``: seed tree and
block layout; ``blocks``: per-task computation; ``devices``: numpy or CuPy; ``fused``: compiled
kernels of the hot models; ``result``; ``stats``; ``models``: one module per estimator family,
registered on definition).

>>> from varlab.mc import simulate
>>> result = simulate("nrff", k=[1, 10, 100], rho=0.5, gamma=1.0, n_repetitions=1000,
...                   random_state=0)
>>> result.mse.shape, result.parameters
((1, 3), ('rho', 'gamma'))
"""
from .engine import MAX_SAMPLES, configure, simulate
from .grid import product_grid
from .models import Model, Workspace, available_models, get_model, model_class, register
from .result import STATISTICS, SimulationResult
from .seeds import SEED_SCHEME, block_layout
from .stats import (Z_MAX, Moments, difference_z_score, merge_all, t_threshold, variance_standard_error,
                    within, z_score)

__all__ = ["simulate", "configure", "product_grid", "Z_MAX", "SimulationResult", "STATISTICS", "MAX_SAMPLES", "SEED_SCHEME",
           "block_layout", "Model", "Workspace", "register", "get_model", "model_class",
           "available_models", "Moments", "merge_all", "t_threshold", "variance_standard_error", "z_score", "within",
           "difference_z_score"]
