#!/usr/bin/env bash
# Weighted owner at small n, a baseline build against this tree's, in one run:
# instructions per owner() under callgrind (load-independent; valgrind has no
# AVX-512, so avx2 and sse2), plain and weighted4 of both builds, then ns per
# owner() from `weighted_race` (best of 5 interleaved rounds per process) on
# avx512 and avx2 (those this CPU has), before and after alternating.
# Usage: bench/weighted_small_n.sh BASE_COUNT BASE_WEIGHTED_RACE [ROUNDS] [MILLIS]
set -euo pipefail
cd "$(dirname "$0")/.."
base_count=${1:?usage: bench/weighted_small_n.sh BASE_COUNT BASE_WEIGHTED_RACE [ROUNDS] [MILLIS]}
base_race=${2:?usage: bench/weighted_small_n.sh BASE_COUNT BASE_WEIGHTED_RACE [ROUNDS] [MILLIS]}
rounds=${3:-2}
millis=${4:-30}
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-bench --bin count --bin weighted_race
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
per_lookup() {
    local bin=$1 backend=$2 op=$3 n=$4 a b
    a=$(count "$bin" "$backend" "$op" "$n" 2000)
    b=$(count "$bin" "$backend" "$op" "$n" 6000)
    echo $(((b - a) / 4000))
}
for backend in avx2 sse2; do
    echo "### $backend: instructions per owner()"
    echo
    echo "| n | plain before | plain | weighted4 before | weighted4 after | weighted4 before - plain before | weighted4 after - plain | distinct before | distinct after |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for n in 8 64 512; do
        pb=$(per_lookup "$base_count" "$backend" plain "$n")
        p=$(per_lookup "$target/release/count" "$backend" plain "$n")
        w4b=$(per_lookup "$base_count" "$backend" weighted4 "$n")
        w4a=$(per_lookup "$target/release/count" "$backend" weighted4 "$n")
        wdb=$(per_lookup "$base_count" "$backend" weighted_distinct "$n")
        wda=$(per_lookup "$target/release/count" "$backend" weighted_distinct "$n")
        echo "| $n | $pb | $p | $w4b | $w4a | $((w4b - pb)) | $((w4a - p)) | $wdb | $wda |"
    done
    echo
done
# Time each ISA this CPU has; say which it lacks (the instruction counts above
# do not depend on it).
isas=
for isa in avx512 avx2; do
    if "$target/release/weighted_race" "$isa" 1 >/dev/null 2>&1; then
        isas="$isas $isa"
    else
        echo "- $isa: not timed, this CPU does not support it"
        echo
    fi
done
for r in $(seq "$rounds"); do
    for isa in $isas; do
        for which in before after; do
            bin=$base_race
            [ "$which" = after ] && bin=$target/release/weighted_race
            echo "### $isa $which, round $r"
            echo
            "$bin" "$isa" "$millis" | sed -n '/^|/p'
            echo
        done
    done
done
