"""Batches of keys: ``pack`` and ``Snapshot.owner_indices`` (batch.rs's twin)."""

from __future__ import annotations

import array
import struct
import sys
from typing import Any

from ._convert import KEYS_EXPECTED, items, key_bytes, uint_arg, wrong_type, U64_MAX

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
    parts = [key_bytes(k) for k in items(keys, "keys", KEYS_EXPECTED)]
    offs = [0]
    for p in parts:
        offs.append(offs[-1] + len(p))
    return b"".join(parts), _new_array(struct.pack(f"={len(offs)}Q", *offs), "uint64", "Q")


# This host's explicit byte-order prefix in buffer format strings (typed.rs's HOST_ORDER).
HOST_ORDER = "<" if sys.byteorder == "little" else ">"
_STANDARD = {("u", 4): "I", ("u", 8): "Q", ("i", 4): "i", ("i", 8): "q"}
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


def _offsets(obj: Any, key_len: int) -> list[int]:
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
        code = _STANDARD.get(kind) if kind is not None else None
        if code is not None:
            raw = mv.tobytes()  # C order, whatever the strides
            vals = list(struct.unpack(f"={len(raw) // mv.itemsize}{code}", raw))
            if code.islower():
                for at, v in enumerate(vals):
                    if v < 0:
                        raise ValueError(f"offsets[{at}] is negative: {v}")
            return vals
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
    return out


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
    offs = _offsets(offsets, len(blob))
    if not offs:  # no offsets: no keys (one offset is checked against the key bytes, and gives no key)
        offs = [0]
    n = len(offs) - 1
    packed = struct.pack(f"<{len(offs)}Q", *offs)
    raw = view.owners_packed(blob, packed, n) if offs else view.owners_packed(blob, packed, 0)
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
