"""longstraw's portable backend: the C ABI compiled to WebAssembly (liblongstraw.wasm, wasm32-wasip1 with
simd128), run under wasmtime. The same API, exceptions and messages as the native extension
(``longstraw._longstraw``), typed by the same stubs; ``longstraw/__init__.py`` picks this backend where no
native extension is installed, or when ``LONGSTRAW_PYTHON_BACKEND=wasm``."""

from __future__ import annotations

try:
    import wasmtime as _wasmtime  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "longstraw: no native extension for this platform, and its portable WebAssembly build needs "
        'wasmtime: pip install "longstraw[wasm]"'
    ) from e

from ._batch import pack
from ._bounded import BoundedLoad, Lease
from ._errors import NoEligibleNodeError
from ._runtime import TARGET, Trap, version_string
from ._set import Rendezvous, Snapshot, backend

__version__ = version_string()


__all__ = [
    "BoundedLoad",
    "Lease",
    "NoEligibleNodeError",
    "Rendezvous",
    "Snapshot",
    "TARGET",
    "Trap",
    "__version__",
    "backend",
    "pack",
]
