"""Paper 004 at the full budget: the claims (100,000 repetitions per simulated point; Table II with
n = 1000 unit-norm rows and 10 trials per cell, the regression tables with 10 splits) and the
figures, into simulations/p004/.

    nice -n 10 python simulations/p004_full.py [--out simulations/p004] [--n-jobs 1] [--skip-figures]

Resumable: a claim whose verdict is stored in <out>/verdicts/<id>.json with the claim's current
statement, or a figure whose <out>/<id>.png exists, is skipped (delete it to redo it; a claim
whose statement changed is rerun). Claims and figures run in one process,
so a figure that shows a claim's simulation or experiment reuses it; the report
<out>/report.md / report.json is rebuilt from the stored verdicts, and <out>/timings.json holds the
seconds each item took in the runs that computed it.
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

PAPER = "004"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "simulations" / f"p{PAPER}")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--skip-figures", action="store_true")
    args = parser.parse_args(argv)
    budget = replace(claims.BUDGETS["full"], n_jobs=args.n_jobs)
    out = args.out
    (out / "verdicts").mkdir(parents=True, exist_ok=True)
    timings_path = out / "timings.json"
    timings = json.loads(timings_path.read_text()) if timings_path.exists() else {}

    def timed(item, work):
        start = time.perf_counter()
        result = work()
        timings[item] = round(time.perf_counter() - start, 1)
        timings_path.write_text(json.dumps(timings, indent=1) + "\n")
        return result

    verdicts = []
    for c in claims.claims(PAPER):
        path = out / "verdicts" / f"{c.id}.json"
        if not path.exists() or json.loads(path.read_text())["statement"] != c.statement:
            verdict = timed(c.id, lambda: c.run(budget))
            path.write_text(json.dumps(verdict.to_json(), indent=1) + "\n")
            print(f"{c.id}: {verdict.verdict} ({timings[c.id]} s)", flush=True)
        verdicts.append(claims.Verdict(**json.loads(path.read_text())))
    claims.write_report(verdicts, out, title=claims.paper_title(PAPER) + " - full budget", budget=budget)
    if not args.skip_figures:
        for f in plotting.figures(PAPER):
            path = out / f"{f.id}.png"
            if not path.exists():
                timed(f.id, lambda: f.build(budget).savefig(path, dpi=120))
                print(f"{f.id}: {timings[f.id]} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
