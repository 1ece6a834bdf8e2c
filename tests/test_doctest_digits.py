"""Doctests print the digits that are accurate, not a float's 17: pytest compares a float of an
expected output to the digits written there (``doctest_optionflags = NUMBER`` in pyproject.toml),
and the last places of a float differ between CPUs (numpy's SIMD paths, OpenBLAS kernels). A
string (an mpmath result at a stated precision) is exact and may hold more."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: an unquoted decimal number in an expected output
FLOAT = re.compile(r"(?<![\w.'\"])[-+]?(\d+\.\d+|\.\d+)(?![\w.'\"])")
#: the most significant digits an example may print
MOST_DIGITS = 12


def _expected_lines(path: Path):
    """(line number, text) of each doctest expected-output line of ``path``."""
    in_output = False
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith((">>>", "...")):
            in_output = True
        elif not stripped or stripped.startswith(('"""', "```")):
            in_output = False
        elif in_output:
            yield number, stripped


def _too_long(text: str) -> list[str]:
    return [m.group(0) for m in FLOAT.finditer(text)
            if len(m.group(1).replace(".", "").lstrip("0")) > MOST_DIGITS]


@pytest.mark.parametrize("path", sorted([*ROOT.joinpath("varlab").rglob("*.py"), *ROOT.joinpath("docs").glob("*.md")]),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_examples_print_at_most_twelve_significant_digits(path):
    offending = [f"{path.name}:{number}: {text}" for number, text in _expected_lines(path) if _too_long(text)]
    assert not offending, offending


def test_the_scan_finds_a_full_float_and_passes_a_string():
    assert _too_long("-0.002237772666650957") == ["-0.002237772666650957"]
    assert _too_long("(0.367879441171, '0.367879441171442321595523770161')") == []
