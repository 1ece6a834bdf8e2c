"""The engine on a dask.distributed cluster: bit-identical to n_jobs=1 on a LocalCluster and on
a cluster started from the command line (``dask scheduler`` + two ``dask worker``), and a worker
killed mid-run is survived (its tasks rerun elsewhere) with the same result."""
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from varlab import mc
from varlab.mc import engine

distributed = pytest.importorskip("distributed")
# the LocalCluster below keeps dask's default worker environment (one test checks the warning)
pytestmark = pytest.mark.filterwarnings("ignore:the dask workers of:RuntimeWarning")

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
    deadline = time.monotonic() + 60.0            # kill a worker as soon as one is busy (the fused
    while not any(client.processing().values()) and time.monotonic() < deadline:   # kernels are fast)
        time.sleep(0.005)
    victim = next((w for w, tasks in sorted(client.processing().items()) if tasks),
                  sorted(client.scheduler_info()["workers"])[0])
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


def test_tasks_are_cut_for_the_cluster_threads(client):
    threads = sum(worker["nthreads"] for worker in client.scheduler_info()["workers"].values())
    assert threads >= 2 and engine._workers("dask", 1, client) == threads     # a worker may have been killed


def test_workers_with_dask_malloc_trim_are_warned_about(client):
    """The fixture's LocalCluster keeps dask's default MALLOC_TRIM_THRESHOLD_."""
    engine._CHECKED.discard(client.scheduler.address)
    with pytest.warns(RuntimeWarning, match="MALLOC_TRIM_THRESHOLD_"):
        mc.simulate("rff", k=[1], rho=0.5, gamma=1.0, n_repetitions=10, backend="dask",
                    scheduler=client)


#: the environment docs/engine.md gives workers: dask's MALLOC_TRIM_THRESHOLD_ unset
WORKER_ENVIRONMENT = {"DASK_DISTRIBUTED__NANNY__PRE_SPAWN_ENVIRON": '{"MALLOC_TRIM_THRESHOLD_": None}'}


def _dask_command(*arguments):
    """Start ``dask ...`` (the command-line tools) with this interpreter and WORKER_ENVIRONMENT
    (less the MALLOC_TRIM_THRESHOLD_ that a LocalCluster's nanny leaves in this process's
    environment); it exits by itself if this test process dies before stopping it."""
    environment = {name: value for name, value in os.environ.items()
                   if name != "MALLOC_TRIM_THRESHOLD_"}
    return subprocess.Popen([sys.executable, "-m", "dask", *arguments], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**environment, **WORKER_ENVIRONMENT})


def _scheduler_address(scheduler_file, process, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not scheduler_file.exists() or not scheduler_file.read_text().strip():
        assert process.poll() is None, "dask scheduler exited at start"
        assert time.monotonic() < deadline, "dask scheduler did not start"
        time.sleep(0.1)
    return json.loads(scheduler_file.read_text())["address"]


@pytest.fixture
def command_line_cluster(tmp_path):
    """The address of a ``dask scheduler`` on 127.0.0.1 (a free port) with two ``dask worker``
    processes of one thread; all three are stopped afterwards."""
    scheduler_file = tmp_path / "scheduler.json"
    processes = [_dask_command("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(scheduler_file), "--idle-timeout", "120")]
    try:
        address = _scheduler_address(scheduler_file, processes[0])
        processes += [_dask_command("worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                    "--no-dashboard", "--death-timeout", "30") for _ in range(2)]
        with distributed.Client(address, set_as_default=False, timeout=20) as watcher:
            watcher.wait_for_workers(2, timeout=30)
            yield address
            engine._CLIENTS.pop(address).close()
            watcher.shutdown()                  # the scheduler and its workers exit
    finally:
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_a_command_line_cluster_gives_the_same_bits(command_line_cluster):
    args = dict(ARGS, n_repetitions=65 * 8)
    assert mc.simulate("nrff", backend="dask", scheduler=command_line_cluster, **args) == \
        mc.simulate("nrff", **args)
    assert command_line_cluster in engine._CHECKED        # and no warning: none of its workers
    client = engine._CLIENTS[command_line_cluster]         # has MALLOC_TRIM_THRESHOLD_
    assert set(client.run(engine._malloc_trim_threshold).values()) == {None}
