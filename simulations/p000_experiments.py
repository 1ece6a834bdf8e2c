"""Paper 000's real-data experiments (Tables 1-2, Figs. 10-16) at a budget's slice, resumable.

    python simulations/p000_experiments.py [--budget quick|full|test] [--out simulations/p000]
        [--datasets letter segment ...] [--max-minutes 25] [--only svm|hashing] [--figures]

Every finished unit — (dataset, method, grid point, repetition) -> accuracy — is appended to
``<out>/{svm,hashing}_<slice>.jsonl`` as it finishes (flushed, fsynced); a killed run restarts
where it stopped, recomputing nothing finished, and gives the same accuracies (the timings are
measurements). ``--max-minutes`` stops starting new units after that time (the store stays
consistent; run again to continue). When every unit of a dataset is stored, its rows go into
``<out>/<slice>/svm_table.md`` and ``hashing_table.md`` (and, with ``--figures`` and the default ``--out``, Figs. 10
and 16 when all their datasets are done). The slices are ``paper_checks.p000.svm.SLICES`` and
``paper_checks.p000.hashing_experiments.SLICES``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paper_checks.p000 import hashing_experiments as hashing  # noqa: E402
from paper_checks.p000 import svm  # noqa: E402
from varlab import claims, plotting  # noqa: E402


class _Deadline(Exception):
    pass


def _runner(function, deadline):
    def run(unit):
        if time.perf_counter() > deadline:
            raise _Deadline
        return function(unit)
    return run


def _complete(units, store) -> bool:
    return all(svm.unit_key(**unit) in store for unit in units)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="full", choices=sorted(claims.BUDGETS))
    parser.add_argument("--out", default=str(svm.RESULTS))
    parser.add_argument("--datasets", nargs="+", help="restrict to these datasets of the slice")
    parser.add_argument("--only", choices=("svm", "hashing"))
    parser.add_argument("--max-minutes", type=float, default=None)
    parser.add_argument("--figures", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    budget = claims.budget(args.budget)
    name = svm.slice_name(budget)
    out = Path(args.out)
    deadline = time.perf_counter() + (args.max_minutes * 60 if args.max_minutes else float("inf"))
    table_slice, hashing_slice = svm.SLICES[name], hashing.SLICES[name]
    wanted = set(args.datasets or [d for d, _, _ in table_slice.datasets])
    unknown = wanted - {d for d, _, _ in table_slice.datasets}
    if unknown:
        parser.error(f"--datasets: {sorted(unknown)} not in the {name!r} slice")
    progress = not args.no_progress
    svm_store, hashing_store = svm.store_for("svm", name, out), svm.store_for("hashing", name, out)
    order = [d for d, _, _ in table_slice.datasets if d in wanted]
    stopped = False
    try:
        for dataset in order:
            units = [u for u in svm.svm_units(table_slice) if u["dataset"] == dataset]
            svm.run_units(units, svm_store, _runner(svm.run_svm_unit, deadline), progress=progress,
                          description=f"kernel SVMs {dataset} ({name})")
        if args.only != "svm":
            for dataset in [d for d in hashing_slice.datasets if d in wanted]:
                units = [u for u in hashing.hashing_units(budget, hashing_slice, out) if u["dataset"] == dataset]
                svm.run_units(units, hashing_store, _runner(hashing.run_hashing_unit, deadline),
                              progress=progress, description=f"GCWS/NRFF {dataset} ({name})")
    except _Deadline:
        stopped = True
        print(f"--max-minutes reached: stopped; run again to continue ({out})", file=sys.stderr)
    svm_done = [d for d in order if _complete([u for u in svm.svm_units(table_slice) if u["dataset"] == d],
                                              svm_store)]
    svm_recs = [r for r in svm_store.records.values() if r["dataset"] in svm_done]
    if svm_done:
        svm.write_table(svm.table_rows(svm_recs), out / name / "svm_table.md", slice_=table_slice)
    hashing_done = [d for d in hashing_slice.datasets if d in svm_done and _complete(
        [u for u in hashing.hashing_units(budget, hashing_slice, out) if u["dataset"] == d], hashing_store)]
    if hashing_done:
        hashing.write_table(budget, list(hashing_store.records.values()), svm_recs,
                            out / name / "hashing_table.md", datasets=hashing_done)
    if args.figures and out.resolve() == svm.RESULTS and set(hashing_slice.datasets) <= set(hashing_done):
        # the figures read the same stores (the default directory of quick/full is this one)
        for figure_id in ("000_fig10", "000_fig16"):
            fig = plotting.get_figure(figure_id).build(budget)
            for suffix in ("png", "pdf"):
                fig.savefig(out / name / f"{figure_id}.{suffix}", dpi=120,
                            metadata={"CreationDate": None} if suffix == "pdf" else None)
            plotting.plt.close(fig)
    print(f"slice {name!r}: kernel SVM tables done for {svm_done}; hashing done for {hashing_done} -> {out}",
          file=sys.stderr)
    return 3 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
