"""Figures and paper checks at the papers' full budget (10^5 repetitions per simulated point).

    python simulations/full_budget.py [--out simulations/full] [--n-jobs 1] [--paper 000 ...]
                                      [--scheduler ADDRESS] [--checkpoint DIR]

Runs ``varlab check`` and ``varlab figures`` at ``--budget full`` into ``--out`` (reports/ and
figures/, each with a manifest that ``varlab verify`` re-checks); the quick-budget versions that
``make reproduce`` regenerates stay in figures/ and paper_checks/reports/. Resumable: every
finished simulation block and every finished claim (``varlab.claims.check``, its verdicts in
``<checkpoint>/verdicts.jsonl``) is stored under ``--checkpoint`` (default
``.varlab-checkpoints``), so a killed run restarts where it stopped and gives the same output.
Expect about 15-20 minutes for 000's and 001's simulated claims on this project's 2-core machine.
000's real-data claims (Tables 1-2, §5) read the full slice's stores that
``simulations/p000_experiments.py --budget full`` fills (hours; their own report is
simulations/p000/full/report.md); simulations/full/reports/000 predates them.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from varlab import claims, cli, manifest, mc, plotting


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="simulations/full")
    parser.add_argument("--n-jobs", default="1")
    parser.add_argument("--paper", nargs="+", help="papers to run (default: all)")
    parser.add_argument("--scheduler")
    parser.add_argument("--checkpoint", default=".varlab-checkpoints")
    parser.add_argument("--force", action="store_true",
                        help="rerun the claims whose verdicts are stored (their simulation blocks "
                             "are still read from the checkpoint)")
    cli.add_until_decided_arguments(parser)
    args = parser.parse_args(argv)
    common = ["--budget", "full", "--n-jobs", args.n_jobs, "--checkpoint", args.checkpoint]
    common += ["--scheduler", args.scheduler] if args.scheduler else []
    # the claims through the one runner: finished verdicts in <checkpoint>/verdicts.jsonl
    # (varlab.claims.Store), simulation blocks in <checkpoint>/simulations (the engine's)
    n_jobs = int(args.n_jobs) if args.n_jobs.lstrip("-").isdigit() else args.n_jobs
    with mc.configure(n_jobs=n_jobs, backend="dask" if args.scheduler else None, scheduler=args.scheduler,
                      checkpoint_root=Path(args.checkpoint) / "simulations"):
        checked = claims.check(args.paper, claims.budget("full").stored_in(args.checkpoint),
                               out=f"{args.out}/reports", force=args.force,
                               until_decided=cli.until_decided_from(args))
    manifest.write(f"{args.out}/reports", run={"command": "python simulations/full_budget.py", "papers": list(checked),
                                                "budget": "full", "n_repetitions": claims.BUDGETS["full"].n_repetitions,
                                                "random_state": claims.BUDGETS["full"].random_state},
                   files=[f"{paper}/{name}" for paper in checked for name in ("points.md", "report.json", "report.md")])
    figures = [f.id for paper in (args.paper or [None]) for f in plotting.figures(paper)]
    return cli.main(["figures", "--out", f"{args.out}/figures", "--only", *figures, *common])


if __name__ == "__main__":
    sys.exit(main())
