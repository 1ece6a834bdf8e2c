"""Paper 004 at the full budget: the claims (100,000 repetitions per simulated point; Table II with
n = 1000 unit-norm rows and 10 trials per cell, the regression tables with 10 splits) and the
figures, into simulations/p004/.

    nice -n 10 python simulations/p004_full.py [--out simulations/p004] [--n-jobs 1] [--skip-figures]
                                               [--force]

Resumable: the budget keeps its finished pieces in <out>/store (``Budget.stored_in``): each
claim's verdict (``varlab.claims.run_claims``) and each unit of the real-data experiments
(``varlab.claims.run_units``), so a killed run redoes only what did not finish (``--force`` reruns
the claims). The figures are <out>/<id>.png (``varlab.plotting.write_figures``, their seconds in
<out>/index.json; a rerun skips a figure whose png exists: delete it to redo it). Claims and figures run in one process,
so a figure that shows a claim's simulation or experiment reuses it; the report
<out>/report.md / points.md / report.json is rebuilt from the verdicts.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import claims, cli, mc, plotting  # noqa: E402

PAPER = "004"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "simulations" / f"p{PAPER}")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--skip-figures", action="store_true")
    parser.add_argument("--force", action="store_true", help="rerun the claims whose verdicts are stored")
    cli.add_until_decided_arguments(parser)
    args = parser.parse_args(argv)
    out = args.out
    budget = replace(claims.BUDGETS["full"], n_jobs=args.n_jobs).stored_in(out / "store")
    # finished simulation blocks are kept (not committed), so a killed run resumes them too
    with mc.configure(checkpoint_root=ROOT / ".varlab-checkpoints" / "p004-full"):
        verdicts = claims.run_claims(claims.claims(PAPER), budget, force=args.force,
                                     until_decided=cli.until_decided_from(args))
    claims.write_report(verdicts, out, budget=budget, not_checked=claims.not_checked(PAPER),
                        title=claims.paper_title(PAPER) + " - full budget")
    if not args.skip_figures:
        plotting.write_figures(plotting.figures(PAPER), budget, out, formats=("png",), redo=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
