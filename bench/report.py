#!/usr/bin/env python3
"""Summarises criterion results (target/criterion) as markdown tables with ratios.

Usage: python3 bench/report.py [criterion_dir]   (default: $CARGO_TARGET_DIR or target, + /criterion)
Uses the median of each benchmark's last run ("new").
"""
import json
import os
import sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")
results = defaultdict(dict)  # group -> {(function, n): ns}
for dirpath, _, files in os.walk(root):
    if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
        continue
    meta = json.load(open(os.path.join(dirpath, "benchmark.json")))
    est = json.load(open(os.path.join(dirpath, "estimates.json")))
    elements = (meta.get("throughput") or {}).get("Elements")
    results[meta["group_id"]][(meta["function_id"], int(meta["value_str"]))] = (est["median"]["point_estimate"], elements)

BACKENDS = ["scalar", "sse2", "neon", "avx2", "avx512"]


def fmt(ns):
    return f"{ns / 1000:.2f} µs" if ns >= 10000 else f"{ns:.1f} ns"


def backend_table(group):
    data = results.get(group)
    if not data:
        return
    funcs = [b for b in BACKENDS if any(f == b for f, _ in data)]
    if not funcs:
        return  # another bench's group sharing target/criterion (e.g. longstraw-bench-scale's "lookup")
    sizes = sorted({n for _, n in data})
    per_lookup = "per batch" if group.startswith("batch") else "per lookup"
    print(f"\n### {group}\n")
    print(f"ns {per_lookup} / ns per node-score; last column: best backend vs forced scalar\n")
    print("| n | " + " | ".join(funcs) + " | best / scalar |")
    print("|---" * (len(funcs) + 2) + "|")
    for n in sizes:
        cells = []
        for f in funcs:
            if (f, n) in data:
                ns, el = data[(f, n)]
                cells.append(f"{fmt(ns)} / {ns / el:.3f}")
            else:
                cells.append("-")
        best = min(data[(f, n)][0] for f in funcs if (f, n) in data)
        ratio = data[("scalar", n)][0] / best if ("scalar", n) in data else float("nan")
        print(f"| {n} | " + " | ".join(cells) + f" | {ratio:.1f}x |")


def peers_table(group, reference="longstraw"):
    data = results.get(group)
    if not data:
        return
    funcs = sorted({f for f, _ in data}, key=lambda f: (f != reference, f))
    sizes = sorted({n for _, n in data})
    print(f"\n### {group}\n")
    print(f"ns per lookup (ratio = that crate's time / {reference}'s time)\n")
    print("| crate | " + " | ".join(f"n={n}" for n in sizes) + " |")
    print("|---" * (len(sizes) + 1) + "|")
    for f in funcs:
        cells = []
        for n in sizes:
            if (f, n) not in data:
                cells.append("-")
                continue
            ns = data[(f, n)][0]
            ref = data.get((reference, n), (None,))[0]
            cells.append(f"{fmt(ns)}" + (f" ({ns / ref:.1f}x)" if ref and f != reference else ""))
        print(f"| {f} | " + " | ".join(cells) + " |")


for group in sorted(results):
    if group.startswith("peers"):
        peers_table(group)
    elif group == "goals":
        peers_table(group, reference=max((f for f, _ in results[group] if f in BACKENDS), key=BACKENDS.index))
    else:
        backend_table(group)
