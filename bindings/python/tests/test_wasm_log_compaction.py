"""The WebAssembly backend keeps each set's log of changes short: after ``COMPACT_AFTER`` changes the
log is replaced by one entry that loads the set's current state. These tests build every mode twice,
with and without compaction, apply the same changes, and compare what fresh copies answer (the copy
without compaction replays every change, as before compaction existed). Skipped on the native
extension, which keeps no log."""

import random
import sys

import pytest

import longstraw

wasm = sys.modules.get("longstraw._wasm")
pytestmark = pytest.mark.skipif(
    wasm is None or getattr(wasm, "Rendezvous", None) is not longstraw.Rendezvous,
    reason="tests of the WebAssembly backend; the native extension is loaded",
)
if wasm is not None:
    from longstraw._wasm import _family

KEYS = [f"key-{i}" for i in range(1000)]
SECRET = bytes(range(16))
NODES = [f"node-{i}" for i in range(24)]
DOMAINS = [f"rack-{i % 5}" for i in range(24)]


def _modes(tmp_path):
    """(name, a function making a set) for every mode and option that shapes placement."""
    (tmp_path / "secret.hex").write_text(SECRET.hex() + "\n")
    keyed = "".join(f'[[nodes]]\nid = "{n}"\ndomain = "{d}"\n' for n, d in zip(NODES, DOMAINS))
    (tmp_path / "keyed.toml").write_text('[secret]\nfile = "secret.hex"\n' + keyed)
    (tmp_path / "keyed_table.toml").write_text(
        'mode = "table"\n[secret]\nfile = "secret.hex"\n[table]\nreplicas = 2\n' + keyed
    )
    R = longstraw.Rendezvous
    w = [1.0 + (i % 4) for i in range(len(NODES))]
    return [
        ("flat", lambda: R(NODES)),
        ("flat-seed-weights-domains", lambda: R(NODES, weights=w, domains=DOMAINS, seed=7)),
        ("table", lambda: R.table(NODES)),
        ("table-bits-replicas", lambda: R.table(NODES, partition_bits=9, replicas=3, weights=w, seed=3)),
        ("table-distinct", lambda: R.table(NODES, replicas=3, distinct_domains=True, domains=DOMAINS)),
        ("table-balanced", lambda: R.table(NODES, replicas=2, balance=1.25, weights=w)),
        ("skeleton", lambda: R.skeleton(NODES)),
        ("skeleton-shape", lambda: R.skeleton(NODES, fanout_bits=2, levels=3, weights=w, domains=DOMAINS)),
        ("keyed-file", lambda: R.load(tmp_path / "keyed.toml")),
        ("keyed-file-table", lambda: R.load(tmp_path / "keyed_table.toml")),
    ]


def _churn(sets, n, rng, made=0):
    """The same n changes on every set in sets: adds, removes, weights and domains. New nodes are
    named from made + 1 on."""
    present = list(sets[0].nodes)
    gone = []
    for _ in range(n):
        roll = rng.random()
        if (roll < 0.3 and len(present) > 4) or not gone and roll < 0.5 and len(present) > 4:
            node = present.pop(rng.randrange(len(present)))
            for s in sets:
                s.remove(node)
            gone.append(node)
        elif roll < 0.6:
            if gone and rng.random() < 0.5:
                node = gone.pop(rng.randrange(len(gone)))
            else:
                made += 1
                node = f"new-{made}"
            weight, domain = float(rng.randrange(1, 5)), f"rack-{rng.randrange(6)}"
            for s in sets:
                s.add(node, weight=weight, domain=domain)
            present.append(node)
        elif roll < 0.85:
            node = rng.choice(present)
            weight = float(rng.randrange(1, 5))
            for s in sets:
                s.set_weight(node, weight)
        else:
            node = rng.choice(present)
            domain = f"rack-{rng.randrange(6)}"
            for s in sets:
                s.set_domain(node, domain)


def _answers(s):
    k = min(3, len(s))
    out = {
        "owners": s.owners(KEYS),
        "top_k": [s.top_k(key, k) for key in KEYS[:200]],
        "nodes": list(s.nodes),
        "weights": list(s.weights),
        "domains": s.domains,
        "generation": s.generation,
        "mode": s.mode,
    }
    if s.mode == "table":
        out["partitions"] = [s.partition(key) for key in KEYS[:200]]
    return out


def _fresh(s):
    """Answers from copies built now: the pool is emptied first."""
    s._state.family.idle.clear()
    s._state.views.clear()
    return _answers(s.snapshot())


@pytest.mark.parametrize("index", range(10))
def test_a_compacted_set_places_as_the_replayed_one_in_every_mode(tmp_path, monkeypatch, index):
    monkeypatch.setattr(_family, "COMPACT_AFTER", 16)
    name, make = _modes(tmp_path)[index]
    compacted, replayed = make(), make()
    replayed._state.family.compacts = False
    rng = random.Random(index)
    _churn([compacted, replayed], 40, rng)
    held = compacted.snapshot()  # a version the next compactions must keep servable
    at_hold = _answers(held)
    assert at_hold == _answers(replayed.snapshot())
    _churn([compacted, replayed], 100, rng, made=1000)
    fam = compacted._state.family
    assert fam.base > 40, f"{name}: the log was never compacted"
    assert len(fam.log) <= 16
    assert len(replayed._state.family.log) == 141
    assert _fresh(compacted) == _fresh(replayed), name
    fam.idle.clear()
    assert _answers(held) == at_hold, name


def test_ten_thousand_changes_keep_the_log_bounded_and_a_held_snapshot_answers_as_when_taken():
    r = longstraw.Rendezvous.table(NODES)
    first = r.snapshot()
    owners = first.owners(KEYS)
    generation = first.generation
    for i in range(5000):
        r.add(f"churn-{i}")
        r.remove(f"churn-{i}")
    fam = r._state.family
    assert len(fam.log) <= 256  # COMPACT_AFTER (without compaction: 10,001 entries)
    fam.idle.clear()
    assert first.owners(KEYS) == owners
    assert first.generation == generation
    assert r.snapshot().generation == generation + 10000
    assert r.owners(KEYS) == owners


def test_a_keyed_file_set_compacted_then_rotated_still_places_by_the_secret_first_read(tmp_path, monkeypatch):
    monkeypatch.setattr(_family, "COMPACT_AFTER", 8)
    (tmp_path / "secret.hex").write_text(SECRET.hex() + "\n")
    (tmp_path / "m.toml").write_text(
        '[secret]\nfile = "secret.hex"\n' + "".join(f'[[nodes]]\nid = "{n}"\n' for n in NODES)
    )
    r = longstraw.Rendezvous.load(tmp_path / "m.toml")
    for i in range(20):
        r.add(f"more-{i}")
    assert r._state.family.base > 0
    (tmp_path / "secret.hex").write_text(bytes(range(16, 32)).hex() + "\n")
    r._state.family.idle.clear()
    expected = longstraw.Rendezvous(NODES + [f"more-{i}" for i in range(20)], secret=SECRET).owners(KEYS)
    assert r.owners(KEYS) == expected
    r.save(tmp_path / "again.toml")
    text = (tmp_path / "again.toml").read_text()
    assert "secret.hex" in text and SECRET.hex() not in text
    assert SECRET.hex() not in repr(r._state.family.log)


def test_a_keyed_set_made_in_code_keeps_its_log_and_saving_it_still_needs_a_source(tmp_path, monkeypatch):
    monkeypatch.setattr(_family, "COMPACT_AFTER", 8)
    r = longstraw.Rendezvous(NODES, secret=SECRET)
    for i in range(20):
        r.add(f"more-{i}")
    fam = r._state.family
    assert not fam.compacts and len(fam.log) == 21
    fam.idle.clear()
    assert r.owners(KEYS) == longstraw.Rendezvous(list(r.nodes), secret=SECRET).owners(KEYS)
    with pytest.raises(Exception, match="secret"):
        r.save(tmp_path / "m.toml")
