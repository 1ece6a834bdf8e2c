"""Shared validators and seeding."""
import numpy as np
import pytest

from varlab import _random, _validate


@pytest.mark.parametrize("value", [-1.0000001, 1.5, np.nan, np.inf, [0.2, 2.0]])
def test_correlation_rejects_out_of_range(value):
    with pytest.raises(ValueError, match="rho"):
        _validate.correlation(value)


def test_correlation_accepts_the_closed_interval():
    np.testing.assert_array_equal(_validate.correlation([-1, 0, 1]), [-1.0, 0.0, 1.0])


@pytest.mark.parametrize("value", [0, -3, 0.0, np.nan])
def test_positive_rejects(value):
    with pytest.raises(ValueError, match="gamma"):
        _validate.positive(value, "gamma")


def test_non_numeric_is_a_type_error():
    with pytest.raises(TypeError, match="rho"):
        _validate.correlation("high")


@pytest.mark.parametrize("value, error", [(0, ValueError), (1.5, TypeError), (True, TypeError)])
def test_positive_int(value, error):
    with pytest.raises(error, match="k"):
        _validate.positive_int(value, "k")


def test_int_grid_requires_increasing_integers():
    np.testing.assert_array_equal(_validate.int_grid([1, 2, 10], "k"), [1, 2, 10])
    with pytest.raises(ValueError, match="increasing"):
        _validate.int_grid([3, 2], "k")
    with pytest.raises(TypeError, match="integers"):
        _validate.int_grid([1.5], "k")
    with pytest.raises(ValueError, match=">= 1"):
        _validate.int_grid([0, 1], "k")


def test_seed_sequence_accepts_the_documented_types():
    assert _random.seed_sequence(5).entropy == 5
    sequence = np.random.SeedSequence(7)
    assert _random.seed_sequence(sequence) is sequence
    assert isinstance(_random.seed_sequence(np.random.default_rng(1)), np.random.SeedSequence)
    legacy = _random.seed_sequence(np.random.RandomState(0))
    assert legacy.entropy == _random.seed_sequence(np.random.RandomState(0)).entropy   # repeatable
    for bad, error in [(-1, ValueError), (1.5, TypeError), ("x", TypeError)]:
        with pytest.raises(error, match="random_state"):
            _random.seed_sequence(bad)


def test_spawn_is_repeatable():
    first = [c.generate_state(2).tolist() for c in _random.spawn(3, 4)]
    second = [c.generate_state(2).tolist() for c in _random.spawn(3, 4)]
    assert first == second and len({tuple(x) for x in first}) == 4


@pytest.mark.parametrize("value", [None, "0.5", True, np.array([0.1, 0.2j]), [0.1, "x"]])
def test_real_array_rejects_what_float_conversion_would_accept(value):
    # None -> nan, "0.5" -> 0.5, True -> 1.0 and complex -> its real part, silently, otherwise
    with pytest.raises(TypeError, match="rho"):
        _validate.correlation(value)


@pytest.mark.parametrize("X", [np.array([[1.0 + 1.0j, 2.0]]), np.array([["1", "2"]])])
def test_data_matrix_rejects_complex_and_strings(X):
    import scipy.sparse as sp

    with pytest.raises(TypeError, match="X must hold real numbers"):
        _validate.data_matrix(X)
    if X.dtype.kind == "c":
        with pytest.raises(TypeError, match="X must hold real numbers"):
            _validate.data_matrix(sp.csr_matrix(X))


def test_int_grid_rejects_booleans_and_strings():
    for bad in ([True], ["a"]):
        with pytest.raises(TypeError, match="k must hold integers"):
            _validate.int_grid(bad, "k")


def test_public_entry_points_name_the_bad_parameter():
    from varlab.features import GCWS, gmm_estimate
    from varlab.mc import get_model
    from varlab.mc.models.rff import correlated_unit_vectors

    for rho in (2.0, np.nan):
        with pytest.raises(ValueError, match="rho"):
            correlated_unit_vectors(rho, 3)
    with pytest.raises(TypeError, match="dimension"):
        correlated_unit_vectors(0.5, 2.5)
    with pytest.raises(TypeError, match="data_dimension"):
        get_model("gcws_rbf_hashed", data_dimension=2.7)
    with pytest.raises(ValueError, match="data_dimension"):
        get_model("gcws_rbf_hashed", data_dimension=0)
    hashes = (np.array([[1.5]]), np.array([[0]]))
    with pytest.raises(TypeError, match="integers"):
        gmm_estimate(hashes, hashes)
    with pytest.raises(TypeError, match="i_star must hold integers"):
        GCWS(4, b=2, zero_bit=True, random_state=0).code(np.array([[1.7, 3.2]]))
    with pytest.raises(ValueError, match="nonnegative"):
        GCWS(4, b=2, zero_bit=True, random_state=0).code(np.array([[-1, 3]]))


def test_derive_seed_hashes_text_keeps_integers_and_refuses_the_rest():
    from varlab.claims import budget, seed_for
    from varlab.seeding import derive_seed, stable_hash

    assert derive_seed(3, "a", 5).entropy == [3, stable_hash("a"), 5]
    test = budget("test")
    assert derive_seed(test.random_state, "000.thm1", "pairs").entropy == seed_for("000.thm1", test, "pairs").entropy
    for bad in (1.5, True, -1, None):
        with pytest.raises(TypeError, match="non-negative int"):
            derive_seed(3, bad)
    with pytest.raises(TypeError, match="random_state"):
        derive_seed("3")
