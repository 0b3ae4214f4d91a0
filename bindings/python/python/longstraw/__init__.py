"""Rendezvous (highest random weight) hashing with one frozen placement.

Every language that links the longstraw core puts each key on the same node::

    >>> import longstraw
    >>> r = longstraw.Rendezvous(["cache-a", "cache-b", "cache-c"])
    >>> r.owner("user:42") in r
    True

``Rendezvous.table(nodes)`` (a partition table, O(1) lookups) and
``Rendezvous.skeleton(nodes)`` (hierarchical rendezvous, for the largest
fleets) make sets of the other modes, with the same methods; ``snapshot()``
gives a ``Snapshot`` of any mode. See ``help(longstraw.Rendezvous)`` and the
README for the full API.
"""

from ._types import IndexArray
from ._longstraw import (
    BoundedLoad,
    Lease,
    NoEligibleNodeError,
    Rendezvous,
    Snapshot,
    __version__,
    backend,
    pack,
)

__all__ = [
    "IndexArray",
    "BoundedLoad",
    "Lease",
    "NoEligibleNodeError",
    "Rendezvous",
    "Snapshot",
    "__version__",
    "backend",
    "pack",
]
