"""``BoundedLoad`` and ``Lease``: consistent hashing with bounded loads, over the C ABI in WebAssembly.

A bounded set counts requests in flight, state that cannot be replayed into copies, so it lives in one
instance behind a lock (as Go's portable build does). A trap discards that instance: the set is then
unusable, and every call says so.
"""

from __future__ import annotations

import struct
import threading
from typing import Any, Literal

from . import _abi
from ._convert import SET_OPTIONS_SIGNATURE, key_bytes, node_id, node_id_bytes, parse_options, text_signature, weight

_weight = weight
from ._errors import check
from ._runtime import Instance, Trap, environment

DEFAULT_BALANCE_FACTOR = 1.25


def _factor(obj: object) -> float:
    if isinstance(obj, bool):
        raise TypeError("balance_factor must be a number, not bool")
    if not (hasattr(type(obj), "__float__") or hasattr(type(obj), "__index__")):  # as PyFloat_AsDouble
        raise TypeError(f"balance_factor must be a number, not {type(obj).__name__}")
    try:
        return float(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise TypeError(f"balance_factor must be a number, not {type(obj).__name__}") from None


class BoundedLoad:
    __slots__ = ("_inst", "_h", "_lock", "_objects", "_factor", "__weakref__")

    _inst: Instance
    _h: int
    _lock: threading.Lock
    _objects: dict[bytes, str | bytes]
    _factor: float

    def __new__(
        cls, nodes: object, balance_factor: object = None, weights: object = None, **options: Any
    ) -> "BoundedLoad":
        from ._set import _members, weight_problem

        o = parse_options("BoundedLoad.__new__()", options)
        factor = DEFAULT_BALANCE_FACTOR if balance_factor is None else _factor(balance_factor)
        ids, objs, ws, _ = _members(nodes, weights, None)
        del weight_problem
        self = object.__new__(cls)
        self._lock = threading.Lock()
        self._factor = factor
        self._objects = dict(zip(ids, objs))
        inst = Instance(environment())
        secret = o.secret
        a = inst.put_args(secret)
        sp = a[0] if secret is None or len(secret) else inst.scratch + 64
        # has_seed: an explicit seed=0 next to a secret is refused, as natively
        check(inst, inst.code("longstraw_wasm_bounded_new", o.seed is not None, o.seed or 0, sp,
                              len(secret or b""), o.placement, factor, inst.out(0)))
        self._h = inst.u32(inst.out(0))
        self._inst = inst
        for b, w in zip(ids, ws):
            (p,) = inst.put_args(b)
            check(inst, inst.code("longstraw_bounded_add", self._h, p, len(b), w))
        return self

    def _run(self, fn: Any) -> Any:
        with self._lock:
            inst = self._inst
            if inst.broken:
                raise Trap("longstraw: this BoundedLoad's WebAssembly instance trapped; build the set again")
            return fn(inst)

    def _object(self, b: bytes) -> str | bytes:
        return self._objects.get(b) or b

    def acquire(self, key: object) -> "Lease":
        kb = key_bytes(key)

        def go(inst: Instance) -> tuple[int, bytes, bool]:
            kp = inst.put_args(kb)[0]
            o = inst.out
            check(inst, inst.code("longstraw_bounded_acquire", self._h, kp, len(kb), o(0), o(1), o(2)))
            lease = inst.u32(o(0))
            node = inst.read(inst.u32(o(1)), inst.u32(o(2)))
            check(inst, inst.code("longstraw_bounded_loads", self._h, o(3), 0, 0, o(4)))
            snap = inst.u32(o(3))
            try:
                idx = _abi.owner(inst, snap, kb)
                check(inst, inst.code("longstraw_snapshot_node", snap, idx, o(5), o(6), o(7)))
                owner = inst.read(inst.u32(o(5)), inst.u32(o(6)))
            finally:
                inst.call("longstraw_snapshot_free", snap)
            return lease, node, owner == node

        lease, node, is_owner = self._run(go)
        return Lease._of(self, lease, self._object(node), is_owner)

    def _release(self, lease: int) -> None:
        try:
            self._run(lambda inst: inst.call("longstraw_bounded_release", lease))
        except Trap:
            pass

    def loads(self) -> list[tuple[str | bytes, int]]:
        def go(inst: Instance) -> list[tuple[bytes, int]]:
            o = inst.out
            check(inst, inst.code("longstraw_bounded_loads", self._h, o(0), 0, 0, o(1)))
            inst.call("longstraw_snapshot_free", inst.u32(o(0)))
            n = inst.u32(o(1))
            base = inst.grow(8 * n) + 64
            check(inst, inst.code("longstraw_bounded_loads", self._h, o(0), base, n, o(1)))
            snap = inst.u32(o(0))
            try:
                loads = struct.unpack(f"<{n}Q", inst.read(base, 8 * n))
                out = []
                for i in range(n):
                    check(inst, inst.code("longstraw_snapshot_node", snap, i, o(2), o(3), o(4)))
                    out.append((inst.read(inst.u32(o(2)), inst.u32(o(3))), loads[i]))
                return out
            finally:
                inst.call("longstraw_snapshot_free", snap)

        return [(self._object(b), n) for b, n in self._run(go)]

    def in_flight(self) -> int:
        def go(inst: Instance) -> int:
            check(inst, inst.code("longstraw_bounded_in_flight", self._h, inst.out(0)))
            return inst.u64(inst.out(0))

        return self._run(go)  # type: ignore[no-any-return]

    @property
    def balance_factor(self) -> float:
        return self._factor

    def _id_call(self, export: str, b: bytes, w: float | None) -> None:
        def go(inst: Instance) -> None:
            (p,) = inst.put_args(b)
            if w is None:
                check(inst, inst.code(export, self._h, p, len(b)))
            else:
                check(inst, inst.code(export, self._h, p, len(b), w))

        self._run(go)

    def add(self, node: object, weight: object = None) -> None:
        from ._set import weight_problem

        b, obj = node_id(node)
        w = 1.0 if weight is None else _weight(weight, lambda: "add", weight_problem)
        self._id_call("longstraw_bounded_add", b, w)
        self._objects[b] = obj

    def remove(self, node: object) -> None:
        self._id_call("longstraw_bounded_remove", node_id_bytes(node), None)

    def set_weight(self, node: object, weight_: object) -> None:
        from ._set import weight_problem

        w = weight(weight_, lambda: "set_weight", weight_problem)
        self._id_call("longstraw_bounded_set_weight", node_id_bytes(node), w)

    def __repr__(self) -> str:
        n = len(self.loads())
        return f"BoundedLoad({n} nodes, balance_factor={self._factor!r}, in_flight={self.in_flight()})"

    def __del__(self) -> None:
        inst = getattr(self, "_inst", None)
        if inst is not None and not inst.broken:
            try:
                inst.call("longstraw_bounded_free", self._h)
            except Exception:
                pass


class Lease:
    __slots__ = ("_set", "_lease", "_node", "_is_owner", "_lock")

    _set: BoundedLoad
    _lease: int | None
    _node: str | bytes
    _is_owner: bool
    _lock: threading.Lock

    def __new__(cls, *args: object, **kwargs: object) -> "Lease":
        raise TypeError("cannot create 'longstraw.Lease' instances")

    @classmethod
    def _of(cls, owner: BoundedLoad, lease: int, node: str | bytes, is_owner: bool) -> "Lease":
        self = object.__new__(cls)
        self._set, self._lease, self._node, self._is_owner = owner, lease, node, is_owner
        self._lock = threading.Lock()
        return self

    @property
    def node(self) -> str | bytes:
        return self._node

    @property
    def is_owner(self) -> bool:
        return self._is_owner

    @property
    def active(self) -> bool:
        return self._lease is not None

    def release(self) -> None:
        with self._lock:
            lease, self._lease = self._lease, None
        if lease is not None:
            self._set._release(lease)

    def __enter__(self) -> str | bytes:
        return self._node

    def __exit__(self, *_args: object) -> Literal[False]:
        self.release()
        return False

    def __repr__(self) -> str:
        return f"Lease(node={self._node!r}, active={self.active})"

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass


BoundedLoad.__module__ = Lease.__module__ = "longstraw"
text_signature(BoundedLoad, f"nodes, balance_factor=1.25, weights=None, *, {SET_OPTIONS_SIGNATURE}")
