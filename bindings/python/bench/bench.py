"""longstraw's Python package against what Python users would pick instead.

    make bench-python
    .venv/bin/python bindings/python/bench/bench.py [--quick] [--sizes 10,100,1000]

One run, side by side, same keys, same node counts. Prints a Markdown report:
time per lookup (best of several passes, each a Python loop over distinct
keys, so the interpreter's call overhead is included for everyone) and the
ratio to longstraw's `owner()`. Libraries that are not installed are skipped
and listed as such.
"""

import argparse
import heapq
import importlib
import os
import platform
import sys
import time

import longstraw

try:
    import xxhash
except ImportError:  # pragma: no cover
    xxhash = None


def optional(name):
    try:
        return importlib.import_module(name)
    except Exception as e:  # noqa: BLE001 - report any import failure
        SKIPPED[name] = f"{type(e).__name__}: {e}"
        return None


SKIPPED = {}
uhashring = optional("uhashring")
fastring = optional("fastring")
clandestined = optional("clandestined")
hrw = optional("hrw")
jump = optional("jump")  # PyPI: jump-consistent-hash
pymemcache_rendezvous = optional("pymemcache.client.rendezvous")


def per_call_ns(fn, keys, passes, min_pass_s=0.05):
    """Best time per call of `fn(key)` over `passes` loops through `keys`;
    slow functions get fewer keys so that one pass stays near `min_pass_s`."""
    probe = keys[:20]
    t = time.perf_counter()
    for k in probe:
        fn(k)
    each = (time.perf_counter() - t) / len(probe)
    count = max(50, min(len(keys), int(min_pass_s / max(each, 1e-9))))
    sample = keys[:count]
    best = float("inf")
    for _ in range(passes):
        t = time.perf_counter()
        for k in sample:
            fn(k)
        best = min(best, time.perf_counter() - t)
    return best / len(sample) * 1e9


def per_key_batch_ns(fn, count, passes):
    best = float("inf")
    for _ in range(passes):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best / count * 1e9


# ---- contenders: each builds its structure for `ids` and returns a lookup ----


def pure_python_hrw(ids):
    """The HRW people write by hand: hash every (node, key), take the max."""
    nodes = [i.encode() for i in ids]
    h = xxhash.xxh3_64_intdigest

    def owner(key):
        kb = key.encode()
        return max(nodes, key=lambda n: h(n + kb))

    def top3(key):
        kb = key.encode()
        return heapq.nlargest(3, nodes, key=lambda n: h(n + kb))

    return owner, top3


TABLE_OWNER = "longstraw `Rendezvous.table(ids).owner` (partition table)"


def shape_note(ids):
    """The default shapes longstraw picks for this many nodes."""
    t, s = longstraw.Rendezvous.table(ids), longstraw.Rendezvous.skeleton(ids)
    return f"Table partition_bits={t.partition_bits}; Skeleton fanout_bits={s.fanout_bits}, levels={s.levels}"


def owner_contenders(ids):
    out = {}
    r = longstraw.Rendezvous(ids)
    out["longstraw `Rendezvous.owner`"] = r.owner
    out["longstraw `Snapshot.owner`"] = r.snapshot().owner
    t = longstraw.Rendezvous.table(ids)
    out[TABLE_OWNER] = t.owner
    out["longstraw table `Snapshot.owner`"] = t.snapshot().owner
    out["longstraw `Rendezvous.skeleton(ids).owner` (default shape)"] = longstraw.Rendezvous.skeleton(ids).owner
    if fastring:
        ring = fastring.HashRing()
        for i in ids:
            ring.add_node(i)
        out["fastring `get_node` (ketama ring, Rust)"] = ring.get_node
    if uhashring:
        out["uhashring `get_node` (ketama ring)"] = uhashring.HashRing(nodes=ids).get_node
    if jump and xxhash:
        n, h, jh = len(ids), xxhash.xxh3_64_intdigest, jump.hash
        out["jump-consistent-hash (+ xxh3 of the key)"] = lambda k: ids[jh(h(k.encode()), n)]
    if xxhash:
        out["pure-Python HRW (xxh3 per node, `max`)"] = pure_python_hrw(ids)[0]
    if clandestined:
        out["clandestined `find_node` (HRW)"] = clandestined.RendezvousHash(nodes=list(ids)).find_node
    if pymemcache_rendezvous:
        out["pymemcache `RendezvousHash` (HashClient default)"] = (
            pymemcache_rendezvous.RendezvousHash(nodes=list(ids)).get_node
        )
    if hrw:
        b = [i.encode() for i in ids]
        out["hrw `choose(k=1)` (sha256 HRW)"] = lambda k: hrw.choose(k.encode(), b, k=1)[0][0]
    return out


def top3_contenders(ids):
    out = {}
    r = longstraw.Rendezvous(ids)
    out["longstraw `top_k(key, 3)`"] = lambda k: r.top_k(k, 3)
    t = longstraw.Rendezvous.table(ids, replicas=3)
    out["longstraw `Table.top_k(key, 3)` (replicas=3)"] = lambda k: t.top_k(k, 3)
    if fastring:
        ring = fastring.HashRing()
        for i in ids:
            ring.add_node(i)
        out["fastring `get_replicas(count=3)`"] = lambda k: ring.get_replicas(k, count=3)
    if uhashring:
        u = uhashring.HashRing(nodes=ids)
        out["uhashring `range(size=3)`"] = lambda k: list(u.range(k, size=3, unique=True))
    if xxhash:
        out["pure-Python HRW (`heapq.nlargest`)"] = pure_python_hrw(ids)[1]
    if hrw:
        b = [i.encode() for i in ids]
        out["hrw `choose(k=3)`"] = lambda k: hrw.choose(k.encode(), b, k=3)[0]
    return out


def batch_contenders(ids, keys):
    out = {}
    r = longstraw.Rendezvous(ids)
    snap = r.snapshot()
    packed, offsets = longstraw.pack(keys)
    offsets32 = offsets.astype("uint32") if hasattr(offsets, "astype") else offsets
    out["longstraw `Snapshot.owner_indices` (packed buffer)"] = lambda: snap.owner_indices(packed, offsets32)
    out["longstraw `owners(list)`"] = lambda: r.owners(keys)
    table_snap = longstraw.Rendezvous.table(ids).snapshot()
    out["longstraw table `Snapshot.owner_indices` (packed buffer)"] = lambda: table_snap.owner_indices(packed, offsets32)
    if fastring:
        ring = fastring.HashRing()
        for i in ids:
            ring.add_node(i)
        out["fastring `get_node_batch(list)`"] = lambda: ring.get_node_batch(keys)
    return out


def fmt_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.0f} ns" if ns >= 100 else f"{ns:.1f} ns"


def table(title, rows, base_name):
    base = rows[base_name]
    print(f"\n### {title}\n")
    print("| library | time per key | its time / longstraw's |")
    print("| --- | ---: | ---: |")
    for name, ns in sorted(rows.items(), key=lambda kv: kv[1]):
        print(f"| {name} | {fmt_ns(ns)} | {ns / base:.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer passes and keys (smoke run)")
    ap.add_argument("--sizes", default="10,100,1000")
    args = ap.parse_args()
    passes = 2 if args.quick else 5
    n_keys = 5_000 if args.quick else 20_000
    n_batch = 20_000 if args.quick else 200_000
    sizes = [int(s) for s in args.sizes.split(",")]
    keys = [f"user:{i}" for i in range(n_keys)]
    batch_keys = [f"user:{i}" for i in range(n_batch)]

    print("## longstraw Python benchmark\n")
    print(f"- command: `{' '.join([os.path.relpath(sys.executable)] + sys.argv)}`")
    print(f"- longstraw {longstraw.__version__}, kernel `{longstraw.backend()}`, CPython {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores")
    print(f"- load average before the run: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (other work on the machine skews timings)")
    print(f"- keys: `user:<i>` strings; owner/top-3: best of {passes} passes over up to {n_keys} keys; batch: {n_batch} keys")
    if SKIPPED:
        for name, why in SKIPPED.items():
            print(f"- skipped `{name}`: {why}")

    floor = per_call_ns(len, keys, passes)
    print(f"- floor: a Python loop calling the builtin `len(key)` costs {fmt_ns(floor)} per key")
    one = per_call_ns(longstraw.Rendezvous(["only-node"]).owner, keys, passes)
    print(
        f"- longstraw `owner()` with 1 node (the binding's cost: call, key conversion, "
        f"snapshot load, returning the id) costs {fmt_ns(one)} per key"
    )

    summary = {}
    for n in sizes:
        ids = [f"node-{i}" for i in range(n)]
        start = time.perf_counter()
        longstraw.Rendezvous.table(ids)
        build = time.perf_counter() - start
        print(f"\n- n = {n}: default shapes {shape_note(ids)}; `Rendezvous.table(ids)` builds in {fmt_ns(build * 1e9)}")
        rows = {name: per_call_ns(fn, keys, passes) for name, fn in owner_contenders(ids).items()}
        table(f"owner(key), n = {n}", rows, "longstraw `Rendezvous.owner`")
        summary[n] = rows
        rows = {name: per_call_ns(fn, keys, passes) for name, fn in top3_contenders(ids).items()}
        table(f"top-3 replicas, n = {n}", rows, "longstraw `top_k(key, 3)`")
        rows = {
            name: per_key_batch_ns(fn, len(batch_keys), passes)
            for name, fn in batch_contenders(ids, batch_keys).items()
        }
        table(f"batch of {n_batch} keys, n = {n} (time per key)", rows, "longstraw `Snapshot.owner_indices` (packed buffer)")
        summary[(n, "batch")] = rows

    print("\n### goals: calls from Python\n")
    ls = "longstraw `Rendezvous.owner`"
    if 100 in summary:
        r = summary[100]
        print(f"- owner() at n = 100: {fmt_ns(r[ls])} (goal <= 250 ns)")
        u = r.get("uhashring `get_node` (ketama ring)")
        if u:
            print(f"- vs uhashring at n = 100: {u / r[ls]:.1f}x faster (goal >= 10x)")
        p = r.get("pure-Python HRW (xxh3 per node, `max`)")
        if p:
            print(f"- vs pure-Python HRW at n = 100: {p / r[ls]:.1f}x faster (goal >= 80x)")
    if 1000 in summary:
        r = summary[1000]
        f = r.get("fastring `get_node` (ketama ring, Rust)")
        if f:
            print(f"- owner() at n = 1000 vs fastring: {r[ls] / f:.1f}x its time (goal: within 2x with flat HRW)")
    if (10, "batch") in summary:
        b = summary[(10, "batch")]["longstraw `Snapshot.owner_indices` (packed buffer)"]
        print(f"- buffer batch per key at n = 10: {fmt_ns(b)} (goal <= 30 ns)")

    print("\n### goals: placement at scale\n")
    for n in sizes:
        r = summary[n]
        f = r.get("fastring `get_node` (ketama ring, Rust)")
        versus = f"; fastring {fmt_ns(f)}, Table's time / fastring's {r[TABLE_OWNER] / f:.2f}" if f else ""
        print(f"- `Rendezvous.table(ids).owner()` at n = {n}: {fmt_ns(r[TABLE_OWNER])}{versus}")
    if 1000 in summary and "fastring `get_node` (ketama ring, Rust)" in summary[1000]:
        r = summary[1000]
        faster = r[TABLE_OWNER] < r["fastring `get_node` (ketama ring, Rust)"]
        print(f"- goal (the partition table faster than fastring at n = 1000): {'met' if faster else 'not met'}")


if __name__ == "__main__":
    main()
