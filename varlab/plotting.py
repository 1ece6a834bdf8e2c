"""Figure registry and shared style helpers.

A paper's figures are recipes in ``paper_checks/pNNN/figures.py``, declared once with
:func:`figure`; each builds a matplotlib Figure from varlab's theory and simulations at a
budget (never calls plt.show). Figures that show the numbers of a claim read that claim's
cached simulation (``varlab.claims.simulate_for``), so ``varlab reproduce`` simulates once.

    @figure("000_fig1", source="000 Figure 1 (V_n/V, Thm 3)", simulates=False)
    def variance_ratio(budget):
        fig, ax = plt.subplots()
        ...
        return fig
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["Figure", "figure", "figures", "get_figure", "plt", "finish_axes", "subplots"]


@dataclass(frozen=True)
class Figure:
    """A registered figure recipe: ``build(budget)`` returns a matplotlib Figure."""

    id: str
    paper: str
    source: str
    build: Callable
    simulates: bool = True
    repetitions: Callable | None = None


_FIGURES: dict[str, Figure] = {}


def figure(figure_id: str, *, source: str, simulates: bool = True, repetitions: Callable | None = None):
    """Decorator: register the decorated ``build(budget)`` as figure ``figure_id``; ``source`` is
    the paper figure it regenerates; ``simulates`` says whether the budget matters;
    ``repetitions(budget)`` gives the repetitions per point where they are not the budget's
    ``n_repetitions`` (real-data experiments)."""
    def register(build):
        old = _FIGURES.get(figure_id)
        if old is not None and (old.build.__module__, old.build.__qualname__) != (
                build.__module__, build.__qualname__):
            raise ValueError(f"figure id {figure_id!r} is declared twice ({old.build.__module__} and "
                             f"{build.__module__})")
        _FIGURES[figure_id] = Figure(figure_id, figure_id.split("_")[0], source, build,
                                     bool(simulates), repetitions)
        return build
    return register


def figures(paper: str | None = None) -> list[Figure]:
    """The registered figures (of ``paper``), in declaration order (papers are discovered)."""
    from . import claims

    for key in (claims.papers() if paper is None else [paper]):
        claims.load(key)
    return [f for f in _FIGURES.values() if paper is None or f.paper == paper]


def get_figure(figure_id: str) -> Figure:
    """The registered figure ``figure_id`` (ValueError listing the ids otherwise)."""
    from . import claims

    if figure_id.split("_")[0] in claims.papers():
        claims.load(figure_id.split("_")[0])
    if figure_id not in _FIGURES:
        raise ValueError(f"figure must be one of {sorted(_FIGURES)}, got {figure_id!r}")
    return _FIGURES[figure_id]


# --- shared style ---------------------------------------------------------------------------

def subplots(*args, **kwargs):
    """``plt.subplots`` (Agg backend, set once here)."""
    return plt.subplots(*args, **kwargs)


def finish_axes(*axes, legend_size=8, which="both"):
    """The house style: light grid on every axis, small legend where there are labels."""
    for ax in axes:
        ax.grid(alpha=0.3, which=which)
        if legend_size and ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=legend_size)
