"""String batches, Python rows: `owners(list_of_str)` against its baselines, side by side in one run.

    .venv/bin/python bench/strings/python_strings.py [--quick] [--baseline DIR/_longstraw.abi3.so] \
        | python3 bench/record.py --run python-strings --command '...'

At n = 10 nodes, time per key of: a Python loop calling `owner()` (the per-key path), the packed
buffer batch `Snapshot.owner_indices` over keys packed in advance (the floor a batch of `str` can
approach), and `owners(list)` on the set and on a snapshot, for ASCII keys and for non-ASCII keys.
Each figure is the best of several passes; the ratio column divides by the packed batch.
`--baseline` loads another build of the extension module (for example main before this change) and
measures its rows in the same run, each next to the current build's.
"""

import argparse
import importlib.util
import os
import platform
import sys
import time

import longstraw


def best_ns_per_key(fn, count, passes):
    """The fastest of `passes` calls of `fn` (which handles `count` keys), per key: on a
    shared, loaded machine most passes are preempted, and the fastest is the least disturbed."""
    fn()  # warm up (first call builds caches, pages memory in)
    best = float("inf")
    for _ in range(passes):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best / count * 1e9


def loop_of(fn, keys):
    def run():
        for k in keys:
            fn(k)

    return run


def load_baseline(path):
    """Another build of `_longstraw` under its own package name, next to `longstraw`."""
    spec = importlib.util.spec_from_file_location("longstraw_baseline._longstraw", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def contenders(lib, label, ids, ascii_keys, other_keys):
    """(name, fn) for each row; every fn handles all the keys once."""
    r = lib.Rendezvous(ids)
    snap = r.snapshot()
    packed, offsets = longstraw.pack(ascii_keys)
    return [
        (f"{label}owner() in a Python loop", loop_of(r.owner, ascii_keys)),
        (f"{label}Snapshot.owner_indices (keys packed in advance)", lambda: snap.owner_indices(packed, offsets)),
        (f"{label}Rendezvous.owners(list of str)", lambda: r.owners(ascii_keys)),
        (f"{label}Snapshot.owners(list of str)", lambda: snap.owners(ascii_keys)),
        (f"{label}Rendezvous.owners(list of non-ASCII str)", lambda: r.owners(other_keys)),
        (f"{label}Rendezvous.owners(tuple of str)", lambda: r.owners(tuple(ascii_keys))),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--nodes", type=int, default=10)
    ap.add_argument("--baseline", help="path of another build's _longstraw.abi3.so, measured in the same run")
    args = ap.parse_args()
    # Short passes (a few ms each), many of them: the fastest fits in one time slice.
    passes = 15 if args.quick else 60
    count = 20_000
    ids = [f"node-{i}" for i in range(args.nodes)]
    ascii_keys = [f"user:{i}" for i in range(count)]
    other_keys = [f"ключ-{i}-键" for i in range(count)]
    current = contenders(longstraw, "", ids, ascii_keys, other_keys)
    before = contenders(load_baseline(args.baseline), "baseline: ", ids, ascii_keys, other_keys) if args.baseline else []
    # Each row is measured right after the same row of the baseline, so that
    # both see the same load on the machine.
    rows, measured = {}, {}
    for i, (name, fn) in enumerate(current):
        if before:
            measured[before[i][0]] = best_ns_per_key(before[i][1], count, passes)
        rows[name] = best_ns_per_key(fn, count, passes)
    rows.update(measured)
    base = rows["Snapshot.owner_indices (keys packed in advance)"]

    print("## longstraw Python string batches\n")
    print(f"- command: `{' '.join([os.path.relpath(sys.executable)] + sys.argv)}`")
    print(
        f"- longstraw {longstraw.__version__}, kernel `{longstraw.backend()}`, CPython {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"- n = {args.nodes} nodes; {count} keys (`user:<i>`, and `ключ-<i>-键` for non-ASCII); fastest of {passes} passes, each over all keys")
    print("- the tuple row includes building the tuple from the list in each pass")
    if args.baseline:
        print(f"- rows named `baseline:` run `{args.baseline}` (another build of the module) in this same process")
    print()
    print(f"### n = {args.nodes}, time per key\n")
    print("| call | time per key | its time / the packed batch's |")
    print("| --- | ---: | ---: |")
    for name, ns in rows.items():
        print(f"| {name} | {ns:.1f} ns | {ns / base:.2f} |")
    goal = rows["Rendezvous.owners(list of str)"]
    if args.baseline:
        before = rows["baseline: Rendezvous.owners(list of str)"]
        print(f"\n- `owners(list_of_str)`: baseline {before:.1f} ns per key, now {goal:.1f} ns ({before / goal:.2f}x faster)")
    print(f"\n- goal: `owners(list_of_str)` at n = {args.nodes} <= 25 ns per key: {goal:.1f} ns, "
          f"{'met' if goal <= 25 else 'not met'}")


if __name__ == "__main__":
    main()
