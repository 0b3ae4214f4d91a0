"""Mistakes the stubs must catch (tests/test_typing.py expects an error on each marked line)."""

import longstraw

r = longstraw.Rendezvous(["cache-a", "cache-b"])
wrong_type: bytes = r.owner("user:42")  # error: ids given as str come back as str
r.add(b"cache-c")  # error: a Rendezvous[str] takes str ids
r.owner(42)  # error: a key is str or bytes-like
idx = r.snapshot().owner_indices("user:1", [0, 6])  # error: keys are a bytes-like buffer, not str
bits: int = r.partition_bits  # error: None on a set of another mode than table
longstraw.Rendezvous(["cache-a"], sed=1)  # error: no set-wide option is called sed
longstraw.Rendezvous.table(["cache-a"], partition_bits=4, secret="hunter2")  # error: a secret is bytes, not str
longstraw.BoundedLoad(["cache-a"], 1.25, None, 7)  # error: the set-wide options are keyword-only
longstraw.Rendezvous.skeleton(["cache-a"], placement=None)  # error: the placement version is an int
