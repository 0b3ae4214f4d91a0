"""Rendezvous (highest random weight) hashing with one frozen placement.

Every language that links the longstraw core puts each key on the same node::

    >>> import longstraw
    >>> r = longstraw.Rendezvous(["cache-a", "cache-b", "cache-c"])
    >>> r.owner("user:42") in r
    True

``Table`` (a partition table, O(1) lookups) and ``Skeleton`` (hierarchical
rendezvous, for the largest fleets) have the same methods. See
``help(longstraw.Rendezvous)`` and the README for the full API.
"""

from ._types import IndexArray
from ._longstraw import (
    BoundedLoad,
    Lease,
    NoEligibleNodeError,
    Rendezvous,
    Skeleton,
    SkeletonSnapshot,
    Snapshot,
    Table,
    TableSnapshot,
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
    "Skeleton",
    "SkeletonSnapshot",
    "Snapshot",
    "Table",
    "TableSnapshot",
    "__version__",
    "backend",
    "pack",
]
