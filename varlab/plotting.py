"""Figure registry and shared style helpers.

A paper's figures are recipes in ``paper_checks/pNNN/figures.py``, declared once with
:func:`figure`; each builds a matplotlib Figure from varlab's theory and simulations at a
budget (never calls plt.show). Figures that show the numbers of a claim read that claim's
cached simulation (``varlab.claims.simulate_for``), so ``varlab reproduce`` simulates once::

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
import matplotlib.figure  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["Figure", "figure", "figures", "get_figure", "plt", "finish_axes", "subplots", "legend_below",
           "TableFigure", "table_figure", "markdown_table"]


@dataclass(frozen=True)
class Figure:
    """A registered figure recipe: ``build(budget)`` returns a matplotlib Figure; ``caption`` is the
    first paragraph of its docstring; ``per_point(budget)`` says what one point of it averages over."""

    id: str
    paper: str
    source: str
    build: Callable
    simulates: bool = True
    repetitions: Callable | None = None

    @property
    def caption(self) -> str:
        return " ".join((self.build.__doc__ or "").strip().split("\n\n")[0].split())

    def per_point(self, budget) -> str:
        """The budget behind each point: the recipe's ``repetitions(budget)`` (a count of
        repetitions or a phrase such as "10 trials"), else the budget's repetitions."""
        if not self.simulates:
            return "no simulation"
        value = self.repetitions(budget) if self.repetitions else budget.n_repetitions
        return f"{value:,} repetitions" if isinstance(value, int) else str(value)


_FIGURES: dict[str, Figure] = {}


def figure(figure_id: str, *, source: str, simulates: bool = True, repetitions: Callable | None = None):
    """Decorator: register the decorated ``build(budget)`` as figure ``figure_id``; ``source`` is
    the paper figure it regenerates; ``simulates`` says whether the budget matters;
    ``repetitions(budget)`` gives the repetitions per point (an int) or what a point averages over
    (a phrase, e.g. "10 trials") where that is not the budget's ``n_repetitions`` (real-data
    experiments). The docstring's first paragraph is the figure's caption in figures/README.md."""
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


def legend_below(fig, ax=None, *, ncol: int = 4, fontsize: float = 8, handles=None, labels=None):
    """One legend for the whole figure, below the panels, where it covers no data; the labels of
    ``ax`` (the first axes by default) unless ``handles`` and ``labels`` are given. Switches the
    figure to matplotlib's constrained layout (do not call ``tight_layout`` afterwards)."""
    if handles is None:
        handles, labels = (ax or fig.axes[0]).get_legend_handles_labels()
    fig.set_layout_engine("constrained")
    return fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=fontsize, frameon=False)


def markdown_table(rows, columns) -> str:
    """A markdown (GitHub) table of ``rows`` (sequences of cells) under ``columns``.

    >>> print(markdown_table([["GRFF", "0.21 ± 0.02"]], ["method", "s = d"]))
    | method | s = d |
    |---|---|
    | GRFF | 0.21 ± 0.02 |
    """
    lines = ["| " + " | ".join(map(str, columns)) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


class TableFigure(matplotlib.figure.Figure):
    """A figure that shows a table; ``markdown`` holds the same table as markdown, which
    ``varlab figures`` writes beside the PNG and PDF (``figures/<id>.md``)."""

    markdown: str = ""


def table_figure(rows, columns, title: str, *, fontsize: float = 10) -> TableFigure:
    """The table as a readable figure (``fontsize`` points, the figure sized to its text), its
    markdown in ``.markdown``."""
    rows = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(str(c)), *(len(r[j]) for r in rows)) for j, c in enumerate(columns)]
    inch_per_char = 0.62 * fontsize / 72
    fig = plt.figure(FigureClass=TableFigure, figsize=(0.4 + inch_per_char * (sum(widths) + 2 * len(widths)),
                                                       0.75 + 0.215 * fontsize / 10 * (len(rows) + 1)))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0 - 0.55 / fig.get_figheight()))
    ax.axis("off")
    table = ax.table(cellText=rows, colLabels=list(columns), loc="upper center", cellLoc="left",
                     colWidths=[(w + 2) / (sum(widths) + 2 * len(widths)) for w in widths])
    table.auto_set_font_size(False)
    table.set_fontsize(fontsize)
    table.scale(1.0, 1.25)
    for (row, _), cell in table.get_celld().items():
        if row == 0:
            cell.set_text_props(weight="bold")
    fig.suptitle(title, fontsize=fontsize, wrap=True)
    fig.markdown = f"**{title}**\n\n" + markdown_table(rows, columns) + "\n"
    return fig
