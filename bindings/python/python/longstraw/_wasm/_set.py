"""``Rendezvous`` (any mode) and ``Snapshot`` over the C ABI in WebAssembly: the face's twin of
rendezvous.rs, snapshot.rs and shared.rs. Every method is declared once; the mode's own properties are
None on another mode."""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterable
from types import GenericAlias
from typing import Any

from . import _abi, _files
from ._convert import (
    SET_OPTIONS_SIGNATURE,
    U64_MAX,
    domain_label,
    items,
    node_id,
    node_id_bytes,
    parse_options,
    shape_arg,
    show,
    text_signature,
    uint_arg,
    weight,
    SetOptions,
)
from ._runtime import Instance, with_global
from ._view import SetState, View

MAX_PARTITION_BITS = 24
MAX_FANOUT_BITS = 6
MAX_LEVELS = 5

_probe: dict[int, int] = {}
_probe_lock = threading.Lock()


def weight_problem(w: float) -> str | None:
    """The Rust layer's message for a weight out of range (None when the weight is valid)."""
    from ._convert import weight_ok

    if weight_ok(w):
        return None

    def probe(inst: Instance) -> str | None:
        from ._errors import message

        s = _probe.get(id(inst))
        if s is None:
            p = _abi.write_options(inst, None, None, 1, None)
            inst.code("longstraw_rendezvous_new", p, inst.out(0))
            s = _probe[id(inst)] = inst.u32(inst.out(0))
        (p,) = inst.put_args(b"\0weight-probe")
        code = inst.code("longstraw_rendezvous_add", s, p, 13, w)
        if code == 0:
            inst.code("longstraw_rendezvous_remove", s, p, 13)
            return None
        return message(inst, code)

    return with_global(probe)  # type: ignore[no-any-return]


def _weight(obj: object, node: object) -> float:
    return weight(obj, lambda: f"node {show(node)}", weight_problem)


def _members(
    nodes: object, weights: object, domains: object
) -> tuple[list[bytes], list[str | bytes], list[float], list[tuple[bytes, str | bytes] | None] | None]:
    parsed = [node_id(n) for n in items(nodes, "nodes", "an iterable of str or bytes node ids (wrap a single id in a list)")]
    ids = [b for b, _ in parsed]
    objs = [o for _, o in parsed]
    if weights is None:
        ws = [1.0] * len(ids)
    else:
        values = list(weights)  # type: ignore[call-overload]
        if len(values) != len(ids):
            raise ValueError(
                f"weights has {len(values)} entries but nodes has {len(ids)}; give one weight per node"
            )
        ws = [_weight(w, o) for w, o in zip(values, objs)]
    labels = None
    if domains is not None:
        labels = [
            domain_label(d)
            for d in items(domains, "domains", "an iterable of str or bytes labels (or None), one per node")
        ]
        if len(labels) != len(ids):
            raise ValueError(
                f"domains has {len(labels)} entries but nodes has {len(ids)}; give one label (or None) per node"
            )
    return ids, objs, ws, labels


def _skeleton_shape(fanout_bits: object, levels: object) -> tuple[int | None, int | None]:
    f = None if fanout_bits is None else shape_arg(fanout_bits, "fanout_bits", MAX_FANOUT_BITS)
    lv = None if levels is None else shape_arg(levels, "levels", MAX_LEVELS)
    if f is None and lv is None:
        return None, None
    if lv == 0:
        return f or 0, 0
    if f is not None and lv is not None:
        return f, lv
    if f is None:
        raise ValueError(
            f"levels={lv} needs fanout_bits (1 to {MAX_FANOUT_BITS}): give both, or neither for the default shape"
        )
    raise ValueError(
        f"fanout_bits={f} needs levels (0 to {MAX_LEVELS}): give both, or neither for the default shape"
    )


def _balance(obj: object) -> float | None:
    if obj is None:
        return None
    if isinstance(obj, bool) or not isinstance(obj, (float, int)):
        raise TypeError(f"balance must be a float or int from 1.0 to 4.0, or None, not {type(obj).__name__}")
    try:
        return float(obj)
    except OverflowError:
        raise ValueError(f"balance {obj} is out of range (1.0 to 4.0)") from None


def _build(
    nodes: object, weights: object, domains: object, o: SetOptions, m: _abi.ModeOptions
) -> SetState:
    ids, objs, ws, labels = _members(nodes, weights, domains)
    state = SetState()
    state.seed_given = o.seed
    for b, ob in zip(ids, objs):
        state.objects.setdefault(b, ob)
    dom_bytes: list[bytes | None] | None = None
    if labels is not None and any(lb is not None for lb in labels):
        dom_bytes = []
        for lb in labels:
            if lb is None:
                dom_bytes.append(None)
            else:
                state.labels.setdefault(lb[0], lb[1])
                dom_bytes.append(lb[0])
    seed, secret, placement = o.seed, o.secret, o.placement

    def make(inst: Instance, _s: int) -> int:
        return _abi.new_set(inst, seed, secret, placement, m, ids, ws, dom_bytes)

    state.family.create(make)
    return state


class Rendezvous:
    """A set of nodes and the rendezvous placement of keys on them, in one of three modes (flat,
    table, skeleton), run by liblongstraw.wasm under wasmtime. The same API as the native extension."""

    __slots__ = ("_state", "__weakref__")
    _state: SetState

    def __new__(
        cls, nodes: object, *, weights: object = None, domains: object = None, **options: Any
    ) -> "Rendezvous":
        o = parse_options("Rendezvous.__new__()", options)
        return cls._of(_build(nodes, weights, domains, o, _abi.ModeOptions(0)))

    @classmethod
    def _of(cls, state: SetState) -> "Rendezvous":
        self = object.__new__(cls)
        self._state = state
        return self

    @classmethod
    def table(
        cls,
        nodes: object,
        *,
        partition_bits: object = None,
        replicas: object = 1,
        distinct_domains: object = False,
        balance: object = None,
        weights: object = None,
        domains: object = None,
        **options: Any,
    ) -> "Rendezvous":
        o = parse_options("Rendezvous.table()", options)
        m = _abi.ModeOptions(1)
        m.replicas = uint_arg(replicas, "replicas", U64_MAX)
        if not isinstance(distinct_domains, bool):
            raise TypeError(
                f"argument 'distinct_domains': '{type(distinct_domains).__name__}' object cannot be cast as 'bool'"
            )
        m.distinct_domains = distinct_domains
        m.partition_bits = None if partition_bits is None else shape_arg(partition_bits, "partition_bits", MAX_PARTITION_BITS)
        m.balance = _balance(balance)
        return cls._of(_build(nodes, weights, domains, o, m))

    @classmethod
    def skeleton(
        cls,
        nodes: object,
        *,
        fanout_bits: object = None,
        levels: object = None,
        weights: object = None,
        domains: object = None,
        **options: Any,
    ) -> "Rendezvous":
        o = parse_options("Rendezvous.skeleton()", options)
        m = _abi.ModeOptions(2)
        m.fanout_bits, m.levels = _skeleton_shape(fanout_bits, levels)
        return cls._of(_build(nodes, weights, domains, o, m))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Rendezvous":
        return cls._of(_files.load(path))

    @classmethod
    def loads(cls, data: str | bytes) -> "Rendezvous":
        return cls._of(_files.loads(data))

    def save(
        self,
        path: str | os.PathLike[str],
        *,
        secret_file: str | os.PathLike[str] | None = None,
        secret_env: str | None = None,
    ) -> None:
        _files.save(self._state, path, secret_file, secret_env)

    def __class_getitem__(cls, item: Any) -> GenericAlias:
        return GenericAlias(cls, item)

    def _view(self) -> View:
        return self._state.view()

    # -- lookups -------------------------------------------------------------------------------------
    def owner(self, key: object) -> Any:
        return self._view().owner(key)

    def top_k(self, key: object, k: object) -> list[Any]:
        return self._view().top_k(key, k)

    def top_k_distinct(self, key: object, k: object) -> list[Any]:
        return self._view().top_k_distinct(key, k)

    def rank(self, key: object) -> list[Any]:
        return self._view().rank(key)

    def owners(self, keys: Iterable[object]) -> list[Any]:
        return self._view().owners(keys)

    def partition(self, key: object) -> int:
        return self._view().partition(key)

    def snapshot(self) -> "Snapshot":
        return Snapshot._of(self._view())

    def __len__(self) -> int:
        return self._view().info.len

    def __contains__(self, node: object) -> bool:
        return self._view().contains(node)

    # -- changes -------------------------------------------------------------------------------------
    def add(self, node: object, weight: object = 1.0, domain: object = None) -> None:
        b, obj = node_id(node)
        w = 1.0 if weight is _DEFAULT else _weight(weight, node)
        label = domain_label(domain)
        st = self._state
        lb = None if label is None else label[0]
        st.family.mutate(lambda inst, s: _abi.add(inst, s, b, w, lb))
        st.objects[b] = obj
        if label is not None:
            st.labels.setdefault(label[0], label[1])

    def remove(self, node: object) -> None:
        b = node_id_bytes(node)
        self._state.family.mutate(lambda inst, s: _abi.remove(inst, s, b))

    def set_weight(self, node: object, weight: object) -> None:
        w = _weight(weight, node)
        b = node_id_bytes(node)
        self._state.family.mutate(lambda inst, s: _abi.set_weight(inst, s, b, w))

    def set_domain(self, node: object, domain: object) -> None:
        label = domain_label(domain)
        b = node_id_bytes(node)
        lb = None if label is None else label[0]
        self._state.family.mutate(lambda inst, s: _abi.set_domain(inst, s, b, lb))
        if label is not None:
            self._state.labels[label[0]] = label[1]

    # -- properties ----------------------------------------------------------------------------------
    @property
    def nodes(self) -> list[Any]:
        return list(self._view().ids)

    @property
    def weights(self) -> list[float]:
        return self._view().weights()

    @property
    def domains(self) -> list[Any]:
        return self._view().domains()

    @property
    def mode(self) -> str:
        return self._view().info.mode

    @property
    def seed(self) -> int | None:
        return self._view().seed()

    @property
    def keyed(self) -> bool:
        return self._view().info.keyed

    @property
    def placement(self) -> int:
        return self._view().info.placement

    @property
    def backend(self) -> str:
        return self._view().info.backend

    @property
    def partition_bits(self) -> int | None:
        return self._view().table(0)  # type: ignore[no-any-return]

    @property
    def partitions(self) -> int | None:
        return self._view().partitions()

    @property
    def replicas(self) -> int | None:
        return self._view().table(1)  # type: ignore[no-any-return]

    @property
    def distinct_domains(self) -> bool | None:
        return self._view().table(2)  # type: ignore[no-any-return]

    @property
    def balance(self) -> float | None:
        return self._view().table(3)  # type: ignore[no-any-return]

    @property
    def fanout_bits(self) -> int | None:
        return self._view().skeleton(0)

    @property
    def levels(self) -> int | None:
        return self._view().skeleton(1)

    def __repr__(self) -> str:
        v = self._view()
        head = {"flat": "Rendezvous", "table": "Rendezvous.table", "skeleton": "Rendezvous.skeleton"}[v.info.mode]
        return v.repr(head)

    def __reduce__(self) -> tuple[Any, tuple[list[Any]]]:
        return self._view().reduce(type(self))


class _Default:
    def __repr__(self) -> str:
        return "1.0"


_DEFAULT: Any = _Default()
Rendezvous.add.__defaults__ = (_DEFAULT, None)


class Snapshot:
    """The membership of a set at one moment, frozen: its lookups and node indices never change."""

    __slots__ = ("_v", "__weakref__")
    _v: View

    def __new__(cls, *args: object, **kwargs: object) -> "Snapshot":
        raise TypeError("cannot create 'longstraw.Snapshot' instances")

    @classmethod
    def _of(cls, view: View) -> "Snapshot":
        self = object.__new__(cls)
        self._v = view
        fam = view.family
        while not fam.hold(view.version):  # compacted away meanwhile: the current version is newer
            view = view.state.view()
        self._v = view
        weakref.finalize(self, fam.drop, view.version)
        return self

    def __class_getitem__(cls, item: Any) -> GenericAlias:
        return GenericAlias(cls, item)

    def owner(self, key: object) -> Any:
        return self._v.owner(key)

    def owner_index(self, key: object) -> int:
        return self._v.owner_index(key)

    def top_k(self, key: object, k: object) -> list[Any]:
        return self._v.top_k(key, k)

    def top_k_distinct(self, key: object, k: object) -> list[Any]:
        return self._v.top_k_distinct(key, k)

    def rank(self, key: object) -> list[Any]:
        return self._v.rank(key)

    def owners(self, keys: Iterable[object]) -> list[Any]:
        return self._v.owners(keys)

    def owner_indices(self, keys: Any, offsets: Any, out: Any = None) -> Any:
        from ._batch import owner_indices

        return owner_indices(self._v, keys, offsets, out)

    def partition(self, key: object) -> int:
        return self._v.partition(key)

    def __len__(self) -> int:
        return self._v.info.len

    def __contains__(self, node: object) -> bool:
        return self._v.contains(node)

    @property
    def nodes(self) -> tuple[Any, ...]:
        return self._v.ids

    @property
    def weights(self) -> tuple[float, ...]:
        return tuple(self._v.info.weights)

    @property
    def domains(self) -> tuple[Any, ...]:
        return tuple(self._v.domains())

    @property
    def eligible(self) -> int:
        return self._v.info.eligible

    @property
    def generation(self) -> int:
        return self._v.info.generation

    @property
    def mode(self) -> str:
        return self._v.info.mode

    @property
    def seed(self) -> int | None:
        return self._v.seed()

    @property
    def keyed(self) -> bool:
        return self._v.info.keyed

    @property
    def placement(self) -> int:
        return self._v.info.placement

    @property
    def backend(self) -> str:
        return self._v.info.backend

    @property
    def partition_bits(self) -> int | None:
        return self._v.table(0)  # type: ignore[no-any-return]

    @property
    def partitions(self) -> int | None:
        return self._v.partitions()

    @property
    def replicas(self) -> int | None:
        return self._v.table(1)  # type: ignore[no-any-return]

    @property
    def distinct_domains(self) -> bool | None:
        return self._v.table(2)  # type: ignore[no-any-return]

    @property
    def balance(self) -> float | None:
        return self._v.table(3)  # type: ignore[no-any-return]

    @property
    def fanout_bits(self) -> int | None:
        return self._v.skeleton(0)

    @property
    def levels(self) -> int | None:
        return self._v.skeleton(1)

    def __repr__(self) -> str:
        return self._v.repr("Snapshot")

    def __reduce__(self) -> Any:
        raise TypeError("cannot pickle 'longstraw.Snapshot' object")


Rendezvous.__module__ = Snapshot.__module__ = "longstraw"
text_signature(Rendezvous, f"nodes, *, weights=None, domains=None, {SET_OPTIONS_SIGNATURE}")
text_signature(
    Rendezvous.table.__func__,  # type: ignore[attr-defined]
    "cls, nodes, *, partition_bits=None, replicas=1, distinct_domains=False, balance=None, weights=None, "
    f"domains=None, {SET_OPTIONS_SIGNATURE}",
)
text_signature(
    Rendezvous.skeleton.__func__,  # type: ignore[attr-defined]
    f"cls, nodes, *, fanout_bits=None, levels=None, weights=None, domains=None, {SET_OPTIONS_SIGNATURE}",
)


def backend() -> str:
    """The kernel lookups run on (LONGSTRAW_BACKEND selects it), as the module reports it."""
    return Rendezvous(["backend-probe"]).backend
