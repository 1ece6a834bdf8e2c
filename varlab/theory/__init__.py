"""Closed forms of the papers, one module per family (rff, nrff, gcws), each a ``Formula``
(symbolic or computed, numeric, high precision) with its source, over the declared parameters
of the module ``parameters`` (``declare`` one of your own there); sympy re-derivations in ``derivations`` and ``gcws_derivation``.
``stationary_kernels()`` the registered shift-invariant kernels (``stationary_registry``; each
generates its Formulas). ``formulas()`` lists every Formula (each registers itself when defined; theory modules are
discovered, not listed), ``declared_parameters()`` every declared parameter. Theory never imports
features or mc.
"""
from . import gcws, nrff, rff
from .formula import Formula, formulas
from . import parameters
from .parameters import Parameter, declare, declared_parameters, parameter
from .stationary_registry import StationaryKernel, stationary_kernel, stationary_kernels
from . import stationary  # noqa: E402,F401  (declares the built-in stationary kernels)

__all__ = ["Formula", "Parameter", "StationaryKernel", "declare", "declared_parameters", "formulas", "gcws", "nrff",
           "parameter", "parameters", "rff", "stationary_kernel", "stationary_kernels"]
