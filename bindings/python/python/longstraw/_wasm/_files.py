"""Membership files: the host reads and writes them, the module parses and renders their bytes.

The module reads no file: ``load`` reads the file in Python (once, so a pipe works) and has the module
parse it as that file (messages name the path, a relative ``secret.file`` is relative to its folder).
A keyed file's secret file is read in Python too: the module names it (``longstraw_wasm_secret_file``),
``read_secret_file`` reports what is there, and the module judges that report and builds the set
(``longstraw_wasm_load_bytes_read``), so the rules and messages are the native load's. ``save`` has the module render the
file (``longstraw_rendezvous_save_bytes``) and writes it atomically: a new temporary file beside it,
flushed to disk, given the old file's permissions, then renamed over it.
"""

from __future__ import annotations

import errno
import os
import select
import stat
import tempfile
from typing import Any

from . import _abi, _errors
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


# What read_secret_file found, as longstraw_wasm_load_bytes_read numbers it.
_CONTENT, _DIRECTORY, _DEVICE, _SOCKET, _STALLED, _FAILED = range(6)
# The module refuses more than 4096 bytes; one more tells it the file is larger.
_SECRET_READ = 4097
# A pipe that gives no data for this long fails (the module's message says 10 s, as a native load's).
_STALL = 10.0


def read_secret_file(path: str) -> tuple[int, bytes]:
    """What is at a keyed file's secret file, read as a native load reads it: a regular file or a pipe
    (a FIFO, ``<(command)``), once, opened without waiting for a writer, each read of a pipe waiting at
    most _STALL for data. Returns a _CONTENT report with the bytes (at most _SECRET_READ), another report,
    or _FAILED with the OS's message. The bytes are the secret: never shown."""
    if "\0" in path:
        return _FAILED, b""  # the module refuses the path itself
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if isinstance(e, IsADirectoryError):
            return _DIRECTORY, b""
        return _FAILED, (e.strerror or str(e)).encode()
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            return _DIRECTORY, b""
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            return _DEVICE, b""
        if stat.S_ISSOCK(mode):
            return _SOCKET, b""
        if stat.S_ISREG(mode) or not hasattr(select, "poll"):
            return _CONTENT, _read_to(fd, _SECRET_READ)
        return _read_pipe(fd)
    except OSError as e:
        return _FAILED, (e.strerror or str(e)).encode()
    finally:
        os.close(fd)


def _read_to(fd: int, limit: int) -> bytes:
    out = bytearray()
    while len(out) < limit:
        chunk = os.read(fd, limit - len(out))
        if not chunk:
            break
        out += chunk
    return bytes(out)


def _read_pipe(fd: int) -> tuple[int, bytes]:
    # Poll before each read: Linux reports a FIFO's end only once a writer has opened and closed it.
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    out = bytearray()
    while len(out) < _SECRET_READ:
        if not poller.poll(int(_STALL * 1000)):
            return _STALLED, b""
        try:
            chunk = os.read(fd, _SECRET_READ - len(out))
        except (BlockingIOError, InterruptedError):
            continue
        if not chunk:
            break
        out += chunk
    return _CONTENT, bytes(out)


def _load_reading_secret(inst: Instance, data: bytes, path: str) -> int:
    """A set from the content of the membership file at path, its secret file (if it names one) read here."""
    p, q = inst.put_args(data, path.encode() + b"\0")
    _errors.check(inst, inst.code("longstraw_wasm_secret_file", p, len(data), q, inst.out(0), inst.out(1)))
    at, size = inst.u32(inst.out(0)), inst.u32(inst.out(1))
    read, content = _CONTENT, b""
    if at:
        try:
            file = inst.read(at, size).decode()
        finally:
            inst.call("longstraw_wasm_free", at, size)
        read, content = read_secret_file(file)
    p, q, r = inst.put_args(data, path.encode() + b"\0", content)
    try:
        code = inst.code("longstraw_wasm_load_bytes_read", p, len(data), q, read, r, len(content), inst.out(0))
    finally:
        if content:
            inst.write(r, bytes(len(content)))  # the secret's copy in the module's memory
    _errors.check(inst, code)
    return inst.u32(inst.out(0))


class _Load:
    """The log entry that loads a file's content. The first copy reads a keyed file's secret from the
    source the file names; every later copy is built with the secret that copy read, so a source read
    once (a FIFO) or changed since (a rotated file) gives every copy the same secret."""

    __slots__ = ("data", "path", "secret")

    def __init__(self, data: bytes, path: str) -> None:
        self.data, self.path = data, path
        self.secret: bytes | None = None

    def __call__(self, inst: Instance, _s: int) -> int:
        if self.secret is not None:
            return _abi.load_bytes(inst, self.data, self.path, self.secret)
        s = _load_reading_secret(inst, self.data, self.path)
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
