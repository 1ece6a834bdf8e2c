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

import functools
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


class _Pyplot:
    """``matplotlib.pyplot``, imported with the Agg backend on first use: importing the papers'
    figure recipes (``varlab list``, ``varlab check``) does not import matplotlib."""

    def __getattr__(self, name):
        return getattr(_pyplot(), name)


@functools.cache
def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


plt = _Pyplot()

__all__ = ["Figure", "figure", "figures", "get_figure", "plt", "finish_axes", "subplots", "legend_below",
           "table_figure", "markdown_table", "plain_text", "DPI", "FORMATS", "write_figures", "read_index"]


@dataclass(frozen=True)
class Figure:
    """A registered figure recipe: ``build(budget)`` returns a matplotlib Figure; ``caption`` is the
    first paragraph of its docstring; ``per_point(budget)`` says what one point of it averages over.

    Examples
    --------
    >>> from varlab.claims import budget
    >>> from varlab.plotting import Figure, plt
    >>> def build(budget):
    ...     fig, ax = plt.subplots()
    ...     ax.plot([1, 10, 100], [1.0, 0.1, 0.01])
    ...     return fig
    >>> build.__doc__ = "Variance against k.  Details follow."
    >>> recipe = Figure("doc_line", "doc", "an example", build, repetitions=lambda budget: "3 trials")
    >>> recipe.caption, recipe.per_point(budget("test"))
    ('Variance against k. Details follow.', '3 trials')
    >>> Figure("doc_line", "doc", "an example", build).per_point(budget("test"))
    '4,000 repetitions'
    >>> fig = recipe.build(budget("test"))
    >>> len(fig.axes)
    1
    >>> plt.close(fig)
    """

    id: str
    paper: str
    source: str
    build: Callable
    simulates: bool = True
    repetitions: Callable | None = None

    @property
    def caption(self) -> str:
        """The docstring's first paragraph on one line, as plain text (:func:`plain_text`)."""
        return plain_text(" ".join((self.build.__doc__ or "").strip().split("\n\n")[0].split()))

    def per_point(self, budget) -> str:
        """The budget behind each point: the recipe's ``repetitions(budget)`` (a count of
        repetitions or a phrase such as "10 trials"), else the budget's repetitions."""
        if not self.simulates:
            return "no simulation"
        value = self.repetitions(budget) if self.repetitions else budget.n_repetitions
        return f"{value:,} repetitions" if isinstance(value, int) else str(value)


_FIGURES: dict[str, Figure] = {}

#: a Sphinx cross-reference role: ``:func:`name```, ``:data:`~module.NAME```, ``:py:meth:`text <target>```
_ROLE = re.compile(r":(?:[a-z]+:)?[a-z]+:`~?([^`<]*?)\s*(?:<[^`]*>)?`")


def plain_text(text: str) -> str:
    """``text`` with its Sphinx roles written as their plain names (a caption is read in
    figures/README.md and on the docs' paper pages, where no role is rendered).

    Examples
    --------
    >>> from varlab.plotting import plain_text
    >>> plain_text(":func:`accuracy_vs_k` on scaled features (:data:`~.hashing_units.SCALED_SLICES`)")
    'accuracy_vs_k on scaled features (SCALED_SLICES)'
    >>> plain_text("see :py:meth:`the fit <varlab.RFF.fit>`")
    'see the fit'
    """
    return _ROLE.sub(lambda match: match.group(1).rsplit(".", 1)[-1] if not match.group(1).count(" ")
                     else match.group(1), text)


def figure(figure_id: str, *, source: str, simulates: bool = True, repetitions: Callable | None = None):
    """Decorator: register the decorated ``build(budget)`` as figure ``figure_id``; ``source`` is
    the paper figure it regenerates; ``simulates`` says whether the budget matters;
    ``repetitions(budget)`` gives the repetitions per point (an int) or what a point averages over
    (a phrase, e.g. "10 trials") where that is not the budget's ``n_repetitions`` (real-data
    experiments). The docstring's first paragraph is the figure's caption in figures/README.md.

    Examples
    --------
    >>> from varlab import plotting
    >>> @plotting.figure("doc_fig1", source="an example figure", simulates=False)
    ... def straight_line(budget):
    ...     '''A straight line (the caption in figures/README.md).'''
    ...     fig, ax = plotting.subplots()
    ...     ax.plot([0, 1], [0, 1])
    ...     return fig
    >>> recipe = plotting.get_figure("doc_fig1")
    >>> recipe.paper, recipe.caption, recipe.per_point(None)
    ('doc', 'A straight line (the caption in figures/README.md).', 'no simulation')
    >>> plotting.plt.close(recipe.build(None))
    >>> del plotting._FIGURES["doc_fig1"]        # (keep the registry to the papers' figures)
    """
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
    """The registered figures (of ``paper``), in declaration order (papers are discovered).

    Examples
    --------
    >>> from varlab.plotting import figures
    >>> recipes = figures("000")                 # loads paper 000's module
    >>> all(recipe.paper == "000" for recipe in recipes), "000_fig1" in [r.id for r in recipes]
    (True, True)
    """
    from . import claims

    for key in (claims.papers() if paper is None else [paper]):
        claims.load(key)
    return [f for f in _FIGURES.values() if paper is None or f.paper == paper]


def get_figure(figure_id: str) -> Figure:
    """The registered figure ``figure_id`` (ValueError listing the ids otherwise).

    Examples
    --------
    >>> from varlab.plotting import get_figure, plt
    >>> recipe = get_figure("000_fig1")
    >>> recipe.id, recipe.simulates              # analytic: built from the theory alone
    ('000_fig1', False)
    >>> fig = recipe.build(None)
    >>> len(fig.axes) > 0
    True
    >>> plt.close(fig)
    """
    from . import claims

    if figure_id.split("_")[0] in claims.papers():
        claims.load(figure_id.split("_")[0])
    if figure_id not in _FIGURES:
        raise ValueError(f"figure must be one of {sorted(_FIGURES)}, got {figure_id!r}")
    return _FIGURES[figure_id]


# --- shared style ---------------------------------------------------------------------------

def subplots(*args, **kwargs):
    """``plt.subplots`` (Agg backend, set once here).

    Examples
    --------
    >>> import matplotlib
    >>> from varlab.plotting import plt, subplots
    >>> fig, axes = subplots(1, 2, figsize=(6, 2))
    >>> matplotlib.get_backend().lower(), axes.shape
    ('agg', (2,))
    >>> plt.close(fig)
    """
    return plt.subplots(*args, **kwargs)


def finish_axes(*axes, legend_size=8, which="both"):
    """The house style: light grid on every axis, small legend where there are labels.

    Examples
    --------
    >>> from varlab.plotting import finish_axes, plt, subplots
    >>> fig, ax = subplots()
    >>> _ = ax.plot([1, 2], [3, 4], label="simulation")
    >>> finish_axes(ax)
    >>> [text.get_text() for text in ax.get_legend().get_texts()]
    ['simulation']
    >>> plt.close(fig)
    """
    for ax in axes:
        ax.grid(alpha=0.3, which=which)
        if legend_size and ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=legend_size)


def legend_below(fig, ax=None, *, ncol: int = 4, fontsize: float = 8, handles=None, labels=None):
    """One legend for the whole figure, below the panels, where it covers no data; the labels of
    ``ax`` (the first axes by default) unless ``handles`` and ``labels`` are given. Switches the
    figure to matplotlib's constrained layout (do not call ``tight_layout`` afterwards).

    Examples
    --------
    >>> from varlab.plotting import legend_below, plt, subplots
    >>> fig, axes = subplots(1, 2)
    >>> _ = axes[0].plot([1, 2], label="theory"), axes[0].plot([2, 1], "--", label="simulation")
    >>> legend = legend_below(fig, ncol=2)
    >>> [text.get_text() for text in legend.get_texts()], fig.get_layout_engine().__class__.__name__
    (['theory', 'simulation'], 'ConstrainedLayoutEngine')
    >>> plt.close(fig)
    """
    if handles is None:
        handles, labels = (ax or fig.axes[0]).get_legend_handles_labels()
    fig.set_layout_engine("constrained")
    return fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=fontsize, frameon=False)


def markdown_table(rows, columns) -> str:
    """A markdown (GitHub) table of ``rows`` (sequences of cells) under ``columns``.

    Examples
    --------
    >>> print(markdown_table([["GRFF", "0.21 ± 0.02"]], ["method", "s = d"]))
    | method | s = d |
    |---|---|
    | GRFF | 0.21 ± 0.02 |
    """
    lines = ["| " + " | ".join(map(str, columns)) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


_TABLE_FIGURE = []


def _table_figure_class():
    """:class:`TableFigure`, defined on first use (it subclasses matplotlib's Figure)."""
    if not _TABLE_FIGURE:
        import matplotlib.figure

        class TableFigure(matplotlib.figure.Figure):
            """A figure that shows a table; ``markdown`` holds the same table as markdown, which
            ``varlab figures`` writes beside the PNG and PDF (``figures/<id>.md``); made by
            :func:`table_figure`, whose examples show it."""

            markdown: str = ""

        TableFigure.__module__ = __name__
        _TABLE_FIGURE.append(TableFigure)
    return _TABLE_FIGURE[0]


def __getattr__(name: str):
    if name == "TableFigure":
        return _table_figure_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def table_figure(rows, columns, title: str, *, fontsize: float = 10):
    """The table as a readable figure, a ``varlab.plotting.TableFigure`` (a matplotlib Figure
    subclass defined on first use; ``fontsize`` points, the figure sized to its text), its
    markdown in ``.markdown``.

    Examples
    --------
    >>> from varlab.plotting import plt, table_figure
    >>> fig = table_figure([["GRFF", "0.21"], ["GORF", "0.12"]], ["method", "MSE"], "s = d",
    ...                    fontsize=12)
    >>> fig.markdown.splitlines()[2:]
    ['| method | MSE |', '|---|---|', '| GRFF | 0.21 |', '| GORF | 0.12 |']
    >>> w, h = fig.get_size_inches()
    >>> bool(w > 1 and h > 1)
    True
    >>> from varlab.plotting import TableFigure
    >>> isinstance(fig, TableFigure)
    True
    >>> plt.close(fig)
    """
    rows = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(str(c)), *(len(r[j]) for r in rows)) for j, c in enumerate(columns)]
    inch_per_char = 0.62 * fontsize / 72
    fig = plt.figure(FigureClass=_table_figure_class(), figsize=(0.4 + inch_per_char * (sum(widths) + 2 * len(widths)),
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


# --- writing figures ------------------------------------------------------------------------------

#: dots per inch of every PNG varlab writes (``varlab figures`` and the scripts in simulations/)
DPI = 120
#: what :func:`write_figures` writes of a figure by default: PNG, PDF and, for a
#: :class:`TableFigure`, its markdown
FORMATS = ("png", "pdf", "md")


def read_index(directory) -> dict:
    """``<directory>/index.json``: {figure id: {"budget", "random_state", "seconds"}} of the figures
    :func:`write_figures` wrote there ({} if none).

    Examples
    --------
    >>> import tempfile
    >>> from varlab.plotting import read_index
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     print(read_index(folder))
    {}
    """
    path = Path(directory) / "index.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def write_figures(recipes, budget, directory, *, formats=FORMATS, redo: bool = True, log=_log) -> list[Path]:
    """Build each of ``recipes`` (:class:`Figure`) at ``budget`` and write it to ``directory`` as
    ``<id>.<format>`` for each of ``formats`` (a PDF without its creation date, so that a budget
    gives the same file; "md" only for a :class:`TableFigure`), at :data:`DPI`; after each, its
    entry of ``<directory>/index.json`` (:func:`read_index`: the budget, "analytic" for a recipe
    that simulates nothing, the random_state and the seconds it took) is rewritten, so that a
    killed run keeps the finished ones. ``redo=False`` skips a recipe whose PNG exists. Returns
    the paths written.

    Examples
    --------
    >>> import tempfile
    >>> from varlab.claims import budget
    >>> from varlab.plotting import Figure, plt, read_index, write_figures
    >>> def build(budget):
    ...     fig, ax = plt.subplots()
    ...     ax.plot([1, 2], [3, 4])
    ...     return fig
    >>> recipe = Figure("doc_write", "doc", "an example", build, simulates=False)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_figures([recipe], budget("test"), folder, log=lambda line: None)
    ...     print([path.name for path in paths], read_index(folder)["doc_write"]["budget"])
    ['doc_write.png', 'doc_write.pdf'] analytic
    """
    from tqdm.auto import tqdm

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    index, written = read_index(directory), []
    recipes = [recipe for recipe in recipes if redo or not (directory / f"{recipe.id}.png").exists()]
    for recipe in tqdm(recipes, desc="figures", unit="figure", file=sys.stderr, disable=None):
        last = index.get(recipe.id, {}).get("seconds")
        log(f"figure {recipe.id}: {recipe.source} ..." + (f" (last run {last:.0f} s)" if last else ""))
        began = time.perf_counter()
        fig = recipe.build(budget)
        for suffix in formats:
            path = directory / f"{recipe.id}.{suffix}"
            if suffix == "md":
                if isinstance(fig, _table_figure_class()):
                    path.write_text(fig.markdown)
                    written.append(path)
                continue
            fig.savefig(path, dpi=DPI, metadata={"CreationDate": None} if suffix == "pdf" else None)
            written.append(path)
        plt.close(fig)
        seconds = time.perf_counter() - began
        log(f"figure {recipe.id}: done in {seconds:.1f} s")
        index[recipe.id] = {"budget": budget.name if recipe.simulates else "analytic",
                            "random_state": budget.random_state if recipe.simulates else None,
                            "seconds": round(seconds, 1)}
        (directory / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    return written
