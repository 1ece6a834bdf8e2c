"""Paper 002 (AsK-RFF) at the full budget: every claim (incl. 002.fig2: Fig. 2 with 1000 points,
M = d 2^1..2^10, 10 trials; 002.table1: Table 1 with 10 trials, C = 2^-5..2^5 by 5-fold CV, all
spambase and 3000 letter training rows), and the figures 002_fig1, 002_fig2, 002_table1.

    nice -n 15 python simulations/p002_full.py [--only ID ...] [--out simulations/p002] [--force]

Resumable at two levels, through the budget's store (``Budget.stored_in(out)``, one JSON-lines
file per store, ``varlab.claims.Store``): each finished claim's verdict is a record of
``<out>/verdicts.jsonl`` (``varlab.claims.run_claims``; ``--force`` reruns the selected claims),
and each trial of Fig. 2 and Table 1 a record of ``<out>/units.jsonl`` (kept even with ``--force``;
delete its lines to recompute them). Figures are ``<out>/figures/<id>.png|pdf``
(``varlab.plotting.write_figures``, their seconds in ``<out>/figures/index.json``; a rerun skips
what exists, ``--force`` redoes it). The report ``<out>/report.md`` is rebuilt from the stored
verdicts after every run and says which claims are still missing.

Cost, measured on the 2-core machine under load: a Fig. 2 trial is 6 n^2 M_max flops of float64
BLAS (M_max = 1024 d; frequencies drawn once, Grams accumulated by prefix): about 35 s for one
kernel on spambase, 10 s on letter; a Table 1 trial is 8 methods x 56 LinearSVC fits, about 1.5 min
on spambase and 10-15 min on letter (3000 rows, 26 one-vs-rest problems per fit, 2 CV jobs).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import claims, cli, plotting  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", help="claim or figure ids (default: all of paper 002)")
    parser.add_argument("--out", type=Path, default=ROOT / "simulations" / "p002")
    parser.add_argument("--force", action="store_true", help="redo finished outputs")
    cli.add_until_decided_arguments(parser)
    args = parser.parse_args(argv)
    until_decided = cli.until_decided_from(args)
    budget = claims.BUDGETS["full"].stored_in(args.out)
    wanted = lambda item_id: args.only is None or item_id in args.only
    everything = claims.claims("002")
    claims.run_claims([item for item in everything if wanted(item.id)], budget, force=args.force,
                      until_decided=until_decided)
    plotting.write_figures([item for item in plotting.figures("002") if wanted(item.id)], budget,
                           args.out / "figures", formats=("png", "pdf"), redo=args.force)
    # the report: the stored verdicts (it runs none of the claims)
    stored = claims.stored_verdicts(everything, budget, decided=True)
    missing = [item.id for item in everything if item.id not in stored]
    claims.write_report(list(stored.values()), args.out,
                        budget=budget, not_checked=claims.not_checked("002"),
                        title=f"Paper 002: {claims.paper_title('002')} - claims checked by varlab (full "
                              f"budget; not yet run: {', '.join(missing) or 'none'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
