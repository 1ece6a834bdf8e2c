"""GCWS hashes are the same bits in a fresh interpreter as in this one (issue 12, section 4b).

The hashes are a pure function of (key, coordinate, sample) and the data: nothing depends on
the process (no global random state, no Python ``hash`` of strings, no dict order). The child
runs with another PYTHONHASHSEED and without this process's imports.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

CASES = textwrap.dedent("""
    import numpy as np
    import scipy.sparse as sp
    from varlab.features import GCWS, RFF

    def cases():
        rng = np.random.default_rng(12)
        dense = rng.standard_normal((40, 30)) * np.exp(rng.uniform(-30, 30, size=(40, 1)))
        columns = np.sort(rng.choice(10 ** 6, size=(50, 30), replace=False), axis=1)
        sparse = sp.csr_matrix((rng.standard_cauchy(1500), columns.ravel(), np.arange(0, 1501, 30)),
                               shape=(50, 10 ** 6))
        tiny = np.array([[5e-324, -1e-310, 3.0], [1e308, -1.7e308, 2.0 ** -1074]])
        out = {}
        for name, X, center in [("dense", dense, None), ("dense_centered", dense, 0.5 * dense[0]),
                                ("float32", dense.astype(np.float32), None),
                                ("sparse", sparse, None), ("extreme", tiny, None),
                                ("beyond_float64", tiny, np.array([-1.7e308, 1.7e308, 0.0]))]:
            # a 41-bit seed as a SeedSequence (an int random_state is limited to [0, 2**32 - 1])
            gcws = GCWS(200, b=6, center=center, random_state=np.random.SeedSequence(2 ** 40 + 7)).fit(X)
            out[name + "_i"], out[name + "_t"] = gcws.hash(X)
            out[name + "_code"] = gcws.transform(X).indices
        # RFF draws its (d, 64) frequencies from the seed and X's shape alone: on the sparse rows'
        # first 1000 columns, not all 10^6 (a 512 MB draw, saved, loaded and compared: 10 s)
        for name, Z in (("rff_shared", dense), ("rff_direct", sparse[:, :1000])):
            rff = RFF(64, gamma=0.3, random_state=np.random.SeedSequence(99)).fit(Z)
            out[name + "_frequencies"], out[name + "_phases"] = rff.frequencies_, rff.phases_
        return out
""")


def _child(path):
    script = CASES + f"\nnp.savez({str(path)!r}, **cases())\n"
    env = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run([sys.executable, "-c", script], check=True, env=env, timeout=120,
                   cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    with np.load(path) as stored:
        return dict(stored)


def test_hashes_are_bit_identical_in_a_fresh_interpreter(tmp_path):
    namespace: dict = {}
    exec(CASES, namespace)
    here = namespace["cases"]()
    there = _child(tmp_path / "child.npz")
    assert sorted(here) == sorted(there)
    for name, value in here.items():
        assert value.dtype == there[name].dtype, name
        assert np.ascontiguousarray(value).tobytes() == np.ascontiguousarray(there[name]).tobytes(), name
