"""Bad input for every argument: the right exception, naming the bad value."""

import math
import re

import numpy as np
import pytest

import longstraw
from longstraw import NoEligibleNodeError, Rendezvous

LONE = "bad\ud800id"


@pytest.fixture
def r():
    return Rendezvous(["a", "b", "c"])


# ---- nodes ----


@pytest.mark.parametrize(
    "nodes, exc, message",
    [
        (5, TypeError, "not iterable"),
        (None, TypeError, "not iterable"),
        ("abc", TypeError, "nodes must be an iterable"),
        (b"abc", TypeError, "nodes must be an iterable"),
        (["a", 1], TypeError, "node id must be str, bytes, bytearray or memoryview, not int"),
        (["a", None], TypeError, "not NoneType"),
        (["a", ""], ValueError, "node id is empty"),
        ([b""], ValueError, "node id is empty"),
        (["x" * 65536], ValueError, "node id is 65536 bytes long"),
        (["a", "b", "a"], ValueError, 'duplicate node "a"'),
        (["a", b"a"], ValueError, 'duplicate node "a"'),
        ([b"\xff", b"\xff"], ValueError, "duplicate node 0xff"),
        ([LONE], UnicodeEncodeError, "surrogates not allowed"),
    ],
)
def test_bad_nodes(nodes, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        Rendezvous(nodes)


def test_longest_id_is_accepted():
    assert len(Rendezvous(["x" * 65535])) == 1


def test_lone_surrogates_are_value_errors():
    assert issubclass(UnicodeEncodeError, ValueError)


# ---- weights ----

BAD_WEIGHTS = [
    (math.nan, "invalid weight NaN: it is NaN"),
    (-0.0, "invalid weight -0.0: it is negative"),
    (-1.0, "invalid weight -1.0: it is negative"),
    (math.inf, "invalid weight inf: it is infinite"),
    (-math.inf, "invalid weight -inf: it is infinite"),
    (2.0**65, "it is above 2^64"),
    (1e-300, "it is below 2^-64"),
    (5e-324, "it is below 2^-64"),
    (-3, "it is negative"),
    (2**64 + 1, "is not exactly representable as a float"),
    (10**400, "above 2^64"),
    (np.float64("nan"), "it is NaN"),
]


@pytest.mark.parametrize("weight, message", BAD_WEIGHTS)
def test_bad_weights_in_constructor(weight, message):
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        Rendezvous(["a", "b"], weights=[1.0, weight])
    assert "node 'b'" in str(err.value)


@pytest.mark.parametrize("weight, message", BAD_WEIGHTS)
def test_bad_weights_in_add_and_set_weight(r, weight, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        r.add("d", weight)
    with pytest.raises(ValueError, match=re.escape(message)):
        r.set_weight("a", weight)
    assert r.nodes == ["a", "b", "c"] and r.weights == [1.0] * 3, "a failed change changes nothing"


@pytest.mark.parametrize("weight", [True, "1.0", None, b"1", [1.0], 1 + 2j])
def test_weights_of_the_wrong_type(r, weight):
    with pytest.raises(TypeError, match="weight"):
        Rendezvous(["a"], weights=[weight])
    with pytest.raises(TypeError, match="weight"):
        r.add("d", weight)
    with pytest.raises(TypeError, match="weight"):
        r.set_weight("a", weight)


def test_edge_weights_are_accepted():
    r = Rendezvous(["a", "b", "c", "d"], weights=[0.0, 2.0**-64, 2.0**64, 2**64])
    assert r.weights == [0.0, 2.0**-64, 2.0**64, 2.0**64]


@pytest.mark.parametrize(
    "weights, message",
    [
        ([1.0], "weights has 1 entries but nodes has 2"),
        ([1.0, 1.0, 1.0], "weights has 3 entries but nodes has 2"),
        ([], "weights has 0 entries but nodes has 2"),
    ],
)
def test_mismatched_lengths(weights, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Rendezvous(["a", "b"], weights=weights)


def test_weights_not_iterable():
    with pytest.raises(TypeError, match="not iterable"):
        Rendezvous(["a"], weights=1.0)


# ---- seed and placement ----


@pytest.mark.parametrize(
    "seed, exc, message",
    [
        (-1, ValueError, "seed must be an integer in [0, 18446744073709551615], got -1"),
        (2**64, ValueError, "got 18446744073709551616"),
        (-(2**70), ValueError, "got -1180591620717411303424"),
        (1.5, TypeError, "seed must be an int, not float"),
        (1.0, TypeError, "not float"),
        ("1", TypeError, "not str"),
        (True, TypeError, "not bool"),
        (np.int64(-1), ValueError, "got np.int64(-1)"),
    ],
)
def test_bad_seeds(seed, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        Rendezvous(["a"], seed=seed)


@pytest.mark.parametrize(
    "placement, exc, message",
    [
        (0, ValueError, "unknown placement version 0 (this build knows: 1)"),
        (2, ValueError, "unknown placement version 2"),
        (2**40, ValueError, "unknown placement version 1099511627776"),
        (-1, ValueError, "placement must be an integer"),
        ("1", TypeError, "not str"),
        (1.0, TypeError, "not float"),
        (None, TypeError, "not NoneType"),
        (True, TypeError, "not bool"),
    ],
)
def test_bad_placements(placement, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        Rendezvous(["a"], placement=placement)


# ---- keys ----



@pytest.mark.parametrize("key", [1, 1.5, None, ["a"], object(), {"a": 1}])
def test_keys_of_the_wrong_type(r, key):
    snap = r.snapshot()
    for lookup in (r.owner, r.rank, snap.owner, snap.owner_index, snap.rank):
        with pytest.raises(TypeError, match="key must be str, bytes, bytearray or memoryview, not"):
            lookup(key)
    with pytest.raises(TypeError, match="key must be"):
        r.top_k(key, 2)
    with pytest.raises(TypeError, match="key must be"):
        r.owners(["ok", key])
    with pytest.raises(TypeError, match="key must be"):
        longstraw.pack(["ok", key])


def test_lone_surrogate_keys(r):
    snap = r.snapshot()
    for lookup in (r.owner, r.rank, snap.owner, snap.owner_index):
        with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
            lookup(LONE)
    with pytest.raises(UnicodeEncodeError):
        r.top_k(LONE, 1)
    with pytest.raises(UnicodeEncodeError):
        r.owners(["fine", LONE])
    with pytest.raises(UnicodeEncodeError):
        longstraw.pack([LONE])


def test_non_contiguous_memoryview_key(r):
    view = memoryview(bytearray(b"abcdef"))[::2]
    with pytest.raises(BufferError):
        r.owner(view)


# ---- k ----


@pytest.mark.parametrize(
    "k, exc, message",
    [
        (-1, ValueError, "k must be an integer in [0, 18446744073709551615], got -1"),
        (2**64, ValueError, "got 18446744073709551616"),
        (1.0, TypeError, "k must be an int, not float"),
        ("2", TypeError, "not str"),
        (None, TypeError, "not NoneType"),
        (True, TypeError, "not bool"),
    ],
)
def test_bad_k(r, k, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        r.top_k("key", k)


# ---- membership ----


def test_remove_unknown_is_key_error(r):
    with pytest.raises(KeyError, match=re.escape('unknown node "zz"')):
        r.remove("zz")
    with pytest.raises(KeyError, match=re.escape("unknown node 0xff00")):
        r.remove(b"\xff\x00")
    with pytest.raises(KeyError):
        r.set_weight("zz", 1.0)
    assert len(r) == 3


def test_membership_args_of_the_wrong_type(r):
    for bad in (1, None, 2.5):
        with pytest.raises(TypeError, match="node id must be"):
            r.add(bad)
        with pytest.raises(TypeError, match="node id must be"):
            r.remove(bad)
        with pytest.raises(TypeError, match="node id must be"):
            r.set_weight(bad, 1.0)
        with pytest.raises(TypeError, match="node id must be"):
            bad in r  # noqa: B015
    with pytest.raises(UnicodeEncodeError):
        r.add(LONE)
    with pytest.raises(UnicodeEncodeError):
        LONE in r  # noqa: B015
    with pytest.raises(ValueError, match="node id is empty"):
        r.add("")
    with pytest.raises(ValueError, match='duplicate node "a"'):
        r.add("a")


# ---- empty and drained sets ----


@pytest.mark.parametrize("r", [Rendezvous([]), Rendezvous(["a", "b"], weights=[0.0, 0.0])])
def test_lookups_with_no_eligible_node(r):
    assert issubclass(NoEligibleNodeError, LookupError)
    message = "no eligible node: the set is empty or every node has weight 0"
    with pytest.raises(NoEligibleNodeError, match=message):
        r.owner("k")
    with pytest.raises(NoEligibleNodeError):
        r.owners(["k"])
    snap = r.snapshot()
    with pytest.raises(NoEligibleNodeError):
        snap.owner_index("k")
    packed, offsets = longstraw.pack(["k", "l"])
    with pytest.raises(NoEligibleNodeError):
        snap.owner_indices(packed, offsets)
    # Asking for "up to k" nodes is not an error: there are none.
    assert r.top_k("k", 3) == []
    assert r.rank("k") == []
    assert r.owners([]) == []
    assert snap.owner_indices(b"", [0]).tolist() == []


def test_drained_then_refilled():
    r = Rendezvous(["a"])
    r.set_weight("a", 0.0)
    with pytest.raises(NoEligibleNodeError):
        r.owner("k")
    r.set_weight("a", 1)
    assert r.owner("k") == "a"


# ---- the buffer batch ----


def test_bad_batches(r):
    snap = r.snapshot()
    with pytest.raises(ValueError, match=re.escape("bad key offsets at position 2")):
        snap.owner_indices(b"abcdef", [0, 3, 2])
    with pytest.raises(ValueError, match=re.escape("bad key offsets at position 1")):
        snap.owner_indices(b"abc", [0, 4])
    with pytest.raises(ValueError, match=re.escape("offsets[1] is negative: -2")):
        snap.owner_indices(b"abc", np.array([0, -2], np.int64))
    with pytest.raises(ValueError, match=re.escape("offsets[1] must be an integer in")):
        snap.owner_indices(b"abc", [0, -2])
    with pytest.raises(TypeError, match="offsets"):
        snap.owner_indices(b"abc", "012")
    with pytest.raises(TypeError, match="offsets"):
        snap.owner_indices(b"abc", 3)
    with pytest.raises(TypeError, match=re.escape("offsets[0] must be an int, not float")):
        snap.owner_indices(b"abc", [0.0, 1.0])
    with pytest.raises(TypeError, match="not str"):
        snap.owner_indices("abc", [0, 1])
    with pytest.raises(TypeError):
        snap.owner_indices(12, [0, 1])


def test_bad_out_buffers(r):
    snap = r.snapshot()
    packed, offsets = longstraw.pack(["a", "b", "c"])
    with pytest.raises(ValueError, match="out has 2 items but there are 3 keys"):
        snap.owner_indices(packed, offsets, np.zeros(2, np.uint32))
    with pytest.raises(TypeError, match="out must be a writable buffer of uint32"):
        snap.owner_indices(packed, offsets, np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="out must be"):
        snap.owner_indices(packed, offsets, [0, 0, 0])
    frozen = np.zeros(3, np.uint32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        snap.owner_indices(packed, offsets, frozen)
    assert not frozen.any()


def test_nothing_panics_on_weird_iterables():
    def boom():
        yield "a"
        raise RuntimeError("from the generator")

    with pytest.raises(RuntimeError, match="from the generator"):
        Rendezvous(boom())
    with pytest.raises(RuntimeError, match="from the generator"):
        Rendezvous(["a"]).owners(boom())


@pytest.mark.parametrize("keys", ["abc", b"abc", bytearray(b"abc"), memoryview(b"abc")])
def test_a_lone_key_is_not_a_batch(r, keys):
    with pytest.raises(TypeError, match=r"keys must be an iterable of keys \(wrap a single key in a list"):
        r.owners(keys)
    with pytest.raises(TypeError, match="keys must be an iterable of keys"):
        r.snapshot().owners(keys)
    with pytest.raises(TypeError, match="keys must be an iterable of keys"):
        longstraw.pack(keys)
    with pytest.raises(TypeError, match="nodes must be an iterable"):
        Rendezvous(keys)
