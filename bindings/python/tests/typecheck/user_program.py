"""A user's program over every public API of longstraw, checked by mypy --strict, pyright (strict) and
stubtest in tests/test_typing.py, and run there too. assert_type pins what the stubs promise; it does
nothing at run time."""

import array
import os
import pickle
from typing import Literal, assert_type

import numpy as np
import numpy.typing as npt

import longstraw
from longstraw import IndexArray, NoEligibleNodeError

# Ids given as str come back as str; bytes-like ids come back as bytes; mixed, str | bytes.
r = longstraw.Rendezvous(["cache-a", "cache-b", "cache-c"], weights=[1.0, 1, 2.5], seed=7, placement=1)
assert_type(r, longstraw.Rendezvous[str])
owner: str = r.owner("user:42")
replicas: list[str] = r.top_k(b"user:42", 2)
spread: list[str] = r.top_k_distinct(bytearray(b"user:42"), 2)
ranking: list[str] = r.rank(memoryview(b"user:42"))
owners: list[str] = r.owners(["a", b"b", bytearray(b"c")])
r.add("cache-d", weight=2.0, domain="rack-1")
r.set_weight("cache-a", 0.0)
r.set_domain("cache-b", b"rack-2")
r.remove("cache-c")
size: int = len(r)
present: bool = "cache-a" in r
nodes: list[str] = r.nodes
weights: list[float] = r.weights
labels: list[str | bytes | None] = r.domains
seed: int = (r.seed or 0) + r.placement  # None for a keyed set
again: longstraw.Rendezvous[str] = pickle.loads(pickle.dumps(r))

b = longstraw.Rendezvous([b"\x00node", bytearray(b"\x01node")])
assert_type(b.owner("k"), bytes)
b.add(memoryview(b"\x02node"))
mixed = longstraw.Rendezvous(["text", b"\xffraw"], domains=["rack-1", None])
assert_type(mixed.owner("k"), str | bytes)
mixed.add(b"more")

# Snapshots and batches: one result type, numpy installed or not.
snap = r.snapshot()
assert_type(snap, longstraw.Snapshot[str])
keys, offsets = longstraw.pack(["user:1", "user:2", b"user:3"])
idx: IndexArray = snap.owner_indices(keys, offsets)
batch_owners: list[str] = [snap.nodes[i] for i in idx]
first: int = snap.owner_index("user:1")
np_offsets: npt.NDArray[np.uint64] = np.array([0, 6, 12, 18], dtype=np.uint64)
np_keys: npt.NDArray[np.uint8] = np.frombuffer(b"user:1user:2user:3", dtype=np.uint8)
from_numpy: IndexArray = snap.owner_indices(np_keys, np_offsets)
mine = array.array("I", [0, 0, 0])
filled: "array.array[int]" = snap.owner_indices(b"user:1user:2user:3", [0, 6, 12, 18], out=mine)
np_out: npt.NDArray[np.uint32] = np.zeros(3, dtype=np.uint32)
np_filled: npt.NDArray[np.uint32] = snap.owner_indices(keys, offsets, out=np_out)
ids: tuple[str, ...] = snap.nodes
snap_facts: tuple[int, int, int | None, int, str] = (snap.eligible, snap.generation, snap.seed, snap.placement, snap.backend)
snap_weights: tuple[float, ...] = snap.weights
snap_labels: tuple[str | bytes | None, ...] = snap.domains
snap_owner: str = snap.owner("k")
snap_lists: list[str] = snap.top_k("k", 2) + snap.top_k_distinct("k", 2) + snap.rank("k") + snap.owners(["k"])
has: bool = "cache-a" in snap and len(snap) > 0

# Tables and skeletons: the same class and methods; the mode's own properties are None on another mode.
t = longstraw.Rendezvous.table(
    [f"cache-{i}" for i in range(40)], partition_bits=10, replicas=2, domains=[f"rack-{i % 4}" for i in range(40)],
    distinct_domains=True,
)
t_owner: str = t.owner("user:42")
shape: tuple[int | None, int | None, int | None, bool | None, int] = (t.partition_bits, t.partitions, t.replicas, t.distinct_domains, t.partition("k"))
tsnap = t.snapshot()
assert_type(tsnap, longstraw.Snapshot[str])
t_batch: IndexArray = tsnap.owner_indices(keys, offsets)
t_shape: tuple[int | None, int | None, int | None, bool | None, int] = (
    tsnap.partition_bits, tsnap.partitions, tsnap.replicas, tsnap.distinct_domains, tsnap.partition("k"),
)
t.add("cache-40")
s = longstraw.Rendezvous.skeleton([f"cache-{i}" for i in range(40)], fanout_bits=2, levels=1)
s_owner: str = s.owner("user:42")
s_shape: tuple[int | None, int | None] = (s.fanout_bits, s.levels)
mode: Literal["flat", "table", "skeleton"] = s.mode
bits: int = t.partition_bits if t.partition_bits is not None else 0
ssnap = s.snapshot()
assert_type(ssnap, longstraw.Snapshot[str])
ss_shape: tuple[int | None, int | None, str] = (ssnap.fanout_bits, ssnap.levels, ssnap.owner("k"))


def first_owner(placement: longstraw.Rendezvous[str] | longstraw.Snapshot[str], key: str) -> str:
    return placement.owner(key)


# The set-wide options are the same keywords in every constructor.
keyed = longstraw.Rendezvous.skeleton(["cache-a", "cache-b"], levels=0, secret=os.urandom(16), placement=1)
keyed_facts: tuple[bool, int | None] = (keyed.keyed, keyed.seed)
seeded = longstraw.Rendezvous.table(["cache-a", "cache-b"], seed=np.uint64(9))
bounded = longstraw.BoundedLoad(["cache-a", "cache-b"], 1.5, seed=3, placement=1)
with bounded.acquire("user:1") as leased:
    leased_id: str | bytes = leased

kernel: str = longstraw.backend()
version: str = longstraw.__version__
try:
    longstraw.Rendezvous([]).owner("k")
except NoEligibleNodeError as e:
    reason: str = str(e)

print(owner, replicas, first_owner(t, "k"), len(batch_owners), list(map(int, from_numpy)), list(filled))
