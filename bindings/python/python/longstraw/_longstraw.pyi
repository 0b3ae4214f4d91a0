import os
from collections.abc import Callable, Iterable, Sequence
from types import GenericAlias
from typing import Any, Generic, Literal, Protocol, SupportsFloat, SupportsIndex, TypeAlias, TypeVar, final, overload
from typing import TypedDict, Unpack

from typing_extensions import Buffer

from ._types import IndexArray

__version__: str
__all__ = [
    "BoundedLoad",
    "Lease",
    "NoEligibleNodeError",
    "Rendezvous",
    "Snapshot",
    "__version__",
    "backend",
    "pack",
    "_cli_main",
]

# Every set and snapshot is generic over the type of its node ids: Rendezvous[str] when every id was
# given as a str, Rendezvous[bytes] when every id was bytes-like, Rendezvous[str | bytes] when mixed.
_Id = TypeVar("_Id", bound=str | bytes)
_Bytes: TypeAlias = bytes | bytearray | memoryview
_Key: TypeAlias = str | bytes | bytearray | memoryview
_Weight: TypeAlias = float | int | SupportsFloat
_IdLike: TypeAlias = str | bytes | bytearray | memoryview
_Label: TypeAlias = str | bytes

class _ArrayLike(Protocol):
    """A NumPy array: under Python 3.11 NumPy's stubs give it no __buffer__, though it is a buffer."""

    def __array__(self) -> Any: ...

# What owner_indices reads: a bytes-like buffer of concatenated keys, and offsets as a buffer of 32- or
# 64-bit unsigned integers, a NumPy array, what pack() returned, or a sequence of ints.
_KeyBuffer: TypeAlias = Buffer | _ArrayLike
_Offsets: TypeAlias = Buffer | _ArrayLike | IndexArray | Sequence[SupportsIndex]
_Out: TypeAlias = Buffer | _ArrayLike

class NoEligibleNodeError(LookupError):
    """A lookup on a set with no node of non-zero weight (empty or all drained)."""

_OutT = TypeVar("_OutT", bound=_Out)

class _SetOptions(TypedDict, total=False):
    """The set-wide keyword arguments every constructor takes: Rendezvous(...), Rendezvous.table(...),
    Rendezvous.skeleton(...) and BoundedLoad(...). The one declaration of them in the stubs; stubtest checks
    that its keys are the constructors' (options.rs in the extension)."""

    seed: SupportsIndex | None  # default None: seed 0; a secret excludes any seed
    secret: Buffer | None  # 16 random bytes: keyed placement (keyed-v1); never shown
    placement: SupportsIndex  # default 1: the placement version

# The set's placement mode, as membership files name it.
_Mode: TypeAlias = Literal["flat", "table", "skeleton"]

@final
class Rendezvous(Generic[_Id]):
    @classmethod
    def __class_getitem__(cls, item: Any) -> GenericAlias: ...
    @overload
    def __new__(
        cls,
        nodes: Iterable[str],
        *,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[str]: ...
    @overload
    def __new__(
        cls,
        nodes: Iterable[_Bytes],
        *,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[bytes]: ...
    @overload
    def __new__(
        cls,
        nodes: Iterable[_IdLike],
        *,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[str | bytes]: ...
    @overload
    @classmethod
    def table(
        cls,
        nodes: Iterable[str],
        *,
        partition_bits: SupportsIndex | None = None,
        replicas: SupportsIndex = 1,
        distinct_domains: bool = False,
        balance: float | None = None,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[str]: ...
    @overload
    @classmethod
    def table(
        cls,
        nodes: Iterable[_Bytes],
        *,
        partition_bits: SupportsIndex | None = None,
        replicas: SupportsIndex = 1,
        distinct_domains: bool = False,
        balance: float | None = None,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[bytes]: ...
    @overload
    @classmethod
    def table(
        cls,
        nodes: Iterable[_IdLike],
        *,
        partition_bits: SupportsIndex | None = None,
        replicas: SupportsIndex = 1,
        distinct_domains: bool = False,
        balance: float | None = None,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[str | bytes]: ...
    @overload
    @classmethod
    def skeleton(
        cls,
        nodes: Iterable[str],
        *,
        fanout_bits: SupportsIndex | None = None,
        levels: SupportsIndex | None = None,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[str]: ...
    @overload
    @classmethod
    def skeleton(
        cls,
        nodes: Iterable[_Bytes],
        *,
        fanout_bits: SupportsIndex | None = None,
        levels: SupportsIndex | None = None,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[bytes]: ...
    @overload
    @classmethod
    def skeleton(
        cls,
        nodes: Iterable[_IdLike],
        *,
        fanout_bits: SupportsIndex | None = None,
        levels: SupportsIndex | None = None,
        weights: Iterable[_Weight] | None = None,
        domains: Iterable[_IdLike | None] | None = None,
        **options: Unpack[_SetOptions],
    ) -> Rendezvous[str | bytes]: ...
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Rendezvous[str | bytes]: ...
    @classmethod
    def loads(cls, data: str | bytes) -> Rendezvous[str | bytes]: ...
    def save(
        self,
        path: str | os.PathLike[str],
        *,
        secret_file: str | os.PathLike[str] | None = None,
        secret_env: str | None = None,
    ) -> None: ...
    def owner(self, key: _Key) -> _Id: ...
    def top_k(self, key: _Key, k: SupportsIndex) -> list[_Id]: ...
    def top_k_distinct(self, key: _Key, k: SupportsIndex) -> list[_Id]: ...
    def rank(self, key: _Key) -> list[_Id]: ...
    def owners(self, keys: Iterable[_Key]) -> list[_Id]: ...
    def partition(self, key: _Key) -> int: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...
    def snapshot(self) -> Snapshot[_Id]: ...
    @overload
    def add(self: Rendezvous[str], node: str, weight: _Weight = 1.0, domain: _IdLike | None = None) -> None: ...
    @overload
    def add(self: Rendezvous[bytes], node: _Bytes, weight: _Weight = 1.0, domain: _IdLike | None = None) -> None: ...
    @overload
    def add(self: Rendezvous[str | bytes], node: _IdLike, weight: _Weight = 1.0, domain: _IdLike | None = None) -> None: ...
    def remove(self, node: _Key) -> None: ...
    def set_weight(self, node: _Key, weight: _Weight) -> None: ...
    def set_domain(self, node: _Key, domain: _IdLike | None) -> None: ...
    @property
    def nodes(self) -> list[_Id]: ...
    @property
    def weights(self) -> list[float]: ...
    @property
    def domains(self) -> list[_Label | None]: ...
    @property
    def mode(self) -> _Mode: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def keyed(self) -> bool: ...
    @property
    def placement(self) -> int: ...
    @property
    def backend(self) -> str: ...
    # The mode's own properties: None on another mode.
    @property
    def partition_bits(self) -> int | None: ...
    @property
    def partitions(self) -> int | None: ...
    @property
    def replicas(self) -> int | None: ...
    @property
    def distinct_domains(self) -> bool | None: ...
    @property
    def balance(self) -> float | None: ...
    @property
    def fanout_bits(self) -> int | None: ...
    @property
    def levels(self) -> int | None: ...
    # functools.partial(<the mode's factory>, **options), (nodes,)
    def __reduce__(self) -> tuple[Callable[..., Rendezvous[_Id]], tuple[list[_Id]]]: ...

@final
class Snapshot(Generic[_Id]):
    @classmethod
    def __class_getitem__(cls, item: Any) -> GenericAlias: ...
    def owner(self, key: _Key) -> _Id: ...
    def top_k(self, key: _Key, k: SupportsIndex) -> list[_Id]: ...
    def top_k_distinct(self, key: _Key, k: SupportsIndex) -> list[_Id]: ...
    def rank(self, key: _Key) -> list[_Id]: ...
    def owners(self, keys: Iterable[_Key]) -> list[_Id]: ...
    def partition(self, key: _Key) -> int: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...
    def owner_index(self, key: _Key) -> int: ...
    @overload
    def owner_indices(self, keys: _KeyBuffer, offsets: _Offsets, out: None = None) -> IndexArray: ...
    @overload
    def owner_indices(self, keys: _KeyBuffer, offsets: _Offsets, out: _OutT) -> _OutT: ...
    @property
    def nodes(self) -> tuple[_Id, ...]: ...
    @property
    def weights(self) -> tuple[float, ...]: ...
    @property
    def domains(self) -> tuple[_Label | None, ...]: ...
    @property
    def eligible(self) -> int: ...
    @property
    def generation(self) -> int: ...
    @property
    def mode(self) -> _Mode: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def keyed(self) -> bool: ...
    @property
    def placement(self) -> int: ...
    @property
    def backend(self) -> str: ...
    # The mode's own properties: None on another mode.
    @property
    def partition_bits(self) -> int | None: ...
    @property
    def partitions(self) -> int | None: ...
    @property
    def replicas(self) -> int | None: ...
    @property
    def distinct_domains(self) -> bool | None: ...
    @property
    def balance(self) -> float | None: ...
    @property
    def fanout_bits(self) -> int | None: ...
    @property
    def levels(self) -> int | None: ...

@final
class BoundedLoad:
    def __new__(
        cls,
        nodes: Iterable[_IdLike],
        balance_factor: float | int | None = 1.25,
        weights: Iterable[_Weight] | None = None,
        **options: Unpack[_SetOptions],
    ) -> BoundedLoad: ...
    def acquire(self, key: _Key) -> Lease: ...
    def loads(self) -> list[tuple[str | bytes, int]]: ...
    def in_flight(self) -> int: ...
    @property
    def balance_factor(self) -> float: ...
    def add(self, node: _IdLike, weight: _Weight | None = None) -> None: ...
    def remove(self, node: _Key) -> None: ...
    def set_weight(self, node: _Key, weight: _Weight) -> None: ...

@final
class Lease:
    @property
    def node(self) -> str | bytes: ...
    @property
    def is_owner(self) -> bool: ...
    @property
    def active(self) -> bool: ...
    def release(self) -> None: ...
    def __enter__(self) -> str | bytes: ...
    def __exit__(self, *_args: object) -> bool: ...

def backend() -> str: ...
def pack(keys: Iterable[_Key]) -> tuple[bytes, IndexArray]: ...

# The atexit hook that lets GIL-released calls finish before the interpreter exits (exit_guard.rs).
def _longstraw_quiesce() -> None: ...

# The `longstraw` console script (cli.rs): runs the command line, returns its exit code.
def _cli_main(argv: list[str]) -> int: ...
