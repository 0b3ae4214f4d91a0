"""Every case of table-v1, skeleton-v1 and domains-v1 (SPEC.md §10-§13),
reproduced through the Python API. The files are read at test time."""

import struct

import pytest

import longstraw
from conftest import load_vectors, weight_from_bits


@pytest.fixture(scope="module")
def table_vectors():
    return load_vectors("table")


@pytest.fixture(scope="module")
def skeleton_vectors():
    return load_vectors("skeleton")


@pytest.fixture(scope="module")
def domain_vectors():
    return load_vectors("domains")


def members(case):
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [weight_from_bits(n["weight_bits"]) for n in case["nodes"]]
    return ids, weights


def check_key(s, snap, ids, k, depth, where):
    """owner, owner_index, top_k and rank of one vector key on a set `s`."""
    key = bytes.fromhex(k["key_hex"])
    expected = [ids[i] for i in k["ranked"]]
    if k["owner"] is None:
        with pytest.raises(longstraw.NoEligibleNodeError):
            s.owner(key)
        with pytest.raises(longstraw.NoEligibleNodeError):
            snap.owner_index(key)
        assert expected == [], where
    else:
        assert s.owner(key) == ids[k["owner"]], where
        assert snap.owner_index(key) == k["owner"], where
        assert snap.owner(key) == ids[k["owner"]], where
    assert s.top_k(key, depth) == expected, where
    assert snap.top_k(key, depth) == expected, where
    full = s.rank(key)
    assert (full if len(expected) < depth else full[:depth]) == expected, where
    assert snap.rank(key) == full, where


def check_batches(s, ids, case):
    if any(k["owner"] is None for k in case["keys"]):
        return
    keys = [bytes.fromhex(k["key_hex"]) for k in case["keys"]]
    expected = [k["owner"] for k in case["keys"]]
    snap = s.snapshot()
    packed, offsets = longstraw.pack(keys)
    assert list(snap.owner_indices(packed, offsets)) == expected, case["name"]
    assert s.owners(keys) == [ids[i] for i in expected], case["name"]
    assert snap.owners(keys) == [ids[i] for i in expected], case["name"]


# ---- table-v1 ----


def build_table(case, replicas):
    ids, weights = members(case)
    t = longstraw.Rendezvous.table(ids, weights=weights, seed=int(case["seed"]), partition_bits=case["bits"], replicas=replicas)
    return t, ids


def test_table_vectors_are_table_v1(table_vectors):
    assert table_vectors["placement"] == "table-v1"
    assert len(table_vectors["cases"]) > 0


# replicas=1 ranks past the first entry over all nodes; replicas=depth reads
# the stored rows: both paths must give the vectors' lists.
@pytest.mark.parametrize("stored", ["one", "depth"])
def test_every_table_case(table_vectors, stored):
    checked = 0
    for case in table_vectors["cases"]:
        depth = case["depth"]
        t, ids = build_table(case, 1 if stored == "one" else depth)
        snap = t.snapshot()
        assert t.partition_bits == snap.partition_bits == case["bits"]
        assert t.partitions == snap.partitions == 2 ** case["bits"]
        assert list(snap.nodes) == ids
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            where = f'{case["name"]}: key {k["key_hex"][:40]!r}'
            assert t.partition(key) == snap.partition(key) == k["partition"], where
            check_key(t, snap, ids, k, depth, where)
            checked += 1
        check_batches(t, ids, case)
    assert checked == sum(len(c["keys"]) for c in table_vectors["cases"])


def test_every_listed_partition_ranking(table_vectors):
    """Cases with bits <= 6 list each partition's ranking: reach every
    partition with probe keys and read its ranking through the table."""
    listed = [c for c in table_vectors["cases"] if "partitions" in c]
    assert listed
    for case in listed:
        t, ids = build_table(case, case["depth"])
        probes = {}
        i = 0
        while len(probes) < t.partitions:
            key = f"probe-{i}".encode()
            probes.setdefault(t.partition(key), key)
            i += 1
            assert i < 100_000, f"{case['name']}: probe keys reach only {len(probes)} partitions"
        for p, ranked in enumerate(case["partitions"]):
            assert t.top_k(probes[p], case["depth"]) == [ids[j] for j in ranked], f"{case['name']}: partition {p}"


def test_a_partition_is_placed_like_its_4_byte_key(table_vectors):
    # SPEC §10: ranking_table(key) = ranking_v1(le32(partition(key))).
    for case in table_vectors["cases"]:
        ids, weights = members(case)
        flat = longstraw.Rendezvous(ids, weights=weights, seed=int(case["seed"]))
        for k in case["keys"]:
            partition_key = struct.pack("<I", k["partition"])
            assert flat.top_k(partition_key, case["depth"]) == [ids[i] for i in k["ranked"]], case["name"]


# ---- skeleton-v1 ----


def test_skeleton_vectors_are_skeleton_v1(skeleton_vectors):
    assert skeleton_vectors["placement"] == "skeleton-v1"
    assert len(skeleton_vectors["cases"]) > 0


def test_every_skeleton_case(skeleton_vectors):
    checked = 0
    for case in skeleton_vectors["cases"]:
        ids, weights = members(case)
        s = longstraw.Rendezvous.skeleton(
            ids,
            weights=weights,
            seed=int(case["seed"]),
            fanout_bits=case["fanout_bits"],
            levels=case["levels"],
        )
        snap = s.snapshot()
        assert (s.fanout_bits, s.levels) == (snap.fanout_bits, snap.levels)
        assert s.levels == case["levels"]
        if case["levels"] > 0:
            assert s.fanout_bits == case["fanout_bits"]
        for k in case["keys"]:
            where = f'{case["name"]}: key {k["key_hex"][:40]!r}'
            check_key(s, snap, ids, k, case["depth"], where)
            checked += 1
        check_batches(s, ids, case)
    assert checked == sum(len(c["keys"]) for c in skeleton_vectors["cases"])


# ---- domains-v1 ----


def build_mode(case, distinct_domains=False):
    ids, weights = members(case)
    labels = [None if n["domain_hex"] is None else bytes.fromhex(n["domain_hex"]) for n in case["nodes"]]
    common = dict(weights=weights, seed=int(case["seed"]), domains=labels)
    if case["mode"] == "flat":
        return longstraw.Rendezvous(ids, **common), ids
    if case["mode"] == "table":
        return (
            longstraw.Rendezvous.table(
                ids, partition_bits=case["bits"], replicas=case["k"], distinct_domains=distinct_domains, **common
            ),
            ids,
        )
    assert case["mode"] == "skeleton", case["mode"]
    return longstraw.Rendezvous.skeleton(ids, fanout_bits=case["fanout_bits"], levels=case["levels"], **common), ids


def test_domain_vectors_are_domains_v1(domain_vectors):
    assert domain_vectors["placement"] == "domains-v1"
    assert {c["mode"] for c in domain_vectors["cases"]} == {"flat", "table", "skeleton"}


@pytest.mark.parametrize("distinct_domains", [False, True])
def test_every_domains_case(domain_vectors, distinct_domains):
    checked = 0
    for case in domain_vectors["cases"]:
        s, ids = build_mode(case, distinct_domains)
        snap = s.snapshot()
        assert [None if n["domain_hex"] is None else bytes.fromhex(n["domain_hex"]) for n in case["nodes"]] == list(
            snap.domains
        )
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            where = f'{case["name"]}: key {k["key_hex"][:40]!r}'
            expected = [ids[i] for i in k["distinct"]]
            assert s.top_k_distinct(key, case["k"]) == expected, where
            assert snap.top_k_distinct(key, case["k"]) == expected, where
            if expected:
                assert expected[0] == s.owner(key), where
            checked += 1
    assert checked == sum(len(c["keys"]) for c in domain_vectors["cases"])


def test_domains_set_one_at_a_time_give_the_same_lists(domain_vectors):
    # Labels given by add(domain=) and set_domain() end in the same state as
    # labels given to the constructor.
    for case in domain_vectors["cases"]:
        built, ids = build_mode(case)
        s, _ = build_mode({**case, "nodes": []})
        for n, w in zip(case["nodes"], members(case)[1]):
            label = None if n["domain_hex"] is None else bytes.fromhex(n["domain_hex"])
            s.add(bytes.fromhex(n["id_hex"]), w, domain=b"placeholder")
            s.set_domain(bytes.fromhex(n["id_hex"]), label)
        assert s.domains == built.domains
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            assert s.top_k_distinct(key, case["k"]) == [ids[i] for i in k["distinct"]], case["name"]
