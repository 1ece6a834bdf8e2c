"""Paper 000's experiments, measured side by side on letter (15000 train / 5000 test, d = 16).

    python benchmarks/bench_000_experiments.py [--out benchmarks/results/000_experiments.md]
        [--n-train 15000] [--gram 15000]

Each case runs in its own child process (wall time inside the child; peak memory = the child's
peak resident set from ``os.wait4``, and the same for a child that only imports and loads the
data, so the difference is what the case itself adds):

* GCWS (b = 8, k = 1024) hashing of train + test, then LinearSVC (C = 1);
* NRFF (k = 1024, gamma = 11, the paper's best RBF gamma on Letter) + LinearSVC (C = 1);
* RBF kernel SVC (gamma = 11 on unit rows, C = 10);
* the GMM Gram matrix n x n (``varlab.kernels.gmm``) against ``scipy.spatial.distance.cdist(X,
  X, "cityblock")`` on the same rows (GMM's work is one cityblock distance per pair plus O(n^2)
  arithmetic; target <= 1.5x cdist's time, memory bounded by the output).
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

ROOT = Path(__file__).resolve().parents[1]
CASES = ("baseline", "gcws_linear", "nrff_linear", "rbf_svc", "gmm_gram", "cdist_gram", "gram_baseline")


def _letter(n_train):
    import numpy as np
    from sklearn.preprocessing import normalize

    from varlab import datasets

    ds = datasets.load("letter")
    return (normalize(ds.X_train[:n_train]), np.asarray(ds.y_train[:n_train]), normalize(ds.X_test),
            np.asarray(ds.y_test))


def _case(name, n_train, n_gram) -> dict:
    import numpy as np
    import warnings

    warnings.simplefilter("ignore")
    X, y, Xt, yt = _letter(n_train)
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
    if name == "baseline":
        return dict(seconds=0.0)
    from sklearn.svm import SVC, LinearSVC

    start = time.perf_counter()
    if name == "gcws_linear":
        from varlab.features import GCWS
        Z = GCWS(n_components=1024, b=8, random_state=0).transform(np.vstack([X, Xt]))
        hashed = time.perf_counter()
        model = LinearSVC(C=1.0, random_state=0).fit(Z[:len(y)], y)
        accuracy = float(np.mean(model.predict(Z[len(y):]) == yt))
    elif name == "nrff_linear":
        from varlab.features import RFF
        rff = RFF(n_components=1024, gamma=11.0, normalize=True, random_state=0).fit(X)
        Z, Zt = rff.transform(X), rff.transform(Xt)
        hashed = time.perf_counter()
        model = LinearSVC(C=1.0, random_state=0).fit(Z, y)
        accuracy = float(np.mean(model.predict(Zt) == yt))
    else:
        hashed = start
        model = SVC(kernel="rbf", gamma=11.0 / 2, C=10.0, cache_size=500).fit(X, y)
        accuracy = float(np.mean(model.predict(Xt) == yt))
    end = time.perf_counter()
    return dict(seconds=end - start, features_seconds=hashed - start, train_test_seconds=end - hashed,
                accuracy=accuracy)


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
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "000_experiments.md"))
    args = parser.parse_args(argv)
    if args.case:
        print(json.dumps(_case(args.case, args.n_train, args.gram)))
        return 0
    results = {}
    for name in CASES:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = _child(name, args.n_train, args.gram)
        print(f"  {results[name]}", file=sys.stderr, flush=True)
    base, gram_base = results["baseline"]["peak_rss_mib"], results["gram_baseline"]["peak_rss_mib"]
    ratio = results["gmm_gram"]["seconds"] / results["cdist_gram"]["seconds"]
    load = os.getloadavg()
    lines = ["# Paper 000 experiments: timing and memory on letter", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average {load[0]:.1f} "
             f"(shared with other jobs: wall times are upper bounds). Python {platform.python_version()}. "
             f"Each case in its own process; peak memory = its peak RSS, and above the baseline process "
             f"that only imports and loads the data ({base:.0f} MiB).", "",
             f"## Train + test on letter ({args.n_train} train / 5000 test, rows scaled to unit l2)", "",
             "| method | features (s) | train + predict (s) | total (s) | peak RSS (MiB) | above baseline (MiB) | "
             "test accuracy |", "|---|---|---|---|---|---|---|"]
    labels = {"gcws_linear": "GCWS b=8, k=1024 + LinearSVC(C=1)",
              "nrff_linear": "NRFF k=1024 (gamma=11) + LinearSVC(C=1)",
              "rbf_svc": "RBF kernel SVC (gamma=11, C=10)"}
    for name, label in labels.items():
        r = results[name]
        lines.append(f"| {label} | {r['features_seconds']:.1f} | {r['train_test_seconds']:.1f} | "
                     f"{r['seconds']:.1f} | {r['peak_rss_mib']:.0f} | {r['peak_rss_mib'] - base:.0f} | "
                     f"{100 * r['accuracy']:.2f} |")
    n = args.gram
    lines += ["", f"## GMM Gram {n} x {n} (letter rows, float64 output {n * n * 8 / 2**20:.0f} MiB)", "",
              "| computation | seconds | peak RSS (MiB) | above baseline (MiB) |", "|---|---|---|---|"]
    for name, label in (("gmm_gram", "varlab.kernels.gmm(X)"), ("cdist_gram", 'scipy cdist(X, X, "cityblock")')):
        r = results[name]
        lines.append(f"| {label} | {r['seconds']:.1f} | {r['peak_rss_mib']:.0f} | {r['peak_rss_mib'] - gram_base:.0f} |")
    lines += ["", f"GMM / cdist time ratio: **{ratio:.2f}** (target <= 1.5: "
                  f"{'met' if ratio <= 1.5 else 'missed'})."]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
