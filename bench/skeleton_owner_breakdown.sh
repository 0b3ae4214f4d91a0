#!/bin/sh
# Where a skeleton owner lookup at n = 10^5 (default shape (4, 3)) spends its
# instructions, before and after, under callgrind (AVX2: valgrind has no
# AVX-512): the inclusive cost per lookup of each part, from two runs with L
# and 3L lookups subtracted (which cancels the set's construction).
# BEFORE / AFTER: skeleton-layout binaries (see bench/skeleton_layout.sh).
# Usage: BEFORE=... AFTER=... sh bench/skeleton_owner_breakdown.sh | python3 bench/record.py ...
set -eu
B=${BEFORE:?set BEFORE to the old build of skeleton-layout}
A=${AFTER:-$(dirname "$0")/../target/release/skeleton-layout}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
L=100000
for build in before after; do
    if [ "$build" = before ]; then bin=$B; else bin=$A; fi
    for l in $L $((3 * L)); do
        LONGSTRAW_BACKEND=avx2 valgrind --tool=callgrind --callgrind-out-file="$out/$build.$l" "$bin" count 100000 "$l" >/dev/null 2>&1
        callgrind_annotate --inclusive=yes --threshold=100 "$out/$build.$l" > "$out/$build.$l.txt" 2>/dev/null
    done
done
python3 - "$out" "$L" <<'PY'
import re, sys
out, L = sys.argv[1], int(sys.argv[2])
# (row label, pattern of the function as callgrind names it)
PARTS = [
    ("whole lookup (Snapshot::owner_index)", r"Snapshot::owner_index$"),
    ("Skeleton::owner_of_hash", r"Skeleton::owner_of_hash$"),
    ("level races (3 levels, column kernel)", r"avx2::group_race$"),
    ("near-tie fallback (the exact race)", r"race_tight$"),
    ("leaf: leaf_owner", r"Skeleton::leaf_owner$"),
    ("leaf: the v1 race over ~24 nodes", r"avx2::owner$"),
    ("leaf: finding the chunk (LeafSource::leaf)", r"LeafSource>::leaf$"),
]
def load(path):
    d = {}
    for line in open(path):
        # "cost (pct)  file:function [object]"; a function inlined from
        # several files has a line per file: its largest is the total.
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S+?):(.*?)( \[\S+\])?\s*$", line)
        if m:
            name = m.group(3).strip()
            d[name] = max(d.get(name, 0), int(m.group(1).replace(",", "")))
    return d
def part(build, pat):
    a, b = load(f"{out}/{build}.{L}.txt"), load(f"{out}/{build}.{3 * L}.txt")
    keys = [k for k in set(a) | set(b) if re.search(pat, k)]
    return sum(b.get(k, 0) - a.get(k, 0) for k in keys) / (2 * L)
print("## skeleton owner at n = 100000, instructions per lookup by part (callgrind, avx2)")
print()
print("| part | before | after |")
print("|---|---|---|")
for label, pat in PARTS:
    print(f"| {label} | {part('before', pat):.0f} | {part('after', pat):.0f} |")
PY
