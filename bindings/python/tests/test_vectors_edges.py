"""tests/vectors/placement-v1-edges.json (SPEC.md §14) through the Python API: exact ties, group sums
that depend on the summation order, seeds 2^63 and 2^64-1, ids of 1 and 65,535 bytes, and keys of every
XXH3 length class up to 1 MiB, as flat sets and skeletons."""

import json

import longstraw
from conftest import REPO, weight_from_bits

EDGES = json.loads((REPO / "tests" / "vectors" / "placement-v1-edges.json").read_text())


def entry_bytes(entry, what):
    """'<what>_hex', or '<what>_gen' {len, start}: byte i is (start + i) mod 251."""
    if what + "_hex" in entry:
        return bytes.fromhex(entry[what + "_hex"])
    g = entry[what + "_gen"]
    period = bytes((g["start"] + i) % 251 for i in range(251))
    return (period * (g["len"] // 251 + 1))[: g["len"]]


def build(case):
    ids = [entry_bytes(n, "id") for n in case["nodes"]]
    weights = [weight_from_bits(n["weight_bits"]) for n in case["nodes"]]
    common = dict(weights=weights, seed=int(case["seed"]))
    if case["mode"] == "skeleton":
        return longstraw.Rendezvous.skeleton(ids, fanout_bits=case["fanout_bits"], levels=case["levels"], **common), ids
    return longstraw.Rendezvous(ids, **common), ids


def test_edges_header():
    assert EDGES["placement"] == "placement-v1-edges"
    assert {c["rule"] for c in EDGES["cases"]} == {"tie", "group-sum", "seed", "id-length", "key-length"}


def test_every_edge_case_owner_and_ranking():
    checked = 0
    for case in EDGES["cases"]:
        s, ids = build(case)
        snap = s.snapshot()
        keys = [entry_bytes(k, "key") for k in case["keys"]]
        for k, key in zip(case["keys"], keys):
            where = "%s: key of %d bytes" % (case["name"], len(key))
            assert s.owner(key) == ids[k["owner"]], where
            assert snap.owner_index(key) == k["owner"], where
            assert s.rank(key) == [ids[i] for i in k["ranked"]], where
            assert s.top_k(key, 2) == [ids[i] for i in k["ranked"][:2]], where
            checked += 1
        packed, offsets = longstraw.pack(keys)
        assert list(snap.owner_indices(packed, offsets)) == [k["owner"] for k in case["keys"]], case["name"]
    assert checked == sum(len(c["keys"]) for c in EDGES["cases"])
