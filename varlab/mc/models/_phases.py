"""Shared by the radial, signed and AsK-RFF models: the phases <w, z> = distance <w, u> of their
cosines, and the block budget of models that draw whole orthogonal blocks per repetition.

A product distance * <w, u> beyond float64 would make cos NaN; :func:`phases` refuses it with a
ValueError naming ``distance`` (the largest usable distance depends on the draw, so the check is
made on the drawn projections, before any cosine).
"""
from __future__ import annotations

import numpy as np

from ...features.samplers.orthogonal import MAX_ELEMENTS
from ..seeds import BLOCK_ELEMENTS

__all__ = ["phases", "too_large", "blocked_budget", "MAX_ELEMENTS"]

_FMAX = float(np.finfo(np.float64).max)


def too_large(distance, ratio) -> ValueError:
    """The error for phases <w, z> beyond float64 (``ratio``: the largest |<w, z>| / distance)."""
    return ValueError(f"distance={float(distance):.6g} is too large: the phases <w, z> overflow float64 "
                      f"(largest |<w, z>|/distance drawn: {ratio:.3g})")


def phases(projections, distance, *, factor=None, out=None) -> np.ndarray:
    """projections * factor (default factor = distance; into ``out`` if given): the arguments of
    the cosines. ValueError naming distance if a product overflows float64."""
    factor = float(distance) if factor is None else float(factor)
    largest = float(np.max(np.abs(projections))) if np.size(projections) else 0.0
    if largest * abs(factor) > _FMAX:
        raise too_large(distance, largest * abs(factor / float(distance)))
    return np.multiply(projections, factor, out=out)


def blocked_budget(name: str, dimension: int, block: int, block_elements: int,
                   default: int = BLOCK_ELEMENTS) -> int:
    """Samples per engine block for a model whose every repetition draws whole blocks of
    ``block`` rows, one block costing ``block_elements`` float64 numbers: at most ``default``,
    and few enough that a block of repetitions stays within about MAX_ELEMENTS numbers (k = 1
    still draws a whole block per repetition). ValueError naming dimension when one block alone
    exceeds MAX_ELEMENTS (it cannot be drawn in bounded memory)."""
    if block_elements > MAX_ELEMENTS:
        raise ValueError(f"dimension={dimension} is too large for model {name!r}: one repetition draws a "
                         f"block of {block} frequencies costing {block_elements:.3g} numbers, more than "
                         f"MAX_ELEMENTS = {MAX_ELEMENTS:.3g} ({MAX_ELEMENTS * 8 / 2 ** 30:g} GiB)")
    return max(1, min(int(default), MAX_ELEMENTS // max(1, int(block_elements))))
