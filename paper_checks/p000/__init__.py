"""Paper 000: P. Li, "Linearized GMM Kernels and Normalized Random Fourier Features".

``rff``: §2 (RFF, NRFF; Theorems 2 and 3); ``gcws``: §1 and §3 (GMM, GCWS, Theorem 4, Fig. 4);
``figures``: Figures 1-4; ``figure_claims``: the claims on Figs. 1-3, §3's convergence,
the linear column of Tables 1-2 and two §5 sentences; ``svm``: Tables 1-2 (kernel SVMs on real data); ``hashing_*``: §5 and
Figs. 10-16 (``hashing_features``: a unit's features and fit, ``hashing_units``: slices, units and
records, ``hashing_summary``: summaries and the table, ``hashing_claims``, ``hashing_figures``).
Importing the package registers its claims (in this order), figures and the results no claim
decides (``not_checked``).
"""
from . import rff  # noqa: F401  (defining the claims registers them)
from . import gcws  # noqa: F401
from . import figures  # noqa: F401
from . import svm, hashing_claims, hashing_figures  # noqa: F401  (Tables 1-2, Figs. 10-16: real-data experiments)
from . import figure_claims  # noqa: F401  (Figs. 1-3, §3, Tables 1-2's linear column, §5 sentences)
from . import not_checked  # noqa: F401  (the results no claim decides, listed after them)

TITLE = ("P. Li, \"Linearized GMM Kernels and Normalized Random Fourier Features\"")
