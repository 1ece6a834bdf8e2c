"""Benchmark: varlab.features.RFF.transform against scikit-learn's RBFSampler.transform.

X (20000, 100) standard normal, n_components 2048, float64 and float32, in one process, BLAS
limited to 1 thread for both (threadpoolctl). Each timing is the best of ``--repeats`` runs;
the runs of the different transforms are interleaved so that machine noise hits all alike.
Target: varlab (kernel="gaussian", the same map as RBFSampler) within 1.2x of scikit-learn.
The correlation-kernel and NRFF variants are timed too (no scikit-learn counterpart).

Writes a markdown section to benchmarks/results/rff_transform.md.

    python benchmarks/bench_rff_transform.py [--repeats 7] [--rows 20000] [--features 100]
           [--components 2048]
"""
from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sklearn  # noqa: E402
from sklearn.kernel_approximation import RBFSampler  # noqa: E402

from varlab.features import RFF  # noqa: E402

TARGET = 1.2


def best_times(functions: dict, X, repeats: int) -> dict:
    for f in functions.values():  # warm-up (page faults, lazy imports)
        f(X)
    times = {name: [] for name in functions}
    for _ in range(repeats):
        for name, f in functions.items():
            start = time.perf_counter()
            f(X)
            times[name].append(time.perf_counter() - start)
    return {name: min(values) for name, values in times.items()}


def main(argv=None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--features", type=int, default=100)
    parser.add_argument("--components", type=int, default=2048)
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "results" / "rff_transform.md")
    args = parser.parse_args(argv)

    gamma = 1.0 / args.features
    X64 = np.random.default_rng(0).standard_normal((args.rows, args.features))
    rows = []
    with threadpool_limits(limits=1):
        blas = ", ".join(f"{p['internal_api']} {p.get('version')} ({p['num_threads']} thread)"
                         for p in threadpool_info() if p["user_api"] == "blas")
        for dtype in (np.float64, np.float32):
            X = X64.astype(dtype)
            k = args.components
            models = {
                "sklearn RBFSampler": RBFSampler(gamma=gamma, n_components=k, random_state=0).fit(X),
                "varlab RFF gaussian": RFF(k, gamma=gamma, kernel="gaussian", random_state=0).fit(X),
                "varlab RFF correlation": RFF(k, gamma=1.0, kernel="correlation", random_state=0).fit(X),
                "varlab NRFF correlation": RFF(k, gamma=1.0, kernel="correlation", normalize=True, random_state=0).fit(X),
                "varlab no-phase correlation": RFF(k, gamma=1.0, kernel="correlation", phase=False, random_state=0).fit(X),
            }
            for name, model in models.items():
                assert model.transform(X[:5]).dtype == dtype, name
            times = best_times({name: model.transform for name, model in models.items()}, X, args.repeats)
            reference = times["sklearn RBFSampler"]
            for name, seconds in times.items():
                rows.append((np.dtype(dtype).name, name, seconds, seconds / reference))

    ratio = {dtype: r for dtype, name, _, r in rows if name == "varlab RFF gaussian"}
    met = all(r <= TARGET for r in ratio.values())
    lines = [
        "## RFF transform vs scikit-learn RBFSampler",
        "",
        f"Run {datetime.datetime.now().isoformat(timespec='seconds')} on {platform.machine()} "
        f"({platform.processor() or platform.platform()}), Python {platform.python_version()}, "
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}; BLAS: {blas}.",
        "",
        f"X: ({args.rows}, {args.features}) standard normal, n_components = {args.components}, "
        f"gamma = 1/{args.features} (Gaussian) or 1 (correlation kernel); best of {args.repeats} interleaved "
        "runs, one process, BLAS limited to 1 thread for all.",
        "",
        "| dtype | transform | best time (s) | ratio to sklearn |",
        "|---|---|---:|---:|",
    ]
    lines += [f"| {dtype} | {name} | {seconds:.4f} | {r:.3f} |" for dtype, name, seconds, r in rows]
    lines += [
        "",
        f"Target: varlab RFF (kernel=\"gaussian\") within {TARGET}x of RBFSampler.transform: "
        + ", ".join(f"{dtype} {r:.3f}x" for dtype, r in ratio.items())
        + f" -> **{'met' if met else 'NOT met'}**.",
        "",
    ]
    text = "\n".join(lines)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    print(text)
    return text


if __name__ == "__main__":
    main()
