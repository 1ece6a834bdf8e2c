"""Paper 000 (Li, "Linearized GMM Kernels and Normalized Random Fourier Features")."""
from .gcws_section import CLAIMS as GCWS_CLAIMS
from .rff_section import CLAIMS as RFF_CLAIMS

CLAIMS = list(RFF_CLAIMS) + list(GCWS_CLAIMS)
