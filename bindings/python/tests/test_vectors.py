"""Every case of the golden vectors, reproduced through the Python API."""

import pytest

import longstraw
from conftest import weight_from_bits


def build(case):
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [weight_from_bits(n["weight_bits"]) for n in case["nodes"]]
    r = longstraw.Rendezvous(ids, weights=weights, seed=int(case["seed"]))
    return r, ids


def test_vectors_are_placement_v1(vectors):
    assert vectors["placement"] == 1
    assert len(vectors["cases"]) > 0


def test_every_case_owner_and_ranking(vectors):
    checked = 0
    for case in vectors["cases"]:
        r, ids = build(case)
        assert r.placement == 1
        snap = r.snapshot()
        assert list(snap.nodes) == ids, case["name"]
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            where = f'{case["name"]}: key {k["key_hex"]!r}'
            expected_ranked = [ids[i] for i in k["ranked"]]
            if k["owner"] is None:
                with pytest.raises(longstraw.NoEligibleNodeError):
                    r.owner(key)
                assert expected_ranked == [], where
            else:
                assert r.owner(key) == ids[k["owner"]], where
                assert snap.owner_index(key) == k["owner"], where
            assert r.top_k(key, case["depth"]) == expected_ranked, where
            if len(expected_ranked) < case["depth"]:
                assert r.rank(key) == expected_ranked, where
            else:
                assert r.rank(key)[: case["depth"]] == expected_ranked, where
            checked += 1
    assert checked == sum(len(c["keys"]) for c in vectors["cases"])


def test_every_case_through_every_batch_path(vectors):
    for case in vectors["cases"]:
        if all(k["owner"] is None for k in case["keys"]):
            continue
        r, ids = build(case)
        keys = [bytes.fromhex(k["key_hex"]) for k in case["keys"]]
        expected = [k["owner"] for k in case["keys"]]
        snap = r.snapshot()
        packed, offsets = longstraw.pack(keys)
        assert list(snap.owner_indices(packed, offsets)) == expected, case["name"]
        assert r.owners(keys) == [ids[i] for i in expected], case["name"]


def test_str_keys_hash_as_utf8(vectors):
    for case in vectors["cases"][:40]:
        r, ids = build(case)
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            try:
                text = key.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if k["owner"] is not None:
                assert r.owner(text) == ids[k["owner"]]
