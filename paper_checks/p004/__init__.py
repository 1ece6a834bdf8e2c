"""Paper 004: Q. Luo, K. Fang, J. Yang, X. Huang, "Towards Unbiased Random Features with Lower
Variance for Stationary Indefinite Kernels" (IJCNN 2021, slides). Importing the package registers
its claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import figures  # noqa: F401
from . import experiments  # noqa: F401  (Table II, Tables III-IV analogue)
from . import approximation  # noqa: F401  (Fig. 2)
from . import figure_claims  # noqa: F401  (related work, Fig. 2's bottom row, Fig. 3)
from . import not_checked  # noqa: F401  (the results no claim decides, listed after them)

TITLE = ("Q. Luo, K. Fang, J. Yang, X. Huang, \"Towards Unbiased Random Features with Lower "
         "Variance for Stationary Indefinite Kernels\" (slides)")
