"""Figures and paper checks at the papers' full budget (10^5 repetitions per simulated point).

    python simulations/full_budget.py [--out simulations/full] [--n-jobs 1]

Writes figures (PNG + PDF, with their README) and the per-paper reports under ``--out``; the
quick-budget versions that ``make reproduce`` regenerates stay in figures/ and
paper_checks/reports/. Expect about 10-15 minutes on this project's 2-core machine.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from varlab import cli
from varlab.claims import BUDGETS


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="simulations/full")
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args(argv)
    budget = replace(BUDGETS["full"], n_jobs=args.n_jobs)
    out = Path(args.out)
    start = time.perf_counter()
    cli.run_figures(None, budget, out / "figures")
    cli.run_checks(None, budget, out / "reports")
    print(f"full budget: done in {time.perf_counter() - start:.0f} s -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
