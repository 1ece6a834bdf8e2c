"""The README's digits table is generated, and agrees with the snippet under it (issue 36, item 7).

``python benchmarks/bench_pipelines.py --table`` runs 10 seeds of every map, stores the accuracies
(benchmarks/results/digits_accuracy.json) and writes the table of README.md and
docs/estimators.md. Here: both pages hold exactly the table of the stored accuracies, and the
snippet under the table, run as written, prints the stored seed-0 accuracies of RFF and
RBFSampler (two fits, a few seconds)."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_pipelines", ROOT / "benchmarks" / "bench_pipelines.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def stored(bench):
    return json.loads(bench.STORED.read_text())


def test_the_pages_hold_the_table_of_the_stored_accuracies(bench, stored):
    table = bench.accuracy_table(stored)
    assert len(stored["accuracies"]) == len(bench.makers(stored["width"]))
    assert all(len(values) == bench.TABLE_SEEDS for values in stored["accuracies"].values())
    for page in bench.PAGES:
        text = page.read_text()
        assert bench.with_table(text, table) == text, f"{page.name}: rerun python benchmarks/bench_pipelines.py --table"
        assert text.count(bench.BEGIN) == 1


def test_the_snippet_prints_the_tables_seed_0(bench, stored):
    readme = (ROOT / "README.md").read_text()
    after = readme[readme.index(bench.END):]
    snippet = re.search(r"```python\n(.*?)```", after, re.S).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(snippet, "README snippet", "exec"), {})
    scores = dict(line.split() for line in printed.getvalue().splitlines())
    accuracies = stored["accuracies"]
    assert scores == {"RFF": f"{accuracies['varlab RFF (gamma = 1/64)'][0]:.2f}",
                      "RBFSampler": f"{accuracies['sklearn RBFSampler (gamma = 1/64)'][0]:.2f}"}
