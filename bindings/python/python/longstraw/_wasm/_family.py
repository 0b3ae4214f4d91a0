"""A set held in a pool of instances, each with its own copy built by replaying a log.

A set lives in one instance's linear memory, and an instance runs one call at a time, so each set (a
*family*) owns a pool of instances: at most ``os.cpu_count()`` idle ones are kept, and more are made
while every kept one is busy, so lookups from many threads never wait on one another. Each copy is
built by replaying the family's log: the operation that made the set and every change that succeeded
since. A change runs on one instance first, under the family's writer lock, and joins the log only when
it succeeded; replay is deterministic (the same core, the same operations in the same order), so every
copy places keys the same way. A snapshot is a *version* of the log (its length): an instance keeps
the C snapshot of every version a live ``Snapshot`` holds, and one of an older version than its copy
is rebuilt in the same instance by replaying the log up to it.

The environment the module sees is the process's when the set was made, fixed for every instance of
the family, so a copy made later cannot read a different secret.

The log stays short: once it holds ``COMPACT_AFTER`` entries, the writer replaces it by one entry that
loads the current set from the membership file text the module renders of it (a *base*), checked to
render the same text again when loaded and corrected for the snapshot generation the loaded set starts
at. Versions stay absolute (``base`` + the log's length). A version a live ``Snapshot`` holds that is
older than the new base gets a base of its own, made the same way, kept while it is held. A keyed set
compacts only when it can be saved with no secret source named (a set loaded from a keyed file, which
remembers its source); the loaded copy is built with the secret the writer's copy holds, so the secret
source is not read again. A set that cannot be rendered so keeps its whole log.

A trap discards the instance that trapped (``Trap`` is raised); the next call builds a fresh copy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

from . import _abi
from ._errors import INTERNAL_ERROR, check, message
from ._runtime import Instance, Trap, environment

# One log entry: runs on an instance, on the set handle it holds (0 before the first entry), and
# returns the set handle after it. It raises the library's error when the operation fails.
Op = Callable[[Instance, int], int]
R = TypeVar("R")

_MAX_IDLE = max(2, os.cpu_count() or 2)
# The log's length at which the writer replaces it by one base entry.
COMPACT_AFTER = 256
_ORIGIN = "<data>"


class Gone(Exception):
    """The version asked for was compacted away and no snapshot holds it."""


class Replica(Instance):
    """An instance holding a copy of one family's set."""

    def __init__(self, env: list[tuple[str, str]]) -> None:
        super().__init__(env)
        self.applied = 0
        self.set = 0
        self.gen = 0  # added to the generation the copy's set reports (see Base)
        self.snaps: dict[int, int] = {}
        self.snap_gen: dict[int, int] = {}


class Base:
    """A log entry that frees the set it is given and loads one rendered by the module: the state of a
    version, whatever came before. ``gen`` is what to add to the loaded set's snapshot generation for
    the generation the set had when it was rendered."""

    __slots__ = ("data", "secret", "gen")

    def __init__(self, data: bytes, secret: bytes | None, gen: int) -> None:
        self.data, self.secret, self.gen = data, secret, gen

    def __call__(self, inst: Instance, s: int) -> int:
        if s:
            inst.call("longstraw_rendezvous_free", s)
        h = _abi.load_bytes(inst, self.data, _ORIGIN, None, self.secret)
        if isinstance(inst, Replica):
            inst.gen = self.gen
        return h

    def __repr__(self) -> str:
        return "<base>"


def _generation(inst: Instance, s: int) -> int:
    out = inst.out(0)
    check(inst, inst.code("longstraw_rendezvous_snapshot", s, out))
    h = inst.u32(out)
    try:
        check(inst, inst.code("longstraw_snapshot_generation", h, inst.out(0)))
        return inst.u64(inst.out(0))
    finally:
        inst.call("longstraw_snapshot_free", h)


def capture(inst: Replica, s: int) -> Base | None:
    """A base for the set s holds in inst (with inst.gen its generation offset), or None when the set
    cannot be rendered (a keyed set with no remembered source) or does not load back to the same text."""
    try:
        data = _abi.save_bytes(inst, s, _ORIGIN, None, None)
    except Trap:
        raise
    except Exception:
        return None
    secret = _abi.secret_of(inst, s)
    gen = _generation(inst, s) + inst.gen
    base = Base(data, secret, 0)
    keep = inst.gen
    try:
        t = base(inst, 0)
    except Trap:
        raise
    except Exception:
        return None
    finally:
        inst.gen = keep
    try:
        same = _abi.save_bytes(inst, t, _ORIGIN, None, None) == data and _abi.secret_of(inst, t) == secret
        base.gen = gen - _generation(inst, t)
    finally:
        inst.call("longstraw_rendezvous_free", t)
    return base if same else None


class Family:
    def __init__(self) -> None:
        self.env = environment()
        self.log: list[Op] = []
        # log[0] leads to version base + 1 (from nothing when base > 0: then it is a Base)
        self.base = 0
        self.olds: dict[int, Base] = {}  # bases of held versions older than base + 1
        self.compacts = True
        self.retry_at = 0  # the log's length at which to try again after a compaction did not happen
        self.writer = threading.Lock()
        self.lock = threading.RLock()  # an RLock: a Snapshot's finalizer may run drop() under it
        self.idle: list[Replica] = []
        self.refs: dict[int, int] = {}
        self.traps = 0

    @property
    def version(self) -> int:
        return self.base + len(self.log)

    # -- the pool ------------------------------------------------------------------------------------
    def acquire(self) -> Replica:
        with self.lock:
            if self.idle:
                return self.idle.pop()
        return Replica(self.env)

    def release(self, inst: Replica) -> None:
        if inst.broken:
            self.traps += 1
            return
        version = self.version
        if len(inst.snaps) > 1:
            with self.lock:
                stale = [v for v in list(inst.snaps) if v != version and not self.refs.get(v)]
            for v in stale:
                inst.snap_gen.pop(v, None)
                inst.call("longstraw_snapshot_free", inst.snaps.pop(v))
        with self.lock:
            if len(self.idle) < _MAX_IDLE:
                self.idle.append(inst)

    def hold(self, version: int) -> bool:
        """Holds version for a Snapshot; False when it was compacted away (take a newer one)."""
        with self.lock:
            if version <= self.base and version not in self.olds:
                return False
            self.refs[version] = self.refs.get(version, 0) + 1
            return True

    def drop(self, version: int) -> None:
        with self.lock:
            n = self.refs.get(version, 0) - 1
            if n > 0:
                self.refs[version] = n
            else:
                self.refs.pop(version, None)
                self.olds.pop(version, None)

    # -- copies --------------------------------------------------------------------------------------
    def _apply(self, inst: Replica, op: Op, s: int) -> int:
        try:
            return op(inst, s)
        except Trap:
            raise
        except Exception as e:  # the log holds only operations that succeeded
            inst.broken = True
            raise RuntimeError(f"longstraw: replaying the membership log failed: {e}") from e

    def catch_up(self, inst: Replica, version: int) -> None:
        log, base = self.log, self.base
        if inst.applied <= base < version:  # behind the base: start again from it
            inst.set = self._apply(inst, log[0], inst.set)
            inst.applied = base + 1
        while inst.applied < version:
            inst.set = self._apply(inst, log[inst.applied - base], inst.set)
            inst.applied += 1

    def snap_at(self, inst: Replica, version: int) -> int:
        h = inst.snaps.get(version)
        if h is not None:
            return h
        if inst.applied <= version and version > self.base:
            self.catch_up(inst, version)
            h = self._snapshot(inst, inst.set)
            gen = inst.gen
        else:  # an older version: a temporary copy in the same instance
            keep = inst.gen
            with self.lock:
                old = self.olds.get(version)
                log, base = self.log, self.base
            try:
                inst.gen = 0
                if old is not None:
                    s = self._apply(inst, old, 0)
                elif base < version <= base + len(log):
                    s = 0
                    for op in log[: version - base]:
                        s = self._apply(inst, op, s)
                else:
                    raise Gone(version)
                gen = inst.gen
            finally:
                inst.gen = keep
            try:
                h = self._snapshot(inst, s)
            finally:
                inst.call("longstraw_rendezvous_free", s)
        inst.snaps[version] = h
        inst.snap_gen[version] = gen
        return h

    @staticmethod
    def _snapshot(inst: Instance, s: int) -> int:
        out = inst.out(0)
        check(inst, inst.code("longstraw_rendezvous_snapshot", s, out))
        return inst.u32(out)

    def run(self, version: int, fn: Callable[[Replica, int], R]) -> R:
        """Runs fn(instance, snapshot handle of version) on an instance of the pool."""
        inst = self.acquire()
        try:
            return fn(inst, self.snap_at(inst, version))
        finally:
            self.release(inst)

    def info(self, version: int) -> _abi.Info:
        """What the snapshot of version says about itself, its generation the one it had when made."""

        def read(inst: Replica, h: int) -> _abi.Info:
            i = _abi.info(inst, h)
            i.generation += inst.snap_gen.get(version, 0)
            return i

        return self.run(version, read)

    def mutate(self, op: Op) -> None:
        """Applies op on one instance and, when it succeeds, appends it to the log."""
        with self.writer:
            inst = self.acquire()
            try:
                version = self.version
                self.catch_up(inst, version)
                inst.set = op(inst, inst.set)
                self.log.append(op)
                inst.applied = version + 1
                if self.compacts and len(self.log) >= max(COMPACT_AFTER, self.retry_at):
                    try:
                        self._compact(inst)
                    except Trap:  # the change itself succeeded; inst is discarded on release
                        pass
            finally:
                self.release(inst)

    def _compact(self, inst: Replica) -> None:
        """Replaces the log by a base of inst's copy (at the current version), under the writer lock;
        every held version older than it gets a base of its own first."""
        try:
            _abi.save_bytes(inst, inst.set, _ORIGIN, None, None)
        except Trap:
            raise
        except Exception:  # a keyed set with no source to name: never compacts
            self.compacts = False
            return
        self.retry_at = len(self.log) + COMPACT_AFTER  # when this one does not happen
        base = capture(inst, inst.set)
        if base is None:
            return
        version = self.version
        with self.lock:  # no version is held or compacted away meanwhile
            self._switch(inst, base, version)

    def _switch(self, inst: Replica, base: Base, version: int) -> None:
        held = [v for v in list(self.refs) if self.base < v < version and v not in self.olds]
        olds: dict[int, Base] = {}
        for v in held:
            keep = inst.gen
            inst.gen = 0
            s = 0
            try:
                for op in self.log[: v - self.base]:
                    s = self._apply(inst, op, s)
                got = capture(inst, s)
            finally:
                inst.gen = keep
                if s:
                    inst.call("longstraw_rendezvous_free", s)
            if got is None:
                return  # keep the whole log rather than lose a held version
            olds[v] = got
        self.olds.update(olds)
        self.log = [base]
        self.base = version - 1  # inst keeps its copy (and its generation offset)
        self.retry_at = 0

    def create(self, op: Op) -> None:
        """The first log entry, run now so that a bad argument fails here."""
        self.mutate(op)

    def set_call(self, fn: Callable[[Replica, int], R]) -> R:
        """Runs fn(instance, set handle) on a copy at the current version, under the writer lock."""
        with self.writer:
            inst = self.acquire()
            try:
                self.catch_up(inst, self.version)
                return fn(inst, inst.set)
            finally:
                self.release(inst)


def fail_internal(inst: Instance, what: str) -> Exception:
    return RuntimeError(f"longstraw: {what}: {message(inst, INTERNAL_ERROR)}")
