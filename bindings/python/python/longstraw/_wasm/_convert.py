"""Python values to the bytes and numbers the C ABI takes, with the native face's checks and messages.

The same rules as the extension's convert.rs, weight.rs, options.rs and keyed.rs: a key is str (its
UTF-8), bytes, bytearray or memoryview; an id keeps the type it was given (str stays str, anything
bytes-like becomes bytes); a weight converts to a float exactly or is refused; bool is never a number.
Where a check belongs to the Rust layer (a weight's range, a secret's length), the message comes from
the module.
"""

from __future__ import annotations

import array
import math
import operator
from collections.abc import Callable, Iterator
from itertools import accumulate
from typing import Any

KEY_TYPES = "str, bytes, bytearray or memoryview"
KEYS_EXPECTED = "an iterable of keys (wrap a single key in a list, or use owner())"
U64_MAX = (1 << 64) - 1


def type_name(obj: object) -> str:
    return type(obj).__name__


def wrong_type(what: str, expected: str, got: object) -> TypeError:
    return TypeError(f"{what} must be {expected}, not {type_name(got)}")


def key_bytes(key: object, what: str = "key") -> bytes:
    if isinstance(key, str):
        return str.encode(key)  # a str subclass's own text, as natively (not an override of encode)
    if isinstance(key, bytes):
        return bytes(key)
    if isinstance(key, bytearray):
        return bytes(key)
    if isinstance(key, memoryview):
        if not key.c_contiguous:  # what PyObject_GetBuffer(PyBUF_SIMPLE) raises natively
            raise BufferError("memoryview: underlying buffer is not C-contiguous")
        return key.tobytes()
    raise wrong_type(what, KEY_TYPES, key)


def keys_blob(keys: list[Any]) -> tuple[bytes, "array.array[int]"]:
    """A list of keys as one blob of their bytes and len(keys) + 1 u64 offsets (in this host's byte
    order, which the module requires to be little-endian): key i is blob[offs[i]:offs[i + 1]].

    A list of str only (not a subclass, whose __len__ could lie) of ASCII text is joined as text and
    encoded once; other str only are encoded one by one with str.encode (a lone surrogate raises its
    UnicodeEncodeError), bytes only are joined as they are; any other list (subclasses, bytearray,
    memoryview, mixed types, a type that is not a key) is converted key by key, with key_bytes' errors."""
    types = set(map(type, keys))
    if types == _STR_ONLY:
        text = "".join(keys)
        if text.isascii():
            return text.encode("ascii"), array.array("Q", accumulate(map(len, keys), initial=0))
        parts = list(map(str.encode, keys))
    elif types == _BYTES_ONLY:
        parts = keys
    else:
        parts = [key_bytes(k) for k in keys]
    return b"".join(parts), array.array("Q", accumulate(map(len, parts), initial=0))


_STR_ONLY: set[type] = {str}
_BYTES_ONLY: set[type] = {bytes}


def items(obj: object, what: str, expected: str) -> Iterator[Any]:
    """Iterates a collection of keys or ids, refusing a lone str or bytes-like object."""
    if isinstance(obj, (str, bytes, bytearray, memoryview)):
        raise wrong_type(what, expected, obj)
    return iter(obj)  # type: ignore[call-overload, no-any-return]


def id_like(obj: object, what: str) -> tuple[bytes, str | bytes]:
    """An id's bytes and the object handed back for it."""
    if isinstance(obj, str):
        b = obj.encode()
        return b, obj if type(obj) is str else str.__str__(obj)
    if isinstance(obj, bytes):
        b = bytes(obj)
        return b, obj if type(obj) is bytes else b
    if isinstance(obj, (bytearray, memoryview)):
        b = bytes(obj)
        return b, b
    raise wrong_type(what, KEY_TYPES, obj)


def node_id(obj: object) -> tuple[bytes, str | bytes]:
    return id_like(obj, "node id")


def domain_label(obj: object) -> tuple[bytes, str | bytes] | None:
    if obj is None:
        return None
    return id_like(obj, "domain")


def node_id_bytes(obj: object) -> bytes:
    return key_bytes(obj, "node id")


def uint_arg(obj: object, name: str, maximum: int) -> int:
    """An int (or an object with __index__) in [0, maximum]; bool is refused."""
    if isinstance(obj, bool):
        raise TypeError(f"{name} must be an int, not bool")
    if not isinstance(obj, int) and not hasattr(obj, "__index__"):
        raise wrong_type(name, "an int", obj)
    v = operator.index(obj)
    if v < 0 or v > maximum:
        raise ValueError(f"{name} must be an integer in [0, {maximum}], got {obj!r}")
    return v


def count(k: object) -> int:
    return uint_arg(k, "k", U64_MAX)


# -- weights (weight.rs) ------------------------------------------------------------------------------
RANGE = "weights must be 0 or in [2^-64, 2^64]"
_SHOWN = 60


def _cut(text: str) -> str:
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_SHOWN]}... ({len(text)} characters)"


def _nearest(f: float) -> str:
    if f == int(f) if f == f and abs(f) != float("inf") else False:
        return repr(f)
    return f"{f:.17e}".replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")


def _full_type_name(obj: object) -> str:
    ty = type(obj)
    module = getattr(ty, "__module__", "") or ""
    return ty.__name__ if module in ("builtins", "") else f"{module}.{ty.__name__}"


def _is_numpy_bool(obj: object) -> bool:
    ty = type(obj)
    return getattr(ty, "__module__", "") == "numpy" and ty.__name__ in ("bool_", "bool")


def weight(obj: object, context: Callable[[], str], validate: Callable[[float], str | None]) -> float:
    """One weight; validate(w) returns the Rust layer's message for a weight out of range."""
    if isinstance(obj, bool) or _is_numpy_bool(obj):
        raise TypeError(f"{context()}: weight must be a number, not {_full_type_name(obj)}")
    if isinstance(obj, float):
        value = float(obj)
    elif isinstance(obj, int) or (hasattr(obj, "__index__") and not isinstance(obj, str)):
        i = operator.index(obj)
        try:
            value = float(i)
        except OverflowError:
            why = "it is negative" if i < 0 else "it is above 2^64"
            raise ValueError(f"{context()}: invalid weight {_cut(str(i))}: {why} ({RANGE})") from None
        if value != i:
            raise ValueError(
                f"{context()}: weight {_cut(str(i))} is not exactly representable as a float "
                f"(the nearest is {_nearest(value)})"
            )
    elif hasattr(obj, "__float__") and not isinstance(obj, str):
        value = float(obj)
        if value == value and not obj == value:
            rounded = (
                " (it would round to 0.0, which drains the node)"
                if value == 0.0
                else f" (the nearest is {_nearest(value)})"
            )
            raise ValueError(
                f"{context()}: weight {_cut(repr(obj))} is not exactly representable as a float{rounded}"
            )
    else:
        raise wrong_type(f"{context()}: weight", "a float or int", obj)
    bad = validate(value)
    if bad is not None:
        raise ValueError(f"{context()}: {bad}")
    return value


def weight_ok(w: float) -> bool:
    return (w == 0.0 and math.copysign(1.0, w) > 0) or (2.0**-64 <= w <= 2.0**64)


def show(obj: object) -> str:
    try:
        return repr(obj)
    except Exception:
        return "<node>"


# -- set-wide options (options.rs, keyed.rs) ----------------------------------------------------------
SECRET_STR = (
    "secret must be 16 random bytes (bytes, bytearray or memoryview), not str; "
    "use os.urandom(16) and keep it in your secret store"
)
PICKLE_REFUSED = (
    "a keyed set (built with secret=...) cannot be pickled or copied: the pickle would contain "
    "the secret. Rebuild it where it is needed from the nodes and the secret in your secret store"
)


class SetOptions:
    __slots__ = ("seed", "secret", "placement")

    def __init__(self) -> None:
        self.seed: int | None = None
        self.secret: bytes | None = None
        self.placement = 1


def _named(name: str, fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except TypeError as e:
        if type(e) is TypeError:
            raise TypeError(f"argument '{name}': {e}") from e.__cause__
        raise


def _secret(obj: object) -> bytes | None:
    if obj is None:
        return None
    if isinstance(obj, str):
        raise TypeError(SECRET_STR)
    try:
        return bytes(memoryview(obj))  # type: ignore[arg-type]
    except TypeError:
        raise wrong_type("secret", "a bytes-like object of 16 bytes", obj) from None


def _seed(obj: object) -> int | None:
    if obj is None:
        return None
    return uint_arg(obj, "seed", U64_MAX)


def _placement(obj: object) -> int:
    v = uint_arg(obj, "placement", U64_MAX)
    if v > 0xFFFFFFFF:
        raise ValueError(f"unknown placement version {v} (this build knows: 1)")
    return v


def parse_options(function: str, kwargs: dict[str, Any]) -> SetOptions:
    o = SetOptions()
    for name in kwargs:
        if name not in ("seed", "secret", "placement"):
            raise TypeError(f"{function} got an unexpected keyword argument '{name}'")
    first: BaseException | None = None
    for name, value in kwargs.items():
        try:
            if name == "seed":
                o.seed = _named("seed", lambda: _seed(value))
            elif name == "secret":
                o.secret = _named("secret", lambda: _secret(value))
            else:
                o.placement = _named("placement", lambda: _placement(value))
        except (TypeError, ValueError, OverflowError) as e:
            if first is None:
                first = e
    if first is not None:
        raise first
    return o


# The set-wide keywords as the native extension's signatures show them (options.rs's
# set_options_signature): the constructors take them as **options and read them with parse_options.
SET_OPTIONS_SIGNATURE = "seed=None, secret=None, placement=1"


def text_signature(obj: Any, params: str) -> None:
    """Gives obj (a class, or a function whose first parameter is cls) the signature that
    ``inspect.signature`` shows for the native extension's ``__text_signature__`` ``(params)``."""
    import inspect

    scope: dict[str, Any] = {}
    exec(f"def f({params}): pass", scope)
    obj.__signature__ = inspect.signature(scope["f"])


def shape_arg(obj: object, name: str, maximum: int) -> int:
    return uint_arg(obj, name, maximum)
