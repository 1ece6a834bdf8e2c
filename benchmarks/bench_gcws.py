"""GCWS hashing and the GMM Gram matrix against their peers, side by side in one process.

    python benchmarks/bench_gcws.py [--repeats 3] [--output benchmarks/results/gcws.md]

(a) dense rows (D = 1000, n = 1000, k = 256): rows/s of varlab's full GCWS hashing
    (``GCWS.hash``) vs datasketch ``WeightedMinHashGenerator.minhash`` (one row per call, its API);
    target >= 10x.
(b) sparse rows (D = 10^5, 100 nonzeros each, n = 1000, k = 256): end to end (setup + hashing)
    vs datasketch ``WeightedMinHashGenerator(...)`` + ``minhash_many``; target >= 5x; peak traced
    memory of both (tracemalloc), and varlab's at D = 10^7 to show it does not depend on D.
(c) throughput of the counter-based randomness alone ((coordinate, sample) pairs/s).
(d) ``varlab.kernels.gmm`` Gram matrix 5000 x 5000 on 16-dim data vs
    ``scipy.spatial.distance.cdist(..., "cityblock")``; target: within 2x.

Both sides hash the same nonnegative data with the same k (datasketch implements Ioffe's CWS, of
which GCWS is the signed generalization; on nonnegative data both estimate the min-max kernel,
which the script checks). BLAS is limited to one thread; every timing is the best of
``--repeats`` runs, with the two sides interleaved. The machine's load average is recorded: the
box may be shared, and a ratio measured side by side is more stable than either time.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.spatial.distance import cdist
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from varlab import _random, kernels  # noqa: E402
from varlab.features import GCWS  # noqa: E402
from varlab.features.cws import randomness  # noqa: E402

try:
    import datasketch
    from datasketch import WeightedMinHashGenerator
except ImportError:  # pragma: no cover - the bench extra installs it
    datasketch = None


class Timer:
    """Best wall-clock and best CPU (process) time over the runs it has timed."""

    def __init__(self):
        self.wall = np.inf
        self.cpu = np.inf

    def run(self, function):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        self.wall = min(self.wall, time.perf_counter() - wall)
        self.cpu = min(self.cpu, time.process_time() - cpu)
        return result


def best_time(function, repeats):
    timer = Timer()
    result = None
    for _ in range(repeats):
        result = timer.run(function)
    return timer.wall, result


def traced_peak(function):
    tracemalloc.start()
    try:
        result = function()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, result


def sparse_rows(rng, n, d, nnz):
    columns = np.concatenate([np.sort(rng.choice(d, nnz, replace=False)) for _ in range(n)])
    values = rng.random(n * nnz) + 0.01
    return sp.csr_matrix((values, columns, np.arange(0, n * nnz + 1, nnz)), shape=(n, d))


def minmax_errors(hash_rows, X, pairs=60):
    """Mean |estimate - min-max| over row pairs (2i, 2i+1) for a hash function of rows."""
    hashes = hash_rows(X[: 2 * pairs])
    exact = np.array([kernels.min_max(X[2 * i:2 * i + 1], X[2 * i + 1:2 * i + 2])[0, 0] for i in range(pairs)])
    estimates = np.array([np.mean(np.all(hashes[2 * i] == hashes[2 * i + 1], axis=1)) for i in range(pairs)])
    return float(np.mean(np.abs(estimates - exact))), float(exact.mean())


def bench_dense(rng, repeats, rows):
    n, d, k = 1000, 1000, 256
    out = []
    for label, X in (("uniform(0, 1)", rng.random((n, d))),
                     ("lognormal(0, 3), heavy tail (stress case)", np.exp(3.0 * rng.standard_normal((n, d))))):
        model = GCWS(n_components=k, random_state=0).fit(X[:1])
        generator = WeightedMinHashGenerator(d, sample_size=k, seed=1)
        varlab, peer = Timer(), Timer()
        for _ in range(repeats):
            varlab.run(lambda: model.hash(X))
            peer.run(lambda: [generator.minhash(row) for row in X[:rows]])
        out.append(dict(data=label, varlab_rows_s=n / varlab.wall, datasketch_rows_s=rows / peer.wall,
                        ratio=(n / varlab.wall) / (rows / peer.wall),
                        cpu_ratio=(n / varlab.cpu) / (rows / peer.cpu)))
    # both estimate min-max on nonnegative data
    X = rng.random((120, d)) ** 3
    vl = minmax_errors(lambda Z: np.stack(GCWS(n_components=k, random_state=1).fit(Z).hash(Z), axis=-1), X)
    gen = WeightedMinHashGenerator(d, sample_size=k, seed=2)
    ds = minmax_errors(lambda Z: np.stack([gen.minhash(row).hashvalues for row in Z]), X)
    return out, dict(varlab=vl, datasketch=ds)


def bench_sparse(rng, repeats):
    n, d, nnz, k = 1000, 100_000, 100, 256
    X = sparse_rows(rng, n, d, nnz)

    def varlab_end_to_end(data=X):
        return GCWS(n_components=k, random_state=0).fit(data[:1]).hash(data)

    def datasketch_end_to_end():
        return WeightedMinHashGenerator(d, sample_size=k, seed=1).minhash_many(X)

    varlab, peer = Timer(), Timer()
    for _ in range(repeats):
        varlab.run(varlab_end_to_end)
        peer.run(datasketch_end_to_end)
    peak_vl, _ = traced_peak(varlab_end_to_end)
    peak_ds, _ = traced_peak(datasketch_end_to_end)
    X7 = sparse_rows(rng, n, 10_000_000, nnz)
    peak_vl7, _ = traced_peak(lambda: varlab_end_to_end(X7))
    t_vl7 = best_time(lambda: varlab_end_to_end(X7), 1)[0]
    return dict(varlab_s=varlab.wall, datasketch_s=peer.wall, ratio=peer.wall / varlab.wall,
                cpu_ratio=peer.cpu / varlab.cpu, peak_varlab=peak_vl, peak_datasketch=peak_ds,
                peak_varlab_d7=peak_vl7, varlab_d7_s=t_vl7, output_bytes=2 * n * k * 8)


def bench_generator(repeats):
    key = _random.seed_key(0)
    states = randomness.coordinate_states(key, np.arange(256))
    words = randomness.sample_words(np.arange(64))
    reps = 200
    t_tile, _ = best_time(lambda: [randomness.cws_tile(states, words) for _ in range(reps)], repeats)
    coords = np.arange(4096)[:, None]
    samples = np.arange(256)[None, :]
    t_public, _ = best_time(lambda: randomness.cws_randomness(key, coords, samples), repeats)
    return dict(tile_pairs_s=reps * 256 * 64 / t_tile, public_pairs_s=4096 * 256 / t_public)


def bench_gram(rng, repeats):
    X = rng.standard_normal((5000, 16))
    varlab, peer = Timer(), Timer()
    for _ in range(repeats):
        peer.run(lambda: cdist(X, X, "cityblock"))
        varlab.run(lambda: kernels.gmm(X))
    A = kernels.gmm_transform(X[:50])
    reference = np.minimum(A[:, None], A[None]).sum(-1) / np.maximum(A[:, None], A[None]).sum(-1)
    return dict(gmm_s=varlab.wall, cdist_s=peer.wall, ratio=varlab.wall / peer.wall,
                cpu_ratio=varlab.cpu / peer.cpu, max_error=float(np.abs(kernels.gmm(X[:50]) - reference).max()))


def verdict(met):
    return "**met**" if met else "**not met**"


def report(results, args, load_before, load_after):
    dense, dense_accuracy = results["dense"]
    sparse = results["sparse"]
    gen = results["generator"]
    gram = results["gram"]
    mib = 2.0 ** 20
    lines = [
        "## GCWS hashing and GMM Gram matrix (benchmarks/bench_gcws.py)",
        "",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, datasketch "
        f"{datasketch.__version__ if hasattr(datasketch, '__version__') else 'installed'}. BLAS limited to 1 "
        f"thread; varlab is pure numpy, single-threaded. Best of {args.repeats} interleaved runs (wall clock; "
        "the ratio of best CPU times is given too, as it is less sensitive to other load). "
        f"Load average (1 min) {load_before:.2f} before, {load_after:.2f} after: the box is shared, so "
        "absolute times are noisy; the ratios are measured side by side.",
        "",
        "| benchmark | varlab | peer | ratio | target | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for row in dense:
        lines.append(
            f"| (a) dense D=1000, n=1000, k=256, {row['data']}: rows/s of full GCWS `hash` vs datasketch "
            f"`minhash` | {row['varlab_rows_s']:,.0f} rows/s | {row['datasketch_rows_s']:,.0f} rows/s | "
            f"{row['ratio']:.1f}x (CPU time: {row['cpu_ratio']:.1f}x) | >= 10x | {verdict(row['ratio'] >= 10)} |")
    lines.append(
        f"| (b) sparse D=10^5, 100 nnz/row, n=1000, k=256: end to end (setup + hashing) | "
        f"{sparse['varlab_s']:.2f} s | {sparse['datasketch_s']:.2f} s (`WeightedMinHashGenerator` + "
        f"`minhash_many`) | {sparse['ratio']:.1f}x (CPU time: {sparse['cpu_ratio']:.1f}x) | >= 5x | "
        f"{verdict(sparse['ratio'] >= 5)} |")
    lines.append(
        f"| (b) peak traced memory (tracemalloc), same run | {sparse['peak_varlab'] / mib:.0f} MiB "
        f"(output alone {sparse['output_bytes'] / mib:.0f} MiB) | {sparse['peak_datasketch'] / mib:.0f} MiB | "
        f"{sparse['peak_datasketch'] / sparse['peak_varlab']:.0f}x less | independent of D | "
        f"{verdict(sparse['peak_varlab_d7'] < 1.25 * sparse['peak_varlab'] + mib)} (D=10^7: "
        f"{sparse['peak_varlab_d7'] / mib:.0f} MiB, {sparse['varlab_d7_s']:.2f} s) |")
    lines.append(
        f"| (c) counter-based randomness (r, c, beta) per (coordinate, sample) | "
        f"{gen['tile_pairs_s'] / 1e6:.1f} M pairs/s (hashing tiles), {gen['public_pairs_s'] / 1e6:.1f} M pairs/s "
        f"(`cws_randomness`) | - | - | - | - |")
    lines.append(
        f"| (d) GMM Gram 5000x5000, 16-dim dense | {gram['gmm_s']:.3f} s | {gram['cdist_s']:.3f} s "
        f"(`cdist` cityblock) | {gram['ratio']:.2f}x the time (CPU time: {gram['cpu_ratio']:.2f}x) | <= 2x | "
        f"{verdict(gram['ratio'] <= 2)} |")
    lines += [
        "",
        f"Sanity: on 60 pairs of nonnegative rows (D=1000, k=256), mean |estimate - min-max| is "
        f"{dense_accuracy['varlab'][0]:.4f} for varlab and {dense_accuracy['datasketch'][0]:.4f} for datasketch "
        f"(mean min-max {dense_accuracy['varlab'][1]:.3f}; binomial SE about "
        f"{np.sqrt(dense_accuracy['varlab'][1] * (1 - dense_accuracy['varlab'][1]) / 256):.3f}); the GMM Gram "
        f"matches Eq. (8) to {gram['max_error']:.1e}.",
        "",
        "Why varlab is faster. (a) On dense rows all rows share the same coordinates: varlab draws one "
        "(k x coordinates) table of counter-based randomness per group of rows and evaluates Algorithm 1 "
        "with exact pruning from a_i >= (log c_i - r_i) - log u~_i: per sample it visits the coordinates of "
        "smallest log c_i - r_i and, where the row's values are spread out, the row's largest values, and "
        "stops once no unvisited coordinate can win; typical rows are settled after about 64 of the 1000 "
        "coordinates. Heavy-tailed rows (the stress case) need more candidates. datasketch runs a Python "
        "loop over the k samples for every row. (b) varlab generates (r, c, beta) only for the (nonzero, "
        "sample) pairs it needs (five 64-bit mixes and three logs per pair, about 20-25 ns in numpy), "
        "while datasketch first draws three D x k tables (and keeps them: the memory column), then "
        "gathers them per nonzero.",
        "",
    ]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--dense-rows-datasketch", type=int, default=200,
                        help="rows hashed by datasketch's per-row minhash in (a) (rows/s is reported)")
    parser.add_argument("--output", default=str(ROOT / "benchmarks" / "results" / "gcws.md"))
    args = parser.parse_args(argv)
    if datasketch is None:
        raise SystemExit("datasketch is needed (pip install datasketch, or the 'bench' extra)")
    rng = np.random.default_rng(20240607)
    load_before = os.getloadavg()[0]
    with threadpool_limits(limits=1):
        results = {
            "dense": bench_dense(rng, args.repeats, args.dense_rows_datasketch),
            "sparse": bench_sparse(rng, args.repeats),
            "generator": bench_generator(args.repeats),
            "gram": bench_gram(rng, args.repeats),
        }
    text = report(results, args, load_before, os.getloadavg()[0])
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
