"""One paper's claims and figures at the full budget, resumable (used by simulations/pNNN_full.py).

``run(paper, argv, description)`` parses ``[--out simulations/pNNN] [--n-jobs 1] [--skip-figures]``;
a claim or figure whose output exists in --out is skipped (delete it to redo it). Claims and
figures run in one process, so a figure that shows a claim's simulation reuses it. Writes
verdicts/<id>.json, report.md / report.json (claims) and the figures as PNG, and prints the time of
each item.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import claims, plotting  # noqa: E402


def run(paper: str, argv=None, description: str = "") -> int:
    parser = argparse.ArgumentParser(description=description or f"paper {paper} at the full budget")
    parser.add_argument("--out", default=f"simulations/p{paper}")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--skip-figures", action="store_true")
    args = parser.parse_args(argv)
    budget = replace(claims.BUDGETS["full"], n_jobs=args.n_jobs)
    out = Path(args.out)
    (out / "verdicts").mkdir(parents=True, exist_ok=True)
    verdicts = []
    for c in claims.claims(paper):
        path = out / "verdicts" / f"{c.id}.json"
        if path.exists():
            verdicts.append(claims.Verdict(**json.loads(path.read_text())))
            continue
        start = time.perf_counter()
        verdict = c.run(budget)
        path.write_text(json.dumps(verdict.to_json(), indent=1))
        verdicts.append(verdict)
        print(f"{c.id}: {verdict.verdict} ({time.perf_counter() - start:.0f} s)", flush=True)
    claims.write_report(verdicts, out, title=claims.paper_title(paper) + " - full budget", budget=budget)
    if not args.skip_figures:
        for f in plotting.figures(paper):
            path = out / f"{f.id}.png"
            if path.exists():
                continue
            start = time.perf_counter()
            f.build(budget).savefig(path, dpi=120)
            print(f"{f.id}: {time.perf_counter() - start:.0f} s", flush=True)
    return 0
