"""varlab: checkable theory, Monte Carlo and fast implementations of random-feature and
hashing estimators of kernels (RFF, NRFF, GCWS, ...)."""
__version__ = "0.1.0"
