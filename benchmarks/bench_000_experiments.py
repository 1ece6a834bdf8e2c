"""Paper 000's experiments, measured side by side on letter (15000 train / 5000 test, d = 16).

    python benchmarks/bench_000_experiments.py [--out benchmarks/results/000_experiments.md]
        [--n-train 15000] [--gram 15000]

Each case runs in its own child process (wall time inside the child; peak memory = the child's
peak resident set from ``os.wait4``, and the same for a child that only imports and loads the
data, so the difference is what the case itself adds):

* GCWS (0-bit, b = 8, k = 1024) hashing of train + test, then the linear SVM (C = 1);
* NRFF (k = 1024, gamma = 90) + the linear SVM (C = 1);
* RBF kernel SVC (gamma = 90 on unit rows, C = 100);
* the GMM Gram matrix n x n (``varlab.kernels.gmm``) against ``scipy.spatial.distance.cdist(X,
  X, "cityblock")`` on the same rows (GMM's work is one cityblock distance per pair plus O(n^2)
  arithmetic; target <= 1.5x cdist's time, memory bounded by the output), ``--repeats`` times
  each, interleaved, best taken.

The features and the linear SVM are exactly the §5 experiments' (``paper_checks.p000``:
``hashing_features.features`` and ``svm.linear_svc``, the primal LIBLINEAR solver on the used
columns); gamma = 90 and C = 100 are letter's best RBF (gamma, C) in the full Tables 1-2 slice.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from tqdm.auto import tqdm

ROOT = Path(__file__).resolve().parents[1]
CASES = ("baseline", "gcws_linear", "nrff_linear", "rbf_svc", "gram_baseline", "gmm_gram", "cdist_gram")
GRAM_CASES = ("gmm_gram", "cdist_gram")
GAMMA, RBF_C = 90.0, 100.0


def _case(name, n_train, n_gram) -> dict:
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from paper_checks.p000 import hashing_features, svm

    if name in ("gmm_gram", "cdist_gram", "gram_baseline"):
        from varlab import datasets

        ds = datasets.load("letter")
        rows = np.vstack([ds.X_train, ds.X_test])[:n_gram]
        start = time.perf_counter()
        if name == "gmm_gram":
            from varlab import kernels
            G = kernels.gmm(rows)
        elif name == "cdist_gram":
            from scipy.spatial.distance import cdist
            G = cdist(rows, rows, "cityblock")
        else:
            G = np.zeros((1, 1))
        return dict(seconds=time.perf_counter() - start, shape=list(G.shape))
    data = svm.prepared("letter", n_train, None)
    X, y, Xt, yt = data.X_train, data.y_train, data.X_test, data.y_test
    if name == "baseline":
        return dict(seconds=0.0)
    from sklearn.svm import SVC

    start = time.perf_counter()
    if name == "rbf_svc":
        hashed = start
        model = SVC(kernel="rbf", gamma=GAMMA / 2, C=RBF_C, cache_size=500)
        fit = svm._fit_score(model, X, y, Xt, yt)
    else:
        unit = dict(dataset="letter", train_cap=n_train, test_cap=None, k=1024, repetition=0, random_state=20161122,
                    method="gcws_b8" if name == "gcws_linear" else "nrff",
                    gamma=None if name == "gcws_linear" else GAMMA)
        Z, Zt = hashing_features.features(unit)
        hashed = time.perf_counter()
        fit = svm._fit_score(svm.linear_svc(1.0), Z, y, Zt, yt)
    end = time.perf_counter()
    return dict(seconds=end - start, features_seconds=hashed - start, train_test_seconds=end - hashed,
                accuracy=fit["accuracy"], converged=fit["converged"])


def _child(name, n_train, n_gram) -> dict:
    process = subprocess.Popen([sys.executable, __file__, "--case", name, "--n-train", str(n_train),
                                "--gram", str(n_gram)], stdout=subprocess.PIPE, cwd=ROOT)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise RuntimeError(f"case {name} failed with status {status}")
    result = json.loads(output.decode().strip().splitlines()[-1])
    result["peak_rss_mib"] = usage.ru_maxrss / 1024          # Linux: KiB
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=CASES)
    parser.add_argument("--n-train", type=int, default=15000)
    parser.add_argument("--gram", type=int, default=15000)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each Gram case (interleaved; best)")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "000_experiments.md"))
    args = parser.parse_args(argv)
    if args.case:
        print(json.dumps(_case(args.case, args.n_train, args.gram)))
        return 0
    results, gram_runs = {}, {name: [] for name in GRAM_CASES}
    schedule = [name for name in CASES if name not in GRAM_CASES] + list(GRAM_CASES) * args.repeats
    for name in tqdm(schedule, desc="cases", unit="case", disable=None):
        result = _child(name, args.n_train, args.gram)
        tqdm.write(f"  {name}: {result}", file=sys.stderr)
        if name in GRAM_CASES:
            gram_runs[name].append(result)
        else:
            results[name] = result
    for name, runs in gram_runs.items():
        results[name] = min(runs, key=lambda r: r["seconds"])
    base, gram_base = results["baseline"]["peak_rss_mib"], results["gram_baseline"]["peak_rss_mib"]
    ratio = results["gmm_gram"]["seconds"] / results["cdist_gram"]["seconds"]
    load = os.getloadavg()
    lines = ["# Paper 000 experiments: timing and memory on letter (benchmarks/bench_000_experiments.py)", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average {load[0]:.1f} at the end "
             f"(wall times; under load they are upper bounds). Python {platform.python_version()}. "
             f"Each case in its own process; peak memory = its peak RSS, and above the baseline process "
             f"that only imports and loads the data ({base:.0f} MiB).", "",
             f"## Train + test on letter ({args.n_train} train / 5000 test, rows scaled to unit l2)", "",
             "| method | features (s) | train + predict (s) | total (s) | peak RSS (MiB) | above baseline (MiB) | "
             "test accuracy | converged |", "|---|---|---|---|---|---|---|---|"]
    labels = {"gcws_linear": "0-bit GCWS b=8, k=1024 + linear SVM (C=1)",
              "nrff_linear": f"NRFF k=1024 (gamma={GAMMA:g}) + linear SVM (C=1)",
              "rbf_svc": f"RBF kernel SVC (gamma={GAMMA:g}, C={RBF_C:g})"}
    for name, label in labels.items():
        r = results[name]
        lines.append(f"| {label} | {r['features_seconds']:.1f} | {r['train_test_seconds']:.1f} | "
                     f"{r['seconds']:.1f} | {r['peak_rss_mib']:.0f} | {r['peak_rss_mib'] - base:.0f} | "
                     f"{100 * r['accuracy']:.2f} | {r['converged']} |")
    n = args.gram
    lines += ["", f"## GMM Gram {n} x {n} (letter rows, float64 output {n * n * 8 / 2**20:.0f} MiB; best of "
                  f"{args.repeats} interleaved runs each: "
                  + "; ".join(f"{name} " + ", ".join(f"{r['seconds']:.2f}" for r in runs) + " s"
                              for name, runs in gram_runs.items()) + ")", "",
              "| computation | seconds | peak RSS (MiB) | above baseline (MiB) |", "|---|---|---|---|"]
    for name, label in (("gmm_gram", "varlab.kernels.gmm(X)"), ("cdist_gram", 'scipy cdist(X, X, "cityblock")')):
        r = results[name]
        lines.append(f"| {label} | {r['seconds']:.2f} | {r['peak_rss_mib']:.0f} | {r['peak_rss_mib'] - gram_base:.0f} |")
    lines += ["", f"GMM / cdist time ratio: **{ratio:.2f}** (target <= 1.5: "
                  f"{'met' if ratio <= 1.5 else 'missed'})."]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
