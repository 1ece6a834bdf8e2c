"""Paper 003 at the full budget: the claims (100,000 repetitions per point; the high-d moment
matching and Sobol points at the parts of the budget their claims state) and the experiments of
``experiments.SIZES["full"]``: 100 repetitions of the Gram experiments at n = 1000 points (Figs.
1-2 on LR500, texture, satimage, spambase and optdigits; Fig. 3 on LR500 and texture at m = 2048)
and Table 1 (claim and figure 003.table1: 5 trials of PCR on 4096 features, up to 8000 training
rows, on texture). ``NOT_RUN`` says what the paper's experiments have that this definition leaves
out, and why.

    nice -n 15 python simulations/p003_full.py [--out simulations/p003] [--only ID ...] [--force]

Resumable at three levels, all in the budget's store (``claims.BUDGETS["full"].stored_in(out)``,
``varlab.claims.Store`` JSON-lines files): a finished claim is a record of ``<out>/verdicts.jsonl``
(the runner ``varlab.claims.run_claims``), a finished piece of an experiment (one data set and m
of Figs. 1-2, one data set and bandwidth of Fig. 3, one data set and trial of Table 1) a record
of ``<out>/experiments.jsonl`` (``paper_checks/p003/experiments.py``), and a finished figure is
``<out>/figures/<id>.png|pdf`` (``varlab.plotting.write_figures``); the simulations of a claim keep their finished blocks under
``.varlab-checkpoints/p003-full`` (not committed). A rerun skips what exists (``--force`` redoes
the selected claims and figures). The report ``<out>/report.md`` is rebuilt from the stored
verdicts after the claims and says which are missing, and which pieces and figures are stored;
``<out>/figures/index.json`` holds the seconds each figure took (a claim's and a piece's are in
their records, "seconds").

Cost, on the shared 2-core machine of the runs (one BLAS thread, niced at 15; ``<out>/figures/index.json``
and the records' "seconds" hold the wall times, which the load of other jobs (5-14) stretches up to
~7x the CPU time): the claims 32 min; one Gram piece (100 repetitions x 7 samplers, n = 1000)
from about 1 min (m = 32) to 5.5 min (LR500, m = 2048) of one unloaded core, BLAS-bound (2 m n^2
multiply-adds per Gram estimate); a Table 1 trial on texture (2,750 rows) 280-530 s wall; a PCR fit on 8000 rows needs an 8000 x 8000 eigendecomposition (about 8.5
min on one loaded core, extrapolated from 27 s at n = 3000).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import claims, cli, mc, plotting  # noqa: E402

#: what the full definition leaves out and why (the run's measured times; see the docstring)
NOT_RUN = ("Left out for lack of machine time in the run of 2026-11-23 (2 cores shared with "
           "other jobs at load 3-14: 7-40% of a core per niced process), to be added by a rerun: "
           "Table 1 on LR500 with the paper's 8000 training rows (20 fits, each an 8000 x 8000 "
           "eigendecomposition: about 3 h of one loaded core). To add it, put lr500 back into "
           "SIZES['full']['table_sets'] and rerun with --only 003.table1 003_table1 --force; the "
           "trials are stored one by one.")


def _experiments(out: Path, budget) -> list:
    """Lines on the experiments of the full definition (experiments.SIZES["full"]): the stored
    pieces per experiment and data set with their summed wall seconds, and the figures built."""
    from paper_checks.p003 import experiments

    size = experiments.sizes(budget)
    store = claims.store_for(budget, experiments.STORE_NAME)
    lines = ["## Full-budget experiments: what ran", "",
             f"Definition (paper_checks/p003/experiments.py, SIZES['full']): n = {size['n']} points, "
             f"{size['reps']} repetitions x 7 samplers; Figs. 1-2 on {', '.join(size['sets'])}; "
             f"Fig. 3 on {', '.join(size['sets3'])} at m = {size['m3']}, bandwidths sigma_10NN x "
             f"{', '.join(f'{f:g}' for f in experiments.BANDWIDTH_FACTORS)}; Table 1 on "
             f"{', '.join(size['table_sets'])} with (n_train, m, components, trials) = {size['table']} "
             f"(texture has 2,750 training rows, so it uses all of them). {NOT_RUN}", "",
             "| experiment | data set | pieces stored | seconds (sum of the stored pieces' wall times) |",
             "|---|---|---|---|"]
    for (what, name), keys in experiments.pieces(budget).items():
        stored = [store.get(key) for key in keys if key in store]
        seconds = sum(record["seconds"] for record in stored)
        lines.append(f"| {what} | {name} | {len(stored)} of {len(keys)} | {seconds:.0f} |")
    built = [item.id for item in plotting.figures("003") if (out / "figures" / f"{item.id}.png").exists()]
    missing = [item.id for item in plotting.figures("003") if item.id not in built]
    lines += ["", f"Figures built (simulations/p003/figures/): {', '.join(built) or 'none'}; not yet "
                  f"built: {', '.join(missing) or 'none'}.", ""]
    return lines


def _report(out: Path, budget) -> None:
    """The report of the stored verdicts (a claim's deciding run where there is one); the claims
    not yet run are named in its title."""
    stored = claims.stored_verdicts(claims.claims("003"), budget, decided=True)
    missing = [c.id for c in claims.claims("003") if c.id not in stored]
    claims.write_report(list(stored.values()), out, budget=budget, not_checked=claims.not_checked("003"),
                        title=f"Paper 003: {claims.paper_title('003')} - claims checked by varlab "
                              f"(full budget; not yet run: {', '.join(missing) or 'none'})")
    report = out / "report.md"
    report.write_text(report.read_text() + "\n".join(_experiments(out, budget)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "simulations" / "p003")
    parser.add_argument("--only", nargs="+", help="claim or figure ids (default: all of paper 003)")
    parser.add_argument("--force", action="store_true", help="redo the selected claims and figures")
    cli.add_until_decided_arguments(parser)
    args = parser.parse_args(argv)
    until_decided = cli.until_decided_from(args)

    out = args.out
    budget = claims.BUDGETS["full"].stored_in(out)
    wanted = lambda item_id: args.only is None or item_id in args.only  # noqa: E731

    with mc.configure(checkpoint_root=ROOT / ".varlab-checkpoints" / "p003-full"):
        claims.run_claims([item for item in claims.claims("003") if wanted(item.id)], budget,
                          force=args.force, until_decided=until_decided)
        _report(out, budget)
        plotting.write_figures([item for item in plotting.figures("003") if wanted(item.id)], budget,
                               out / "figures", formats=("png", "pdf"), redo=args.force)
    _report(out, budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
