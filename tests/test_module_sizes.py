"""One idea per module (issue 32 item 5): no module of varlab/ is over MAX_LINES lines unless it is
allow-listed here with the single idea it holds. A module that grows past the limit is split (a
package or sibling modules, one idea each, the old import paths kept) or, if it truly holds one
idea, listed below with that idea in words."""
from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MAX_LINES = 600

#: path (relative to the repository root) -> the single idea it holds
ALLOWED = {
    # split in progress (issue 32): the lead removes these entries after merging the splits
}


def _lines(path: pathlib.Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


MODULES = sorted(ROOT.glob("varlab/**/*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(ROOT).as_posix() for p in MODULES])
def test_module_is_small_or_holds_one_named_idea(path):
    name = path.relative_to(ROOT).as_posix()
    n = _lines(path)
    assert n <= MAX_LINES or name in ALLOWED, (
        f"{name} has {n} lines (> {MAX_LINES}): split it into modules of one idea each (keeping "
        f"its import paths), or add it to ALLOWED in {pathlib.Path(__file__).name} with the one "
        f"idea it holds")


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_allow_list_has_no_stale_entry(name):
    path = ROOT / name
    assert path.is_file(), f"{name} is allow-listed but does not exist: remove its entry"
    assert _lines(path) > MAX_LINES, (f"{name} is allow-listed but has {_lines(path)} lines "
                                      f"(<= {MAX_LINES}): remove its entry")
    assert ALLOWED[name].strip(), f"{name}: say which single idea it holds"
