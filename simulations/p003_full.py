"""Paper 003 at the full budget: the claims (100,000 repetitions per point; the high-d moment
matching and Sobol points at the stated fractions) and the figures (100 repetitions of the Gram
experiments on LR500, texture, satimage, spambase and optdigits; Table 1 with m = 4096 features).

    python simulations/p003_full.py [--out simulations/p003] [--n-jobs 1] [--skip-figures]

Resumable: a claim or figure whose output exists in --out is skipped (delete it to redo it).
Writes report.md / report.json (claims) and the figures as PNG under --out.
"""
from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

from varlab import claims, plotting


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="simulations/p003")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--skip-figures", action="store_true")
    args = parser.parse_args(argv)
    budget = replace(claims.BUDGETS["full"], n_jobs=args.n_jobs)
    out = Path(args.out)
    (out / "verdicts").mkdir(parents=True, exist_ok=True)
    verdicts = []
    for c in claims.claims("003"):
        path = out / "verdicts" / f"{c.id}.json"
        if path.exists():
            verdicts.append(claims.Verdict(**json.loads(path.read_text())))
            continue
        start = time.perf_counter()
        verdict = c.run(budget)
        path.write_text(json.dumps(verdict.to_json(), indent=1))
        verdicts.append(verdict)
        print(f"{c.id}: {verdict.verdict} ({time.perf_counter() - start:.0f} s)", flush=True)
    claims.write_report(verdicts, out, title=claims.paper_title("003") + " - full budget", budget=budget)
    if not args.skip_figures:
        for f in plotting.figures("003"):
            path = out / f"{f.id}.png"
            if path.exists():
                continue
            start = time.perf_counter()
            f.build(budget).savefig(path, dpi=120)
            print(f"{f.id}: {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
