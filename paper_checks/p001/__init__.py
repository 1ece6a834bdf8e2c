"""Paper 001: P. Li, "Generalized Min-Max Kernel and Generalized Consistent Weighted Sampling"
(an earlier version of 000). Importing the package registers its claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import figures  # noqa: F401

TITLE = ("P. Li, \"Generalized Min-Max Kernel and Generalized Consistent Weighted Sampling\"")
