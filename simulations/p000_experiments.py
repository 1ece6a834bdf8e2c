"""Paper 000's real-data experiments (Tables 1-2, Figs. 10-16) at a budget's slice, resumable.

    python simulations/p000_experiments.py [--budget quick|full|test] [--out simulations/p000]
        [--datasets letter segment ...] [--ks 16 32 ...] [--max-minutes 25] [--only svm|hashing]
        [--figures] [--report] [--n-jobs 2]

Every finished unit — (dataset, method, grid point, repetition) -> accuracy — is appended to
``<out>/<kind>_<slice>.jsonl`` as it finishes (flushed, fsynced); a killed run restarts where it
stopped, recomputing nothing finished, and gives the same accuracies (the timings are
measurements). ``--max-minutes`` stops starting new units after that time (the store stays
consistent; run again to continue); ``--n-jobs`` runs the units in that many worker processes.

Kinds: ``svm`` (Tables 1-2) and ``svm_libsvm`` (the same on features scaled to [-1, 1] over the
training rows, as LIBSVM's svm-scale does); ``hashing`` (§5, Figs. 10-16) and ``hashing_libsvm``
(§5 on the scaled features, ``hashing.SCALED_SLICES``), each after its kernel-SVM targets on any
split the table slice does not have (``svm_targets[_libsvm]``). Hashing units run k outermost, so
a run cut short has every dataset and repetition up to some k; ``--ks`` computes another k grid
than the slice's, for both hashing kinds (the tables, figures and report use the slice's).

When every unit of a dataset is stored, its rows go into ``<out>/<slice>/``: ``svm_table.md``,
``svm_table_scaled.md``, ``hashing_table.md``, ``hashing_table_scaled.md``. With ``--figures``
(default ``--out``, every dataset done): Figs. 10 and 16 and the accuracy-against-k summaries.
With ``--report`` (default ``--out``, every dataset done): the experiment claims (Tables 1-2 and
§5) checked on the stored units, in ``<out>/<slice>/report.{md,json}``. The slices are
``paper_checks.p000.svm.SLICES`` and ``paper_checks.p000.hashing_units.SLICES``.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paper_checks.p000 import hashing_claims, hashing_features, hashing_figures, hashing_summary  # noqa: E402
from paper_checks.p000 import hashing_units as hashing  # noqa: E402
from paper_checks.p000 import svm  # noqa: E402
from varlab import claims, plotting  # noqa: E402


def _complete(units, store) -> bool:
    return all(svm.unit_key(**unit) in store for unit in units)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="full", choices=sorted(claims.BUDGETS))
    parser.add_argument("--out", default=str(svm.RESULTS))
    parser.add_argument("--datasets", nargs="+", help="restrict to these datasets of the slice")
    parser.add_argument("--ks", nargs="+", type=int, help="hashing: compute this k grid instead of the slice's")
    parser.add_argument("--only", choices=("svm", "hashing"))
    parser.add_argument("--max-minutes", type=float, default=None)
    parser.add_argument("--figures", action="store_true")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--n-jobs", type=int, default=1,
                        help="worker processes for the units (the accuracies do not depend on it)")
    args = parser.parse_args(argv)
    budget = claims.budget(args.budget)
    name = svm.slice_name(budget)
    out = Path(args.out)
    deadline = time.monotonic() + args.max_minutes * 60 if args.max_minutes else None
    table_slice, hashing_slice = svm.SLICES[name], hashing.SLICES[name]
    wanted = set(args.datasets or [d for d, _, _ in table_slice.datasets])
    unknown = wanted - {d for d, _, _ in table_slice.datasets}
    if unknown:
        parser.error(f"--datasets: {sorted(unknown)} not in the {name!r} slice")
    progress = False if args.no_progress else None      # None: a bar where stderr is a terminal
    # the kernel-SVM tables: on the shipped features, and on features scaled as LIBSVM's svm-scale does
    tables = [(None, "svm_table.md")] + [(scaling, "svm_table_scaled.md") for scaling in svm.SCALINGS]
    svm_stores = {scaling: svm.unit_store(svm.store_kind(scaling), name, out) for scaling, _ in tables}
    scalings = [None, *svm.SCALINGS]
    hashing_stores = {scaling: svm.unit_store(svm.store_kind(scaling, "hashing"), name, out) for scaling in scalings}
    order = [d for d, _, _ in table_slice.datasets if d in wanted]
    stopped = False
    try:
        if args.only != "hashing":
            for scaling, _ in tables:
                for dataset in order:
                    units = [u for u in svm.svm_units(table_slice, scaling) if u["dataset"] == dataset]
                    svm.run_units(units, svm_stores[scaling], svm.run_svm_unit, progress=progress,
                                  n_jobs=args.n_jobs, deadline=deadline,
                                  description=f"kernel SVMs {dataset} ({name}{', scaled' if scaling else ''})")
        for scaling in scalings if args.only != "svm" else ():
            # the kernel-SVM targets and NRFF's gamma first
            hashing.kernel_records(budget, out, progress=progress, n_jobs=args.n_jobs, deadline=deadline,
                                   scaling=scaling)
            slice_ = hashing.slice_for(budget, scaling)
            computed = replace(slice_, ks=tuple(args.ks)) if args.ks else slice_
            units = [u for u in hashing.hashing_units(budget, computed, out, scaling) if u["dataset"] in wanted]
            svm.run_units(units, hashing_stores[scaling], hashing_features.run_hashing_unit, progress=progress,
                          n_jobs=args.n_jobs, deadline=deadline,
                          description=f"GCWS/NRFF ({name}{', scaled' if scaling else ''})")
    except claims.DeadlineReached:
        stopped = True
        print(f"--max-minutes reached: stopped; run again to continue ({out})", file=sys.stderr)
    tables_done = {}
    for scaling, filename in tables:
        units = list(svm.svm_units(table_slice, scaling))
        done = [d for d, _, _ in table_slice.datasets
                if _complete([u for u in units if u["dataset"] == d], svm_stores[scaling])]
        records = [svm_stores[scaling].get(svm.unit_key(**u)) for u in units if u["dataset"] in done]
        if done:
            svm.write_table(svm.table_rows(records), out / name / filename, slice_=table_slice,
                            records=records, scaling=scaling)
        tables_done[scaling] = done
    svm_done = tables_done[None]
    hashing_done = {scaling: [] for scaling in scalings}
    for scaling in scalings if args.only != "svm" else ():
        units = list(hashing.hashing_units(budget, hashing.slice_for(budget, scaling), out, scaling))
        done = [d for d in hashing_slice.datasets
                if _complete([u for u in units if u["dataset"] == d], hashing_stores[scaling])]
        if done:
            records = [hashing_stores[scaling].get(svm.unit_key(**u)) for u in units if u["dataset"] in done]
            hashing_summary.write_table(budget, records, hashing.kernel_records(budget, out, scaling=scaling),
                                        out / name / f"hashing_table{'_scaled' if scaling else ''}.md",
                                        datasets=done, scaling=scaling)
        hashing_done[scaling] = done
    all_hashing_done = all(set(hashing_slice.datasets) <= set(done) for done in hashing_done.values())
    if args.figures and out.resolve() == svm.RESULTS and all_hashing_done:
        # the real-data figures; they read the same stores (the default directory of quick/full)
        real_data = [recipe for recipe in plotting.figures("000") if recipe.build.__module__ == hashing_figures.__name__]
        plotting.write_figures(real_data, budget, out / name, formats=("png", "pdf"))
    if args.report and out.resolve() == svm.RESULTS and all_hashing_done \
            and all(len(done) == len(table_slice.datasets) for done in tables_done.values()):
        items = [c for c in claims.claims("000") if c.origin in (svm.__name__, hashing_claims.__name__)]
        verdicts = claims.run_claims(items, budget, force=True)
        # 000's results not checked are all real-data ones (not shipped offline, training times)
        claims.write_report(verdicts, out / name, budget=budget, not_checked=claims.not_checked("000"),
                            title=claims.paper_title("000") + f" - real-data experiments, slice '{name}'")
    print(f"slice {name!r}: kernel SVM tables done for {svm_done} (scaled: {tables_done['libsvm']}); "
          f"hashing done for {hashing_done[None]} (scaled: {hashing_done['libsvm']}) -> {out}",
          file=sys.stderr)
    return 3 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
