"""Paper 004 at the full budget: the claims (100,000 repetitions per simulated point; Table II with
n = 1000 unit-norm rows and 10 trials per cell, the regression tables with 10 splits) and the
figures, into simulations/p004/ (resumable; see simulations/paper_full.py).

    python simulations/p004_full.py [--out simulations/p004] [--n-jobs 1] [--skip-figures]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from paper_full import run  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(run("004", description=__doc__.splitlines()[0]))
