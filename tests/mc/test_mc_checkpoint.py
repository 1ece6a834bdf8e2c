"""Resumable simulations: a run killed with SIGKILL resumes from its checkpoint store and gives
the uninterrupted result bit for bit, recomputing nothing that finished; foreign or corrupt
stores are errors."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from varlab import mc

ARGS = dict(k=[1, 10, 100, 1000], rho=[0.5, 0.9], gamma=1.0, n_repetitions=65 * 150,
            random_state=2024)
SCRIPT = """
import sys
from varlab import mc
mc.simulate("nrff", k=[1, 10, 100, 1000], rho=[0.5, 0.9], gamma=1.0, n_repetitions=65 * 150,
            random_state=2024, checkpoint=sys.argv[1], chunk_size=1)
"""


def test_sigkill_then_resume_is_bit_identical(tmp_path):
    store = tmp_path / "store"
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, str(store)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(store.glob("task_*.npz"))) < 40:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    finished = len(list(store.glob("task_*.npz")))
    assert 40 <= finished < 300, finished          # killed mid-run (300 blocks in all)
    resumed = mc.simulate("nrff", checkpoint=store, **ARGS)
    assert resumed.resumed_blocks >= finished
    uninterrupted = mc.simulate("nrff", **ARGS)
    assert resumed == uninterrupted
    again = mc.simulate("nrff", checkpoint=store, **ARGS)        # everything is stored now
    assert again.resumed_blocks == 300 and again == uninterrupted


def test_checkpoint_root_gives_each_simulation_its_directory(tmp_path):
    small = dict(k=[1, 5], rho=0.5, gamma=1.0, n_repetitions=2000, random_state=1)
    with mc.configure(checkpoint_root=tmp_path):
        first = mc.simulate("rff", **small)
        mc.simulate("nrff", **small)
        second = mc.simulate("rff", **small)
    assert len([p for p in tmp_path.iterdir() if p.is_dir()]) == 2
    assert second.resumed_blocks == int(second.n_blocks[0]) and second == first


def test_foreign_and_corrupt_stores_are_errors(tmp_path):
    small = dict(k=[1, 5], rho=0.5, gamma=1.0, n_repetitions=2000, random_state=1)
    mc.simulate("rff", checkpoint=tmp_path, **small)
    with pytest.raises(ValueError, match="another simulation"):
        mc.simulate("rff", checkpoint=tmp_path, **{**small, "random_state": 2})
    task = sorted(tmp_path.glob("task_*.npz"))[0]
    task.write_bytes(task.read_bytes()[:-20])
    with pytest.raises(ValueError, match="corrupt"):
        mc.simulate("rff", checkpoint=tmp_path, **small)
    with pytest.raises(ValueError, match="random_state"):
        mc.simulate("rff", checkpoint=tmp_path / "x", **{**small, "random_state": None})
