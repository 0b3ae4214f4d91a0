"""Result codes of the C ABI to Python exceptions, with the library's own message text.

The same mapping as the native extension (error.rs): an unknown node is ``KeyError``, a lookup on a set
with no eligible node ``NoEligibleNodeError`` (a ``LookupError``), out of memory ``MemoryError``, every
other failure ``ValueError``. The text is ``longstraw_last_error_message()``, the Rust layer's message;
the face never rewrites it.
"""

from __future__ import annotations

from ._runtime import Instance

OK = 0
NULL_ARGUMENT = 1
UNKNOWN_NODE = 6
NO_ELIGIBLE_NODE = 8
BUFFER_TOO_SMALL = 11
OUT_OF_MEMORY = 16
INTERNAL_ERROR = 17
BAD_FILE = 20
WRONG_MODE = 23


class NoEligibleNodeError(LookupError):
    """A lookup on a set with no node of non-zero weight (empty or all drained)."""


NoEligibleNodeError.__module__ = "longstraw"


def message(inst: Instance, code: int) -> str:
    """The last error message of the instance, or the code's sentence when there is none."""
    text = inst.cstring(inst.call("longstraw_last_error_message"))
    if not text:
        text = inst.cstring(inst.call("longstraw_result_str", code & 0xFFFFFFFF))
    return text.decode("utf-8", "replace")


def exception(code: int, text: str) -> Exception:
    if code == NO_ELIGIBLE_NODE:
        return NoEligibleNodeError(text)
    if code == UNKNOWN_NODE:
        return KeyError(text)
    if code == OUT_OF_MEMORY:
        return MemoryError(text)
    return ValueError(text)


def check(inst: Instance, code: int) -> None:
    if code != OK:
        raise exception(code, message(inst, code))
