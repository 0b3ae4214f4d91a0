"""`owners(list_of_str)` packs keys chunk by chunk and places each chunk with
the packed batch. Expected owners come from the frozen vectors
(tests/vectors/placement-v1.json), never from the code under test, in
batches that cross the chunk size (2048 keys) with keys of every length,
non-ASCII text and mixed key types."""

import sys

import pytest

import longstraw
from conftest import REPO, weight_from_bits

sys.path.insert(0, str(REPO / "tests" / "spec"))

CHUNK = 2048  # str_batch::CHUNK_KEYS; the batches below cross it several times


def as_str_when_utf8(key: bytes):
    """The same key as `str` when its bytes are UTF-8 (placement is by bytes)."""
    try:
        return key.decode("utf-8")
    except UnicodeDecodeError:
        return key


def placeable_cases(vectors):
    for case in vectors["cases"]:
        owned = [k for k in case["keys"] if k["owner"] is not None]
        if len(owned) == len(case["keys"]) and owned:
            yield case


def build(case):
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [weight_from_bits(n["weight_bits"]) for n in case["nodes"]]
    return longstraw.Rendezvous(ids, weights=weights, seed=int(case["seed"])), ids


def test_str_keys_across_chunks_match_the_vectors(vectors):
    checked = 0
    for case in placeable_cases(vectors):
        r, ids = build(case)
        keys = [bytes.fromhex(k["key_hex"]) for k in case["keys"]]
        expected = [ids[k["owner"]] for k in case["keys"]]
        # Repeat the case's keys past 2.5 chunks; alternate str, bytes,
        # bytearray and memoryview so every chunk mixes the key types.
        repeat = (CHUNK * 5 // 2) // len(keys) + 1
        batch, want = [], []
        for rep in range(repeat):
            for key, owner in zip(keys, expected):
                kind = (rep + len(batch)) % 4
                batch.append(
                    as_str_when_utf8(key) if kind == 0 else
                    key if kind == 1 else
                    bytearray(key) if kind == 2 else memoryview(key)
                )
                want.append(owner)
        assert r.owners(batch) == want, case["name"]
        assert r.snapshot().owners(iter(batch)) == want, case["name"]
        checked += len(batch)
    assert checked > 3 * CHUNK


def test_long_non_ascii_keys_match_the_spec_reimplementation():
    # The vectors' keys are short or not UTF-8, so the independent answer for
    # long text comes from tests/spec/spec_reimpl.py (SPEC.md in pure Python).
    spec = pytest.importorskip("spec_reimpl", reason="tests/spec needs xxhash (pip install -r tests/spec/requirements.txt)")
    ids = [f"node-{i}" for i in range(7)] + ["узел-7", "節點-8"]
    weights = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 1.0, 0.25, 1.0]
    r = longstraw.Rendezvous(ids, weights=weights, seed=2026)
    model = spec.NodeSet(list(zip(ids, weights)), seed=2026)
    # 1-, 2-, 3- and 4-byte characters, keys from 1 to about 2,000 UTF-8 bytes,
    # so keys straddle the chunk's byte reservation and XXH3's length classes.
    alphabet = "aé€😀ß中\u00ffz"
    keys = [
        "".join(alphabet[(i * 7 + j * 3) % len(alphabet)] for j in range(1 + (i * 37) % 600))
        for i in range(CHUNK + 500)
    ]
    assert max(len(k.encode()) for k in keys) > 1000
    assert r.owners(keys) == [ids[model.owner(k)] for k in keys]


def test_lone_surrogate_after_a_full_chunk_raises():
    r = longstraw.Rendezvous(["a", "b", "c"])
    keys = ["k"] * (CHUNK + 10) + ["bad \ud800 key"]
    with pytest.raises(UnicodeEncodeError):
        r.owners(keys)


def test_wrong_type_after_a_full_chunk_raises():
    r = longstraw.Rendezvous(["a", "b", "c"])
    with pytest.raises(TypeError):
        r.owners(["k"] * (CHUNK * 2) + [12])


def test_answers_are_the_snapshots_id_objects():
    ids = [f"node-{i}" for i in range(10)]
    snap = longstraw.Rendezvous(ids).snapshot()
    owners = snap.owners([f"user:{i}" for i in range(5000)])
    # One object per node for the life of the snapshot, not one per key.
    assert {id(o) for o in owners} <= {id(n) for n in snap.nodes}
    assert len({id(o) for o in owners}) == len(set(owners))
