"""The binding's conversions under random input (hypothesis), judged by the spec reimplementation.

The buffer and key conversions of this binding read Python objects through PyO3, so they cannot run in a
cargo-fuzz target without an interpreter; these properties feed them random Unicode, binary and long keys,
random offset arrays of every accepted item type, and malformed offsets, and compare with:

- the packed byte form written out here from SPEC §8 (keys concatenated, ``n + 1`` offsets, non-decreasing,
  the last within the buffer, the first anywhere);
- ``tests/spec/spec_reimpl.py`` (placement v1 written from the spec alone) for every owner.
"""

import array
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import longstraw
from longstraw import Rendezvous

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "spec"))
import spec_reimpl  # noqa: E402  (the independent model, found through the path above)

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NODES = ["alpha", "beta", "gamma", "δέλτα", b"\xff\x00raw", "e"]
WEIGHTS = [1.0, 2.0, 0.5, 1.0, 3.0, 0.0]
SEED = 0x5EED_F022


def model():
    return spec_reimpl.NodeSet(zip(NODES, WEIGHTS), seed=SEED)


@pytest.fixture(scope="module")
def snap():
    return Rendezvous(NODES, weights=WEIGHTS, seed=SEED).snapshot()


def utf8(key):
    return key.encode("utf-8") if isinstance(key, str) else bytes(key)


def encodable(key):
    try:
        utf8(key)
        return True
    except UnicodeEncodeError:
        return False


# Any Unicode text (every plane, combining marks, NUL), raw bytes, and long keys on both sides of the sizes
# where the hash changes its code path (16, 128, 240 bytes) and well beyond.
keys = st.one_of(
    st.text(max_size=40).filter(encodable),
    st.binary(max_size=300),
    st.binary(min_size=1000, max_size=5000),
    st.text(min_size=100, max_size=600).filter(encodable),
)
OFFSET_TYPES = ["<u4", "=u4", "<u8", "=u8", "<i8", "<i4", "array-Q", "array-I", "list", "memoryview-Q"]


def as_offsets(values, kind):
    if kind.startswith("array-"):
        return array.array(kind[-1], values)
    if kind == "memoryview-Q":
        return memoryview(array.array("Q", values))
    if kind == "list":
        return list(values)
    return np.array(values, dtype=kind)


def fits(values, kind):
    """Whether every offset fits the item type (so the container itself can be built)."""
    bits = {"4": 32, "8": 64, "I": 32, "Q": 64}.get(kind[-1], 64)
    signed = "i" in kind
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return all(lo <= v <= hi for v in values)


@SETTINGS
@given(st.lists(keys, max_size=30), st.binary(max_size=8), st.binary(max_size=8), st.sampled_from(OFFSET_TYPES))
def test_packed_batches_place_every_key_as_the_spec_does(snap, ks, before, after, kind):
    """Keys packed by the SPEC §8 rule (after a prefix, before a suffix) land where the spec places them."""
    body = b"".join(utf8(k) for k in ks)
    data = before + body + after
    offsets = [len(before)]
    for k in ks:
        offsets.append(offsets[-1] + len(utf8(k)))
    assume(fits(offsets, kind))
    m = model()
    want = [m.owner(utf8(k)) for k in ks]
    assert list(snap.owner_indices(data, as_offsets(offsets, kind))) == want
    # The per-key conversions (str and every bytes-like) agree with the packed form.
    assert [snap.owner_index(k) for k in ks] == want
    assert [snap.owner_index(bytearray(utf8(k))) for k in ks] == want
    assert [snap.owner_index(memoryview(utf8(k))) for k in ks] == want
    assert snap.owners(ks) == [snap.nodes[i] for i in want]
    # longstraw.pack writes exactly the SPEC §8 form (from offset 0).
    packed, packed_offsets = longstraw.pack(ks)
    assert packed == body
    assert [int(o) for o in packed_offsets] == [o - len(before) for o in offsets]


@SETTINGS
@given(st.text(min_size=1, max_size=20), st.integers(0, 19), st.sampled_from(["\ud800", "\udfff", "\udc80"]))
def test_text_that_utf8_cannot_encode_is_an_error_never_a_replacement(snap, text, at, surrogate):
    bad = text[: at % (len(text) + 1)] + surrogate + text[at % (len(text) + 1) :]
    with pytest.raises(UnicodeEncodeError):
        snap.owner_index(bad)
    with pytest.raises(UnicodeEncodeError):
        snap.owners(["fine", bad])
    with pytest.raises(UnicodeEncodeError):
        longstraw.pack(["fine", bad])
    with pytest.raises(UnicodeEncodeError):
        Rendezvous(["a", bad])


def spec_valid(offsets, size):
    """SPEC §8: non-decreasing offsets, the last not past the buffer (no offsets at all is an empty batch)."""
    if any(o < 0 for o in offsets):
        return False
    return all(a <= b for a, b in zip(offsets, offsets[1:])) and (not offsets or offsets[-1] <= size)


offset_values = st.one_of(
    st.integers(0, 40),
    st.sampled_from([2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1, -1, -(2**31)]),
)


@SETTINGS
@given(st.binary(max_size=32), st.lists(offset_values, max_size=12), st.sampled_from(OFFSET_TYPES))
def test_random_offsets_are_placed_or_refused_and_out_is_untouched_on_failure(snap, data, offsets, kind):
    assume(fits(offsets, kind))
    n = max(len(offsets) - 1, 0)
    out = np.full(n, 0xDEADBEEF, dtype="u4")
    if spec_valid(offsets, len(data)):
        m = model()
        want = [m.owner(data[a:b]) for a, b in zip(offsets, offsets[1:])]
        assert list(snap.owner_indices(data, as_offsets(offsets, kind), out)) == want
    else:
        with pytest.raises((ValueError, OverflowError)):
            snap.owner_indices(data, as_offsets(offsets, kind), out)
        assert (out == 0xDEADBEEF).all(), "a refused batch wrote into out"
