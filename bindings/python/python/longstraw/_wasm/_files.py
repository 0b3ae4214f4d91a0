"""Membership files: the host reads and writes them, the module parses and renders their bytes.

The module does no file I/O of its own (it reads a keyed file's secret file, by the path the file
names, through the read-only file system the host gives it). ``load`` reads the file in Python (once,
so a pipe works) and has the module parse it as that file (``longstraw_wasm_load_file_bytes``: messages
name the path, a relative ``secret.file`` is relative to its folder). ``save`` has the module render the
file (``longstraw_rendezvous_save_bytes``) and writes it atomically: a new temporary file beside it,
flushed to disk, given the old file's permissions, then renamed over it.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Any

from . import _abi
from ._runtime import Instance
from ._view import SetState

DATA_ORIGIN = "<data>"
MAX_FILE = 64 << 20


def _io_error(path: str, e: OSError) -> OSError:
    text = f"{path}: {e.strerror or e}"
    if isinstance(e, FileNotFoundError):
        return FileNotFoundError(text)
    return OSError(text)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            if stat.S_ISDIR(os.fstat(f.fileno()).st_mode):
                raise IsADirectoryError(errno.EISDIR, "Is a directory")
            return f.read()
    except OSError as e:
        raise _io_error(path, e) from None


def _fspath(path: Any, what: str = "path") -> str:
    try:
        p = os.fspath(path)
    except TypeError:
        raise TypeError(f"argument '{what}': expected str, bytes or os.PathLike object, not {type(path).__name__}") from None
    return p if isinstance(p, str) else os.fsdecode(p)


class _Load:
    """The log entry that loads a file's content. The first copy reads a keyed file's secret from the
    source the file names; every later copy is built with the secret that copy read, so a source read
    once (a FIFO) or changed since (a rotated file) gives every copy the same secret."""

    __slots__ = ("data", "path", "secret")

    def __init__(self, data: bytes, path: str) -> None:
        self.data, self.path = data, path
        self.secret: bytes | None = None

    def __call__(self, inst: Instance, _s: int) -> int:
        s = _abi.load_bytes(inst, self.data, self.path, self.secret)
        if self.secret is None:
            self.secret = _abi.secret_of(inst, s)
        return s

    def __repr__(self) -> str:
        return f"<load {self.path!r}>"


def load(path: Any) -> SetState:
    p = _fspath(path)
    data = _read(p)
    state = SetState()
    state.remembered = True
    state.family.create(_Load(data, p))
    return state


def loads(data: object) -> SetState:
    if isinstance(data, str):
        raw = data.encode()
    elif isinstance(data, bytes):
        raw = bytes(data)
    else:
        raise TypeError(f"data must be str or bytes, not {type(data).__name__}")
    state = SetState()
    state.remembered = True
    state.family.create(_Load(raw, DATA_ORIGIN))
    return state


def save(state: SetState, path: Any, secret_file: Any, secret_env: str | None) -> None:
    p = _fspath(path)
    sf = None if secret_file is None else _fspath(secret_file, "secret_file")
    if secret_env is not None and not isinstance(secret_env, str):
        raise TypeError(f"argument 'secret_env': '{type(secret_env).__name__}' object cannot be converted to 'PyString'")

    def render(inst: Instance, s: int) -> bytes:
        return _abi.save_bytes(inst, s, p, sf, secret_env)

    text = state.family.set_call(render)
    try:
        write_atomically(p, text)
    except OSError as e:
        raise _io_error(p, e) from None


def write_atomically(path: str, data: bytes) -> None:
    folder = os.path.dirname(path) or "."
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o644 & ~umask
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".tmp-")
    ok = False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.chmod(tmp, mode)
        os.replace(tmp, path)
        ok = True
    finally:
        if not ok:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    if hasattr(os, "O_DIRECTORY"):
        try:
            d = os.open(folder, os.O_DIRECTORY)
        except OSError:
            return
        try:
            os.fsync(d)
        except OSError:
            pass
        finally:
            os.close(d)
