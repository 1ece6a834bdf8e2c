"""Benchmark: the engine's fused kernels (varlab.mc.fused) against numpy, side by side in one
process (issue 33, items 1 and 4).

Workload: NRFF, rho = 0.5, gamma = 1, the 27 log-spaced k in 1..1000 of ``bench_engine``,
30,000 repetitions (a sample is one (x, y, w) triple). In one process, interleaved:

1. the raw numpy ceiling (``bench_engine.ceiling``: whole-array draws of the NRFF arguments and
   their two cosines, nothing else);
2. the fused-kernel ceiling: a hand numba loop drawing x, z and the phase from the generator
   inside the loop and taking the same two cosines (their products summed, nothing stored);
3. the engine with the numpy reference (``VARLAB_FUSED=0``) and with the fused kernels, at
   n_jobs = 1 .. the machine's CPUs (loky; the executor restarted when the switch changes, so its
   workers see it).

Targets: engine (fused, n_jobs = 1) >= 1.3 x the raw numpy ceiling and >= 0.85 x the fused
ceiling. Then paper 000's Figure 2 workload (``bench_engine.figure2``, which measured the 164 s
before the fused kernels) with numpy and fused at 1/10 of its budget, extrapolated linearly;
target: at most half of 164 s. Rates are wall clock, best of ``--repeats``; the CPU-time rates
of the n_jobs = 1 runs (``time.process_time``) are shown beside them, as the machine is shared.
Writes benchmarks/results/scale.md.

    python benchmarks/bench_scale.py [--repeats 5] [--repetitions 30000]
"""
from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np
from joblib.externals.loky import get_reusable_executor
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from bench_engine import K_GRID, ceiling, figure2  # noqa: E402

from varlab.mc import block_layout, fused, simulate  # noqa: E402

NUMPY_TARGET = 1.3
FUSED_TARGET = 0.85
FIGURE_BEFORE_S = 164.0
RHO, GAMMA = 0.5, 1.0


@numba.njit
def _fused_block(rng, n, k, root, s, rho):
    total = 0.0
    for _ in range(n * k):
        x = rng.standard_normal()
        z = rng.standard_normal()
        shift = rng.random() * 2.0 * math.pi - math.pi
        a = math.cos(root * x + shift)
        b = math.cos(root * (rho * x + s * z) + shift)
        total += a * a + a * b + b * b
    return total


def fused_ceiling(n_samples: int, k_max: int) -> tuple[float, float]:
    """(wall, CPU) samples/s of the hand numba loop, block by block as the engine's blocks."""
    reps, _ = block_layout(k_max)
    rng = np.random.default_rng(0)
    n_blocks = max(1, n_samples // (reps * k_max))
    root, s = math.sqrt(GAMMA), math.sqrt(1.0 - RHO * RHO)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(n_blocks):
        _fused_block(rng, reps, k_max, root, s, RHO)
    samples = n_blocks * reps * k_max
    return samples / (time.perf_counter() - start), samples / (time.process_time() - cpu)


def numpy_ceiling(n_samples: int, k_max: int) -> tuple[float, float]:
    """(wall, CPU) samples/s of ``bench_engine.ceiling`` (the same arguments and cosines)."""
    reps, _ = block_layout(k_max)
    samples = max(1, n_samples // (reps * k_max)) * reps * k_max
    cpu = time.process_time()
    rate = ceiling(n_samples, k_max, RHO, GAMMA, same_arguments=True)
    return rate, samples / (time.process_time() - cpu)


def switch(on: bool) -> None:
    """Set VARLAB_FUSED and restart loky's workers, so that they see it."""
    os.environ[fused.ENVIRONMENT] = "1" if on else "0"
    get_reusable_executor().shutdown(wait=True)


def engine(n_repetitions: int, n_jobs: int):
    """(wall, CPU) samples/s and the result of the NRFF workload."""
    start, cpu = time.perf_counter(), time.process_time()
    result = simulate("nrff", k=K_GRID, rho=RHO, gamma=GAMMA, n_repetitions=n_repetitions,
                      random_state=2024, n_jobs=n_jobs, progress=False)
    samples = n_repetitions * int(K_GRID[-1])
    return samples / (time.perf_counter() - start), samples / (time.process_time() - cpu), result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--repetitions", type=int, default=30_000)
    args = parser.parse_args(argv)
    k_max = int(K_GRID[-1])
    n_samples = args.repetitions * k_max
    cpus = os.cpu_count() or 1
    jobs = list(range(1, cpus + 1))
    load_before = os.getloadavg()

    runs: dict = {}
    results: dict = {}
    fused_ceiling(n_samples // 30, k_max)                       # compile
    with threadpool_limits(limits=1):
        for repeat in range(args.repeats):
            runs.setdefault("numpy ceiling", []).append(numpy_ceiling(n_samples, k_max))
            runs.setdefault("fused ceiling", []).append(fused_ceiling(n_samples, k_max))
            for mode in ((False, True) if repeat % 2 == 0 else (True, False)):
                switch(mode)
                engine(1000, jobs[-1])                          # warm the workers (imports, compile)
                for n_jobs in jobs:
                    wall, cpu, result = engine(args.repetitions, n_jobs)
                    label = f"engine, {'fused' if mode else 'numpy'}, n_jobs={n_jobs}"
                    runs.setdefault(label, []).append((wall, cpu if n_jobs == 1 else math.nan))
                    results[label] = result
    identical = all(result == results["engine, numpy, n_jobs=1"] for result in results.values())

    figure: dict = {False: [], True: []}                 # (wall, CPU) seconds, x10
    for mode in (False, True, True, False):
        switch(mode)
        cpu = time.process_time()
        wall = figure2(10_000)
        figure[mode].append((10 * wall, 10 * (time.process_time() - cpu)))
    switch(True)
    load_after = os.getloadavg()

    fig = {mode: (min(w for w, _ in times), min(c for _, c in times)) for mode, times in figure.items()}
    best = {label: max(wall for wall, _ in values) for label, values in runs.items()}
    best_cpu = {label: max(cpu for _, cpu in values) for label, values in runs.items()}
    engine1 = best["engine, fused, n_jobs=1"]
    to_numpy, to_fused = engine1 / best["numpy ceiling"], engine1 / best["fused ceiling"]
    cpu1 = best_cpu["engine, fused, n_jobs=1"]
    cpu_numpy, cpu_fused = cpu1 / best_cpu["numpy ceiling"], cpu1 / best_cpu["fused ceiling"]

    def verdict(ok):
        return "**met**" if ok else "**NOT met**"

    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() \
        else platform.processor()
    lines = [
        "## Fused kernels against numpy: engine and ceilings side by side (`bench_scale.py`)", "",
        f"Run {datetime.datetime.now().isoformat(timespec='seconds')} on {model}, {cpus} CPUs, "
        f"Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}; "
        f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (the machine is shared: "
        "best of interleaved runs; CPU-time rates of one process beside the n_jobs = 1 runs).", "",
        f"NRFF, rho = {RHO}, gamma = {GAMMA}, {len(K_GRID)} k in 1..{k_max}, {args.repetitions:,} "
        f"repetitions ({n_samples / 1e6:.0f} M samples); best of {args.repeats}. Ratios below compare the best "
        "of each run (the wall-clock ones are as noisy as the load).", "",
        "| run | best wall (M samples/s) | all runs | best CPU-time rate (M/s) |",
        "|---|---:|---:|---:|"]
    for label, values in runs.items():
        cpu = best_cpu[label]
        lines.append(f"| {label} | {best[label] / 1e6:.1f} | "
                     f"{', '.join(f'{wall / 1e6:.1f}' for wall, _ in values)} | "
                     f"{'' if math.isnan(cpu) else f'{cpu / 1e6:.1f}'} |")
    lines += [
        "",
        f"- Engine (fused, n_jobs = 1) / raw numpy ceiling: **{to_numpy:.2f}** wall, {cpu_numpy:.2f} "
        f"CPU time (target >= {NUMPY_TARGET}) -> {verdict(to_numpy >= NUMPY_TARGET)}.",
        f"- Engine (fused, n_jobs = 1) / fused-kernel ceiling: **{to_fused:.2f}** wall, {cpu_fused:.2f} "
        f"CPU time (target >= {FUSED_TARGET}) -> {verdict(to_fused >= FUSED_TARGET)}.",
        f"- The fused-kernel ceiling / the raw numpy ceiling: {best['fused ceiling'] / best['numpy ceiling']:.2f} "
        f"wall, {best_cpu['fused ceiling'] / best_cpu['numpy ceiling']:.2f} CPU time: where this is below "
        f"{NUMPY_TARGET}, no engine can meet both targets, as the first one lies above the second's ceiling.",
        f"- Engine fused / numpy, n_jobs = 1: {engine1 / best['engine, numpy, n_jobs=1']:.2f} wall, "
        f"{cpu1 / best_cpu['engine, numpy, n_jobs=1']:.2f} CPU time. All engine results "
        f"bit-identical (numpy and fused, every n_jobs): **{identical}**.",
        f"- Paper 000 Figure 2 workload (`bench_engine.figure2`, 1.2 G samples, n_jobs = 1), "
        f"extrapolated x10 from 10,000 repetitions, best of 2 interleaved runs each: numpy "
        f"{fig[False][0]:.0f} s wall, {fig[False][1]:.0f} s CPU; fused **{fig[True][0]:.0f} s** wall, "
        f"**{fig[True][1]:.0f} s** CPU (target <= {FIGURE_BEFORE_S / 2:.0f} s, half of the "
        f"{FIGURE_BEFORE_S:.0f} s `bench_engine` measured before) -> wall {verdict(fig[True][0] <= FIGURE_BEFORE_S / 2)}, "
        f"CPU {verdict(fig[True][1] <= FIGURE_BEFORE_S / 2)}; fused / numpy: {fig[True][1] / fig[False][1]:.2f} "
        "(CPU time).",
        ""]
    text = "\n".join(lines)
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "scale.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
