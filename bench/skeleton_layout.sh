#!/bin/sh
# The skeleton at 10^5 and 10^6 nodes, before and after, in one run: lookup CPU time (owner, top_k 3),
# one change's CPU time at 10^6, heap bytes per node, and per-lookup instructions and cache misses under
# cachegrind (AVX2: valgrind has no AVX-512; simulated caches: D1 48 KiB 12-way, last level 2 MiB 16-way,
# the per-core L2 of the machine the timings come from). Two cachegrind runs with L and 3L lookups,
# subtracted, cancel the set's construction.
# BEFORE: a skeleton-layout binary built from the old commit (copy bench/scale/src/bin/skeleton-layout.rs
# into an unpacked `git archive OLD` and build it there).
# Usage: BEFORE=/tmp/old/target/release/skeleton-layout sh bench/skeleton_layout.sh | python3 bench/record.py ...
set -eu
B=${BEFORE:?set BEFORE to the old build of skeleton-layout}
A=${AFTER:-$(dirname "$0")/../target/release/skeleton-layout}
"$B" before lookups 100000 1000000
"$A" after lookups 100000 1000000
"$B" "before, second pass" lookups 100000 1000000
"$A" "after, second pass" lookups 100000 1000000
"$B" before changes 1000000
"$A" after changes 1000000
"$B" before bytes 100000 1000000
"$A" after bytes 100000 1000000
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
echo "## owner lookups under cachegrind (avx2), per lookup"
echo
echo "| build | n | instructions | D1 misses | LL misses |"
echo "|---|---|---|---|---|"
L=100000
for n in 100000 1000000; do
    for build in before after; do
        if [ "$build" = before ]; then bin=$B; else bin=$A; fi
        set -- $(grind "$bin" count "$n" "$L") $(grind "$bin" count "$n" $((3 * L)))
        python3 -c "l=2*$L; print(f'| $build | $n | {($4-$1)/l:.0f} | {($5-$2)/l:.2f} | {($6-$3)/l:.2f} |')"
    done
done
