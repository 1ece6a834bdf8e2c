"""Out-of-core hashing and features (varlab.features.chunked): block by block, on a dask cluster
of worker processes, gives the in-memory bits, with a worker's memory bounded by the chunk."""
from __future__ import annotations

import os
import sys
import tracemalloc
import uuid

import numpy as np
import pytest
import scipy.sparse as sp

from varlab.features import GCWS, RFF
from varlab.features._base import NotFittedError
from varlab.features.chunked import hash_chunks, transform_chunks

D, NNZ, K = 10 ** 6, 100, 128          # the shape (D, nonzeros per row), smaller k and n
CHUNK, N_CHUNKS = 100, 12


def _block(seed: int, rows: int, width: int = D, nnz: int = NNZ) -> sp.csr_matrix:
    """A CSR block of ``rows`` rows with ``nnz`` distinct nonzero columns each (seeded)."""
    rng = np.random.default_rng(seed)
    columns = np.sort(rng.choice(width, size=(rows, nnz), replace=True), axis=1)
    matrix = sp.csr_matrix((rng.standard_exponential(rows * nnz) * rng.choice([-1, 1], rows * nnz),
                            columns.ravel(), np.arange(0, rows * nnz + 1, nnz)), shape=(rows, width))
    matrix.sum_duplicates()
    return matrix


class RecordingGCWS(GCWS):
    """GCWS whose ``hash`` records the shape of the block it is given in a file of ``record_dir``."""

    record_dir = None

    def hash(self, X):
        with open(os.path.join(self.record_dir, f"{uuid.uuid4().hex}.rows"), "w") as handle:
            handle.write(f"{X.shape[0]} {X.shape[1]}\n")
        return super().hash(X)


def _traced_peak(function, *args) -> int:
    """The peak traced memory (bytes) of ``function(*args)`` in this process.

    Measured here rather than on a worker: a worker's other threads (its event loop receiving
    and deserialising tasks) allocate while the hash runs, and tracemalloc counts those too."""
    tracemalloc.start()
    try:
        function(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _whole_matrix():
    return sp.vstack([_block(seed, CHUNK) for seed in range(N_CHUNKS)], format="csr")


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])   # workers need not import tests/
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


def test_sparse_hashing_on_a_cluster_is_the_in_memory_hash_with_memory_bounded_by_the_chunk(client, tmp_path):
    import dask
    import dask.array as da

    gcws = RecordingGCWS(K, random_state=2024).fit(sp.csr_matrix(np.ones((1, D))))
    gcws.record_dir = str(tmp_path)
    # the blocks are generated on the workers: the whole matrix never exists there
    X = da.concatenate([da.from_delayed(dask.delayed(_block)(seed, CHUNK), shape=(CHUNK, D),
                                        dtype=np.float64, meta=sp.csr_matrix((0, 0)))
                        for seed in range(N_CHUNKS)])
    i_lazy, t_lazy = hash_chunks(gcws, X)
    i_star, t_star = client.compute([i_lazy, t_lazy], sync=True)

    whole = _whole_matrix()
    in_memory = GCWS(K, random_state=2024).fit(whole[:1])
    reference = in_memory.hash(whole)
    np.testing.assert_array_equal(i_star, reference[0])
    np.testing.assert_array_equal(t_star, reference[1])

    # every hash a worker ran was given one chunk, never the whole matrix
    shapes = {tuple(map(int, path.read_text().split())) for path in tmp_path.glob("*.rows")}
    assert len(list(tmp_path.glob("*.rows"))) >= N_CHUNKS and shapes == {(CHUNK, D)}
    # and the memory of hashing one chunk is bounded by the chunk, not by the whole matrix
    whole_peak = _traced_peak(in_memory.hash, whole)
    for seed in range(N_CHUNKS):
        block = _block(seed, CHUNK)
        input_bytes = block.data.nbytes + block.indices.nbytes + block.indptr.nbytes
        output_bytes = 2 * 8 * CHUNK * K
        peak = _traced_peak(in_memory.hash, block)
        # GCWS's fixed tiles (a few MiB) plus a few copies of the chunk's input and output
        assert peak <= 6 * 2 ** 20 + 4 * (input_bytes + output_bytes), (seed, input_bytes, peak)
        assert peak < whole_peak / 2, (seed, peak, whole_peak)


def test_dense_rff_on_a_cluster(client):
    import dask.array as da

    X = np.random.default_rng(5).standard_normal((600, 24))
    rff = RFF(64, gamma=0.5, random_state=1).fit(X)
    Z = client.compute(transform_chunks(rff, da.from_array(X, chunks=(70, 10))), sync=True)
    np.testing.assert_allclose(Z, rff.transform(X), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("form", ["csr", "csc", "coo", "dense", "float32"])
def test_blocks_equal_the_in_memory_call(form):
    X = _block(7, 60, width=500, nnz=20)
    X = {"csr": X, "csc": X.tocsc(), "coo": X.tocoo(), "dense": X.toarray(),
         "float32": X.toarray().astype(np.float32)}[form]
    gcws = GCWS(32, b=4, random_state=3).fit(X)
    rows = sp.csr_matrix(X) if sp.issparse(X) else X
    reference = gcws.hash(X)
    for chunk_rows in (1, 7, 60, 1000):
        i_star, t_star = hash_chunks(gcws, X if not sp.issparse(X) else sp.csr_matrix(X), chunk_rows=chunk_rows)
        np.testing.assert_array_equal(i_star, reference[0])
        np.testing.assert_array_equal(t_star, reference[1])
    pairs = list(hash_chunks(gcws, (rows[s:s + 13] for s in range(0, 60, 13))))
    np.testing.assert_array_equal(np.concatenate([p[0] for p in pairs]), reference[0])
    np.testing.assert_array_equal(np.concatenate([p[1] for p in pairs]), reference[1])
    assert (transform_chunks(gcws, rows, chunk_rows=9) != gcws.transform(X)).nnz == 0
    # paper 000's correlation kernel (the former default): unit rows keep the arguments <x, w> of
    # order 1. In float32 a product summed in another order (another block of rows) may differ
    # by a few ulp of the argument (~1e-7), which a cosine near 0 turns into a relative error
    # above 1e-5: hence an absolute tolerance of float32 resolution there.
    rff = RFF(16, kernel="correlation", random_state=0).fit(X)
    atol = 1e-6 if form == "float32" else 0.0
    np.testing.assert_allclose(transform_chunks(rff, rows, chunk_rows=11), rff.transform(X), rtol=1e-5, atol=atol)
    np.testing.assert_allclose(transform_chunks(rff, rows, method="components", chunk_rows=11),
                               rff.components(X), rtol=1e-5, atol=atol)


def test_dask_array_of_sparse_chunks_in_process():
    da = pytest.importorskip("dask.array")
    X = _block(3, 90, width=2000, nnz=15)
    gcws = GCWS(16, random_state=9)
    lazy = da.from_array(X, chunks=(25, 700), asarray=False)    # column chunks are joined
    i_star, t_star = hash_chunks(gcws, lazy)
    reference = gcws.hash(X)
    np.testing.assert_array_equal(i_star.compute(scheduler="sync"), reference[0])
    np.testing.assert_array_equal(t_star.compute(scheduler="sync"), reference[1])
    assert (transform_chunks(gcws, lazy, chunk_rows=40).compute(scheduler="sync") != gcws.transform(X)).nnz == 0


def test_unfitted_estimators_are_fitted_without_the_data():
    X = np.random.default_rng(0).standard_normal((20, 5))
    rff = RFF(8, random_state=4)
    Z = transform_chunks(rff, iter([X[:10], X[10:]]))
    np.testing.assert_allclose(np.concatenate(list(Z)), RFF(8, random_state=4).fit(X).transform(X), rtol=1e-12)
    gcws = GCWS(8, random_state=4)
    next(hash_chunks(gcws, [X]))
    assert gcws.n_features_in_ == 5
    assert gcws.key_ == GCWS(8, random_state=4).fit(X).key_
    np.testing.assert_array_equal(np.concatenate(next(hash_chunks(gcws, [X])), axis=1),
                                  np.concatenate(GCWS(8, random_state=4).fit(X).hash(X), axis=1))


def test_bad_arguments_name_the_parameter():
    X = np.ones((4, 3))
    with pytest.raises(TypeError, match="chunk_rows"):
        transform_chunks(GCWS(4), X, chunk_rows=2.0)
    with pytest.raises(ValueError, match="chunk_rows"):
        transform_chunks(GCWS(4), X, chunk_rows=0)
    with pytest.raises(ValueError, match="method"):
        transform_chunks(GCWS(4), X, method="fit")
    with pytest.raises(TypeError, match="estimator"):
        transform_chunks(object(), X)
    with pytest.raises(TypeError, match="gcws"):
        hash_chunks(RFF(4), X)
    with pytest.raises(TypeError, match="X"):
        transform_chunks(GCWS(4), 3.0)
    with pytest.raises(ValueError, match="X"):
        transform_chunks(GCWS(4), np.ones(3))
    with pytest.raises(ValueError, match="X block 1"):
        list(transform_chunks(GCWS(4), [X, np.ones((2, 4))]))
    with pytest.raises(ValueError, match="X"):
        list(transform_chunks(GCWS(4), [np.array([[np.nan, 1.0]])]))
    class Unfitted:
        def transform(self, X):
            return X

    with pytest.raises(NotFittedError, match="not fitted"):
        list(transform_chunks(Unfitted(), [X]))


@pytest.mark.parametrize("form", ["coo", "dia", "bsr", "dok", "lil", "csc"])
def test_every_sparse_format_is_sliced_into_row_blocks(form):
    """Found by tests/test_fuzz_api.py: coo/dia input gave "'coo_matrix' object is not
    subscriptable" (TypeError without a parameter), dok/bsr NotImplementedError."""
    X = _block(1, 9, width=40, nnz=5)
    gcws = GCWS(8, random_state=0)
    i_star, t_star = hash_chunks(gcws, X.asformat(form), chunk_rows=4)
    np.testing.assert_array_equal(i_star, gcws.hash(X)[0])
    np.testing.assert_array_equal(t_star, gcws.hash(X)[1])
