"""No claim's outcome is fixed in its code (issue 34): a builder's decision is never a literal
True or False, and no check returns a literal outcome string. Parsed with ``ast`` over every
module of ``paper_checks``; the self-test shows the scan catches both forms."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PAPERS = Path(__file__).resolve().parents[2] / "paper_checks"
#: the builders whose second argument decides the outcome
DECIDING = {"exact": 1}
OUTCOME_WORDS = {"confirmed", "contradicted", "inconclusive"}


def fixed_outcomes(source: str) -> list[str]:
    """Lines of ``source`` whose outcome does not depend on a computation."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            index = DECIDING.get(name)
            if index is not None and len(node.args) > index and isinstance(node.args[index], ast.Constant) \
                    and isinstance(node.args[index].value, bool):
                found.append(f"line {node.lineno}: {name}(..., {node.args[index].value!r}, ...)")
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) \
                and node.value.value in OUTCOME_WORDS:
            found.append(f"line {node.lineno}: return {node.value.value!r}")
    return found


def test_the_scan_catches_a_constant_outcome():
    assert fixed_outcomes("def check(run):\n    return builders.exact(run, False, 'no')\n")
    assert fixed_outcomes("def check(run):\n    return 'contradicted'\n")
    assert not fixed_outcomes("def check(run):\n    return builders.exact(run, value > 0, 'ok')\n")


@pytest.mark.parametrize("path", sorted(PAPERS.rglob("*.py")), ids=lambda p: str(p.relative_to(PAPERS)))
def test_no_claim_fixes_its_outcome(path):
    assert not fixed_outcomes(path.read_text()), path
