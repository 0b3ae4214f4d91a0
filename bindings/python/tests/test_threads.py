"""Lookups racing membership changes from other threads.

Writers cycle extra nodes through absent -> weight 1 -> weight 2 -> absent.
Every answer a reader gets must be exactly the answer of one whole
membership (one of the 3^3 combinations, precomputed on private sets):
never an exception, never a mix of two memberships.
"""

import itertools
import sys
import threading
import time

import pytest

import longstraw

# Each mode with a fixed shape, so that every membership has the same one.
MODES = {
    "flat": longstraw.Rendezvous,
    "table": lambda ids, weights=None: longstraw.Rendezvous.table(ids, weights=weights, partition_bits=10, replicas=2),
    "skeleton": lambda ids, weights=None: longstraw.Rendezvous.skeleton(ids, weights=weights, fanout_bits=2, levels=1),
}

BASE = [f"base-{i}" for i in range(6)]
EXTRAS = ["extra-a", "extra-b", "extra-c"]
KEYS = [f"key:{i}" for i in range(300)]
RANKED_KEYS = KEYS[:20]
SECONDS = 3.0


def membership_answers(make):
    """owners(KEYS) and rank() of RANKED_KEYS for every reachable membership."""
    owners, ranks = set(), set()
    for states in itertools.product([None, 1.0, 2.0], repeat=len(EXTRAS)):
        ids = BASE + [e for e, s in zip(EXTRAS, states) if s is not None]
        ws = [1.0] * len(BASE) + [s for s in states if s is not None]
        r = make(ids, weights=ws)
        owners.add(tuple(r.owners(KEYS)))
        ranks.add(tuple(tuple(r.rank(k)) for k in RANKED_KEYS))
    return owners, ranks


@pytest.mark.parametrize("mode", sorted(MODES))
def test_lookups_never_fail_or_tear_while_the_set_changes(mode):
    make = MODES[mode]
    valid_owners, valid_ranks = membership_answers(make)
    assert len(valid_owners) > 10, "the memberships must place keys differently"
    r = make(BASE)
    packed, offsets = longstraw.pack(KEYS * 4)  # 1200 keys: released-GIL path
    stop = threading.Event()
    errors = []
    counts = {"writes": 0, "owners": 0, "batches": 0, "ranks": 0, "singles": 0}

    def guarded(fn):
        def run():
            try:
                while not stop.is_set():
                    fn()
            except BaseException as e:  # noqa: BLE001 - any error is a failure
                errors.append(e)
                stop.set()

        return run

    def writer(node):
        def step():
            r.add(node)
            r.set_weight(node, 2.0)
            r.remove(node)
            counts["writes"] += 3

        return step

    def reader_owners():
        # A generator lets the interpreter switch threads mid-batch.
        got = tuple(r.owners(k for k in KEYS))
        assert got in valid_owners, "owners() mixed two memberships"
        counts["owners"] += 1

    def reader_batch():
        snap = r.snapshot()
        idx = snap.owner_indices(packed, offsets)
        nodes = snap.nodes
        got = tuple(nodes[i] for i in idx[: len(KEYS)])
        assert got in valid_owners, "owner_indices() mixed two memberships"
        assert list(got) == snap.owners(KEYS)
        counts["batches"] += 1

    def reader_ranks():
        got = tuple(tuple(r.rank(k)) for k in RANKED_KEYS)
        # Each rank() is atomic on its own; check each against some membership.
        for i, ranking in enumerate(got):
            assert any(ranking == v[i] for v in valid_ranks), "rank() saw a torn set"
        snap = r.snapshot()
        whole = tuple(tuple(snap.rank(k)) for k in RANKED_KEYS)
        assert whole in valid_ranks, "a snapshot's rankings mixed memberships"
        for k in RANKED_KEYS[:5]:
            assert snap.top_k(k, 3) == list(whole[RANKED_KEYS.index(k)][:3])
        counts["ranks"] += 1

    def reader_singles():
        for k in KEYS[:50]:
            o = r.owner(k)
            assert o in BASE or o in EXTRAS
            assert r.top_k(k, 2)[0] in BASE + EXTRAS
        counts["singles"] += 1

    threads = [threading.Thread(target=guarded(writer(e))) for e in EXTRAS]
    threads += [
        threading.Thread(target=guarded(f))
        for f in (reader_owners, reader_batch, reader_ranks, reader_singles)
    ]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for t in threads:
            t.start()
        # Runs SECONDS, and longer on a loaded machine until every thread has done more than 10 passes
        # (the assertion below), up to a minute.
        start = time.monotonic()
        while not stop.is_set():
            elapsed = time.monotonic() - start
            if elapsed >= 60 or (elapsed >= SECONDS and all(c > 10 for c in counts.values())):
                break
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join()
        sys.setswitchinterval(old)
    assert not errors, f"{len(errors)} errors, first: {errors[0]!r}"
    assert all(c > 10 for c in counts.values()), counts
    assert r.nodes == BASE


@pytest.mark.parametrize("mode", sorted(MODES))
def test_snapshots_survive_their_set(mode):
    r = MODES[mode](BASE)
    snap = r.snapshot()
    expected = snap.owners(KEYS)
    del r
    assert snap.owners(KEYS) == expected
