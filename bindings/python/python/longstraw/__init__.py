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

import os as _os
from typing import TYPE_CHECKING

from ._types import IndexArray

# The native extension (_longstraw) where one was built for this platform; else, or when
# LONGSTRAW_PYTHON_BACKEND=wasm, the portable one: the C ABI compiled to WebAssembly under wasmtime
# (longstraw._wasm; its ImportError says how to install wasmtime). Both have the same API.
if TYPE_CHECKING:
    # Type checkers read the stub (_longstraw.pyi, the one typed API), whichever backend runs.
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
elif _os.environ.get("LONGSTRAW_PYTHON_BACKEND") == "wasm":
    from ._wasm import BoundedLoad, Lease, NoEligibleNodeError, Rendezvous, Snapshot, __version__, backend, pack
else:
    try:
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
    except ModuleNotFoundError as _e:
        if _e.name != __name__ + "._longstraw" or _os.environ.get("LONGSTRAW_PYTHON_BACKEND") == "native":
            raise
        from ._wasm import BoundedLoad, Lease, NoEligibleNodeError, Rendezvous, Snapshot, __version__, backend, pack

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
