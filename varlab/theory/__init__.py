"""Closed forms of the papers, one module per family (rff, nrff, gcws), each a ``Formula``
(symbolic, numeric, high precision) with its source; sympy re-derivations in ``derivations`` and
``gcws_derivation``. Theory never imports features or mc."""
from . import gcws, nrff, rff
from .formula import Formula

__all__ = ["Formula", "gcws", "nrff", "rff"]
