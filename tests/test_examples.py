"""Every public class and function has an Examples section that runs as a doctest (issue 24).

The rule. Walk varlab with ``pkgutil.walk_packages``; a module is public when no component of its
dotted name starts with "_". For every public module with an ``__all__`` (a module without one
exports nothing here), take each name in ``__all__`` whose value is callable and not a module (a
class, a function, an ``lru_cache`` wrapper, a callable instance such as a theory ``Formula``) and
comes from varlab (its ``__module__``). Each distinct object is checked once, under the name of the
module that defines it when that module exports it, else of the first public module that does
(``varlab.theory.orthogonal.pairs`` for ``theory._blocks.pairs``). Its docstring must hold a
numpydoc "Examples" section (a line "Examples", then a line of dashes) with at least one ``>>>``
line.

Running them: ``make test`` passes ``--doctest-modules varlab``, and doctest collects the examples
of functions and classes from the module that defines them (private modules included). A callable
*instance* is not collected, so its docstring must also be a value of a module's ``__test__``
(the theory modules end with ``__test__ = _doctests(globals())``); that is checked too.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys

import pytest

import varlab
from varlab.theory.formula import Formula


def _is_public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def _modules() -> list:
    """varlab and every module below it, imported (private ones too: they may hold ``__test__``)."""
    names = ["varlab"] + sorted(info.name for info in pkgutil.walk_packages(varlab.__path__, "varlab."))
    return [importlib.import_module(name) for name in names]


def _from_varlab(obj) -> bool:
    return (getattr(obj, "__module__", None) or "").split(".")[0] == "varlab"


def _exported() -> dict:
    """{label: object} for each distinct callable that a public module's ``__all__`` exports."""
    found = {}                                  # id -> (object, [(module name, attribute name)])
    for module in _modules():
        if not _is_public(module.__name__):
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj) or not _from_varlab(obj):
                continue
            found.setdefault(id(obj), (obj, []))[1].append((module.__name__, name))
    labelled = {}
    for obj, exporters in found.values():
        home = [pair for pair in exporters if pair[0] == obj.__module__]
        module_name, name = (home or exporters)[0]
        labelled[f"{module_name}.{name}"] = obj
    return dict(sorted(labelled.items()))


EXPORTED = _exported()


def examples_section(doc: str | None) -> list | None:
    """The lines of the numpydoc Examples section of ``doc`` (None if it has none)."""
    lines = inspect.cleandoc(doc or "").splitlines()

    def underline(index):
        return index < len(lines) and len(lines[index]) >= 3 and set(lines[index]) == {"-"}

    for start, line in enumerate(lines):
        if line == "Examples" and underline(start + 1):
            body = []
            for index in range(start + 2, len(lines)):
                if lines[index] and not lines[index].startswith((" ", ">>>", "...")) and underline(index + 1):
                    break                       # the next section
                body.append(lines[index])
            return body
    return None


def _doctest_collects(obj) -> bool:
    """Whether doctest finds ``obj``'s docstring by itself (functions, classes, their wrappers)."""
    return inspect.isclass(obj) or inspect.isroutine(inspect.unwrap(obj))


def _test_strings() -> list:
    return [value for module in _modules() for value in getattr(module, "__test__", {}).values()
            if isinstance(value, str)]


@pytest.mark.parametrize("obj", list(EXPORTED.values()), ids=list(EXPORTED))
def test_public_name_has_examples(obj):
    section = examples_section(obj.__doc__)
    assert section is not None, "no numpydoc Examples section (a line 'Examples', then a line of dashes)"
    assert any(line.lstrip().startswith(">>>") for line in section), "its Examples section has no >>> line"
    if not _doctest_collects(obj):
        assert obj.__doc__ in _test_strings(), (
            f"doctest does not collect a {type(obj).__name__} instance: put its docstring in its "
            f"module's __test__ (theory modules: __test__ = _doctests(globals()))")


def _theory_formulas() -> list:
    """(module, attribute name, Formula) for every Formula a public theory module defines."""
    out = []
    for module in _modules():
        family = module.__name__.rsplit(".", 1)[-1]
        if not module.__name__.startswith("varlab.theory.") or not _is_public(module.__name__):
            continue
        out += [(module, name, value) for name, value in vars(module).items()
                if isinstance(value, Formula) and value.name.startswith(family + ".")]
    return out


@pytest.mark.parametrize("module, name, formula", _theory_formulas(),
                         ids=[f"{m.__name__}.{n}" for m, n, _ in _theory_formulas()])
def test_every_theory_formula_is_exported(module, name, formula):
    """So that the rule above sees every Formula (and the API reference lists it)."""
    assert name in getattr(module, "__all__", ()), f"{formula.name} is not in {module.__name__}.__all__"


def test_rule_sees_every_kind():
    """The walk finds classes, functions, lru_cache wrappers and Formulas (a guard on the rule)."""
    kinds = {type(obj).__name__ for obj in EXPORTED.values()}
    assert {"type", "function", "_lru_cache_wrapper", "Formula"} <= kinds
    assert "varlab.theory.rff.mean" in EXPORTED and "varlab.spectral.Gaussian" in EXPORTED
    assert sys.modules["varlab.theory.rff"].__test__      # the Formulas' examples are collected


def test_examples_section_parser():
    doc = """Summary.

    Parameters
    ----------
    x : float

    Examples
    --------
    >>> 1 + 1
    2

    Notes
    -----
    text
    """
    assert examples_section(doc) == [">>> 1 + 1", "2", ""]
    assert examples_section("Summary.\n\n>>> 1 + 1\n2\n") is None
    assert examples_section(None) is None
