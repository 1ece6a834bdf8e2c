"""Sphinx configuration of varlab's documentation (``make docs``: offline, warnings are errors).

The per-paper pages (papers/NNN.md) are generated here from the committed reports and the figure
registry, the formulas page from the theory modules, and the listings of the kernels, feature
maps, samplers, spectral measures and models (with their API entries) from their registries, so
none is edited by hand and no registered family is left out (tests/test_docs_listings.py;
tests/test_docs_build.py checks the built site)."""
from __future__ import annotations

import importlib
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
# sphinx-mathjax-offline ships MathJax 3 with the site (_static/mathjax): math renders offline
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode",
              "sphinx.ext.mathjax", "sphinx-mathjax-offline", "sphinx_gallery.gen_gallery"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
# _generated/: the family listings and their API entries, written from the registries at build
# time and included by estimators.md, engine.md and api.md
exclude_patterns = ["_build", "_generated"]
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
myst_enable_extensions = ["dollarmath"]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
# types go in the parameter descriptions, array arguments by their alias (ArrayLike), not the
# union numpy.typing expands it into (as numpy's and scikit-learn's references show them)
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_type_aliases = {"ArrayLike": "ArrayLike", "MatrixLike": "MatrixLike"}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_ivar = True
html_theme = "pydata_sphinx_theme"
html_title = f"varlab {version}"
html_static_path = ["_static"]
html_css_files = ["varlab.css"]
# the paper pages' multi-panel figures take the width of the on-page contents column too
# (one pattern per paper page: the theme warns about a page matched by two wildcards)
_PAPER_PAGES = {f"papers/{report.parent.name}": [] for report in (ROOT / "paper_checks" / "reports").glob("*/report.md")}
html_theme_options = {"secondary_sidebar_items": {"**": ["page-toc", "sourcelink"], **_PAPER_PAGES},
                      "navigation_with_keys": False}


GENERATED = Path(__file__).parent / "_generated"


def _write(path: Path, lines: list) -> None:
    """Write a generated page only when it changed (Sphinx then rereads only what changed)."""
    text = "\n".join(lines) + "\n"
    path.parent.mkdir(exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _paper_pages() -> None:
    """papers/NNN.md for every committed report: its figures (from the registry, with their
    captions and budgets) and the report itself (included, so the page is always current), which
    ends with the paper's results not checked."""
    from varlab import claims, plotting

    folder = Path(__file__).parent / "papers"
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
            # at the column's full width, linked to the full-size image (multi-panel figures)
            lines += [f"## Figure `{recipe.id}`", "", f"```{{image}} ../../figures/{recipe.id}.png", f":alt: {recipe.id}",
                      ":width: 100%", "```", "",
                      recipe.caption, "", f"*Regenerates*: {recipe.source}. *Per point*: {recipe.per_point(budget)}.",
                      ""]
        lines += ["## The report", "", f"```{{include}} ../../paper_checks/reports/{paper}/report.md",
                  ":heading-offset: 2", "```", ""]
        _write(folder / f"{paper}.md", lines)



def _summary(cls) -> str:
    """The first sentence of a class's docstring, on one line (a table cell)."""
    paragraph = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
    return re.split(r"(?<=[.)])\s+(?=[A-Z])", paragraph)[0]


def _row(cells) -> str:
    """A Markdown table row (a "|" inside a cell escaped)."""
    return "| " + " | ".join(str(cell).replace("|", r"\|") for cell in cells) + " |"


def family_registries() -> dict:
    """Every registry of classes users pick by name: its package, the name -> class mapping (the
    classes varlab defines; the registries import every module of their package first) and how
    a name is used."""
    from varlab import spectral
    from varlab.features import available_feature_maps, available_samplers
    from varlab.mc.models import available_models, model_class

    registries = {
        "feature maps": ("varlab.features", available_feature_maps(), "`varlab.features.available_feature_maps()`"),
        "samplers": ("varlab.features.samplers", available_samplers(),
                     '`RFF(sampler=...)`, `GRFF(sampler=...)`, `get_sampler(...)`'),
        "spectral measures": ("varlab.spectral", spectral.measures(), "`spectral.get_measure(...)`, `GRFF(kernel=...)`"),
        "models": ("varlab.mc.models", {name: model_class(name) for name in available_models()}, '`mc.simulate("name", ...)`, `varlab simulate name`'),
    }
    return {family: (package, {name: cls for name, cls in classes.items() if cls.__module__.startswith("varlab")}, use)
            for family, (package, classes, use) in registries.items()}


def documented_name(cls, package: str) -> str:
    """Where the API reference documents a registered class: under its package when the package
    exports it (``varlab.features.RFF``), else under its own module."""
    module = sys.modules[package]
    if cls.__name__ in getattr(module, "__all__", ()) and getattr(module, cls.__name__, None) is cls:
        return f"{package}.{cls.__name__}"
    return f"{cls.__module__}.{cls.__qualname__}"


def kernel_listing() -> list:
    """The registered stationary kernels (``varlab.theory.StationaryKernel``), one table row each:
    the name every layer takes, the profile k(r) rendered as math, the gamma convention, the
    spectral measure RFF draws from and the source."""
    import sympy

    from varlab.theory import stationary_kernels

    lines = ["| name (`kernel=`) | kernel | profile k(r) | gamma (`RFF`, `varlab.kernels.stationary`) | spectral measure | source |",
             "|---|---|---|---|---|---|"]
    for name, kernel in stationary_kernels().items():
        formula = kernel.kernel
        profile = sympy.latex(formula.expr, symbol_names={formula.symbol("distance"): "r"})
        distance = r"\Vert z \Vert_1" if kernel.metric == "cityblock" else r"\Vert z \Vert"
        options = ", ".join(f"{key}={value}" for key, value in kernel.measure[1].items()) if kernel.measure else ""
        measure = (f"`{kernel.measure[0]}`" + (f" ({options})" if options else "") if kernel.measure
                   else "`scale_mixture` of its mixing law")
        cells = [f"`{name}`", kernel.label, f"${profile}$, $r = {distance} / \\ell$", kernel.gamma_words, measure,
                 kernel.source]
        lines.append(_row(cells))
    return lines


def class_listing(family: str) -> list:
    """One registry as a table: name, class (linked to its API entry) and the first sentence of
    its docstring (models: their one-line description)."""
    package, classes, use = family_registries()[family]
    lines = [f"Registered {family} ({use}):", "", "| name | class | what it is |", "|---|---|---|"]
    for name, cls in classes.items():
        what = cls.description if isinstance(getattr(cls, "description", None), str) and cls.description else _summary(cls)
        lines.append(_row([f"`{name}`", f"{{class}}`~{documented_name(cls, package)}`", what]))
    return lines


def api_modules() -> dict:
    """family -> the modules the API reference documents for it: the package, then every module
    that defines a registered class the package does not export (``automodule`` documents a
    module's ``__all__``)."""
    modules = {}
    for family, (package, classes, _) in family_registries().items():
        own = [cls.__module__ for cls in classes.values() if documented_name(cls, package) != f"{package}.{cls.__name__}"]
        modules[family] = [package, *sorted(set(own) - {package})]
    return modules


def _family_pages() -> None:
    """_generated/*.md: the kernel, map, sampler, measure and model listings, and the API entries
    of every registered class (so a new family appears in the docs without a hand-edited list)."""
    _write(GENERATED / "kernels.md", kernel_listing())
    for family in family_registries():
        _write(GENERATED / f"{family.replace(' ', '_')}.md", class_listing(family))
    lines = []
    for family, modules in api_modules().items():
        lines += [f"## {family.capitalize()}", "", "```{eval-rst}", *[f".. automodule:: {name}" for name in modules], "```", ""]
    _write(GENERATED / "api_families.md", lines)


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


def _formula_entry(module: str, name: str, formula) -> str:
    """A Formula's autodata entry, its sympy expression rendered as math beside its docstring."""
    import sympy

    entry = f".. autodata:: {module}.{name}\n   :annotation:"
    if formula.expr is None:
        return entry

    def upright(word: str) -> str:
        return r"\mathrm{%s}" % word.replace("_", r"\_")

    # a parameter named by a word (gmm, data_dimension) upright; a Greek letter or one letter as sympy writes it
    names = {symbol: upright(symbol.name) for symbol in formula.expr.free_symbols
             if len(symbol.name) > 1 and not sympy.latex(symbol).startswith("\\")}
    return f"{entry}\n\n   .. math:: {upright(name)} = {sympy.latex(formula.expr, symbol_names=names)}\n"


def _formula_page() -> None:
    """formulas.md: every Formula of the theory modules (autodoc's automodule leaves out
    module-level values without a ``#:`` comment; each Formula has its own docstring and example)."""
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
            lines += [_formula_entry(info.name, name, getattr(module, name)) for name in names]
            lines += ["```", ""]
    _write(Path(__file__).parent / "formulas.md", lines)


_BACK_LINK = re.compile(r'(?P<block><div class="viewcode-block" id="(?P<name>[^"]+)">)\s*'
                        r'<a class="viewcode-back" href="(?P<href>[^"]*)">[^<]*</a>')


def _source_pages(app):
    """viewcode's source pages with their "[docs]" back-links repaired: viewcode links every
    object of a source module under the *first* module name it met one of them documented under
    (``varlab.features.measures`` for varlab.spectral's ``measures``, met first as a sampler's
    class attribute; ``varlab.theory.orthogonal.block_sizes`` for one documented under
    ``varlab.theory.signed``). A back-link whose anchor is not a documented object points to the
    entry documenting that object of that module instead, or is left out when there is none."""
    from sphinx.ext import viewcode

    documented = app.env.domains["py"].objects

    def defined_in(prefix: str, name: str):
        """The module that defines the object documented as ``prefix.name`` (a member by its class)."""
        try:
            owner = getattr(importlib.import_module(prefix), name.split(".")[0])
        except (ImportError, AttributeError):
            return None
        return getattr(owner, "__module__", None)

    def entry(module: str, name: str):
        """The documented full name of ``module``'s object ``name`` (its own module first)."""
        prefixes = sorted({full[: -len(name) - 1] for full in documented if full.endswith(f".{name}")},
                          key=lambda prefix: prefix != module)
        return next((f"{prefix}.{name}" for prefix in prefixes if defined_in(prefix, name) == module), None)

    for pagename, context, template in viewcode.collect_pages(app):
        module = pagename.removeprefix("_modules/").replace("/", ".")

        def repair(match):
            if match["href"].partition("#")[2] in documented:
                return match[0]
            full = entry(module, match["name"])
            if full is None:
                return match["block"]
            target = documented[full]
            href = f"{app.builder.get_relative_uri(pagename, target.docname)}#{target.node_id}"
            return match[0].replace(match["href"], href)

        if "body" in context:
            context = {**context, "body": _BACK_LINK.sub(repair, context["body"])}
        yield pagename, context, template


def setup(app):
    from sphinx.ext import viewcode
    from sphinx.util.inspect import TypeAliasForwardRef

    # Sphinx writes an alias inside a union (``MatrixLike | None``) by its repr,
    # "TypeAliasForwardRef('MatrixLike') | None": by its name instead
    TypeAliasForwardRef.__repr__ = lambda self: self.name

    for listener in list(app.events.listeners["html-collect-pages"]):
        if listener.handler is viewcode.collect_pages:
            app.disconnect(listener.id)
    app.connect("html-collect-pages", _source_pages)
    app.connect("builder-inited", lambda app: _paper_pages())
    app.connect("builder-inited", lambda app: _formula_page())
    app.connect("builder-inited", lambda app: _family_pages())
    app.connect("autodoc-process-docstring", _escape_plain_text)
    app.connect("autodoc-skip-member", _skip_foreign)
