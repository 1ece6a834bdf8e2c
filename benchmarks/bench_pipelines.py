"""Benchmark: varlab's feature maps as pipeline steps beside scikit-learn's RBFSampler and
Nystroem, on a data set scikit-learn ships (digits: 1797 images, 64 pixels, 10 classes).

Every pipeline is ``StandardScaler() -> map -> LogisticRegression``, fitted on the even rows and
scored on the odd rows (the split of the README's snippet); 5 seeds per map (the maps'
random_state), reporting the mean test accuracy with its standard error over the seeds and the
median fit time (fit of the whole pipeline, BLAS limited to 1 thread). The Gaussian maps use the
same gamma and width, so RFF and RBFSampler approximate the same kernel exp(-gamma ||x - y||^2).

Writes a markdown section to benchmarks/results/pipelines.md.

``--table`` instead runs 10 seeds, stores every accuracy in benchmarks/results/digits_accuracy.json
and writes the accuracy table of README.md and docs/estimators.md from it (seed 0, the snippet's
random_state, and the mean and standard deviation over the seeds; no timings, which depend on the
machine); tests/test_readme_tables.py checks that both pages hold exactly that table and that the
snippet prints the stored seed-0 accuracies.

    python benchmarks/bench_pipelines.py [--seeds 5] [--components 512]
    python benchmarks/bench_pipelines.py --table        # regenerates the README's digits table
"""
from __future__ import annotations

import argparse
import datetime
import json
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
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from varlab.features import GCWS, GRFF, RFF, RandomMaclaurin  # noqa: E402

GAMMA = 1.0 / 64          # 1 / n_features: the Gaussian kernel on standardised pixels
#: the README's accuracy table: its seeds, its stored accuracies, the pages that show it
TABLE_SEEDS = 10
STORED = ROOT / "benchmarks" / "results" / "digits_accuracy.json"
PAGES = (ROOT / "README.md", ROOT / "docs" / "estimators.md")
BEGIN = "<!-- digits table: written by `python benchmarks/bench_pipelines.py --table`; do not edit -->"
END = "<!-- end of the digits table -->"


def digits_split():
    """digits, even rows to train and odd rows to test (as the README's snippet)."""
    X, y = load_digits(return_X_y=True)
    return X[::2], X[1::2], y[::2], y[1::2]


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
    """One row per map: its name, columns, test accuracies (%, one per seed), their mean and
    standard error, and the median fit time."""
    X_train, X_test, y_train, y_test = digits_split()
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
            rows.append(dict(name=name, columns=columns, accuracies=[100 * a for a in accuracies],
                             accuracy=100 * np.mean(accuracies),
                             se=100 * np.std(accuracies, ddof=1) / np.sqrt(seeds), fit=statistics.median(times)))
            print(f"{name}: {rows[-1]['accuracy']:.2f} +- {rows[-1]['se']:.2f} %, {rows[-1]['fit']:.2f} s",
                  file=sys.stderr, flush=True)
    return rows


def accuracy_table(stored: dict) -> str:
    """The markdown table of the stored accuracies (``STORED``'s content), between its markers."""
    n = len(next(iter(stored["accuracies"].values())))
    lines = [BEGIN, "", f"| map | seed 0 (%) | mean over {n} seeds (%) | SD (%) |", "|---|---:|---:|---:|"]
    for name, values in stored["accuracies"].items():
        lines.append(f"| {name} | {values[0]:.2f} | {np.mean(values):.2f} | {np.std(values, ddof=1):.2f} |")
    return "\n".join(lines + ["", END])


def with_table(text: str, table: str) -> str:
    """``text`` with the block between BEGIN and END replaced by ``table``."""
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + table + text[stop:]


def write_table(width: int) -> None:
    """Run TABLE_SEEDS seeds of every map, store the accuracies and rewrite the pages' table."""
    rows = run(TABLE_SEEDS, width)
    stored = {"width": width, "split": "digits: even rows train, odd rows test",
              "accuracies": {row["name"]: row["accuracies"] for row in rows}}
    STORED.write_text(json.dumps(stored, indent=1) + "\n")
    for page in PAGES:
        page.write_text(with_table(page.read_text(), accuracy_table(stored)))
    print(f"wrote {STORED} and the table of {', '.join(p.name for p in PAGES)}", file=sys.stderr)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--components", type=int, default=512, help="output width of every map")
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "pipelines.md")
    parser.add_argument("--table", action="store_true", help="regenerate the README's digits table")
    args = parser.parse_args(argv)
    if args.table:
        write_table(args.components)
        return 0
    rows = run(args.seeds, args.components)
    lines = ["# Feature maps as pipeline steps on digits (benchmarks/bench_pipelines.py)", "",
             f"Run {datetime.datetime.now().isoformat(timespec='seconds')} on {platform.machine()}, Python "
             f"{platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}; BLAS "
             f"limited to 1 thread. digits (scikit-learn's copy), even rows train, odd rows test; "
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
