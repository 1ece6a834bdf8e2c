"""Paper 003 at the full budget: the claims (100,000 repetitions per point; the high-d moment
matching and Sobol points at the stated fractions) and the figures (100 repetitions of the Gram
experiments on LR500, texture, satimage, spambase and optdigits; Table 1 with m = 4096 features).

    python simulations/p003_full.py [--out simulations/p003] [--n-jobs 1] [--skip-figures]

Resumable (simulations/paper_full.py): a claim or figure whose output exists in --out is skipped.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from paper_full import run  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(run("003", description=__doc__.splitlines()[0]))
