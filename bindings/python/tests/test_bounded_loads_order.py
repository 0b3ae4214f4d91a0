"""BoundedLoad.loads(): (node, in_flight) pairs in node order, the order of a set's `nodes`."""

from collections import Counter

import longstraw


def test_loads_are_pairs_in_node_order_through_changes():
    ids = ["c", "a", b"b", "e"]
    b = longstraw.BoundedLoad(ids, weights=[1, 2, 1, 1])
    # The same membership changes on a set: its `nodes` is the node order, an independent source.
    r = longstraw.Rendezvous(ids, weights=[1, 2, 1, 1])
    leases = [b.acquire(f"key-{i}") for i in range(40)]
    held = Counter(lease.node for lease in leases)
    assert b.loads() == [(n, held[n]) for n in r.nodes]
    assert isinstance(b.loads(), list) and all(isinstance(p, tuple) and len(p) == 2 for p in b.loads())
    b.add("d")
    r.add("d")
    b.remove("a")
    r.remove("a")
    assert [n for n, _ in b.loads()] == r.nodes == ["c", b"b", "e", "d"]
    assert b.loads() == [(n, held[n]) for n in r.nodes]
    for lease in leases:
        lease.release()
    assert b.loads() == [(n, 0) for n in r.nodes]
    assert dict(b.loads()) == {n: 0 for n in r.nodes}
