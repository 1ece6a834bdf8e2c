"""Monte Carlo: a vectorized, blocked, parallel, bit-reproducible simulation engine.

>>> from varlab.mc import simulate
>>> result = simulate("nrff", k=[1, 10, 100], rho=0.5, gamma=1.0, n_repetitions=1000,
...                   random_state=0)
>>> result.mse.shape
(1, 3)
"""
from .engine import SimulationResult, block_layout, correlated_unit_vectors, simulate
from .models import (Model, NRFFModel, RFFModel, RFFNoPhaseModel, Workspace, available_models,
                     get_model, register)
from .stats import Moments, difference_z_score, variance_standard_error, within, z_score
from .gcws_models import GCWSRBFHashedModel, GCWSRBFModel  # registers "gcws_rbf", "gcws_rbf_hashed"

__all__ = ["simulate", "SimulationResult", "block_layout", "correlated_unit_vectors",
           "Model", "Workspace", "RFFModel", "RFFNoPhaseModel", "NRFFModel", "GCWSRBFModel",
           "GCWSRBFHashedModel", "register",
           "get_model", "available_models", "Moments", "variance_standard_error", "z_score",
           "within", "difference_z_score"]
