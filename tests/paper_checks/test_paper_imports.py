"""The papers' packages stand on varlab's public API alone: no module of ``paper_checks`` imports a
private varlab module (``varlab._random``, ``varlab.features._base``, ...) or another paper's
package (loading one paper must not load another)."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "paper_checks"
MODULES = sorted(ROOT.rglob("*.py"))


def imported(path: Path, root: Path = ROOT) -> list[str]:
    """The absolute names a module imports (``from X import a`` gives X.a, so that ``from varlab
    import _random`` is seen; relative imports resolved against the module's package)."""
    package = path.relative_to(root.parent).with_suffix("").parts[:-1]
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join(base + ((node.module,) if node.module else ()))
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def offences(path: Path, root: Path = ROOT) -> list[str]:
    """What ``path`` (a module under ``root``, the paper_checks folder) imports that it must not."""
    paper = path.relative_to(root).parts[0]
    found = []
    for name in imported(path, root):
        parts = name.split(".")
        if parts[0] == "varlab" and any(part.startswith("_") for part in parts[1:]):
            found.append(f"private varlab module: {name}")
        if parts[0] == "paper_checks" and len(parts) > 1 and parts[1] != paper:
            found.append(f"another paper: {name}")
    return found


def test_the_scan_sees_every_paper_module():
    assert len(MODULES) > 20 and any(path.name == "svm.py" for path in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_paper_imports_neither_a_private_varlab_module_nor_another_paper(path):
    assert offences(path) == []


def test_the_scan_catches_both(tmp_path):
    paper = tmp_path / "paper_checks" / "p009"
    paper.mkdir(parents=True)
    module = paper / "bad.py"
    module.write_text("from varlab import _random, claims\nimport varlab._validate\n"
                      "from varlab.features._base import FeatureMap\nfrom paper_checks.p000.rff import X\n"
                      "from ..p001 import claims\nfrom . import own\nfrom varlab.claims import Budget\n")
    assert offences(module, tmp_path / "paper_checks") == ["private varlab module: varlab._random", "private varlab module: varlab._validate",
                                "private varlab module: varlab.features._base.FeatureMap",
                                "another paper: paper_checks.p000.rff.X", "another paper: paper_checks.p001.claims"]
