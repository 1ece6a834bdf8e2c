"""Paper 001: P. Li, "Generalized Min-Max Kernel and Generalized Consistent Weighted Sampling"
(an earlier version of 000). Importing the package registers its claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import figures  # noqa: F401
from . import figure_claims  # noqa: F401  (fRBF's monotonicity, Fig. 1's left panel)
from . import not_checked  # noqa: F401  (the results no claim decides, listed after them)

TITLE = ("P. Li, \"Generalized Min-Max Kernel and Generalized Consistent Weighted Sampling\"")
