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

The environment and working folder the module sees are the process's when the set was made, fixed for
every instance of the family, so a copy made later cannot read a different secret.

A trap discards the instance that trapped (``Trap`` is raised); the next call builds a fresh copy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

from ._errors import INTERNAL_ERROR, check, message
from ._runtime import Instance, Trap, environment, working_dir

# One log entry: runs on an instance, on the set handle it holds (0 before the first entry), and
# returns the set handle after it. It raises the library's error when the operation fails.
Op = Callable[[Instance, int], int]
R = TypeVar("R")

_MAX_IDLE = max(2, os.cpu_count() or 2)


class Replica(Instance):
    """An instance holding a copy of one family's set."""

    def __init__(self, env: list[tuple[str, str]], cwd: str | None) -> None:
        super().__init__(env, cwd)
        self.applied = 0
        self.set = 0
        self.snaps: dict[int, int] = {}


class Family:
    def __init__(self) -> None:
        self.env = environment()
        self.cwd = working_dir()
        self.log: list[Op] = []
        self.writer = threading.Lock()
        self.lock = threading.Lock()
        self.idle: list[Replica] = []
        self.refs: dict[int, int] = {}
        self.traps = 0

    # -- the pool ------------------------------------------------------------------------------------
    def acquire(self) -> Replica:
        with self.lock:
            if self.idle:
                return self.idle.pop()
        return Replica(self.env, self.cwd)

    def release(self, inst: Replica) -> None:
        if inst.broken:
            self.traps += 1
            return
        version = len(self.log)
        if len(inst.snaps) > 1:
            with self.lock:
                stale = [v for v in inst.snaps if v != version and not self.refs.get(v)]
            for v in stale:
                inst.call("longstraw_snapshot_free", inst.snaps.pop(v))
        with self.lock:
            if len(self.idle) < _MAX_IDLE:
                self.idle.append(inst)

    def hold(self, version: int) -> None:
        with self.lock:
            self.refs[version] = self.refs.get(version, 0) + 1

    def drop(self, version: int) -> None:
        with self.lock:
            n = self.refs.get(version, 0) - 1
            if n > 0:
                self.refs[version] = n
            else:
                self.refs.pop(version, None)

    # -- copies --------------------------------------------------------------------------------------
    def catch_up(self, inst: Replica, version: int) -> None:
        log = self.log
        while inst.applied < version:
            try:
                inst.set = log[inst.applied](inst, inst.set)
            except Trap:
                raise
            except Exception as e:  # the log holds only operations that succeeded
                inst.broken = True
                raise RuntimeError(f"longstraw: replaying the membership log failed: {e}") from e
            inst.applied += 1

    def snap_at(self, inst: Replica, version: int) -> int:
        h = inst.snaps.get(version)
        if h is not None:
            return h
        if inst.applied <= version:
            self.catch_up(inst, version)
            h = self._snapshot(inst, inst.set)
        else:  # an older version: a temporary copy in the same instance
            s = 0
            for op in self.log[:version]:
                s = op(inst, s)
            try:
                h = self._snapshot(inst, s)
            finally:
                inst.call("longstraw_rendezvous_free", s)
        inst.snaps[version] = h
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

    def mutate(self, op: Op) -> None:
        """Applies op on one instance and, when it succeeds, appends it to the log."""
        with self.writer:
            inst = self.acquire()
            try:
                version = len(self.log)
                self.catch_up(inst, version)
                inst.set = op(inst, inst.set)
                self.log.append(op)
                inst.applied = version + 1
            finally:
                self.release(inst)

    def create(self, op: Op) -> None:
        """The first log entry, run now so that a bad argument fails here."""
        self.mutate(op)

    def set_call(self, fn: Callable[[Replica, int], R]) -> R:
        """Runs fn(instance, set handle) on a copy at the current version, under the writer lock."""
        with self.writer:
            inst = self.acquire()
            try:
                self.catch_up(inst, len(self.log))
                return fn(inst, inst.set)
            finally:
                self.release(inst)


def fail_internal(inst: Instance, what: str) -> Exception:
    return RuntimeError(f"longstraw: {what}: {message(inst, INTERNAL_ERROR)}")
