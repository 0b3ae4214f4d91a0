"""One set class of any mode: the factories, the mode and its own properties, loads(data)."""

import os
import pickle

import pytest

import longstraw
from longstraw import Rendezvous, Snapshot

NODES = [f"cache-{i}" for i in range(12)]
KEYS = [f"user:{i}" for i in range(500)]
SECRET = bytes.fromhex("00112233445566778899aabbccddeeff")

FACTORIES = {
    "flat": lambda **kw: Rendezvous(NODES, **kw),
    "table": lambda **kw: Rendezvous.table(NODES, partition_bits=6, replicas=2, **kw),
    "skeleton": lambda **kw: Rendezvous.skeleton(NODES, fanout_bits=2, levels=1, **kw),
}
OWN = {
    "table": {"partition_bits": 6, "partitions": 64, "replicas": 2, "distinct_domains": False, "balance": None},
    "skeleton": {"fanout_bits": 2, "levels": 1},
}
ALL_OWN = {name for props in OWN.values() for name in props}


@pytest.mark.parametrize("mode", sorted(FACTORIES))
def test_every_factory_gives_the_one_class_and_its_mode(mode):
    s = FACTORIES[mode]()
    snap = s.snapshot()
    assert type(s) is Rendezvous and type(snap) is Snapshot
    assert s.mode == snap.mode == mode
    for obj in (s, snap):
        for name in ALL_OWN:
            expected = OWN.get(mode, {}).get(name)
            assert getattr(obj, name) == expected, (mode, name)
    assert s.backend == snap.backend == longstraw.backend()
    clone = pickle.loads(pickle.dumps(s))
    assert clone.mode == mode and clone.owners(KEYS) == s.owners(KEYS)


@pytest.mark.parametrize("mode", ["flat", "skeleton"])
def test_partition_on_another_mode_is_a_value_error_naming_the_mode(mode):
    s = FACTORIES[mode]()
    for obj in (s, s.snapshot()):
        with pytest.raises(ValueError, match=f"partition\\(\\) needs a table-mode set; this set is {mode}"):
            obj.partition("k")


def test_a_table_partition_is_the_top_bits_of_the_key_hash_on_set_and_snapshot():
    t = FACTORIES["table"]()
    for k in KEYS[:50]:
        assert t.partition(k) == t.snapshot().partition(k) < 64


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        Rendezvous(NODES, [1.0] * len(NODES))  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rendezvous.table(NODES, 6)  # type: ignore[misc]


def test_seed_none_is_the_default_and_goes_with_a_secret():
    assert Rendezvous(NODES, seed=None).owners(KEYS) == Rendezvous(NODES).owners(KEYS) == Rendezvous(NODES, seed=0).owners(KEYS)
    assert Rendezvous(NODES, seed=None).seed == 0
    keyed = Rendezvous(NODES, seed=None, secret=SECRET)
    assert keyed.keyed and keyed.seed is None
    with pytest.raises(ValueError, match="not both"):
        Rendezvous(NODES, seed=0, secret=SECRET)


@pytest.mark.parametrize("mode", sorted(FACTORIES))
def test_loads_gives_what_load_gives(tmp_path, mode):
    s = FACTORIES[mode](seed=7)
    path = tmp_path / "m.toml"
    s.save(path)
    text = path.read_text()
    for data in (text, text.encode()):
        again = Rendezvous.loads(data)
        assert again.mode == mode
        assert again.nodes == s.nodes and again.owners(KEYS) == s.owners(KEYS)
    assert Rendezvous.load(path).owners(KEYS) == s.owners(KEYS)


def test_loads_reads_a_relative_secret_file_from_the_current_directory(tmp_path, monkeypatch):
    (tmp_path / "secret.hex").write_text(SECRET.hex() + "\n")
    data = '[secret]\nfile = "secret.hex"\n' + "".join(f'[[nodes]]\nid = "{n}"\n' for n in NODES)
    monkeypatch.chdir(tmp_path)
    loaded = Rendezvous.loads(data)
    assert loaded.keyed and loaded.owners(KEYS) == Rendezvous(NODES, secret=SECRET).owners(KEYS)
    # The remembered source is absolute: saving from another folder names the same file.
    elsewhere = tmp_path / "sub"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    loaded.save(elsewhere / "again.toml")
    assert Rendezvous.load(elsewhere / "again.toml").owners(KEYS) == loaded.owners(KEYS)
    assert str(tmp_path / "secret.hex") in (elsewhere / "again.toml").read_text()


def test_loads_refuses_bad_data():
    with pytest.raises(ValueError, match="not UTF-8"):
        Rendezvous.loads(b"\xff\xfe[[nodes]]")
    with pytest.raises(ValueError, match=r"weight"):
        Rendezvous.loads('[[nodes]]\nid = "a"\nweight = "heavy"\n')
    with pytest.raises(TypeError, match="data must be str or bytes"):
        Rendezvous.loads(42)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError if os.name != "nt" else OSError):
        Rendezvous.load("/nonexistent/longstraw/membership.toml")
