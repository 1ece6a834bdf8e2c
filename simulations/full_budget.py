"""Figures and paper checks at the papers' full budget (10^5 repetitions per simulated point).

    python simulations/full_budget.py [--out simulations/full] [--n-jobs 1] [--paper 000 ...]

Writes the figures (PNG + PDF) and the per-paper reports under ``--out``; the quick-budget
versions that ``make reproduce`` regenerates stay in figures/ and paper_checks/reports/. Papers,
claims and figures are discovered (``varlab.claims.papers()``, ``varlab.plotting.figures()``);
claims run first, so the figures that show a claim's numbers reuse its cached simulation.
Expect about 15-20 minutes for 000 and 001 on this project's 2-core machine.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from varlab import claims, plotting


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="simulations/full")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--paper", action="append", help="a paper to run (default: all)")
    args = parser.parse_args(argv)
    budget = replace(claims.BUDGETS["full"], n_jobs=args.n_jobs)
    out = Path(args.out)
    start = time.perf_counter()
    for paper in args.paper or claims.papers():
        verdicts = []
        for item in claims.claims(paper):
            began = time.perf_counter()
            verdicts.append(item.run(budget))
            print(f"[{paper}] {item.id}: {verdicts[-1].verdict} ({time.perf_counter() - began:.0f} s)",
                  file=sys.stderr)
        claims.write_report(verdicts, out / "reports" / paper, budget=budget,
                            title=f"Paper {paper}: {claims.paper_title(paper)} - claims checked by "
                                  "varlab (full budget)")
        (out / "figures").mkdir(parents=True, exist_ok=True)
        for item in plotting.figures(paper):
            fig = item.build(budget)
            for suffix in ("png", "pdf"):
                fig.savefig(out / "figures" / f"{item.id}.{suffix}", dpi=150,
                            metadata={"CreationDate": None} if suffix == "pdf" else None)
            plotting.plt.close(fig)
            print(f"[{paper}] figure {item.id} ({item.source})", file=sys.stderr)
    print(f"full budget: done in {time.perf_counter() - start:.0f} s -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
