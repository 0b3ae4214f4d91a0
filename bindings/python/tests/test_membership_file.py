"""Membership files: every fixture in tests/membership/ (a vector case written as a
membership file) loads to the case's answers; bad files raise errors naming the line
and the field; a saved set reloads to the same placement."""

import json
import pathlib

import pytest

import longstraw

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _id(hex_id: str):
    raw = bytes.fromhex(hex_id)
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw


def test_every_fixture_gives_the_vector_answers():
    manifest = json.loads((ROOT / "tests/membership/manifest.json").read_text())
    vectors = {}
    keys = 0
    for fixture in manifest["fixtures"]:
        name = fixture["vectors"]
        if name not in vectors:
            vectors[name] = json.loads((ROOT / "tests/vectors" / name).read_text())
        case = vectors[name]["cases"][fixture["case"]]
        path = ROOT / "tests/membership" / fixture["file"]
        s = longstraw.Rendezvous.load(path)
        text = path.read_text()
        named = [line.split('"')[1] for line in text.splitlines() if line.startswith("mode = ")]
        assert s.mode == (named[0] if named else "flat"), path
        ids = [_id(n["id_hex"]) for n in case["nodes"]]
        assert s.nodes == ids
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            if "distinct" in k:
                assert s.top_k_distinct(key, case["k"]) == [ids[i] for i in k["distinct"]], path
            else:
                if k["owner"] is None:
                    with pytest.raises(longstraw.NoEligibleNodeError):
                        s.owner(key)
                else:
                    assert s.owner(key) == ids[k["owner"]], path
                assert s.top_k(key, len(k["ranked"])) == [ids[i] for i in k["ranked"]], path
            keys += 1
    assert len(manifest["fixtures"]) >= 100 and keys >= 1000


def test_bad_files_name_the_line_and_the_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('seed = 1\n\n[[nodes]]\nid = "a"\nweight = "heavy"\n')
    with pytest.raises(ValueError, match=r"bad\.toml:5: (nodes\[0\]\.)?weight: "):
        longstraw.Rendezvous.load(bad)
    bad.write_text('[[nodes]]\nid = "a"\n[[nodes]]\nid = "a"\n')
    with pytest.raises(ValueError, match=r":4: nodes\[1\]: duplicate node"):
        longstraw.Rendezvous.load(str(bad))
    bad.write_text('mode = "table"\n[table]\nbalance = 0.5\n[[nodes]]\nid = "a"\n')
    with pytest.raises(ValueError, match="table.balance"):
        longstraw.Rendezvous.load(bad)
    with pytest.raises(FileNotFoundError, match="missing.toml"):
        longstraw.Rendezvous.load(tmp_path / "missing.toml")
    table = tmp_path / "table.toml"
    table.write_text('mode = "table"\n[[nodes]]\nid = "a"\n')
    loaded = longstraw.Rendezvous.load(table)
    assert (loaded.mode, loaded.partitions, loaded.fanout_bits) == ("table", 2**loaded.partition_bits, None)
    assert loaded.owner("k") == longstraw.Rendezvous.table(["a"], partition_bits=loaded.partition_bits).owner("k")


@pytest.mark.parametrize(
    "make",
    [
        lambda: longstraw.Rendezvous(["a", b"\xff\x00", "c"], weights=[1, 2.5, 0], seed=2**64 - 1, domains=["r1", None, b"\xfe"]),
        lambda: longstraw.Rendezvous.table(["a", "b", "c", "d"], weights=[0.1, 1, 2, 3], partition_bits=7, replicas=2, domains=["r", "r", "s", None]),
        lambda: longstraw.Rendezvous.skeleton([f"n{i}" for i in range(40)], fanout_bits=2, levels=2, seed=9),
    ],
)
def test_save_then_load_keeps_every_placement(tmp_path, make):
    original = make()
    path = tmp_path / "saved.toml"
    original.save(path)
    again = type(original).load(path)
    assert again.nodes == original.nodes and again.weights == original.weights
    assert again.domains == original.domains and again.seed == original.seed
    for i in range(3000):
        key = f"key-{i}"
        assert again.top_k(key, 2) == original.top_k(key, 2)


def test_balanced_and_keyed_files_build_what_they_say(tmp_path, monkeypatch):
    # A balanced table file loads as a balanced table, equal to one built in code.
    balanced = tmp_path / "balanced.toml"
    nodes = [f"n{i}" for i in range(7)]
    balanced.write_text('mode = "table"\n[table]\nbits = 8\nbalance = 1.05\n'
                        + "".join(f'[[nodes]]\nid = "{n}"\n' for n in nodes))
    loaded = longstraw.Rendezvous.load(balanced)
    assert loaded.balance == 1.05
    in_code = longstraw.Rendezvous.table(nodes, partition_bits=8, balance=1.05)
    keys = [f"user:{i}" for i in range(2000)]
    assert [loaded.owner(k) for k in keys] == [in_code.owner(k) for k in keys]

    # A keyed file loads as a keyed set under the secret its variable holds; never as an unkeyed one.
    secret = bytes(range(16))
    monkeypatch.setenv("LONGSTRAW_TEST_SECRET", secret.hex())
    keyed = tmp_path / "keyed.toml"
    keyed.write_text('[secret]\nenv = "LONGSTRAW_TEST_SECRET"\n'
                     + "".join(f'[[nodes]]\nid = "{n}"\n' for n in nodes))
    loaded_keyed = longstraw.Rendezvous.load(keyed)
    assert loaded_keyed.keyed and loaded_keyed.seed is None
    by_secret = longstraw.Rendezvous(nodes, secret=secret)
    assert [loaded_keyed.owner(k) for k in keys] == [by_secret.owner(k) for k in keys]
    unkeyed = longstraw.Rendezvous(nodes)
    # Independent placements over 7 nodes agree on about 1/7 of keys: far fewer than all 2000.
    assert sum(loaded_keyed.owner(k) == unkeyed.owner(k) for k in keys) < 600
    monkeypatch.setenv("LONGSTRAW_TEST_SECRET", "not hex")
    with pytest.raises(ValueError, match="hexadecimal") as err:
        longstraw.Rendezvous.load(keyed)
    assert "not hex" not in str(err.value)
