"""Paper 002: M. He, F. He, F. Liu, X. Huang, "Random Fourier Features for Asymmetric Kernels"
(AsK-RFF). ``claims``: Eq. (7)-(12), Cor. 5, Prop. 6, §5.3, Fig. 2, Table 1 and the transcription
findings (Eq. 7's and Eq. 12's typos, Table 1's swapped data set rows); ``figures``: Fig. 1, Fig. 2,
Table 1; ``gram_error`` and ``classification`` the experiments (their trials kept in the budget's
store "units", ``varlab.claims.store_for``). Importing the package registers its claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import figures  # noqa: F401
from . import figure_claims  # noqa: F401  (Table 1's baselines, Figs. 2-3's sentences)
from . import not_checked  # noqa: F401  (the results no claim decides, listed after them)

TITLE = "M. He, F. He, F. Liu, X. Huang, \"Random Fourier Features for Asymmetric Kernels\" (AsK-RFF)"
