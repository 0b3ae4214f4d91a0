"""The WebAssembly backend (longstraw._wasm, wasmtime) against the native extension, in one process:
owner() at n = 10 and 100, and batches (10^5 keys at n = 100; 4096 keys at n = 4096), then where the
wasm backend's time goes. Run with both backends importable (make bench-python-wasm); the output goes
through bench/record.py."""

from __future__ import annotations

import struct
import time

import longstraw._longstraw as native
import longstraw._wasm as wasm
from longstraw._wasm import _abi


def per_call(fn, n: int, repeat: int = 5) -> float:
    """Best of `repeat` runs of n calls, in ns per call."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter_ns()
        fn(n)
        best = min(best, (time.perf_counter_ns() - t) / n)
    return best


def owner_loop(r, keys):
    def run(n):
        owner = r.owner
        for i in range(n):
            owner(keys[i % len(keys)])

    return run


def main() -> None:
    keys = [f"user:{i}" for i in range(100_000)]
    rows = []
    for n in (10, 100):
        nodes = [f"node-{i}" for i in range(n)]
        a, b = native.Rendezvous(nodes), wasm.Rendezvous(nodes)
        assert a.owners(keys[:1000]) == b.owners(keys[:1000])
        rows.append((f"owner, n = {n}", per_call(owner_loop(a, keys), 20_000), per_call(owner_loop(b, keys), 5_000)))
    nodes = [f"node-{i}" for i in range(100)]
    a, b = native.Rendezvous(nodes), wasm.Rendezvous(nodes)
    rows.append(("owners(10^5 str keys), n = 100, per key",
                 per_call(lambda _n: a.owners(keys), 1, 3) / len(keys), per_call(lambda _n: b.owners(keys), 1, 3) / len(keys)))
    packed, offsets = native.pack(keys)
    sa, sb = a.snapshot(), b.snapshot()
    assert list(sa.owner_indices(packed, offsets)) == list(sb.owner_indices(packed, offsets))
    rows.append(("owner_indices(10^5 packed keys), n = 100, per key",
                 per_call(lambda _n: sa.owner_indices(packed, offsets), 1, 3) / len(keys),
                 per_call(lambda _n: sb.owner_indices(packed, offsets), 1, 3) / len(keys)))
    big = [f"node-{i}" for i in range(4096)]
    a4, b4 = native.Rendezvous(big), wasm.Rendezvous(big)
    batch = keys[:4096]
    assert a4.owners(batch) == b4.owners(batch)
    rows.append(("owners(4096 str keys), n = 4096, per key",
                 per_call(lambda _n: a4.owners(batch), 1, 3) / len(batch), per_call(lambda _n: b4.owners(batch), 1, 3) / len(batch)))

    print("## python-wasm against native (ns per call or per key)\n")
    print("| case | native ns | wasm ns | wasm / native |")
    print("|---|---|---|---|")
    for name, x, y in rows:
        print(f"| {name} | {x:.1f} | {y:.1f} | {y / x:.1f}x |")

    # Where the wasm backend's time goes, for owners() of 10^5 keys at n = 100.
    fam = b._state.family
    inst = fam.acquire()
    h = fam.snap_at(inst, len(fam.log))
    empty = per_call(lambda n: [inst.call("longstraw_version") for _ in range(n)], 20_000)
    parts = [k.encode() for k in keys]
    blob = b"".join(parts)
    offs = [0]
    for p in parts:
        offs.append(offs[-1] + len(p))
    offb = struct.pack(f"<{len(offs)}Q", *offs)
    t = time.perf_counter_ns()
    enc = [k.encode() for k in keys]
    b"".join(enc)
    encode_ns = (time.perf_counter_ns() - t) / len(keys)
    t = time.perf_counter_ns()
    base = inst.grow(len(offb) + 4 * len(keys) + len(blob)) + 64
    inst.write(base, offb)
    inst.write(base + len(offb) + 4 * len(keys), blob)
    copy_ns = (time.perf_counter_ns() - t) / len(keys)
    t = time.perf_counter_ns()
    _abi.owners(inst, h, blob, offb, len(keys))
    call_ns = (time.perf_counter_ns() - t) / len(keys)
    fam.release(inst)
    t = time.perf_counter_ns()
    sa.owner_indices(packed, offsets)
    native_score = (time.perf_counter_ns() - t) / len(keys)
    print()
    print(f"- wasmtime call overhead: an empty export call costs {empty:.0f} ns per call")
    print(f"- owner(): about {rows[1][2] - empty:.0f} ns per call beyond the bare call (key copy, out-parameters, pool)")
    print(f"- batch: encoding the str keys and joining costs {encode_ns:.1f} ns per key")
    print(f"- batch: copying keys and offsets into linear memory costs {copy_ns:.1f} ns per key")
    print(f"- batch: the owners export (copy in, score in wasm, read out) costs {call_ns:.1f} ns per key")
    print(f"- batch: native scoring of packed keys costs {native_score:.1f} ns per key")


if __name__ == "__main__":
    main()
