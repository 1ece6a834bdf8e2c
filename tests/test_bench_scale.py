"""Smoke test of benchmarks/bench_scale.py (issue 33 item 4): ``--quick`` runs every row in one
process at a tiny size and writes its section (a check that it runs, not a measurement)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_quick_run_writes_every_row_and_the_same_bits(tmp_path):
    output = tmp_path / "scale.md"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_scale.py"), "--quick",
                          "--output", str(output)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    text = output.read_text()
    cpus = os.cpu_count()
    rows = ["numpy ceiling", "numpy ceiling, whole arrays (300 x 1000 at once)",      # --quick: 300
            "fused-kernel ceiling: hand loop, the C library's cos in the drawing loop",
            "hand loop, vectorised cos (varlab.mc.cosine)",
            *(f"engine, {kind}, n_jobs={n}" for kind in ("numpy", "fused") for n in range(1, cpus + 1)),
            f"engine, fused, dask {cpus} workers"]
    for row in rows:
        assert f"\n| {row} | " in text, row
    assert "(numpy's among themselves, the fused ones among themselves): **True**" in text
    assert f"- dask {cpus} workers x 1 thread / joblib n_jobs = {cpus} (fused), each dask run paired" in text
    assert "- The targets use the block-by-block numpy ceiling" in text
    if "No GPU on this machine: the GPU rows were not run." not in text:
        assert "\n| engine, gpu | " in text and "\n| raw CuPy loop | " in text
