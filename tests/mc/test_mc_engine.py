"""Engine mechanics: reproducibility (bit-identical across n_jobs, chunk_size, backend), seeds,
one-pass prefix sums over k, blocking/slabs, results API, validation and progress."""
import numpy as np
import pytest

from varlab import _random
from varlab.mc import SimulationResult, block_layout, blocks, get_model, seeds, simulate

K = np.unique(np.geomspace(1, 1000, 12).astype(int))
STATS = ("target", "mean", "se_mean", "variance", "se_variance", "mse", "se_mse", "bias")


def assert_identical(a: SimulationResult, b: SimulationResult):
    for name in STATS + ("k", "rho", "gamma"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a == b


@pytest.fixture(scope="module")
def reference():
    # k_max = 1000 -> 65 repetitions per block -> 16 blocks (last one partial)
    return simulate("nrff", k=K, rho=[0.5, 0.95], gamma=[1.0, 2.0], n_repetitions=1000,
                    random_state=42)


def test_layout_has_several_blocks(reference):
    assert np.all(reference.block_repetitions == block_layout(1000)[0]) and block_layout(1000)[0] == 65
    assert np.all(reference.n_blocks == 16)
    assert block_layout(1000)[0] * 1000 <= seeds.BLOCK_ELEMENTS


@pytest.mark.parametrize("n_jobs,backend,chunk_size", [
    (1, "loky", 1), (1, "loky", 5), (2, "loky", None), (2, "loky", 3),
    (2, "threading", 1), (2, "threading", 7), (1, "threading", None), (-1, "threading", 2),
])
def test_bit_identical_across_parallel_settings(reference, n_jobs, backend, chunk_size):
    other = simulate("nrff", k=K, rho=[0.5, 0.95], gamma=[1.0, 2.0], n_repetitions=1000,
                     random_state=42, n_jobs=n_jobs, backend=backend, chunk_size=chunk_size)
    assert_identical(reference, other)


def test_bit_identical_feature_map_model_across_parallel_settings():
    kw = dict(k=[1, 10, 100], rho=0.3, gamma=1.0, n_repetitions=2000, random_state=1,
              data_dimension=4)
    a = simulate("rff_feature_map", **kw)
    b = simulate("rff_feature_map", n_jobs=2, backend="threading", chunk_size=1, **kw)
    assert np.all(a.n_blocks > 1) and a.options == {"data_dimension": 4}
    assert_identical(a, b)


def test_same_seed_same_result_different_seed_different_result(reference):
    again = simulate("nrff", k=K, rho=[0.5, 0.95], gamma=[1.0, 2.0], n_repetitions=1000,
                     random_state=np.random.SeedSequence(42))
    assert_identical(reference, again)
    other = simulate("nrff", k=K, rho=[0.5, 0.95], gamma=[1.0, 2.0], n_repetitions=1000,
                     random_state=43)
    assert not np.array_equal(reference.mean, other.mean)


def test_seed_is_recorded_and_replayable():
    r = simulate("rff", k=[1, 5], rho=0.2, gamma=1.0, n_repetitions=50, random_state=None)
    replay = simulate("rff", k=[1, 5], rho=0.2, gamma=1.0, n_repetitions=50,
                      random_state=np.random.SeedSequence(r.seed_entropy,
                                                          spawn_key=r.seed_spawn_key))
    assert_identical(r, replay)
    assert "varlab.mc/2" in r.seed_scheme


def test_generator_random_state_is_accepted():
    r = simulate("rff", k=[1], rho=0.2, gamma=1.0, n_repetitions=10,
                 random_state=np.random.default_rng(0))
    assert np.isfinite(r.mean).all()


def test_block_seed_is_the_spawned_child():
    parent = _random.spawn(7, 3)[1]
    children = _random.spawn(parent, 9)
    for index in (0, 4, 8):
        assert np.array_equal(seeds.child(parent, index).generate_state(8),
                              children[index].generate_state(8))


def test_points_are_independent_of_grid_neighbours_only_through_index():
    """Point p uses the p-th child of the root: the first point is the same alone or in a grid."""
    alone = simulate("rff", k=[1, 3], rho=0.4, gamma=1.0, n_repetitions=200, random_state=3)
    grid = simulate("rff", k=[1, 3], rho=[0.4, 0.8], gamma=1.0, n_repetitions=200, random_state=3)
    assert np.array_equal(alone.mean[0], grid.mean[0])


# --- one pass over k: prefix sums at grid points, across slabs ---------------------------------

@pytest.mark.parametrize("slab", [1000, 7, 64, 333])
def test_prefix_sums_at_grid_points_match_cumsum(slab):
    rng = np.random.default_rng(0)
    terms = rng.standard_normal((3, 5, 1000))
    k = np.array([1, 2, 7, 8, 64, 65, 300, 999, 1000])
    sums = np.full((3, k.size, 5), np.nan)
    carry = None
    for c0, width, starts, pieces, columns in seeds.slabs(k, slab):
        carry = blocks._accumulate(np.ascontiguousarray(terms[:, :, c0:c0 + width]), starts,
                                   pieces, columns, sums, carry)
    expected = np.cumsum(terms, axis=2)[:, :, k - 1].transpose(0, 2, 1)
    np.testing.assert_allclose(sums, expected, rtol=1e-12, atol=1e-12)


def test_slabbed_layout_for_huge_k(monkeypatch):
    """When k_max exceeds the block budget, one repetition per block is processed in slabs
    (memory O(budget)); the statistics still agree with theory."""
    monkeypatch.setattr(seeds, "BLOCK_ELEMENTS", 128)
    assert block_layout(1000, budget=128) == (1, 128)
    r = simulate("rff", k=[1, 100, 1000], rho=0.5, gamma=1.0, n_repetitions=400, random_state=8,
                 n_jobs=2, backend="threading")
    assert np.all(r.block_repetitions == 1) and np.all(r.n_blocks == 400)
    V = 0.5 + 0.5 * (1 - np.exp(-1.0)) ** 2
    z_mean = (r.mean - r.target) / r.se_mean
    z_var = (r.variance * r.k - V) / (r.se_variance * r.k)
    assert np.all(np.abs(z_mean) <= 4.5) and np.all(np.abs(z_var) <= 4.5)


def test_block_layout_bounds_memory():
    for k_max in (1, 3, 1000, 65536, 65537, 10 ** 7):
        reps, slab = block_layout(k_max)
        assert reps * slab <= seeds.BLOCK_ELEMENTS
        assert 1 <= reps <= seeds.MAX_BLOCK_REPETITIONS
    for granularity in (3, 10, 1000):       # slabs never cut a group of `granularity` samples
        reps, slab = block_layout(10 ** 6, granularity=granularity)
        assert reps == 1 and slab % granularity == 0 and slab <= max(granularity, seeds.BLOCK_ELEMENTS)


# --- result API ---------------------------------------------------------------------------------

def test_result_shapes_records_and_select():
    rho = np.array([[0.1], [0.5], [0.9]])
    gamma = np.array([1.0, 2.0])
    r = simulate("rff_no_phase", k=[1, 2, 4], rho=rho, gamma=gamma, n_repetitions=100,
                 random_state=0)
    assert r.shape == (3, 2) and r.n_points == 6
    for name in STATS:
        assert getattr(r, name).shape == (6, 3)
    assert r.reshaped("mse").shape == (3, 2, 3)
    assert r.reshaped("theory_variance").shape == (3, 2, 3)
    assert list(r.grid) == ["rho", "gamma"] and r.grid["rho"] is r.rho
    np.testing.assert_array_equal(r.rho, np.repeat([0.1, 0.5, 0.9], 2))
    np.testing.assert_array_equal(r.gamma, np.tile([1.0, 2.0], 3))
    records = r.records()
    assert len(records) == 18
    first = records[0]
    assert first["model"] == "rff_no_phase" and first["k"] == 1 and first["rho"] == 0.1
    assert set(STATS) <= set(first)
    one = r.select(rho=0.5, gamma=2.0)
    assert one.n_points == 1 and one.rho[0] == 0.5 and one.gamma[0] == 2.0
    np.testing.assert_array_equal(one.mse[0], r.mse[3])
    assert r.select(gamma=1.0).n_points == 3
    assert r.select(index=4).rho[0] == 0.9
    with pytest.raises(ValueError, match="no simulated point"):
        r.select(rho=0.3)
    np.testing.assert_array_equal(r.se_bias, r.se_mean)


# --- validation ---------------------------------------------------------------------------------

GOOD = dict(k=[1, 2], rho=0.5, gamma=1.0, n_repetitions=10)


@pytest.mark.parametrize("change,error,name", [
    (dict(rho=1.5), ValueError, "rho"),
    (dict(rho=[0.1, -1.01]), ValueError, "rho"),
    (dict(rho=np.nan), ValueError, "rho"),
    (dict(gamma=0.0), ValueError, "gamma"),
    (dict(gamma=-1.0), ValueError, "gamma"),
    (dict(k=[0, 1]), ValueError, "k"),
    (dict(k=[3, 2]), ValueError, "k"),
    (dict(k=[1, 1]), ValueError, "k"),
    (dict(k=[1.5]), TypeError, "k"),
    (dict(k=2.0), TypeError, "k"),
    (dict(k=[True, 2]), TypeError, "k"),
    (dict(k=np.uint64(2 ** 63)), ValueError, "k"),
    (dict(k=2 ** 40, n_repetitions=2), ValueError, "max_samples"),
    (dict(n_repetitions=1), ValueError, "n_repetitions"),
    (dict(n_repetitions=10.0), TypeError, "n_repetitions"),
    (dict(n_jobs=0), ValueError, "n_jobs"),
    (dict(n_jobs=1.0), TypeError, "n_jobs"),
    (dict(chunk_size=0), ValueError, "chunk_size"),
    (dict(progress="yes"), TypeError, "progress"),
    (dict(data_dimension=3), TypeError, "data_dimension"),
    (dict(rho=[0.1, 0.2], gamma=[1.0, 2.0, 3.0]), ValueError, "broadcast"),
])
def test_validation(change, error, name):
    with pytest.raises(error, match=name):
        simulate("rff", **{**GOOD, **change})


def test_unknown_model_and_bad_options():
    with pytest.raises(ValueError, match="model"):
        simulate("no_such_model", **GOOD)
    with pytest.raises(TypeError, match="model"):
        simulate(3, **GOOD)
    with pytest.raises(TypeError, match="options"):
        simulate("rff", bogus=1, **GOOD)
    from varlab.mc.models.rff import RFFModel
    with pytest.raises(TypeError, match="options"):
        simulate(RFFModel(), bogus=1, **GOOD)
    with pytest.raises(TypeError, match="missing"):
        simulate("rff", k=[1], rho=0.5, n_repetitions=10)


# --- progress -----------------------------------------------------------------------------------

def test_progress_forced_and_silenced(capsys):
    simulate("rff", k=[1, 10], rho=0.5, gamma=1.0, n_repetitions=20_000, random_state=0,
             progress=True, chunk_size=1)
    err = capsys.readouterr().err
    assert "simulate rff" in err and "block" in err
    simulate("rff", k=[1, 10], rho=0.5, gamma=1.0, n_repetitions=20_000, random_state=0,
             progress=False)
    assert capsys.readouterr().err == ""
    simulate("rff", k=[1, 10], rho=0.5, gamma=1.0, n_repetitions=2000, random_state=0)
    assert capsys.readouterr().err == ""          # auto: quick runs are silent


@pytest.mark.parametrize("name, point, k", [("nrff", {"rho": 0.5, "gamma": 1.0}, [1, 10, 100]),
                                            ("mm_moment_matching", {"dimension": 4, "scaled_distance": 1.0}, [8])])
def test_a_tasks_summaries_travel_packed_and_arrive_unchanged(name, point, k):
    import pickle

    from varlab.mc.blocks import fresh_blocks, prefix_blocks
    from varlab.mc.engine import _TaskSummaries

    model, k = get_model(name), np.array(k)
    target = float(model.target(**point))
    if model.prefix:
        blocks = prefix_blocks(model, k, point, target, 10 ** 6, 65, 100, np.random.SeedSequence(0), 0, 7)
    else:
        blocks = fresh_blocks(model, k[0], 0, point, target, 10 ** 6, 20, np.random.SeedSequence(0), 0, 7)
    payload = pickle.dumps(_TaskSummaries(blocks))
    arrived = pickle.loads(payload)
    assert len(arrived) == len(blocks) == 7
    for sent_pair, arrived_pair in zip(blocks, arrived):
        for sent, got in zip(sent_pair, arrived_pair):
            assert got.n == sent.n and got.order == sent.order
            for field in ("mean", "m2", "m3", "m4")[:sent.order]:
                assert np.shape(getattr(got, field)) == np.shape(getattr(sent, field))
                assert np.array_equal(getattr(got, field), getattr(sent, field))
    # a few stacked arrays, not one pickled array per field of every block
    assert len(payload) < len(pickle.dumps(list(blocks)))
