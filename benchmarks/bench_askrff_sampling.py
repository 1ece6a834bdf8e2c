"""Benchmark (paper 002, Fig. 3's "sampling time cost" bars; issue 35): the time AsK-RFF takes to
draw its frequencies, estimate the masses by Eq. (12) on N_s = 50 rows (Algorithm 2) and map the
training rows to the concatenated features, against M = d 2^l, beside the exact asymmetric Gram on
the same rows (what the features replace: §5.3, "significantly cheaper to calculate the kernel
function"). Fig. 3's setting (``paper_checks.p002.accuracy_growth``): spambase and letter
min-max scaled, sigma = 2, r = 2/d, beta = 0.5 pi/d; BLAS on 1 thread; sampling best of
``--repeats``, the exact Gram (elementwise, about 13 s for 1000 rows) timed once.

Writes benchmarks/results/askrff_sampling.md.

    python benchmarks/bench_askrff_sampling.py [--repeats 3] [--rows 1000]
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paper_checks.p002.accuracy_growth import components  # noqa: E402
from paper_checks.p002.gram_error import KERNELS, N_SUBSET, SIGMA, kernel_vector, normalised  # noqa: E402
from varlab.features import AsKRFF  # noqa: E402
from varlab.features.asymmetric import asymmetric_gram  # noqa: E402

LEVELS = (-2, 0, 2, 4)


def best_of(repeats, function):
    """The smallest wall time of ``repeats`` calls (seconds)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def sampling(kernel, X, M, seed):
    """Fit (frequencies + Eq. 12 masses) and the concatenated map of X."""
    d = X.shape[1]
    ask = AsKRFF(M, kernel=kernel, gamma=1.0 / (2.0 * SIGMA ** 2), masses="estimated", n_subset=N_SUBSET,
                 random_state=seed, **{KERNELS[kernel]: kernel_vector(kernel, d)}).fit(X)
    return ask.concatenated(X)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    lines = []
    with threadpool_limits(limits=1):
        for name in ("spambase", "letter"):
            X = normalised(name)[0][:args.rows]
            n, d = X.shape
            lines += [f"### {name} (n = {n} rows, d = {d})", "",
                      "| kernel | exact Gram n x n (s) | " + " | ".join(f"M = {components(d, l)} (s)" for l in LEVELS)
                      + " | columns at the largest M |",
                      "|---|---|" + "---|" * len(LEVELS) + "---|"]
            for kernel in KERNELS:
                gram = best_of(1, lambda: asymmetric_gram(kernel, X, X, SIGMA, kernel_vector(kernel, d)))
                times = [best_of(args.repeats, lambda: sampling(kernel, X, components(d, l), 0)) for l in LEVELS]
                columns = sampling(kernel, X, components(d, LEVELS[-1]), 0).shape[1]
                lines.append(f"| {kernel} | {gram:.3f} | " + " | ".join(f"{t:.3f}" for t in times) + f" | {columns} |")
            lines.append("")
    header = ["## AsK-RFF sampling time against M (paper 002, Fig. 3; benchmarks/bench_askrff_sampling.py)", "",
              f"Run {datetime.datetime.now().isoformat(timespec='seconds')} on {platform.machine()}, Python "
              f"{platform.python_version()}, numpy {np.__version__}; BLAS limited to 1 thread; best of "
              f"{args.repeats} (the exact Gram: one run). Load average (1 min) {load:.2f} before, {os.getloadavg()[0]:.2f} after (shared "
              "machine: absolute times are noisy). Sampling = AsKRFF.fit (the frequencies of every part and the "
              f"masses by Eq. (12) on N_s = {N_SUBSET} rows) + the concatenated map of the n rows; the exact Gram "
              "is varlab.features.asymmetric.asymmetric_gram on the same rows.", ""]
    out = ROOT / "benchmarks" / "results" / "askrff_sampling.md"
    out.write_text("\n".join(header + lines))
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
