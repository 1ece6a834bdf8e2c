"""Closed forms of the papers, one module per family (rff, nrff, gcws), each a ``Formula``
(symbolic or computed, numeric, high precision) with its source, over the declared parameters
of ``parameters``; sympy re-derivations in ``derivations`` and ``gcws_derivation``.
``formulas()`` lists every Formula (each registers itself when defined; theory modules are
discovered, not listed), ``parameters()`` every declared parameter. Theory never imports
features or mc.
"""
from . import gcws, nrff, rff
from .formula import Formula, formulas
from .parameters import Parameter, parameter, parameters

__all__ = ["Formula", "Parameter", "formulas", "gcws", "nrff", "parameter", "parameters", "rff"]
