#!/bin/sh
# Skeleton owner lookups of several builds of skeleton-layout (bench/scale/src/bin/skeleton-layout.rs) in
# one run: CPU time per owner_index at 10^5 and 10^6 nodes (ROUNDS rounds, the builds alternating in each,
# every round the best of 5 passes; the median of the rounds), heap bytes per node, instructions and
# simulated cache misses per lookup under cachegrind (AVX2: valgrind has no AVX-512; D1 48 KiB 12-way,
# last level 2 MiB 16-way, as bench/skeleton_layout.sh; valgrind runs no prefetch instruction, so these
# count the misses of the demand loads only), and instructions per lookup under callgrind (inclusive cost of
# Snapshot::owner_index) for the builds in CALLGRIND. Two valgrind runs with L and 3L lookups, subtracted,
# cancel the set's construction.
# GRIND=0 skips the valgrind tables (a build that differs only in its environment, such as a wrapper
# script, counts the same instructions and misses).
# Usage: sh bench/skeleton_prefetch.sh LABEL=BINARY... | python3 bench/record.py --run ... --command ...
# A build with the candidate prefetch: `git apply bench/patches/skeleton-candidate-prefetch.diff` on the
# commit the run names (its SPEC_FAMILIES and SPEC_LEAVES pick the levels), then
# `cargo build --release -p longstraw-bench-scale --bin skeleton-layout`.
set -eu
ROUNDS=${ROUNDS:-3}
CALLGRIND=${CALLGRIND:-}
L=${LOOKUPS:-100000}
SIZES=${SIZES:-100000 1000000}
PAIRS="$*"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$ROUNDS"); do
    for pair in "$@"; do
        label=${pair%%=*}
        "${pair#*=}" "$label" lookups $SIZES | grep '^| [0-9]' | while IFS='|' read -r _ n owner top _; do
            echo "$label|$(echo $n)|$(echo $owner | sed 's/ ns//')|$(echo $top | sed 's/ ns//')" >>"$out/times"
        done
    done
done
echo "## owner lookups, CPU ns per key (each round best of 5; builds alternating)"
echo
python3 - "$out/times" "$ROUNDS" "$@" <<'PY'
import statistics, sys
path, rounds, labels = sys.argv[1], int(sys.argv[2]), [p.split("=", 1)[0] for p in sys.argv[3:]]
rows = {}
for line in open(path):
    label, n, owner, top = line.strip().split("|")
    rows.setdefault((label, n), []).append((float(owner), float(top)))
print("| build | n | " + " | ".join(f"owner round {r + 1}" for r in range(rounds)) + " | owner median | top_k 3 median |")
print("|" + "---|" * (rounds + 4))
for n in sorted({k[1] for k in rows}, key=int):
    for label in labels:
        xs = rows[(label, n)]
        owners = " | ".join(f"{o:.1f} ns" for o, _ in xs)
        print(f"| {label} | {n} | {owners} | {statistics.median(o for o, _ in xs):.1f} ns"
              f" | {statistics.median(t for _, t in xs):.1f} ns |")
PY
echo
echo "## heap bytes per node held by a skeleton set (default shape)"
echo
echo "| build | n | bytes per node |"
echo "|---|---|---|"
for pair in "$@"; do
    "${pair#*=}" "${pair%%=*}" bytes $SIZES | grep '^| [0-9]' | sed "s/^/| ${pair%%=*} /"
done
echo
grind() {
    LONGSTRAW_BACKEND=avx2 valgrind --tool=cachegrind --cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64 \
        --cachegrind-out-file=/dev/null "$@" 2>&1 |
        python3 -c '
import re, sys
t = sys.stdin.read()
def get(name):
    return int(re.search(name + r":\s+([\d,]+)", t).group(1).replace(",", ""))
print(get(r"I\s+refs"), get(r"D1\s+misses"), get(r"LLd misses"))'
}
call() {
    LONGSTRAW_BACKEND=avx2 valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$@" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" 2>/dev/null |
        python3 -c '
import re, sys
best = 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \([^)]*\)\s+\S+?:(.*?)( \[\S+\])?\s*$", line)
    if m and re.search(r"Snapshot::owner_index$", m.group(2).strip()):
        best = max(best, int(m.group(1).replace(",", "")))
print(best)'
}
[ "${GRIND:-1}" = 0 ] && exit 0
echo "## owner lookups under cachegrind (avx2), per lookup"
echo
echo "| build | n | instructions | D1 misses | LL misses |"
echo "|---|---|---|---|---|"
for n in $SIZES; do
    for pair in $PAIRS; do
        set -- $(grind "${pair#*=}" count "$n" "$L") $(grind "${pair#*=}" count "$n" $((3 * L)))
        python3 -c "l=2*$L; print(f'| ${pair%%=*} | $n | {($4-$1)/l:.0f} | {($5-$2)/l:.2f} | {($6-$3)/l:.2f} |')"
    done
done
if [ -n "$CALLGRIND" ]; then
    echo
    echo "## owner lookups under callgrind (avx2), instructions per lookup in Snapshot::owner_index"
    echo
    echo "| build | n | instructions |"
    echo "|---|---|---|"
    for n in $SIZES; do
        for pair in $CALLGRIND; do
            a=$(call "${pair#*=}" count "$n" "$L")
            b=$(call "${pair#*=}" count "$n" $((3 * L)))
            python3 -c "print(f'| ${pair%%=*} | $n | {($b-$a)/(2*$L):.0f} |')"
        done
    done
fi
