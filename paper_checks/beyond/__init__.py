"""Claims and figures beyond the papers (issue 23): varlab's own statements about paired cos/sin
features, the Laplacian, exponential, Matern and Cauchy kernels, orthogonal frequencies for the
radial ones, and Fastfood; their sources the literature (Sutherland and Schneider 2015, Rahimi
and Recht 2007, Yu et al. 2016, Le, Sarlos and Smola 2013). Importing the package registers its
claims and figures.
"""
from . import claims  # noqa: F401  (defining the claims registers them)
from . import fastfood_directions  # noqa: F401
from . import figures  # noqa: F401

TITLE = ("Beyond the papers: paired features, non-Gaussian stationary kernels, orthogonal "
         "frequencies and Fastfood (varlab's own claims)")
