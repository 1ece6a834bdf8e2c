"""Paper 002: M. He, F. He, F. Liu, X. Huang, "Random Fourier Features for Asymmetric Kernels"
(AsK-RFF). ``claims``: Eq. (7)-(12), Cor. 5, Prop. 6, §5.3, transcription findings;
``figures``: Fig. 1. Importing the package registers its claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import figures  # noqa: F401

TITLE = "M. He, F. He, F. Liu, X. Huang, \"Random Fourier Features for Asymmetric Kernels\" (AsK-RFF)"
