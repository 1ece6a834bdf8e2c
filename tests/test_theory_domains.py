"""Every Formula honest about its declared domain (issue 22): finite values in bounded time at the
corners and extremes of each domain, the registry of parameters complete after ``import varlab``,
the theory modules layered without cycles, and the defects found at the edges (each a test)."""
import ast
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from varlab import theory

THEORY = pathlib.Path(theory.__file__).parent


# --- item 3 / defect 5: the registry of parameters is complete after ``import varlab`` --------------

def test_parameter_registry_is_complete_in_a_fresh_interpreter():
    """Every parameter a Formula uses is declared once ``varlab`` is imported, before ``formulas()``
    has loaded the family modules (defect 5: mm_dof, a, degree, frequency, scaled_distance)."""
    used = sorted({name for f in theory.formulas().values() for name in f.parameters})
    code = ("import sys; from varlab.theory import parameter\n"
            f"for name in {used!r}: parameter(name)\n"
            "from varlab.theory import parameters; print(len(parameters()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == len(theory.parameters())


# --- item 7: the theory modules form no import cycle ----------------------------------------------

def _theory_imports(path: pathlib.Path) -> set:
    """Sibling theory modules imported anywhere in ``path`` (module or function level)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found & {p.stem for p in THEORY.glob("*.py")}


def test_theory_modules_form_no_import_cycle():
    graph = {p.stem: _theory_imports(p) for p in THEORY.glob("*.py")}
    state = {}

    def visit(module, path):
        if state.get(module) == "done":
            return
        assert state.get(module) != "open", f"import cycle: {' -> '.join(path + [module])}"
        state[module] = "open"
        for child in sorted(graph[module]):
            visit(child, path + [module])
        state[module] = "done"

    for module in sorted(graph):
        visit(module, [])
    shared = {"_special", "_blocks"}
    assert shared <= set(graph) and not any(graph[m] & {"orthogonal", "polynomial", "signed"} for m in shared)
