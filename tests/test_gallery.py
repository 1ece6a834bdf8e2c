"""The gallery (examples/, shown in the documentation by sphinx-gallery): short scripts on the
public API, each naming the project figure it regenerates (but the varlab.testing tutorial); each runs (marked slow: a few seconds
each, and `make docs` runs them all too)."""
import ast
import re
import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("plot_*.py"))


def test_the_gallery_has_a_script_per_paper():
    papers = {script.name.split("_")[1] for script in SCRIPTS}
    assert {"000", "001", "002", "003", "004", "check"} <= papers
    assert (EXAMPLES / "GALLERY_HEADER.rst").exists()


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_a_script_is_short_titled_and_uses_the_public_api(script):
    from varlab import plotting

    tree = ast.parse(script.read_text())
    docstring = ast.get_docstring(tree)
    title, underline = docstring.splitlines()[:2]
    assert title and set(underline) == {"="} and len(underline) >= len(title)
    code_lines = {line for node in tree.body[1:] for line in range(node.lineno, node.end_lineno + 1)}
    assert len(code_lines) <= 25, f"{script.name}: {len(code_lines)} lines of code"
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            for name in names:
                assert name.split(".")[0] in ("varlab", "numpy", "matplotlib"), name
                assert not any(part.startswith("_") for part in name.split(".")), name
    if not script.name.startswith("plot_check"):          # the tutorial of varlab.testing draws its own
        named = set(re.findall(r"``(\w+)``", docstring)) & {figure.id for figure in plotting.figures()}
        assert named, f"{script.name} names no figure of the registry"


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_a_script_runs(script):
    import matplotlib.pyplot as plt

    plt.close("all")
    runpy.run_path(str(script), run_name="__main__")
    assert plt.get_fignums(), f"{script.name} drew no figure"
    plt.close("all")
