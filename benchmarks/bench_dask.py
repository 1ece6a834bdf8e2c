"""Benchmark: the engine on dask.distributed against joblib, side by side in one process.

Workload (issue 33): NRFF, rho = 0.5, gamma = 1, the 27 distinct rounded values of 30 log-spaced k
in 1..1000, 100,000 repetitions (100 M samples; a sample is one (x, y, w) triple; the issue
measured 30,000, which the fused engine now runs in a quarter of a second, too short for a
cluster's fixed costs per run). For N = 2 and 16:
a ``LocalCluster`` of N worker processes x 1 thread against joblib (loky) ``n_jobs=N``, interleaved,
both warmed up first. The workers start without dask's ``MALLOC_TRIM_THRESHOLD_`` (as
docs/engine.md advises); at N = 16 two more rows keep dask's default environment, and cut the
tasks as the engine did before issue 33 (for a fixed 4 workers). Every result is compared with
n_jobs = 1 bit for bit. Targets: dask >= 0.9 x joblib at each N, the same bits.

Writes its section to benchmarks/results/dask.md (``python benchmarks/run.py dask`` runs it and
assembles benchmarks/RESULTS.md).

    python benchmarks/bench_dask.py [--repeats 3]
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import mc  # noqa: E402

TARGET = 0.9
REPETITIONS = 100_000
WORKLOAD = dict(k=np.unique(np.geomspace(1, 1000, 30).round().astype(int)), rho=0.5, gamma=1.0,
                n_repetitions=REPETITIONS, random_state=2024)
SAMPLES = REPETITIONS * 1000
#: tasks of the engine before issue 33: blocks / (4 x a fixed 4 dask workers)
OLD_DASK_CHUNK = -(-REPETITIONS // 65 // 16)


def rate(**options) -> tuple[float, mc.SimulationResult]:
    """(M samples/s, result) of one run of the workload."""
    start = time.perf_counter()
    result = mc.simulate("nrff", progress=False, **WORKLOAD, **options)
    return SAMPLES / (time.perf_counter() - start) / 1e6, result


def cluster(n_workers: int, *, malloc_trim: bool):
    """A LocalCluster of n_workers x 1 thread and its client (dask's MALLOC_TRIM_THRESHOLD_ unset
    unless malloc_trim)."""
    import dask
    import distributed

    trim = {} if malloc_trim else {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
    with dask.config.set(trim):
        local = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, silence_logs=50)
    return local, distributed.Client(local, set_as_default=False)


def idle_cpu(seconds: float = 3.0) -> float:
    """CPU seconds per second that this process's children (an idle cluster) use."""
    import psutil

    def total():
        times = [p.cpu_times() for p in psutil.Process().children(recursive=True)]
        return sum(t.user + t.system for t in times)

    before = total()
    time.sleep(seconds)
    return (total() - before) / seconds


def compare(n: int, repeats: int, reference, *, malloc_trim=False, chunk_size=None) -> dict:
    """Interleaved runs of dask (n workers) and joblib (n_jobs=n): rates and bit-identity."""
    local, client = cluster(n, malloc_trim=malloc_trim)
    try:
        rate(backend="dask", scheduler=client, chunk_size=chunk_size)          # warm-up
        rate(n_jobs=n)
        idle = idle_cpu()
        runs = {"dask": [], "joblib": []}
        same = True
        for _ in range(repeats):
            speed, result = rate(backend="dask", scheduler=client, chunk_size=chunk_size)
            runs["dask"].append(speed)
            same &= result == reference
            runs["joblib"].append(rate(n_jobs=n)[0])
    finally:
        client.close()
        local.close()
    return {"runs": runs, "same": same, "idle": idle, "load": os.getloadavg()[0]}


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "cpu"


def row(label: str, n: int, measured: dict, *, target: bool = True) -> str:
    dask, joblib = measured["runs"]["dask"], measured["runs"]["joblib"]
    ratio = max(dask) / max(joblib)
    met = ("met" if ratio >= TARGET and measured["same"] else "NOT met") if target else "(diagnosis)"
    return (f"| {label} | {n} | {max(dask):.1f} ({', '.join(f'{v:.1f}' for v in dask)}) | "
            f"{max(joblib):.1f} ({', '.join(f'{v:.1f}' for v in joblib)}) | **{ratio:.2f}** "
            f"({statistics.median(dask) / statistics.median(joblib):.2f}) | "
            f"{'yes' if measured['same'] else 'NO'} | {measured['idle']:.2f} | "
            f"{measured['load']:.1f} | {met} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "dask.md")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    one, reference = rate(n_jobs=1)
    rows = [row("dask, `MALLOC_TRIM_THRESHOLD_` unset", n, compare(n, args.repeats, reference))
            for n in (2, 16)]
    rows.append(row("dask, engine's old task cut (4 x a fixed 4 workers)", 16,
                    compare(16, args.repeats, reference, chunk_size=OLD_DASK_CHUNK), target=False))
    # last: a nanny copies its environment into this process's os.environ
    rows.append(row("dask, dask's default `MALLOC_TRIM_THRESHOLD_=65536`", 16,
                    compare(16, args.repeats, reference, malloc_trim=True), target=False))
    lines = [
        "## The engine on dask.distributed against joblib (`bench_dask.py`)", "",
        f"Run {datetime.datetime.now().isoformat(timespec='seconds')} on {cpu_name()}, "
        f"{os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}, "
        f"numpy {np.__version__}; load average {load_before[0]:.1f} before "
        f"(the machine is shared: other processes ran beside this one, so the rates are lower "
        f"than on a quiet machine; each dask run is followed by its joblib run).", "",
        f"Workload: NRFF, rho = 0.5, gamma = 1, {WORKLOAD['k'].size} k in 1..1000, {REPETITIONS:,} "
        f"repetitions ({SAMPLES / 1e6:.0f} M samples); n_jobs = 1 gave {one:.1f} M samples/s (cold). Rates in "
        f"M samples/s, best of {args.repeats} (all runs); dask / joblib of the best runs (of the "
        "medians). Idle: CPU seconds per second that the idle cluster (scheduler, nannies, "
        "workers) used.", "",
        "| run | N | dask, N workers x 1 thread | joblib n_jobs = N | dask / joblib | same bits as "
        "n_jobs = 1 | idle cluster CPU | load after | target >= 0.9 |",
        "|---|---:|---|---|---:|---|---:|---:|---|",
        *rows, "",
    ]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
