"""Benchmark (issue 8, sec. 6): paper 003's samplers inside varlab.features.RFF.

1. Feature construction (``fit``: draw the frequencies) and ``transform`` of RFF(kernel="gaussian")
   with the samplers iid, moment_matching, sobol, scrambled_sobol and antithetic (d = 500,
   m = 4096, n = 10000 by default), BLAS limited to 1 thread. Target: MM's whitening (its fit
   minus the iid fit) under 10% of the transform.
2. The engine's throughput on the ``mm_moment_matching`` model against a raw numpy loop doing the
   same draws, whitening and projection (same n, m, d, repetitions; both project c through the
   inverse square root instead of whitening all m rows, as the model does). Target >= 0.6.
3. The full-budget Fig. 1 time: the Gram experiments of Figs. 1-2 as simulations/p003_full.py
   recorded them (simulations/p003/pieces/full-*-gram-*.json, one per data set and m).

Writes benchmarks/results/moment_matching.md.

    python benchmarks/bench_moment_matching.py [--rows 10000] [--features 500] [--components 4096]
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import mc  # noqa: E402
from varlab.features import RFF  # noqa: E402
from varlab.features.samplers.moment_matching import moment_match  # noqa: E402

SAMPLERS = ("iid", "moment_matching", "sobol", "scrambled_sobol", "antithetic")


def best(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def full_budget_figure1() -> list:
    """Lines on the full-budget Fig. 1 time, from the pieces simulations/p003_full.py stored."""
    pieces = sorted((ROOT / "simulations" / "p003" / "pieces").glob("full-*-gram-*.json"))
    head = ["## Full-budget Fig. 1 (simulations/p003_full.py)", ""]
    if not pieces:
        return head + ["Not run yet: run simulations/p003_full.py, then this benchmark.", ""]
    seconds = {}
    for piece in pieces:
        name, m = piece.stem.split("-gram-")[1].split("-")[:2]
        seconds.setdefault(name, {})[m] = json.loads(piece.read_text())["seconds"]
    lines = head + ["| data set (n = 1000, 100 repetitions, 7 samplers) | values of m done | seconds |",
                    "|---|---|---|"]
    lines += [f"| {name} | {', '.join(sorted(done, key=lambda m: int(m[1:])))} | {sum(done.values()):.0f} |"
              for name, done in seconds.items()]
    total = sum(sum(done.values()) for done in seconds.values())
    lines += ["", f"Fig. 1 (and Fig. 2, which reuses its Grams): {total / 3600:.2f} h wall for the pieces "
                  f"done, one core, niced, on the shared machine of that run (5 data sets in all).", ""]
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--features", type=int, default=500)
    parser.add_argument("--components", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "moment_matching.md"))
    args = parser.parse_args(argv)
    n, d, m = args.rows, args.features, args.components
    X = np.random.default_rng(0).standard_normal((n, d))
    lines = [f"# Moment matching, QMC and antithetic features (paper 003)", "",
             f"{datetime.date.today()}, {platform.processor() or platform.machine()}, "
             f"numpy {np.__version__}, BLAS 1 thread; best of {args.repeats}; load average at the start "
             f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared machine: the times are noisy).", "",
             f"## RFF(kernel='gaussian', sampler=...): n = {n}, d = {d}, m = {m}", "",
             "| sampler | fit (s) | transform (s) | fit / transform |", "|---|---|---|---|"]
    fits = {}
    with threadpool_limits(1):
        for name in SAMPLERS:
            rff = RFF(m, gamma=1.0 / d, kernel="gaussian", sampler=name, random_state=0)
            fits[name] = best(lambda: rff.fit(X), args.repeats)
            transform = best(lambda: rff.transform(X), args.repeats)
            if name == "iid":
                iid_transform = transform
            lines.append(f"| {name} | {fits[name]:.3f} | {transform:.3f} | {fits[name] / transform:.3f} |")
            print(lines[-1], flush=True)
        W = np.random.default_rng(0).standard_normal((m, d))
        whitening = best(lambda: moment_match(W), max(3, args.repeats))
        share = whitening / iid_transform
        lines += ["", f"MM whitening (``moment_match`` of the {m} x {d} draw, timed alone, best of "
                      f"{max(3, args.repeats)}) = {whitening:.3f} s = {100 * share:.1f}% of the iid "
                      f"transform (target < 10%: {'met' if share < 0.10 else 'NOT met'}); fit_MM - "
                      f"fit_iid = {fits['moment_matching'] - fits['iid']:.3f} s.", ""]

        # engine vs raw numpy loop on the MM model
        dd, mm_, reps, s = 50, 64, 4000, 1.0
        kw = dict(k=[mm_], dimension=dd, scaled_distance=s, n_repetitions=reps, random_state=1,
                  progress=False)
        engine = best(lambda: mc.simulate("mm_moment_matching", **kw), args.repeats)

        def raw():
            rng = np.random.default_rng(1)
            c = np.full(dd, s / np.sqrt(dd))
            block = max(1, 2 ** 21 // dd // mm_)
            out = []
            for start in range(0, reps, block):
                b = min(block, reps - start)
                W = rng.standard_normal((b, mm_, dd))
                W -= W.mean(axis=1, keepdims=True)
                L = np.linalg.cholesky(np.matmul(np.swapaxes(W, 1, 2), W) / (mm_ - 1))
                v = np.linalg.solve(np.swapaxes(L, 1, 2), np.broadcast_to(c, (b, dd))[:, :, None])[:, :, 0]
                t = np.einsum("nmd,nd->nm", W, v)
                out.append(np.cos(t).mean(1) - (rng.integers(0, 2, b) * 2 - 1) * np.sin(t).mean(1))
            e = np.concatenate(out)
            return e.mean(), e.var()
        loop = best(raw, args.repeats)
    ratio = loop / engine
    lines += [f"## Engine throughput, model mm_moment_matching (d = {dd}, m = {mm_}, {reps} repetitions)",
              "", f"engine {engine:.3f} s, raw numpy loop {loop:.3f} s: throughput ratio "
                  f"{ratio:.2f} (target >= 0.6: {'met' if ratio >= 0.6 else 'NOT met'}).", ""]
    lines += full_budget_figure1()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines[-4:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
