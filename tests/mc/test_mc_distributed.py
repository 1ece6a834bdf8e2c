"""The engine on a dask.distributed cluster: bit-identical to n_jobs=1, and a worker killed
mid-run is survived (its tasks rerun elsewhere) with the same result."""
import os
import threading
import time

import pytest

from varlab import mc

distributed = pytest.importorskip("distributed")

ARGS = dict(k=[1, 10, 100, 1000], rho=[0.3, 0.8], gamma=[[1.0], [3.0]], n_repetitions=65 * 60,
            random_state=77)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


@pytest.fixture(scope="module")
def reference():
    """The n_jobs=1 result of ARGS (both tests compare with it)."""
    return mc.simulate("nrff", **ARGS)


def test_dask_backend_is_bit_identical(client, reference):
    assert mc.simulate("nrff", backend="dask", scheduler=client, chunk_size=3, **ARGS) == reference
    with mc.configure(backend="dask", scheduler=client.scheduler.address):
        assert mc.simulate("nrff", **ARGS) == reference


def test_a_killed_worker_is_survived(client, reference):
    outcome = {}

    def run():
        outcome["result"] = mc.simulate("nrff", backend="dask", scheduler=client, chunk_size=1,
                                        **ARGS)

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(1.0)
    victim = sorted(client.scheduler_info()["workers"])[0]
    try:
        client.run(os._exit, 1, workers=[victim])
    except Exception:             # the connection to the killed worker drops
        pass
    assert thread.is_alive(), "the run finished before a worker was killed: make ARGS larger"
    thread.join(timeout=300)
    assert not thread.is_alive()
    assert outcome["result"] == reference


def test_dask_backend_needs_a_client():
    with pytest.raises((ValueError, TypeError), match="scheduler|Client"):
        mc.simulate("rff", k=[1], rho=0.5, gamma=1.0, n_repetitions=10, backend="dask",
                    scheduler=3)
