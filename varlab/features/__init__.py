from .rff import RFF
from .cws import GCWS, bbit_code, gmm_estimate
