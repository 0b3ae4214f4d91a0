"""The WebAssembly backend (longstraw._wasm, wasmtime) against the native extension, in one process:
owner() at n = 10 and 100, and batches (10^5 keys at n = 100; 4096 keys at n = 4096), then where the
wasm backend's batch time goes. Run with both backends importable (make bench-python-wasm); the output
goes through bench/record.py.

Each case runs ROUNDS rounds, the backends one after the other in each round, and reports the median
time of each (a shared machine's load moves all of them alike within a round). With
``--before DIR`` (a folder holding another copy of the ``_wasm`` package, its sources and
liblongstraw.wasm, e.g. main's), that copy runs beside the others as a third column: a before/after
comparison measured side by side in one run."""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import longstraw._longstraw as native
import longstraw._wasm as wasm
from longstraw._wasm import _abi
from longstraw._wasm._convert import keys_blob
from longstraw._wasm._runtime import ARGS

ROUNDS = 7
CLOCK = time.perf_counter_ns  # --clock cpu: this thread's CPU time (time.thread_time_ns) instead


def load_before(path: str) -> ModuleType:
    """The copy of the _wasm package at path, imported as its own package (its modules import one
    another relatively, and it finds its liblongstraw.wasm beside them)."""
    name = "longstraw_wasm_before"
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(path, "__init__.py"), submodule_search_locations=[path]
    )
    assert spec is not None and spec.loader is not None, path
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def timed(fn: Callable[[int], Any], n: int) -> float:
    """One run of fn(n), in ns per call (or per key, for a batch of n keys run once)."""
    t = CLOCK()
    fn(n)
    return (CLOCK() - t) / n


def side_by_side(fns: list[Callable[[int], Any]], n: int) -> list[float]:
    """Each of fns over ROUNDS rounds, interleaved; the median ns per call of each."""
    for fn in fns:  # warm up
        fn(min(n, 100))
    runs: list[list[float]] = [[] for _ in fns]
    for _ in range(ROUNDS):
        for got, fn in zip(runs, fns):
            got.append(timed(fn, n))
    return [statistics.median(r) for r in runs]


def owner_loop(r: Any, keys: list[str]) -> Callable[[int], None]:
    def run(n: int) -> None:
        owner = r.owner
        for i in range(n):
            owner(keys[i % len(keys)])

    return run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="a folder holding another copy of the _wasm package, as a third column")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall time, or this thread's CPU time (steadier on a loaded machine)")
    args = ap.parse_args()
    global CLOCK
    if args.clock == "cpu":
        CLOCK = time.thread_time_ns
    backends: list[Any] = [native, wasm]
    if args.before:
        backends.append(load_before(args.before))
    keys = [f"user:{i}" for i in range(100_000)]
    rows: list[tuple[str, list[float]]] = []
    for n in (10, 100):
        nodes = [f"node-{i}" for i in range(n)]
        sets = [b.Rendezvous(nodes) for b in backends]
        for s in sets[1:]:
            assert s.owners(keys[:1000]) == sets[0].owners(keys[:1000])
        calls = [20_000] + [2_000] * (len(sets) - 1)
        rows.append((f"owner, n = {n}", [side_by_side([owner_loop(s, keys)], c)[0] for s, c in zip(sets, calls)]))
    nodes = [f"node-{i}" for i in range(100)]
    sets = [b.Rendezvous(nodes) for b in backends]
    for s in sets[1:]:
        assert s.owners(keys) == sets[0].owners(keys)
    rows.append(("owners(10^5 str keys), n = 100, per key",
                 side_by_side([lambda _n, s=s: s.owners(keys) for s in sets], len(keys))))
    packed, offsets = native.pack(keys)
    snaps = [s.snapshot() for s in sets]
    for s in snaps[1:]:
        assert list(s.owner_indices(packed, offsets)) == list(snaps[0].owner_indices(packed, offsets))
    rows.append(("owner_indices(10^5 packed keys), n = 100, per key",
                 side_by_side([lambda _n, s=s: s.owner_indices(packed, offsets) for s in snaps], len(keys))))
    big = [f"node-{i}" for i in range(4096)]
    bigs = [b.Rendezvous(big) for b in backends]
    batch = keys[:4096]
    for s in bigs[1:]:
        assert s.owners(batch) == bigs[0].owners(batch)
    rows.append(("owners(4096 str keys), n = 4096, per key",
                 side_by_side([lambda _n, s=s: s.owners(batch) for s in bigs], len(batch))))

    clock = "CPU time of the thread" if args.clock == "cpu" else "wall time"
    print(f"## python-wasm against native (ns per call or per key, {clock}, median of {ROUNDS} rounds)\n")
    if args.before:
        print("| case | native ns | wasm ns | wasm / native | wasm before ns | before / native |")
        print("|---|---|---|---|---|---|")
        for name, (x, y, z) in rows:
            print(f"| {name} | {x:.1f} | {y:.1f} | {y / x:.1f}x | {z:.1f} | {z / x:.1f}x |")
    else:
        print("| case | native ns | wasm ns | wasm / native |")
        print("|---|---|---|---|")
        for name, (x, y) in rows:
            print(f"| {name} | {x:.1f} | {y:.1f} | {y / x:.1f}x |")

    # Where the wasm backend's time goes, for owners() of 10^5 str keys at n = 100: each phase of
    # View.owners timed alone, ROUNDS times, medians.
    b = sets[1]
    fam = b._state.family
    inst = fam.acquire()
    h = fam.snap_at(inst, len(fam.log))
    n = len(keys)
    blob, offs = keys_blob(keys)
    size = 8 * (n + 1)
    base = inst.grow(size + 4 * n + len(blob)) + ARGS
    offp, outp, keyp = base, base + size, base + size + 4 * n
    ids = b.snapshot()._v.ids

    def copy_in(_n: int) -> None:
        inst.write(offp, offs)
        inst.write(keyp, blob)

    def score(_n: int) -> None:
        inst.code("longstraw_snapshot_owners", h, keyp, len(blob), offp, n + 1, outp, n)

    def read_out(_n: int) -> None:
        import operator
        import struct

        got = struct.unpack(f"<{n}I", inst.read(outp, 4 * n))
        list(operator.itemgetter(*got)(ids))

    empty, = side_by_side([lambda k: [inst.call("longstraw_version") for _ in range(k)]], 20_000)
    encode_ns, copy_ns, call_ns, out_ns = side_by_side(
        [lambda _n: keys_blob(keys), copy_in, score, read_out], n)
    total_ns = side_by_side([lambda _n: _abi.owners(inst, h, blob, offs, n)], n)[0]
    fam.release(inst)
    native_score, = side_by_side([lambda _n: snaps[0].owner_indices(packed, offsets)], n)
    print()
    print(f"- wasmtime call overhead: an empty export call costs {empty:.0f} ns per call")
    print(f"- owner(): about {rows[1][1][1] - empty:.0f} ns per call beyond the bare call (key copy, out-parameters, pool)")
    print(f"- batch: encoding the str keys (one blob and u64 offsets) costs {encode_ns:.1f} ns per key")
    print(f"- batch: copying keys and offsets into linear memory costs {copy_ns:.1f} ns per key")
    print(f"- batch: scoring in wasm (the owners export alone) costs {call_ns:.1f} ns per key")
    print(f"- batch: reading the indices out and mapping them to ids costs {out_ns:.1f} ns per key")
    print(f"- batch: the owners call with copy in and read out costs {total_ns:.1f} ns per key")
    print(f"- batch: native owner_indices of packed keys costs {native_score:.1f} ns per key")


if __name__ == "__main__":
    main()
