"""Benchmark: varlab's feature maps as pipeline steps beside scikit-learn's RBFSampler and
Nystroem, on a data set scikit-learn ships (digits: 1797 images, 64 pixels, 10 classes).

Every pipeline is ``StandardScaler() -> map -> LogisticRegression``, fitted on a fixed stratified
half and scored on the other half; 5 seeds per map (the maps' random_state), reporting the mean
test accuracy with its standard error over the seeds and the median fit time (fit of the whole
pipeline, BLAS limited to 1 thread). The Gaussian maps use the same gamma and width, so RFF and
RBFSampler approximate the same kernel exp(-gamma ||x - y||^2).

Writes a markdown section to benchmarks/results/pipelines.md (the README quotes its table).

    python benchmarks/bench_pipelines.py [--seeds 5] [--components 512]
"""
from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sklearn  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.kernel_approximation import Nystroem, RBFSampler  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from varlab.features import GCWS, GRFF, RFF, RandomMaclaurin  # noqa: E402

GAMMA = 1.0 / 64          # 1 / n_features: the Gaussian kernel on standardised pixels


def makers(width: int) -> dict:
    """name -> (a function of the seed giving the map, its output width)."""
    return {
        "sklearn RBFSampler (gamma = 1/64)": (lambda s: RBFSampler(gamma=GAMMA, n_components=width, random_state=s), width),
        "sklearn Nystroem (rbf, gamma = 1/64)": (lambda s: Nystroem(gamma=GAMMA, n_components=width, random_state=s), width),
        "varlab RFF (gamma = 1/64)": (lambda s: RFF(width, gamma=GAMMA, random_state=s), width),
        "varlab RFF, NRFF (normalize=True)": (lambda s: RFF(width, gamma=GAMMA, normalize=True, random_state=s), width),
        "varlab RFF, orthogonal sampler (ORF)": (lambda s: RFF(width, gamma=GAMMA, sampler="orthogonal", random_state=s), width),
        "varlab GRFF, delta-Gaussian (s = width / 4)": (lambda s: GRFF(width // 4, random_state=s), width),
        "varlab RandomMaclaurin (degree 2, coef0 = 1, gamma = 1/64)": (
            lambda s: RandomMaclaurin(width, degree=2, gamma=GAMMA, coef0=1.0, random_state=s), width),
        "varlab GCWS (k = width / 16, b = 4; 0-bit)": (
            lambda s: GCWS(width // 16, b=4, zero_bit=True, random_state=s), width),
    }


def run(seeds: int, width: int) -> list[dict]:
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    rows = []
    with threadpool_limits(limits=1):
        for name, (make, columns) in makers(width).items():
            accuracies, times = [], []
            for seed in range(seeds):
                pipeline = make_pipeline(StandardScaler(), make(seed), LogisticRegression(max_iter=5000))
                start = time.perf_counter()
                pipeline.fit(X_train, y_train)
                times.append(time.perf_counter() - start)
                accuracies.append(pipeline.score(X_test, y_test))
            rows.append(dict(name=name, columns=columns, accuracy=100 * np.mean(accuracies),
                             se=100 * np.std(accuracies, ddof=1) / np.sqrt(seeds), fit=statistics.median(times)))
            print(f"{name}: {rows[-1]['accuracy']:.2f} +- {rows[-1]['se']:.2f} %, {rows[-1]['fit']:.2f} s",
                  file=sys.stderr, flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--components", type=int, default=512, help="output width of every map")
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "pipelines.md")
    args = parser.parse_args(argv)
    rows = run(args.seeds, args.components)
    lines = [f"# Feature maps as pipeline steps on digits (benchmarks/bench_pipelines.py)", "",
             f"Run {datetime.datetime.now().isoformat(timespec='seconds')} on {platform.machine()}, Python "
             f"{platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}; BLAS "
             f"limited to 1 thread. digits (scikit-learn's copy), stratified half / half split; "
             f"StandardScaler -> map -> LogisticRegression(max_iter=5000); {args.seeds} seeds of each map; "
             f"accuracy = mean +- SE over the seeds, fit = median wall time of the pipeline's fit.", "",
             "| map | output columns | test accuracy (%) | fit (s) |", "|---|---:|---:|---:|"]
    lines += [f"| {r['name']} | {r['columns']} | {r['accuracy']:.2f} +- {r['se']:.2f} | {r['fit']:.2f} |" for r in rows]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
