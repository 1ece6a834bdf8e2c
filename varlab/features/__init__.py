"""The estimators users import, each a scikit-learn transformer on the :class:`FeatureMap` base
(registered on definition: ``available_feature_maps()``): ``RFF`` (RFF, NRFF, no-phase; 000 §2),
``GCWS`` (000 §1.3-1.4, Algorithm 1) with its b-bit coding and GMM estimate, ``GRFF``/GORF (004),
``AsKRFF`` (002) and ``RandomMaclaurin`` (Kar and Karnick 2012); ``samplers`` turn a spectral
measure (:mod:`varlab.spectral`) into frequencies. Features never import mc or claims."""
from . import samplers
from ._base import FeatureMap, available_feature_maps
from .rff import RFF
from .cws import GCWS, bbit_code, gmm_estimate
from .signed import GRFF
from .maclaurin import RandomMaclaurin
from .asymmetric import AsKRFF
from .samplers import IID, Sampler, available_samplers, get_sampler
from .chunked import hash_chunks, transform_chunks

__all__ = ["FeatureMap", "available_feature_maps", "RFF", "GCWS", "GRFF", "AsKRFF", "RandomMaclaurin",
           "bbit_code", "gmm_estimate", "samplers", "IID", "Sampler", "available_samplers", "get_sampler",
           "hash_chunks", "transform_chunks"]
