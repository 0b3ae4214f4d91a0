"""Batches of keys: ``pack`` and ``Snapshot.owner_indices`` (batch.rs's twin)."""

from __future__ import annotations

import array
import struct
import sys
from typing import Any

from ._convert import KEYS_EXPECTED, items, keys_blob, uint_arg, wrong_type, U64_MAX

OFFSETS_EXPECTED = "a buffer of 32- or 64-bit integers or a sequence of ints"


def _new_array(values: bytes, dtype: str, code: str) -> Any:
    try:
        import numpy as np
    except ImportError:
        a = array.array(code)
        a.frombytes(values)
        return a
    return np.frombuffer(values, dtype=dtype).copy()


def pack(keys: Any) -> tuple[bytes, Any]:
    blob, offs = keys_blob(list(items(keys, "keys", KEYS_EXPECTED)))
    return blob, _new_array(offs.tobytes(), "uint64", "Q")


# This host's explicit byte-order prefix in buffer format strings (typed.rs's HOST_ORDER).
HOST_ORDER = "<" if sys.byteorder == "little" else ">"
_NATIVE_SPELLING = {"B": "u1", "c": "u1", "b": "i1", "H": "=u2", "h": "=i2", "I": "=u4", "L": "=u4",
                    "i": "=i4", "l": "=i4", "Q": "=u8", "q": "=i8"}


def _dtype_name(obj: Any) -> str:
    dtype = getattr(obj, "dtype", None)
    s = getattr(dtype, "str", None)
    if isinstance(s, str):
        return f"'{s}'"
    return type(obj).__name__


def _int_type(mv: memoryview, what: str, obj: Any) -> tuple[str, int] | None:
    """The buffer's integer kind and size, None for a non-integer format, or the TypeError for a byte
    order that is not this machine's (typed.rs's IntBuffer::int_type, with its message)."""
    fmt = mv.format
    if len(fmt) == 2 and fmt[0] in "<>!" and fmt[0] != HOST_ORDER:
        spelling = _NATIVE_SPELLING.get(fmt[1], f"={fmt[1]}")
        raise TypeError(
            f"{what} has dtype {_dtype_name(obj)} (format '{fmt}'), whose byte order is not this machine's; "
            f"convert it first, e.g. with .astype('{spelling}')"
        )
    if not (len(fmt) == 1 or (len(fmt) == 2 and fmt[0] in "@=<>!")):
        return None
    try:
        size = struct.calcsize(fmt)
    except struct.error:
        return None
    if size != mv.itemsize:
        return None
    if fmt[-1] in "BHILQN":
        return ("u", size)
    if fmt[-1] in "bhilqn":
        return ("i", size)
    return None


# array typecodes of the 4- and 8-byte integers (a buffer's offsets widen to u64 through them)
_ARRAY_CODE = {("u", 4): "I", ("i", 4): "i", ("u", 8): "Q", ("i", 8): "q"}
if any(array.array(c).itemsize != size for (_, size), c in _ARRAY_CODE.items()):  # pragma: no cover
    _ARRAY_CODE = {}


def _offsets(obj: Any, key_len: int) -> tuple[bytes, int]:
    """The offsets as little-endian u64 bytes, and how many there are (buffers keep their values;
    a sequence of ints stops after its first offset that cannot be right, which the module refuses)."""
    mv = None
    if not isinstance(obj, (str, bytes)):
        try:
            mv = memoryview(obj)
        except TypeError:
            if hasattr(obj, "__array__"):
                import numpy as np

                contiguous: Any = np.ascontiguousarray(obj)
                mv = memoryview(contiguous)
    if mv is not None:
        if mv.ndim != 1:  # offsets_shape.rs's check and message
            raise ValueError(f"offsets must be a one-dimensional buffer, got {mv.ndim} dimensions (shape {mv.shape})")
        kind = _int_type(mv, "offsets", obj)
        code = _ARRAY_CODE.get(kind) if kind is not None else None
        if code is not None:
            vals = array.array(code, mv.tobytes())  # C order, whatever the strides; this host's byte order
            if code.islower() and vals and min(vals) < 0:
                at = next(i for i, v in enumerate(vals) if v < 0)
                raise ValueError(f"offsets[{at}] is negative: {vals[at]}")
            if code != "Q":
                vals = array.array("Q", vals)
            return vals.tobytes(), len(vals)
    if isinstance(obj, (str, bytes)):
        raise wrong_type("offsets", OFFSETS_EXPECTED, obj)
    try:
        it = iter(obj)
    except TypeError:
        raise wrong_type("offsets", OFFSETS_EXPECTED, obj) from None
    out: list[int] = []
    for at, item in enumerate(it):
        v = uint_arg(item, f"offsets[{at}]", U64_MAX)
        out.append(v)
        if v > key_len or (at > 0 and v < out[at - 1]):
            break
    return struct.pack(f"<{len(out)}Q", *out), len(out)


def owner_indices(view: Any, keys: Any, offsets: Any, out: Any = None) -> Any:
    if isinstance(keys, str):
        raise TypeError("keys must be a bytes-like buffer of concatenated keys, not str (encode it first)")
    if isinstance(keys, bytes):
        blob = keys
    else:
        try:
            blob = memoryview(keys).cast("B").tobytes() if not isinstance(keys, memoryview) else keys.tobytes()
        except TypeError:
            if hasattr(keys, "__array__"):
                import numpy as np

                blob = np.ascontiguousarray(keys).tobytes()
            else:
                raise wrong_type("keys", "a bytes-like buffer of concatenated keys", keys) from None
    packed, count = _offsets(offsets, len(blob))
    if count == 0:  # no offsets: no keys (one offset is checked against the key bytes, and gives no key)
        packed, count = bytes(8), 1
    n = count - 1
    raw = view.owners_packed(blob, packed, n)
    if out is None:
        return _new_array(raw, "<u4", "I")
    try:
        mv = memoryview(out)
    except TypeError:
        raise wrong_type("out", "a writable buffer of uint32 (format 'I')", out) from None
    if _int_type(mv, "out", out) != ("u", 4):
        raise wrong_type("out", "a writable buffer of uint32 (format 'I')", out)
    if mv.readonly:
        raise ValueError("out is read-only")
    if mv.nbytes // 4 != n:
        raise ValueError(f"out has {mv.nbytes // 4} items but there are {n} keys")
    if mv.c_contiguous:
        mv.cast("B")[:] = raw
    else:  # strided: a native-format view of the results, assigned item by item
        fmt: Any = mv.format.lstrip("@=" + HOST_ORDER)  # "I" or "L" (checked above), as a cast's literal
        mv[:] = memoryview(raw).cast("B").cast(fmt)
    return out
