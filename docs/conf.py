"""Sphinx configuration of varlab's documentation (``make docs``: offline, warnings are errors).

The per-paper pages (papers/NNN.md) are generated here from the committed reports and the figure
registry, so they are never edited by hand."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import varlab  # noqa: E402

project = "varlab"
release = version = varlab.__version__
copyright = "2026, the varlab authors (BSD-3-Clause)"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode",
              "sphinx_gallery.gen_gallery"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
# the gallery: every script of examples/ runs at build time (offline, a few seconds each) and its
# page shows the code, what it prints and its figure (docs/gallery/ is generated, not committed)
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "gallery",
    "filename_pattern": r"plot_",
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    "download_all_examples": False,
    "show_memory": False,
    "show_signature": False,
    "matplotlib_animations": False,
    "write_computation_times": False,
}
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "signature"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_ivar = True
html_theme = "alabaster"
html_title = f"varlab {version}"


def _paper_pages() -> None:
    """papers/NNN.md for every committed report: its figures (from the registry, with their
    captions and budgets) and the report itself (included, so the page is always current), which
    ends with the paper's results not checked."""
    from varlab import claims, plotting

    folder = Path(__file__).parent / "papers"
    folder.mkdir(exist_ok=True)
    index = ROOT / "figures" / "index.json"
    built = json.loads(index.read_text()) if index.exists() else {}
    for report in sorted((ROOT / "paper_checks" / "reports").glob("*/report.md")):
        paper = report.parent.name
        lines = [f"# Paper {paper}", "", claims.paper_title(paper), "",
                 f"Regenerate with `varlab check --paper {paper}` (the report) and `varlab figures --only ID` "
                 f"(a figure). The report's records are also in `paper_checks/reports/{paper}/report.json`."
                 + (f" Its last section, *Not checked*, lists the paper's results that no claim decides, each "
                    f"with the paper's words, where they are and why (declared in `paper_checks/p{paper}`)."
                    if "\n## Not checked\n" in report.read_text() else ""), ""]
        for recipe in plotting.figures(paper):
            if recipe.id not in built or not (ROOT / "figures" / f"{recipe.id}.png").exists():
                continue
            budget = claims.budget(built[recipe.id]["budget"]) if recipe.simulates else None
            lines += [f"## Figure `{recipe.id}`", "", f"![{recipe.id}](../../figures/{recipe.id}.png)", "",
                      recipe.caption, "", f"*Regenerates*: {recipe.source}. *Per point*: {recipe.per_point(budget)}.",
                      ""]
        lines += ["## The report", "", f"```{{include}} ../../paper_checks/reports/{paper}/report.md",
                  ":heading-offset: 2", "```", ""]
        page = folder / f"{paper}.md"
        text = "\n".join(lines)
        if not page.exists() or page.read_text() != text:
            page.write_text(text)



_INLINE_LITERAL = re.compile(r"(``.*?``)")


def _escape_plain_text(app, what, name, obj, options, lines):
    """varlab's docstrings write formulas as plain text: |x| is an absolute value, not a reST
    substitution, and a fitted attribute such as n_features_in_ is not a link target. Escape
    both outside inline literals, doctests and literal blocks (the source stays readable)."""
    literal_indent = None
    in_doctest = False
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if not stripped:
            in_doctest = False
            continue
        if literal_indent is not None:
            if indent > literal_indent:
                continue
            literal_indent = None
        if stripped.startswith(">>>") or in_doctest:
            in_doctest = True
            continue
        parts = _INLINE_LITERAL.split(line)
        for j in range(0, len(parts), 2):
            parts[j] = re.sub(r"(\w)_(?=[\s,.;:)]|$)", r"\1\\_", parts[j].replace("|", r"\|"))
        lines[index] = "".join(parts)
        if line.rstrip().endswith("::"):
            literal_indent = indent


def _skip_foreign(app, what, name, obj, skip, options):
    """Members a varlab class inherits from another library (matplotlib's Figure.set, ...)."""
    module = getattr(obj, "__module__", None) or ""
    return True if module and not module.startswith(("varlab", "paper_checks")) else None


def _formula_page() -> None:
    """formulas.md: every Formula of the theory modules (autodoc's automodule leaves out
    module-level values without a ``#:`` comment; each Formula has its own docstring and example)."""
    import importlib
    import pkgutil

    import varlab.theory
    from varlab.theory.formula import Formula

    lines = ["# Formulas", "", "Every closed form of `varlab.theory`, by module: numeric (call it), symbolic "
             "(`.expr`, `.symbols`) and high precision (`.mp`), with its source and parameter domains (see "
             "{doc}`theory`). Generated from the modules' `__all__`; each example runs as a doctest in "
             "`make test`.", ""]
    for info in pkgutil.iter_modules(varlab.theory.__path__, "varlab.theory."):
        module = importlib.import_module(info.name)
        names = [name for name in getattr(module, "__all__", [])
                 if isinstance(getattr(module, name, None), Formula)]
        if names:
            lines += [f"## `{info.name}`", "", "```{eval-rst}"]
            lines += [f".. autodata:: {info.name}.{name}\n   :annotation:" for name in names]
            lines += ["```", ""]
    page = Path(__file__).parent / "formulas.md"
    text = "\n".join(lines)
    if not page.exists() or page.read_text() != text:
        page.write_text(text)


def setup(app):
    app.connect("builder-inited", lambda app: _paper_pages())
    app.connect("builder-inited", lambda app: _formula_page())
    app.connect("autodoc-process-docstring", _escape_plain_text)
    app.connect("autodoc-skip-member", _skip_foreign)
