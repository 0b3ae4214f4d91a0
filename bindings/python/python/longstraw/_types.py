"""The one documented type of a batch result, with or without NumPy."""

from collections.abc import Iterator
from typing import Protocol, SupportsIndex, runtime_checkable


@runtime_checkable
class IndexArray(Protocol):
    """What ``owner_indices`` returns (and ``pack`` returns as offsets): a flat array of unsigned ints.

    At run time it is a ``numpy.ndarray`` (``uint32`` indices, ``uint64`` offsets) when NumPy can be
    imported, and an ``array.array`` (``'I'``, ``'Q'``) otherwise; both are buffers. Typed code relies
    only on what both have: a length, indexing and iteration, each item usable as an index::

        idx: longstraw.IndexArray = snap.owner_indices(keys, offsets)
        owners = [snap.nodes[i] for i in idx]

    Call ``numpy.asarray(idx)`` or ``list(map(int, idx))`` for one concrete type.
    """

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> SupportsIndex: ...
    def __iter__(self) -> Iterator[SupportsIndex]: ...
