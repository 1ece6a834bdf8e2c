"""Paper 003: W. Shen, Z. Yang, J. Wang, "Random Features for Shift-Invariant Kernels with Moment
Matching" (AAAI 2017). ``claims``: Thm 1, Cor. 1-2, the finite-m law of moment matching (varlab's
own), MM against MC, QMC in high dimensions; ``figure_claims``: the orderings of Figs. 1-3 on the
figures' own runs, Table 1's "statistically lowest", E(E_CV) = k, Eq. (14) and the abstract's Gram
superiority; ``figures``: Figs. 1-3, Table 1 and varlab's figure of V_MM / V_CV* and the MM bias.
Importing the package registers its claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import figure_claims  # noqa: F401
from . import figures  # noqa: F401
from . import not_checked  # noqa: F401  (the results no claim decides, listed after them)

TITLE = ("W. Shen, Z. Yang, J. Wang, \"Random Features for Shift-Invariant Kernels with Moment "
         "Matching\"")
