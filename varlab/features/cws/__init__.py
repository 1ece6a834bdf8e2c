"""GCWS (paper 000, Sections 1.3-1.4): the package that :mod:`varlab.features.cws.hashing` is split into."""
from .hashing import GCWS, bbit_code, gmm_estimate

__all__ = ["GCWS", "gmm_estimate", "bbit_code"]
