"""Hypothesis properties of placement, checked through the Python API."""

import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import longstraw
from longstraw import Rendezvous

node_ids = st.one_of(
    st.text(min_size=1, max_size=12),
    st.binary(min_size=1, max_size=12),
)
# Weights from the whole accepted range, plus the common small ones.
weights = st.one_of(
    st.sampled_from([1.0, 2.0, 0.5, 3.0]),
    st.floats(min_value=2.0**-64, max_value=2.0**64, allow_nan=False, allow_infinity=False),
)
keys = st.lists(st.one_of(st.binary(max_size=24), st.text(max_size=12)), min_size=1, max_size=40)
seeds = st.integers(min_value=0, max_value=2**64 - 1)


def encodable(s):
    try:
        s.encode("utf-8") if isinstance(s, str) else s
        return True
    except UnicodeEncodeError:
        return False


def as_bytes(node):
    return node.encode("utf-8") if isinstance(node, str) else bytes(node)


@st.composite
def node_sets(draw, min_size=1, max_size=12):
    ids = draw(st.lists(node_ids.filter(encodable), min_size=min_size, max_size=max_size, unique_by=as_bytes))
    ws = draw(st.lists(weights, min_size=len(ids), max_size=len(ids)))
    return ids, ws


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_placement(a, b, ks):
    return all(a.owner(k) == b.owner(k) and a.rank(k) == b.rank(k) for k in ks)


@SETTINGS
@given(node_sets(), seeds, keys.filter(lambda ks: all(map(encodable, ks))), st.randoms(use_true_random=False))
def test_order_independence(nodes, seed, ks, rnd):
    ids, ws = nodes
    order = list(range(len(ids)))
    rnd.shuffle(order)
    a = Rendezvous(ids, weights=ws, seed=seed)
    b = Rendezvous([ids[i] for i in order], weights=[ws[i] for i in order], seed=seed)
    assert same_placement(a, b, ks)
    # Built one node at a time, in yet another order.
    c = Rendezvous([], seed=seed)
    for i in reversed(order):
        c.add(ids[i], ws[i])
    assert same_placement(a, c, ks)


@SETTINGS
@given(node_sets(), node_ids.filter(encodable), weights, seeds, keys.filter(lambda ks: all(map(encodable, ks))))
def test_add_moves_keys_only_to_the_new_node(nodes, new, w, seed, ks):
    ids, ws = nodes
    r = Rendezvous(ids, weights=ws, seed=seed)
    if new in r:
        return
    before = {i: (r.owner(k), r.rank(k)) for i, k in enumerate(ks)}
    r.add(new, w)
    for i, k in enumerate(ks):
        old_owner, old_rank = before[i]
        owner = r.owner(k)
        assert owner == old_owner or owner == new
        # The others keep their relative order.
        assert [n for n in r.rank(k) if n != new] == old_rank
    r.remove(new)
    assert all(r.owner(k) == before[i][0] for i, k in enumerate(ks))


@SETTINGS
@given(node_sets(min_size=2), st.data(), seeds, keys.filter(lambda ks: all(map(encodable, ks))))
def test_remove_moves_only_the_removed_nodes_keys(nodes, data, seed, ks):
    ids, ws = nodes
    victim = data.draw(st.sampled_from(ids))
    r = Rendezvous(ids, weights=ws, seed=seed)
    before = [r.owner(k) for k in ks]
    ranks = [r.rank(k) for k in ks]
    r.remove(victim)
    for k, old, old_rank in zip(ks, before, ranks):
        if old != victim:
            assert r.owner(k) == old
        else:
            assert r.owner(k) == old_rank[1]  # the runner-up takes over
        assert r.rank(k) == [n for n in old_rank if n != victim]


@SETTINGS
@given(node_sets(min_size=2), st.data(), weights, seeds, keys.filter(lambda ks: all(map(encodable, ks))))
def test_reweight_moves_keys_only_toward_or_away_from_that_node(nodes, data, w, seed, ks):
    ids, ws = nodes
    i = data.draw(st.integers(0, len(ids) - 1))
    node, old_w = ids[i], ws[i]
    r = Rendezvous(ids, weights=ws, seed=seed)
    before = [r.owner(k) for k in ks]
    r.set_weight(node, w)
    for k, old in zip(ks, before):
        now = r.owner(k)
        if now == old:
            continue
        if w > old_w:
            assert now == node, "a heavier node only gains keys"
        elif w < old_w:
            assert old == node, "a lighter node only loses keys"
        else:
            raise AssertionError("same weight moved a key")


@SETTINGS
@given(node_sets(min_size=2), st.data(), seeds, keys.filter(lambda ks: all(map(encodable, ks))))
def test_draining_is_removal_for_placement(nodes, data, seed, ks):
    ids, ws = nodes
    victim = data.draw(st.sampled_from(ids))
    drained = Rendezvous(ids, weights=ws, seed=seed)
    drained.set_weight(victim, 0.0)
    removed = Rendezvous(ids, weights=ws, seed=seed)
    removed.remove(victim)
    assert same_placement(drained, removed, ks)


@SETTINGS
@given(node_sets(), seeds, keys.filter(lambda ks: all(map(encodable, ks))), st.integers(0, 20))
def test_every_lookup_agrees(nodes, seed, ks, k):
    ids, ws = nodes
    r = Rendezvous(ids, weights=ws, seed=seed)
    snap = r.snapshot()
    owners = r.owners(ks)
    assert owners == [r.owner(key) for key in ks] == snap.owners(ks)
    packed, offsets = longstraw.pack(ks)
    assert [snap.nodes[i] for i in snap.owner_indices(packed, offsets)] == owners
    for key in ks:
        full = r.rank(key)
        assert full[0] == r.owner(key)
        assert r.top_k(key, k) == full[:k]
        assert sorted(map(as_bytes, full)) == sorted(map(as_bytes, ids))
    clone = pickle.loads(pickle.dumps(r))
    assert clone.owners(ks) == owners
