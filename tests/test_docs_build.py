"""The documentation site builds offline with warnings as errors (as `make docs` does), and the
built site holds what issue 36 asks for: no broken internal link or anchor (viewcode's "[docs]"
back-links included, which `sphinx -W` does not check), every registered family findable,
readable signatures, math rendered by the MathJax shipped with the site, and the pydata theme.
Slow (a build: about 20 s of CPU, a minute on a loaded machine; Sphinx runs the gallery's
scripts), so it runs in `make test-slow`, which installs the docs extra first. The build reads
only the repository: no intersphinx, no remote images."""
import importlib.util
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


class _Page(HTMLParser):
    """The anchors (``id``, and ``name`` of ``<a>``) a page defines, the links (``href``, ``src``)
    it holds, and its ``<script>`` sources."""

    def __init__(self, text: str):
        super().__init__()
        self.ids, self.links, self.scripts = set(), [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "a" and attributes.get("name"):
            self.ids.add(attributes["name"])
        self.links += [attributes[key] for key in ("href", "src") if attributes.get(key)]
        if tag == "script" and attributes.get("src"):
            self.scripts.append(attributes["src"])


def read_site(root: Path) -> dict:
    """path -> _Page for every page of a built site (the theme's templates under _static/ are
    not pages)."""
    return {path.resolve(): _Page(path.read_text(encoding="utf-8", errors="replace"))
            for path in root.rglob("*.html") if "_static" not in path.relative_to(root).parts}


def broken_links(root: Path) -> list:
    """(page, link, what is missing) for every link of the site to a file of its own that does not
    exist or to an anchor its target page does not define (external links are not followed)."""
    pages = read_site(root)
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            where = path.relative_to(root.resolve()).as_posix()
            if not target.exists():
                broken.append((where, link, "file"))
            elif parts.fragment and target in pages and unquote(parts.fragment) not in pages[target].ids:
                broken.append((where, link, "anchor"))
    return broken


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("sphinx", reason="the docs extra: pip install -e '.[docs]' (make test-slow installs it)")
    configuration = (DOCS / "conf.py").read_text()
    assert "intersphinx" not in configuration, "the docs must build offline"
    html = tmp_path_factory.mktemp("docs") / "html"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                            str(DOCS), str(html)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-4000:]
    return html


@pytest.mark.slow
def test_docs_build_offline_without_warnings(site):
    assert (site / "index.html").exists()
    assert (site / "gallery" / "index.html").exists()


@pytest.mark.slow
def test_no_broken_internal_link_or_anchor(site):
    assert (site / "_modules" / "varlab" / "spectral.html").exists()       # the source pages are checked too
    assert broken_links(site) == []


def test_the_link_check_finds_a_missing_anchor_and_a_missing_file(tmp_path):
    (tmp_path / "a.html").write_text('<h1 id="top">A</h1><a href="b.html#here">b</a><a href="#top">top</a>'
                                     '<a href="https://example.org/#x">out</a>')
    (tmp_path / "b.html").write_text('<div id="there"></div><img src="missing.png"><a href="a.html#top">a</a>')
    assert sorted(broken_links(tmp_path)) == [("a.html", "b.html#here", "anchor"), ("b.html", "missing.png", "file")]


@pytest.mark.slow
def test_every_registered_family_appears_in_the_site(site):
    """Each kernel by name and label on the Estimators page; each feature map, sampler and
    spectral measure by name on the Estimators page, each model on the engine page, and every
    registered class as an entry (an anchor) of the API reference."""
    from varlab.theory import stationary_kernels

    spec = importlib.util.spec_from_file_location("varlab_docs_conf", DOCS / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    estimators = (site / "estimators.html").read_text()
    for name, kernel in stationary_kernels().items():
        assert f'<span class="pre">{name}</span>' in estimators and kernel.label in estimators, name
    api = _Page((site / "api.html").read_text()).ids
    for family, (package, classes, _) in conf.family_registries().items():
        page = (site / ("engine.html" if family == "models" else "estimators.html")).read_text()
        for name, cls in classes.items():
            assert f'<span class="pre">{name}</span>' in page, (family, name)
            assert conf.documented_name(cls, package) in api, (family, name)


@pytest.mark.slow
def test_signatures_show_array_aliases_not_numpy_unions(site):
    api = (site / "api.html").read_text()
    for expansion in ("_NestedSequence", "_SupportsArray", "_Buffer", "TypeAliasForwardRef"):
        assert expansion not in api
    assert "ArrayLike" in api and "MatrixLike" in api


@pytest.mark.slow
def test_math_renders_with_the_mathjax_shipped_with_the_site(site):
    """Every page with math loads MathJax from the site's own _static/ (no network); the
    formulas and the kernel table have math; no page loads a script from another host."""
    pages = read_site(site)
    with_math = {path.name for path in pages if 'class="math' in path.read_text()}
    assert {"formulas.html", "estimators.html"} <= with_math
    for path, page in pages.items():
        assert not [src for src in page.scripts if urlsplit(src).netloc], path
        if path.name in with_math:
            mathjax = [src for src in page.scripts if "mathjax" in src]
            assert mathjax and all((path.parent / urlsplit(src).path).resolve().exists() for src in mathjax), path


@pytest.mark.slow
def test_the_site_uses_the_pydata_theme(site):
    assert "pydata-sphinx-theme" in (site / "index.html").read_text()
