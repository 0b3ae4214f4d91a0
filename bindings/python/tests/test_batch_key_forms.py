"""Every form a batch of keys can take gives, key for key, what owner() gives for the key's UTF-8 bytes:
owners() over lists, tuples and generators of str (ASCII and not), bytes, bytearray and memoryview,
mixed; str subclasses (their text counts, never an override of encode or __len__); and
owner_indices() with offsets of every integer width. The expected answers are per-key owner() calls on
plain bytes, never the batch path under test."""

import array

import pytest

import longstraw

NODES = [f"node-{i}" for i in range(37)]


@pytest.fixture(scope="module")
def r():
    return longstraw.Rendezvous(NODES, seed=7)


def expected(r, keys):
    return [r.owner(bytes(k, "utf-8") if isinstance(k, str) else bytes(k)) for k in keys]


class LyingLen(str):
    def __len__(self):
        return 1


class OwnEncode(str):
    def encode(self, *args, **kwargs):
        return b"something else entirely"


ASCII = [f"user:{i}" for i in range(300)] + ["", "a", "x" * 1000]
TEXT = ["caf\u00e9", "\u65e5\u672c", "\U0001f600", "plain", ""]


@pytest.mark.parametrize(
    "keys",
    [
        ASCII,
        TEXT,
        ASCII[:50] + TEXT,
        [b"raw\xff", "str", bytearray(b"ba"), memoryview(b"mv"), b""],
        [b"bytes", b"", b"\xff\x00", b"only" * 50],
        [""],
        ["only"],
    ],
    ids=["ascii", "text", "ascii-then-text", "mixed-types", "bytes-only", "one-empty", "one"],
)
def test_owners_of_every_list_form_is_owner_of_each_key(r, keys):
    want = expected(r, keys)
    assert r.owners(keys) == want
    assert r.owners(tuple(keys)) == want
    assert r.owners(k for k in keys) == want
    assert r.snapshot().owners(keys) == want


def test_a_str_subclass_counts_by_its_text_not_its_len_or_encode(r):
    plain = [f"key-{i}" for i in range(64)]
    for cls in (LyingLen, OwnEncode):
        keys = [cls(k) for k in plain]
        want = expected(r, plain)
        assert r.owners(keys) == want, cls.__name__
        assert [r.owner(k) for k in keys] == want, cls.__name__
        mixed = plain[:10] + keys[10:]
        assert r.owners(mixed) == want, cls.__name__


class LyingBytesLen(bytes):
    def __len__(self):
        return 0


def test_a_bytes_subclass_counts_by_its_bytes_not_its_len(r):
    plain = [f"key-{i}".encode() for i in range(64)]
    keys = [LyingBytesLen(k) for k in plain]
    assert r.owners(keys) == expected(r, plain)
    assert r.owners(plain[:5] + keys[5:]) == expected(r, plain)


def test_a_lone_surrogate_anywhere_in_a_batch_is_the_encode_error(r):
    for at in (0, 5, 299):
        keys = list(ASCII)
        keys[at] = "bad\ud800"
        with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
            r.owners(keys)
        with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
            r.owners(keys + TEXT)  # among non-ASCII text


def test_a_key_of_no_key_type_is_named(r):
    with pytest.raises(TypeError, match="key must be str, bytes, bytearray or memoryview, not int"):
        r.owners(["a", "b", 3])


def test_pack_then_owner_indices_is_owner_of_each_key(r):
    keys = ASCII[:40] + TEXT + ["tail"]
    blob, offsets = longstraw.pack(keys)
    assert [int(o) for o in offsets][-1] == len(blob)
    want = [NODES.index(o) for o in expected(r, keys)]
    snap = r.snapshot()
    assert list(snap.owner_indices(blob, offsets)) == want
    ints = [int(o) for o in offsets]
    for code in ("I", "i", "Q", "q", "L", "l"):
        if array.array(code).itemsize not in (4, 8):
            continue
        assert list(snap.owner_indices(blob, array.array(code, ints))) == want, code
    assert list(snap.owner_indices(blob, ints)) == want


@pytest.mark.parametrize("code", ["i", "q"])
def test_a_negative_offset_is_named_with_its_position(r, code):
    with pytest.raises(ValueError, match=r"offsets\[2\] is negative: -4"):
        r.snapshot().owner_indices(b"abcdef", array.array(code, [0, 1, -4, 3, -9]))
