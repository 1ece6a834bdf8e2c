"""The estimators users import: ``RFF`` (RFF, NRFF, no-phase; 000 §2) and ``GCWS`` (000 §1.3-1.4,
Algorithm 1) with its b-bit coding and GMM estimate; ``samplers`` turn a spectral measure
(:mod:`varlab.spectral`) into frequencies. Features never import mc or claims."""
from . import samplers
from .rff import RFF
from .cws import GCWS, bbit_code, gmm_estimate
from .signed import GRFF
from .maclaurin import RandomMaclaurin
from .asymmetric import AsKRFF
from .samplers import IID, Sampler, available_samplers, get_sampler
from .chunked import hash_chunks, transform_chunks
