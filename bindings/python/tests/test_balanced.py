"""Balanced tables (SPEC.md §17) through the Python API: every case of
table-balanced-v1.json, the argument's errors, pickling and changes."""

import math
import pickle

import pytest

import longstraw
from conftest import load_vectors, weight_from_bits


@pytest.fixture(scope="module")
def vectors():
    return load_vectors("table-balanced")


def build(case):
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [weight_from_bits(n["weight_bits"]) for n in case["nodes"]]
    table = longstraw.Rendezvous.table(
        ids,
        weights=weights,
        seed=int(case["seed"]),
        partition_bits=case["bits"],
        replicas=case["replicas"],
        balance=case["balance_millionths"] / 1e6,
    )
    return ids, table


def test_every_vector_case(vectors):
    assert vectors["placement"] == "table-balanced-v1"
    checked = 0
    for case in vectors["cases"]:
        ids, table = build(case)
        snap = table.snapshot()
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            expected = [ids[i] for i in k["list"]]
            assert table.partition(key) == k["partition"], case["name"]
            # Past the replicas nothing is ranked: the stored row is the whole list.
            assert table.top_k(key, case["replicas"] + 2) == expected, case["name"]
            assert snap.top_k(key, case["replicas"] + 2) == expected, case["name"]
            if expected:
                assert table.owner(key) == expected[0]
            else:
                with pytest.raises(longstraw.NoEligibleNodeError):
                    table.owner(key)
            checked += 1
    assert checked == 10 * len(vectors["cases"])


@pytest.mark.parametrize("bad", [0.5, 0.999999, 4.5, math.nan, math.inf, -1.0])
def test_out_of_range_balance_is_a_value_error(bad):
    with pytest.raises(ValueError, match="balance"):
        longstraw.Rendezvous.table(["a", "b"], balance=bad)


@pytest.mark.parametrize("bad", [True, "1.05", b"1", [1.05]])
def test_non_number_balance_is_a_type_error(bad):
    with pytest.raises(TypeError, match="balance"):
        longstraw.Rendezvous.table(["a", "b"], balance=bad)


def test_balance_round_trips_through_pickle_and_repr():
    t = longstraw.Rendezvous.table([f"n{i}" for i in range(20)], partition_bits=10, replicas=2, balance=1.05)
    assert t.balance == 1.05
    assert "balance=1.05" in repr(t)
    back = pickle.loads(pickle.dumps(t))
    assert back.balance == 1.05
    keys = [f"k{i}".encode() for i in range(200)]
    assert [back.top_k(k, 2) for k in keys] == [t.top_k(k, 2) for k in keys]
    assert longstraw.Rendezvous.table(["a"]).balance is None


def test_changes_equal_a_fresh_build():
    nodes = [f"n{i}" for i in range(30)]
    t = longstraw.Rendezvous.table(nodes, partition_bits=10, balance=1.01)
    t.add("extra", 2.0)
    t.remove("n3")
    t.set_weight("n4", 0.0)
    fresh = longstraw.Rendezvous.table(t.nodes, weights=t.weights, partition_bits=10, balance=1.01)
    keys = [f"k{i}".encode() for i in range(2000)]
    assert [t.owner(k) for k in keys] == [fresh.owner(k) for k in keys]
    assert all(t.owner(k) != "n4" for k in keys), "a drained node owns nothing"
