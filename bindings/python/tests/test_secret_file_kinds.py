"""A keyed file's secret file, whatever it is: a regular file, a pipe (``/dev/fd/N``, as a shell's
``<(command)`` gives), a directory, a device, a missing or too large file. Each loads or fails with the
same message on every backend (the native extension reads the file itself; the WebAssembly backend
reads it in Python and the module judges what was read), and no message shows the content."""

import os
import sys

import pytest

import longstraw

SECRET = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
NODES = [f"node-{i}" for i in range(20)]
KEYS = [f"key-{i}" for i in range(500)]
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="needs /dev/null and /dev/fd")


def keyed_file(folder, secret_file) -> str:
    path = os.path.join(folder, "keyed.toml")
    with open(path, "w") as f:
        f.write(f"[secret]\nfile = {str(secret_file)!r}\n".replace("'", '"'))
        f.write("".join(f'[[nodes]]\nid = "{n}"\n' for n in NODES))
    return path


def load_error(path: str) -> str:
    with pytest.raises(ValueError) as e:
        longstraw.Rendezvous.load(path)
    return str(e.value)


def test_a_regular_secret_file_loads_with_the_set_of_that_secret(tmp_path):
    (tmp_path / "secret").write_text(SECRET.hex() + "\n")
    loaded = longstraw.Rendezvous.load(keyed_file(tmp_path, "secret"))
    assert loaded.keyed
    assert loaded.owners(KEYS) == longstraw.Rendezvous(NODES, secret=SECRET).owners(KEYS)


@posix_only
def test_a_secret_in_a_pipe_named_by_dev_fd_loads(tmp_path):
    r, w = os.pipe()
    try:
        os.write(w, (SECRET.hex() + "\n").encode())
        os.close(w)
        loaded = longstraw.Rendezvous.load(keyed_file(tmp_path, f"/dev/fd/{r}"))
    finally:
        os.close(r)
    assert loaded.owners(KEYS) == longstraw.Rendezvous(NODES, secret=SECRET).owners(KEYS)
    # A change after the load keeps the secret read once (the pipe is empty now).
    loaded.add("node-x")
    assert loaded.owners(KEYS) == longstraw.Rendezvous([*NODES, "node-x"], secret=SECRET).owners(KEYS)


def test_a_missing_secret_file_is_named(tmp_path):
    path = keyed_file(tmp_path, "missing")
    assert load_error(path) == (
        f"{path}: secret: cannot read secret file {tmp_path / 'missing'}: No such file or directory"
    )


def test_a_folder_as_secret_file_is_refused(tmp_path):
    (tmp_path / "folder").mkdir()
    path = keyed_file(tmp_path, "folder")
    assert load_error(path) == (
        f"{path}: secret: cannot read secret file {tmp_path / 'folder'}: it is a directory, not a regular file or a pipe"
    )


@posix_only
def test_a_device_as_secret_file_is_refused(tmp_path):
    path = keyed_file(tmp_path, "/dev/null")
    assert load_error(path) == (
        f"{path}: secret: cannot read secret file /dev/null: it is a device, not a regular file or a pipe"
    )


def test_a_too_large_secret_file_is_refused_and_not_shown(tmp_path):
    (tmp_path / "secret").write_text(SECRET.hex() * 200)  # 6400 bytes
    path = keyed_file(tmp_path, "secret")
    text = load_error(path)
    assert text == (
        f"{path}: secret: cannot read secret file {tmp_path / 'secret'}: "
        "the file is larger than 4096 bytes, the limit for a secret file"
    )


def test_a_malformed_secret_is_described_never_shown(tmp_path):
    (tmp_path / "secret").write_text("SECRETSAUCE-0123\n")
    path = keyed_file(tmp_path, "secret")
    text = load_error(path)
    assert "SAUCE" not in text and "0123" not in text
    assert text == (
        f"{path}: secret: secret file {tmp_path / 'secret'} must hold the secret as 32 hexadecimal digits "
        "(it holds 16 bytes that are not)"
    )
