"""The WebAssembly backend's own machinery (longstraw._wasm): which backend loaded, a trap that
replaces its instance, copies of a set in many instances under many threads, and copies of a keyed
file's set that all use the secret the first copy read. Skipped on the native extension, which has none
of it."""

import os
import sys
import threading

import pytest

import longstraw

wasm = sys.modules.get("longstraw._wasm")
pytestmark = pytest.mark.skipif(
    wasm is None or getattr(wasm, "Rendezvous", None) is not longstraw.Rendezvous,
    reason="tests of the WebAssembly backend; the native extension is loaded",
)

KEYS = [f"key-{i}" for i in range(2000)]
SECRET = bytes(range(16))


def test_the_wasm_backend_is_the_one_loaded():
    assert os.environ.get("LONGSTRAW_PYTHON_BACKEND") == "wasm" or "longstraw._longstraw" not in sys.modules
    assert wasm.TARGET == "wasm32-simd128"
    assert longstraw.backend() in {"simd128", "scalar"}


def _trap_one_instance(r):
    """Runs an export with a key pointer outside linear memory on one of r's instances."""
    fam = r._state.family
    inst = fam.acquire()
    h = fam.snap_at(inst, fam.version)
    with pytest.raises(wasm.Trap, match="trapped"):
        inst.call("longstraw_snapshot_owner", h, 0xFFFFFF00, 64, inst.out(0), inst.out(1), inst.out(2))
    assert inst.broken
    fam.release(inst)  # a broken instance is discarded, not pooled
    assert inst not in fam.idle
    with pytest.raises(wasm.Trap):
        inst.call("longstraw_snapshot_len", h, inst.out(0))
    return fam


def test_a_trap_discards_its_instance_and_the_set_keeps_working():
    r = longstraw.Rendezvous([f"n{i}" for i in range(50)], seed=7)
    before = r.owners(KEYS)
    r.add("late", 2.0)
    r.remove("n3")
    expected = r.owners(KEYS)
    assert expected != before
    fam = _trap_one_instance(r)
    assert fam.traps == 1
    # A fresh copy replays the log (the set, then every change that succeeded) and answers the same.
    fam.idle.clear()
    assert r.owners(KEYS) == expected
    assert "n3" not in r and "late" in r
    assert r.owners(KEYS) == longstraw.Rendezvous(r.nodes, weights=r.weights, seed=7).owners(KEYS)


def test_a_failed_change_never_joins_the_log():
    r = longstraw.Rendezvous(["a", "b"])
    with pytest.raises(ValueError, match="duplicate"):
        r.add("a")
    with pytest.raises(KeyError):
        r.remove("zz")
    assert len(r._state.family.log) == 1
    r._state.family.idle.clear()
    assert r.nodes == ["a", "b"]


def test_lookups_from_many_threads_use_many_instances_and_agree():
    r = longstraw.Rendezvous.table([f"n{i}" for i in range(300)], partition_bits=10)
    expected = r.owners(KEYS)
    snap = r.snapshot()
    errors = []
    results = []
    gate = threading.Barrier(8)

    def work(i):
        try:
            gate.wait()
            for k in range(0, len(KEYS), 97):
                assert r.owner(KEYS[k]) == expected[k]
            results.append(r.owners(KEYS) == expected)
            gate.wait()  # every lookup above ran on the first membership
            if i % 2:
                r.add(f"extra-{i}")
            assert snap.owners(KEYS) == expected  # a snapshot never changes
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert all(results) and len(results) == 8
    assert len(r) == 304
    assert r.owners(KEYS) == longstraw.Rendezvous.table(r.nodes, partition_bits=10).owners(KEYS)


def test_every_copy_of_a_loaded_keyed_set_uses_the_secret_the_first_copy_read(tmp_path):
    (tmp_path / "secret.hex").write_text(SECRET.hex() + "\n")
    nodes = [f"node-{i}" for i in range(40)]
    (tmp_path / "m.toml").write_text(
        '[secret]\nfile = "secret.hex"\n' + "".join(f'[[nodes]]\nid = "{n}"\n' for n in nodes)
    )
    r = longstraw.Rendezvous.load(tmp_path / "m.toml")
    expected = longstraw.Rendezvous(nodes, secret=SECRET).owners(KEYS)
    assert r.owners(KEYS) == expected
    # The file changes (a rotation): copies made afterwards still place as the set was loaded.
    (tmp_path / "secret.hex").write_text(bytes(range(16, 32)).hex() + "\n")
    _trap_one_instance(r)
    r._state.family.idle.clear()
    assert r.owners(KEYS) == expected
    r.save(tmp_path / "again.toml")
    assert "secret.hex" in (tmp_path / "again.toml").read_text()
    assert SECRET.hex() not in (tmp_path / "again.toml").read_text()
    assert SECRET.hex() not in repr(r) and SECRET.hex() not in repr(r._state.family.log)
