"""Paper 003 at the full budget: the claims (100,000 repetitions per point; the high-d moment
matching and Sobol points at the fractions their summaries state; 003.table1 with 5 trials of
PCR on 4096 features and 8000 training rows) and the figures (100 repetitions of the Gram
experiments on LR500, texture, satimage, spambase and optdigits at n = 1000 points; Table 1 as
003.table1).

    nice -n 15 python simulations/p003_full.py [--out simulations/p003] [--only ID ...] [--force]

Resumable at three levels: a finished claim is ``<out>/verdicts/<id>.json``, a finished figure
``<out>/figures/<id>.png|pdf``, and a finished piece of an experiment (one data set and m of
Figs. 1-2, one data set and bandwidth of Fig. 3, one data set and trial of Table 1)
``<out>/pieces/<key>.json``; the simulations of a claim keep their finished blocks under
``.varlab-checkpoints/p003-full`` (not committed). A rerun skips what exists (``--force`` redoes the selected claims and figures). The report
``<out>/report.md`` is rebuilt from the stored verdicts after every claim and says which are
missing; ``<out>/timings.json`` holds the seconds each item took.

Cost, measured on the shared 2-core machine of the first run (one core, niced at 15, load 5-9;
``<out>/timings.json`` and the pieces' "seconds" hold the wall times): the claims 32 min
(varlab.003.mm_law 15 min, 003.qmc_high_dim 9.5 min, 003.cor2.eq15 3 min); Figs. 1-2 about 10-20
min per data set and m at n = 1000 (100 repetitions x 7 samplers), i.e. hours for the 5 sets;
Fig. 3 8 such pieces at m = 2048; Table 1 (claim 003.table1, shared with the figure) 40 PCR fits
on 8000 x 8192 features (an 8000 x 8000 eigendecomposition each, minutes per fit).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import claims, mc, plotting  # noqa: E402


def _report(out: Path, budget) -> None:
    stored = {p.stem: json.loads(p.read_text()) for p in (out / "verdicts").glob("*.json")}
    verdicts = [claims.Verdict(**stored[c.id]) for c in claims.claims("003") if c.id in stored]
    missing = [c.id for c in claims.claims("003") if c.id not in stored]
    claims.write_report(verdicts, out, budget=budget,
                        title=f"Paper 003: {claims.paper_title('003')} - claims checked by varlab "
                              f"(full budget; not yet run: {', '.join(missing) or 'none'})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "simulations" / "p003")
    parser.add_argument("--only", nargs="+", help="claim or figure ids (default: all of paper 003)")
    parser.add_argument("--force", action="store_true", help="redo the selected claims and figures")
    args = parser.parse_args(argv)
    from paper_checks.p003 import experiments

    budget = claims.BUDGETS["full"]
    out = args.out
    for folder in ("verdicts", "figures", "pieces"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    experiments.STORE = out / "pieces"
    timings_path = out / "timings.json"
    timings = json.loads(timings_path.read_text()) if timings_path.exists() else {}
    wanted = lambda item_id: args.only is None or item_id in args.only  # noqa: E731

    def timed(item_id, began):
        timings[item_id] = round(time.perf_counter() - began, 1)
        timings_path.write_text(json.dumps(timings, indent=1, sort_keys=True) + "\n")
        return timings[item_id]

    with mc.configure(checkpoint_root=ROOT / ".varlab-checkpoints" / "p003-full"):
        for item in claims.claims("003"):
            path = out / "verdicts" / f"{item.id}.json"
            if not wanted(item.id) or (path.exists() and not args.force):
                continue
            began = time.perf_counter()
            verdict = item.run(budget)
            path.write_text(json.dumps(verdict.to_json(), indent=1) + "\n")
            print(f"{item.id}: {verdict.verdict} ({timed(item.id, began):.0f} s)", file=sys.stderr, flush=True)
            _report(out, budget)
        for item in plotting.figures("003"):
            png = out / "figures" / f"{item.id}.png"
            if not wanted(item.id) or (png.exists() and not args.force):
                continue
            began = time.perf_counter()
            fig = item.build(budget)
            for suffix in ("png", "pdf"):
                fig.savefig(out / "figures" / f"{item.id}.{suffix}", dpi=120,
                            metadata={"CreationDate": None} if suffix == "pdf" else None)
            plotting.plt.close(fig)
            print(f"figure {item.id} ({timed(item.id, began):.0f} s)", file=sys.stderr, flush=True)
    _report(out, budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
