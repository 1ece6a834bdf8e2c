"""varlab: checkable theory, Monte Carlo and fast implementations of random-feature and
hashing estimators of kernels (RFF, NRFF, GCWS, ...).

Subpackages: ``kernels`` (exact kernels), ``spectral`` (spectral measures), ``datasets``
(shipped data), ``theory`` (closed forms: rff, nrff, gcws, each
symbolic + numeric + mpmath), ``features`` (the estimators, each a scikit-learn transformer:
RFF, GCWS, GRFF, AsKRFF, RandomMaclaurin), ``mc`` (Monte Carlo engine), ``claims`` (paper
claims -> verdicts), ``testing`` (check your own theorem: three outcomes),
``plotting`` (figure recipes), ``seeding`` (seeds of experiments' pieces from labels).
"""
from . import claims, datasets, features, kernels, mc, seeding, spectral, testing, theory

__version__ = "0.1.0"
__all__ = ["claims", "datasets", "features", "kernels", "mc", "seeding", "spectral", "testing", "theory",
           "__version__"]
