"""One version of a set: the lookups every set and snapshot share, declared once (view.rs's twin)."""

from __future__ import annotations

import array
import functools
import operator
import struct
import threading
import weakref
from collections.abc import Iterable
from typing import Any

from . import _abi
from ._convert import KEYS_EXPECTED, count, items, key_bytes, keys_blob, node_id_bytes
from ._family import Family, Gone

_MAX_TABLE_REPLICAS = 32


def id_object(b: bytes) -> str | bytes:
    try:
        return b.decode()
    except UnicodeDecodeError:
        return b


class SetState:
    """A family and what the Python face keeps beside it: the objects of ids and labels as given,
    the options the set was built with (for repr and pickle) and a keyed file's secret source."""

    def __init__(self) -> None:
        self.family = Family()
        self.objects: dict[bytes, str | bytes] = {}
        self.labels: dict[bytes, str | bytes] = {}
        self.seed_given: int | None = None
        self.remembered = False  # loaded from a keyed file: save() names its source again
        self.views: dict[int, View] = {}
        self.lock = threading.Lock()

    def view(self, version: int | None = None) -> "View":
        fam = self.family
        while True:
            v = fam.version if version is None else version
            view = self.views.get(v)
            if view is not None:
                return view
            # a view holds its version, so that a compaction keeps it servable while it is in use
            if fam.hold(v):
                break
            if version is not None:
                raise Gone(v)
        try:
            info = fam.info(v)
        except BaseException:
            fam.drop(v)
            raise
        view = View(self, v, info)
        weakref.finalize(view, fam.drop, v)
        with self.lock:
            if version is None:  # keep only the current version and versions snapshots hold
                held = fam.refs  # a cached view holds its version once, a snapshot once more
                for old in [k for k in self.views if k != v and held.get(k, 0) <= 1]:
                    del self.views[old]
            self.views[v] = view
        return view


class View:
    __slots__ = ("state", "family", "version", "info", "ids", "_owner", "__weakref__")

    def __init__(self, state: SetState, version: int, info: _abi.Info) -> None:
        self.state = state
        self.family = state.family
        self.version = version
        self.info = info
        objs = state.objects
        self.ids = tuple(objs.get(b) or id_object(b) for b in info.ids)

    # -- lookups -------------------------------------------------------------------------------------
    def owner_index(self, key: object) -> int:
        kb = key_bytes(key)
        return self.family.run(self.version, lambda inst, h: _abi.owner(inst, h, kb))

    def owner(self, key: object) -> str | bytes:
        return self.ids[self.owner_index(key)]

    def _best(self, key: object, k: int, distinct: bool) -> list[str | bytes]:
        kb = key_bytes(key)
        k = min(k, self.info.eligible)
        got = self.family.run(self.version, lambda inst, h: _abi.top_k(inst, h, kb, k, distinct))
        ids = self.ids
        return [ids[i] for i in got]

    def top_k(self, key: object, k: object) -> list[str | bytes]:
        return self._best(key, count(k), False)

    def top_k_distinct(self, key: object, k: object) -> list[str | bytes]:
        return self._best(key, count(k), True)

    def rank(self, key: object) -> list[str | bytes]:
        return self._best(key, self.info.eligible, False)

    def owners(self, keys: Iterable[object]) -> list[str | bytes]:
        seq = keys if type(keys) is list else list(items(keys, "keys", KEYS_EXPECTED))
        n = len(seq)
        if n == 0:
            return []
        blob, offsets = keys_blob(seq)
        raw = self.family.run(self.version, lambda inst, h: _abi.owners(inst, h, blob, offsets, n))
        got = struct.unpack(f"<{n}I", raw)
        return [self.ids[got[0]]] if n == 1 else list(operator.itemgetter(*got)(self.ids))

    def owners_packed(self, blob: bytes, offsets: bytes | array.array[int], n: int) -> bytes:
        return self.family.run(self.version, lambda inst, h: _abi.owners(inst, h, blob, offsets, n))

    def partition(self, key: object) -> int:
        kb = key_bytes(key)
        return self.family.run(self.version, lambda inst, h: _abi.partition(inst, h, kb))

    def contains(self, node: object) -> bool:
        return node_id_bytes(node) in self.info.index

    # -- properties ----------------------------------------------------------------------------------
    def weights(self) -> list[float]:
        return list(self.info.weights)

    def domains(self) -> list[str | bytes | None]:
        labels = self.info.domains
        if labels is None:
            return [None] * len(self.ids)
        objs = self.state.labels
        return [None if b is None else (objs.get(b) or id_object(b)) for b in labels]

    def seed(self) -> int | None:
        return None if self.info.keyed else self.info.seed

    def table(self, i: int) -> Any:
        t = self.info.table
        return None if t is None else t[i]

    def partitions(self) -> int | None:
        t = self.info.table
        return None if t is None else 1 << t[0]

    def skeleton(self, i: int) -> int | None:
        s = self.info.skeleton
        return None if s is None else s[i]

    # -- repr and pickle -----------------------------------------------------------------------------
    def keywords(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        if self.info.keyed:
            out.append(("secret", None))
        else:
            out.append(("seed", self.info.seed))
        out.append(("placement", self.info.placement))
        return out

    def shape(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        t, s = self.info.table, self.info.skeleton
        if t is not None:
            out.append(("partition_bits", str(t[0])))
            if t[1] != 1:
                out.append(("replicas", str(t[1])))
            if t[2]:
                out.append(("distinct_domains", "True"))
            if t[3] is not None:
                out.append(("balance", repr(t[3])))
        if s is not None:
            out.append(("fanout_bits", str(s[0])))
            out.append(("levels", str(s[1])))
        return out

    def repr(self, head: str) -> str:
        shown = 8
        ids = self.ids

        def elided(parts: list[str], more: str) -> str:
            if len(ids) > shown:
                parts.append(more)
            return "[" + ", ".join(parts) + "]"

        out = f"{head}({elided([repr(i) for i in ids[:shown]], f'... {max(0, len(ids) - shown)} more')}"
        if head == "Snapshot":
            out += f", mode='{self.info.mode}'"
        ws = self.info.weights
        if any(w != 1.0 for w in ws):
            out += f", weights={elided([repr(w) for w in ws[:shown]], '...')}"
        for name, value in self.keywords():
            out += f", {name}=<hidden>" if name == "secret" else f", {name}={value!r}"
        for name, text in self.shape():
            out += f", {name}={text}"
        if self.info.domains is not None:
            out += f", domains={elided([repr(d) for d in self.domains()[:shown]], '...')}"
        return out + ")"

    def reduce(self, cls: Any) -> tuple[Any, tuple[list[str | bytes]]]:
        from ._convert import PICKLE_REFUSED

        if self.info.keyed:
            raise TypeError(PICKLE_REFUSED)
        kwargs: dict[str, Any] = {
            "weights": self.weights(),
            "domains": self.domains() if self.info.domains is not None else None,
        }
        for name, value in self.keywords():
            kwargs[name] = value
        factory: Any = cls
        if self.info.mode == "table":
            t = self.info.table
            assert t is not None
            kwargs.update(partition_bits=t[0], replicas=t[1], distinct_domains=t[2], balance=t[3])
            factory = cls.table
        elif self.info.mode == "skeleton":
            s = self.info.skeleton
            assert s is not None
            kwargs.update(fanout_bits=s[0], levels=s[1])
            factory = cls.skeleton
        return functools.partial(factory, **kwargs), (list(self.ids),)
