"""Views after many changes agree with sets built from scratch.

A change publishes the new membership's id and label objects by editing only
the chunk it touches; these checks compare every published view with a plain
Python model of the node list and with a set rebuilt from that model.
"""

import random

import pytest

import longstraw

KEYS = [f"key:{i}" for i in range(400)]


@pytest.mark.parametrize("n", [5, 1500, 3000])
def test_random_changes_keep_nodes_labels_and_owners_exact(n):
    rng = random.Random(n)
    ids = [f"n{i}" for i in range(n)]
    weights = [1.0] * n
    labels: list[str | None] = [None] * n
    s = longstraw.Rendezvous(ids)
    fresh = n
    for step in range(300):
        op = rng.random()
        if op < 0.35 or not ids:
            new = f"n{fresh}" if rng.random() < 0.5 else f"b{fresh}".encode()
            fresh += 1
            label = rng.choice([None, "rack-1", "rack-2"])
            s.add(new, 1.5, domain=label)
            ids.append(new)
            weights.append(1.5)
            labels.append(label)
        elif op < 0.7:
            i = rng.randrange(len(ids))
            s.remove(ids[i])
            del ids[i], weights[i], labels[i]
        elif op < 0.85:
            i = rng.randrange(len(ids))
            s.set_weight(ids[i], 2.0)
            weights[i] = 2.0
        else:
            i = rng.randrange(len(ids))
            label = rng.choice([None, "rack-3"])
            s.set_domain(ids[i], label)
            labels[i] = label
        if step % 25 == 0 or step == 299:
            snap = s.snapshot()
            assert list(snap.nodes) == ids and list(snap.weights) == weights
            assert list(snap.domains) == labels
            if any(label is not None for label in labels):
                rebuilt = longstraw.Rendezvous(ids, weights=weights, domains=labels)
            else:
                rebuilt = longstraw.Rendezvous(ids, weights=weights)
            assert snap.owners(KEYS) == rebuilt.owners(KEYS)
            assert [snap.top_k_distinct(k, 2) for k in KEYS[:50]] == [rebuilt.top_k_distinct(k, 2) for k in KEYS[:50]]


def test_owner_hands_back_the_object_the_caller_added():
    s = longstraw.Rendezvous([f"n{i}" for i in range(2500)])
    node = "".join(["added-", "node"])  # a fresh str object
    s.add(node, 1e9)
    assert s.owner("any key") is node
    for i in range(0, 2500, 7):
        s.remove(f"n{i}")
    assert s.owner("any key") is node


@pytest.mark.parametrize("make", [
    lambda ids: longstraw.Rendezvous.table(ids, partition_bits=12, replicas=2),
    lambda ids: longstraw.Rendezvous.skeleton(ids, fanout_bits=2, levels=2),
])
def test_tables_and_skeletons_publish_the_same_node_order(make):
    ids = [f"n{i}" for i in range(2100)]
    s = make(ids)
    for i in range(0, 2100, 97):
        s.remove(ids[i])
    kept = [x for j, x in enumerate(ids) if j % 97 != 0]
    s.add("late")
    kept.append("late")
    snap = s.snapshot()
    assert list(snap.nodes) == kept
    for k in KEYS:
        assert snap.owner(k) == snap.nodes[snap.owner_index(k)]


def test_removing_most_nodes_then_adding_keeps_the_order():
    # Removals shrink chunks until they are regrouped; the order never changes.
    ids = [f"n{i}" for i in range(6000)]
    s = longstraw.Rendezvous(ids)
    rng = random.Random(7)
    for x in rng.sample(ids, 5800):
        s.remove(x)
        ids.remove(x)
    for i in range(1500):
        s.add(f"m{i}")
        ids.append(f"m{i}")
    assert list(s.nodes) == ids
    assert s.owners(KEYS) == longstraw.Rendezvous(ids).owners(KEYS)
