"""A keyed file's relative secret.file is found where a native load finds it: beside the membership
file (not in the current directory), or for loaded bytes in the current directory; a save names it by
the absolute path that load made of it. The WebAssembly backend resolves the path in Python, by this
OS's rules (its module has no file system); its resolution is tested on its own below, by Windows'
rules (ntpath) too."""

import json
import ntpath
import os
import sys
import tomllib

import pytest

import longstraw
from conftest import load_vectors

CASE = "flat plain n=33"
DECOY = "5a" * 16


def vector_case():
    (case,) = [c for c in load_vectors("keyed")["cases"] if c["name"] == CASE]
    assert all(n["weight_bits"] == "3ff0000000000000" and n["domain_hex"] is None for n in case["nodes"])
    return case


def membership_text(case, secret_file: str) -> str:
    return f"[secret]\nfile = {json.dumps(secret_file)}\n" + "".join(
        f'\n[[nodes]]\nid_hex = "{n["id_hex"]}"\n' for n in case["nodes"]
    )


def write_secret(path, secret_hex: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(secret_hex + "\n")


def as_bytes(node) -> bytes:
    """A node id as bytes (a file's id_hex of UTF-8 text loads as str, an id given as bytes stays bytes)."""
    return node.encode() if isinstance(node, str) else node


def assert_vector_owners(r, case) -> None:
    assert r.keyed
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    for k in case["keys"]:
        assert as_bytes(r.owner(bytes.fromhex(k["key_hex"]))) == ids[k["owner"]], k["key_hex"]


def saved_secret_file(path) -> str:
    with open(path, "rb") as f:
        return tomllib.load(f)["secret"]["file"]


def test_a_relative_secret_file_is_beside_the_membership_file(tmp_path, monkeypatch):
    case = vector_case()
    conf = tmp_path / "conf"
    write_secret(conf / "keys" / "s.hex", case["secret_hex"])
    path = conf / "m.toml"
    path.write_text(membership_text(case, "keys/s.hex"))
    # The current directory holds a secret file of the same name with another secret.
    other = tmp_path / "other"
    write_secret(other / "keys" / "s.hex", DECOY)
    saves = tmp_path / "saves"
    saves.mkdir()
    monkeypatch.chdir(other)

    r = longstraw.Rendezvous.load(str(path))
    assert_vector_owners(r, case)
    out = saves / "loaded.toml"
    r.save(out)
    assert saved_secret_file(out) == str(conf / "keys" / "s.hex")
    assert_vector_owners(longstraw.Rendezvous.load(out), case)

    # A ".." stays on POSIX (the folder may be reached through a symbolic link); Windows removes it.
    path.write_text(membership_text(case, "../conf/keys/s.hex"))
    up = longstraw.Rendezvous.load(str(path))
    assert_vector_owners(up, case)
    up.save(out)
    want = str(conf / "keys" / "s.hex") if os.name == "nt" else f"{conf}/../conf/keys/s.hex"
    assert saved_secret_file(out) == want

    # Bytes: the current directory's secret file.
    from_bytes = longstraw.Rendezvous.loads(membership_text(case, "keys/s.hex"))
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    in_code = longstraw.Rendezvous(ids, secret=bytes.fromhex(DECOY))
    keys = [bytes.fromhex(k["key_hex"]) for k in case["keys"]] + [f"user:{i}".encode() for i in range(500)]
    assert [as_bytes(from_bytes.owner(k)) for k in keys] == [as_bytes(in_code.owner(k)) for k in keys]
    from_bytes.save(out)
    assert saved_secret_file(out) == os.path.join(os.getcwd(), "keys", "s.hex")


wasm = sys.modules.get("longstraw._wasm")
on_wasm = pytest.mark.skipif(
    wasm is None or getattr(wasm, "Rendezvous", None) is not longstraw.Rendezvous,
    reason="the WebAssembly backend's path resolution; the native extension is loaded",
)


@on_wasm
def test_the_wasm_backend_resolves_a_secret_file_by_windows_rules():
    from longstraw._wasm._files import nt_secret_path

    for file, path, want in [
        ("s.hex", r"C:\dir\m.toml", r"C:\dir\s.hex"),
        ("keys/s.hex", r"C:\dir\m.toml", r"C:\dir\keys\s.hex"),
        (r"..\k\s.hex", r"C:\a\b\m.toml", r"C:\a\k\s.hex"),
        (r"\k\s.hex", r"D:\a\m.toml", r"D:\k\s.hex"),
        ("/k/s.hex", r"D:\a\m.toml", r"D:\k\s.hex"),
        (r"E:\k\s.hex", r"C:\a\m.toml", r"E:\k\s.hex"),
        (r"\\?\C:\x\..\s.hex", r"C:\a\m.toml", r"\\?\C:\x\..\s.hex"),
        ("s.hex", r"\\server\share\d\m.toml", r"\\server\share\d\s.hex"),
        (r"\k\s.hex", r"\\server\share\d\m.toml", r"\\server\share\k\s.hex"),
    ]:
        assert nt_secret_path(file, path) == want, (file, path)
    if os.name == "nt":
        assert nt_secret_path("s.hex", None) == ntpath.join(os.getcwd(), "s.hex")
        assert nt_secret_path("s.hex", "m.toml") == ntpath.join(os.getcwd(), "s.hex")


@on_wasm
def test_the_wasm_backend_resolves_a_secret_file_by_posix_rules(monkeypatch, tmp_path):
    from longstraw._wasm._files import posix_secret_path, secret_file_path

    for file, path, want in [
        ("s.hex", "/a/b/m.toml", "/a/b/s.hex"),
        ("keys/s.hex", "/a/b/m.toml", "/a/b/keys/s.hex"),
        ("../k/s.hex", "/a/b/m.toml", "/a/b/../k/s.hex"),
        ("./k//s.hex", "/a/./b//m.toml", "/a/b/k/s.hex"),
        ("/abs/s.hex", "/a/b/m.toml", "/abs/s.hex"),
        ("//host/s.hex", "/a/m.toml", "//host/s.hex"),
        ("///x//y", "/a/m.toml", "/x/y"),
        ("k/", "/a/m.toml", "/a/k/"),
        ("s.hex", "/m.toml", "/s.hex"),
    ]:
        assert posix_secret_path(file, path) == want, (file, path)
    if os.name == "posix":
        monkeypatch.chdir(tmp_path)
        here = os.getcwd()
        assert secret_file_path("s.hex", "m.toml") == f"{here}/s.hex"
        assert secret_file_path("s.hex", "conf/m.toml") == f"{here}/conf/s.hex"
        assert secret_file_path("../s.hex", None) == f"{here}/../s.hex"
