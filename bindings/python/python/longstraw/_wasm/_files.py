"""Membership files: the host reads and writes them, the module parses and renders their bytes.

The module reads no file and has no file system: ``load`` reads the file in Python (once, so a pipe
works) and has the module parse it as that file (messages name the path). A keyed file's secret file is
read in Python too: the module names it as the file writes it (``longstraw_wasm_secret_file``),
``secret_file_path`` resolves it by this OS's path rules as a native load does (a relative one against
the membership file's folder, or for ``loads`` the current directory, then absolute),
``read_secret_file`` reports what is there, and the module judges that report, builds the set and
remembers the resolved path (``longstraw_wasm_load_bytes_read``), so the rules and messages are the
native load's. ``save`` has the module render the
file (``longstraw_rendezvous_save_bytes``) and writes it atomically: a new temporary file beside it,
flushed to disk, given the old file's permissions, then renamed over it.
"""

from __future__ import annotations

import errno
import ntpath
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


def secret_file_path(file: str, path: str | None) -> str:
    """Where a native load finds a keyed file's secret.file (as the file writes it): by this OS's path
    rules (Rust's Path::join, then std::path::absolute), relative to the folder of the membership file
    at path, or to the current directory for content with no file (path None), made absolute so that the
    set finds it again from any folder and a save names it. The module cannot: it has no file system,
    and WASI's path rules know no drive letters."""
    if os.name == "nt":
        return nt_secret_path(file, path)
    return posix_secret_path(file, path)


def nt_secret_path(file: str, path: str | None) -> str:
    """secret_file_path by Windows' rules: a verbatim path (\\\\?\\...) is kept as it is; one with a
    drive of its own ("C:x") is resolved against that drive; a rooted one with no drive (\\x) takes the
    membership file's drive; anything else is joined to the file's folder. Then GetFullPathName
    (ntpath.abspath), as std::path::absolute does."""
    if file.startswith("\\\\?\\"):
        return file
    if path is not None and not ntpath.splitdrive(file)[0]:
        folder = ntpath.dirname(path)
        if file[:1] in ("\\", "/"):
            file = ntpath.splitdrive(folder)[0] + file
        else:
            file = ntpath.join(folder, file)
    return ntpath.abspath(file)


def posix_secret_path(file: str, path: str | None) -> str:
    """secret_file_path by POSIX rules, as Rust's are: the folder is what precedes the membership path's
    last slash, and making the path absolute drops "." components and repeated slashes but keeps ".."
    (a folder reached through a symbolic link has another parent than the text says) and a trailing
    slash; "//" at the start stays (POSIX leaves its meaning to the system), "///" is one slash. Unlike
    os.path.abspath, which would drop "..", this gives the path a native load remembers."""
    if path is not None and not file.startswith("/"):
        i = path.rfind("/")
        if i >= 0:
            file = path[: i + 1] + file
    if file.startswith("//") and not file.startswith("///"):
        out = "//"
    elif file.startswith("/"):
        out = "/"
    else:
        out = os.getcwd()
    for part in file.split("/"):
        if part in ("", "."):
            continue
        if not out.endswith("/"):
            out += "/"
        out += part
    if file.endswith("/") and not out.endswith("/"):
        out += "/"
    return out


def _load_reading_secret(inst: Instance, data: bytes, origin: str, path: str | None) -> tuple[int, str | None]:
    """A set from the content of the membership file at path (None: content with no file; origin names it
    in errors), its secret file (if it names one) read here; and where that file was resolved to."""
    p, q = inst.put_args(data, origin.encode() + b"\0")
    _errors.check(inst, inst.code("longstraw_wasm_secret_file", p, len(data), q, inst.out(0), inst.out(1)))
    at, size = inst.u32(inst.out(0)), inst.u32(inst.out(1))
    read, content, where = _CONTENT, b"", None
    if at:
        try:
            file = inst.read(at, size).decode()
        finally:
            inst.call("longstraw_wasm_free", at, size)
        try:
            where = secret_file_path(file, path)
        except OSError as e:
            # No current directory to resolve against: the load fails naming the path as written.
            where, read, content = file, _FAILED, (e.strerror or str(e)).encode()
        else:
            read, content = read_secret_file(where)
    sp = None if where is None else where.encode() + b"\0"
    p, q, s, r = inst.put_args(data, origin.encode() + b"\0", sp, content)
    try:
        code = inst.code("longstraw_wasm_load_bytes_read", p, len(data), q, s, read, r, len(content), inst.out(0))
    finally:
        if content:
            inst.write(r, bytes(len(content)))  # the secret's copy in the module's memory
    _errors.check(inst, code)
    return inst.u32(inst.out(0)), where


class _Load:
    """The log entry that loads a file's content (path None: content with no file). The first copy
    reads a keyed file's secret from the source the file names; every later copy is built with the
    secret that copy read and the path it resolved, so a source read once (a FIFO) or changed since (a
    rotated file) gives every copy the same secret."""

    __slots__ = ("data", "origin", "path", "secret", "secret_path", "loaded")

    def __init__(self, data: bytes, path: str | None) -> None:
        self.data, self.path = data, path
        self.origin = DATA_ORIGIN if path is None else path
        self.secret: bytes | None = None
        self.secret_path: str | None = None
        self.loaded = False

    def __call__(self, inst: Instance, _s: int) -> int:
        if self.loaded:
            return _abi.load_bytes(inst, self.data, self.origin, self.secret_path, self.secret)
        s, self.secret_path = _load_reading_secret(inst, self.data, self.origin, self.path)
        self.secret = _abi.secret_of(inst, s)
        self.loaded = True
        return s

    def __repr__(self) -> str:
        return f"<load {self.origin!r}>"


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
    state.family.create(_Load(raw, None))
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
