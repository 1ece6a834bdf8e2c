"""Every registered family is findable in the docs (issue 36 item 1), checked fast (no Sphinx):
the listings docs/conf.py generates from the registries name every registered kernel, feature
map, sampler, spectral measure and model, the pages include those listings, and the API
reference documents every registered class (``automodule`` documents a module's ``__all__``).
tests/test_docs_build.py checks the same in the built site (slow)."""
import importlib.util
import re
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def conf():
    spec = importlib.util.spec_from_file_location("varlab_docs_conf", DOCS / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _first_cells(lines: list) -> list:
    """The first cell of each table row of a generated listing, without its backquotes."""
    return [line.split(" | ")[0].removeprefix("| ").strip("`") for line in lines if line.startswith("| `")]


def test_every_registered_stationary_kernel_is_listed_with_its_profile(conf):
    from varlab.theory import stationary_kernels

    lines = conf.kernel_listing()
    assert _first_cells(lines) == list(stationary_kernels())
    for line, kernel in zip(lines[2:], stationary_kernels().values()):
        assert f" {kernel.label} " in line and "$" in line, line      # its name in words and its profile as math
    assert {"laplacian", "exponential", "matern32", "matern52", "cauchy"} <= set(_first_cells(lines))


def test_every_registered_class_is_listed_and_linked_to_its_api_entry(conf):
    registries = conf.family_registries()
    assert set(registries) == {"feature maps", "samplers", "spectral measures", "models"}
    for family, (package, classes, _) in registries.items():
        lines = conf.class_listing(family)
        assert _first_cells(lines) == list(classes), family
        for line, cls in zip([line for line in lines if line.startswith("| `")], classes.values()):
            assert f"{{class}}`~{conf.documented_name(cls, package)}`" in line
            assert line.rstrip(" |").split(" | ")[-1].strip(), f"{cls.__name__} has no description"
    assert {"fastfood", "moment_matching", "structured_orthogonal"} <= set(registries["samplers"][1])


def _automodule_documents(module) -> set:
    """The names ``automodule`` documents: the module's ``__all__``, else its public names
    defined in it."""
    if hasattr(module, "__all__"):
        return set(module.__all__)
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__}


def test_every_registered_class_has_an_entry_in_the_api_reference(conf):
    """The class's documented name is module.Name with module one that api_families.md
    automodules and Name among what automodule documents of it."""
    modules = conf.api_modules()
    for family, (package, classes, _) in conf.family_registries().items():
        for cls in classes.values():
            module, _, name = conf.documented_name(cls, package).rpartition(".")
            assert module in modules[family], (family, cls)
            assert name in _automodule_documents(sys.modules[module]) and getattr(sys.modules[module], name) is cls


def test_the_pages_include_every_generated_listing(conf):
    """kernels, feature maps, samplers and spectral measures on the Estimators page, models on the
    engine page, the API entries in the API reference: none generated and left out."""
    written = {"kernels", *[family.replace(" ", "_") for family in conf.family_registries()], "api_families"}
    included = {}
    for page in DOCS.glob("*.md"):
        for name in re.findall(r"```\{include\} _generated/(\w+)\.md", page.read_text()):
            included[name] = page.name
    assert set(included) == written
    assert {included[name] for name in ("kernels", "samplers", "feature_maps", "spectral_measures")} == {"estimators.md"}
    assert included["models"] == "engine.md" and included["api_families"] == "api.md"


def test_a_docstring_summary_is_its_first_sentence(conf):
    class Example:
        """Fastfood (Le, Sarlos and Smola 2013): directions
        from S H G Pi H B. More detail here.

        Examples
        """

    assert conf._summary(Example) == "Fastfood (Le, Sarlos and Smola 2013): directions from S H G Pi H B."
    assert conf._row(["`a`", "x | y"]) == r"| `a` | x \| y |"
