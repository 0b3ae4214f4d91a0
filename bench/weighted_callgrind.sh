#!/usr/bin/env bash
# Instructions per owner() of the weighted layouts against plain,
# under callgrind (load-independent; valgrind has no AVX-512, so avx2 and
# sse2), for this tree's `count` and, side by side, a baseline `count` built
# from an older commit. Runs of L and 3L lookups are subtracted (as in
# bench/callgrind.sh) so that setup cancels.
# Usage: bench/weighted_callgrind.sh BASELINE_COUNT_BINARY [backends...]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/weighted_callgrind.sh BASELINE_COUNT_BINARY [backends...]}
shift
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-bench --bin count
new="$target/release/count"
backends=("${@:-avx2}")
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
per_lookup() {
    local bin=$1 backend=$2 op=$3 n=$4
    local lookups=$((100000 / n > 20 ? 100000 / n : 20))
    local a b
    a=$(count "$bin" "$backend" "$op" "$n" "$lookups")
    b=$(count "$bin" "$backend" "$op" "$n" $((3 * lookups)))
    python3 -c "print(round(($b-$a)/(2*$lookups)))"
}
for backend in ${backends[*]}; do
    echo "### $backend: instructions per owner()"
    echo
    echo "| n | plain | weighted4 before | weighted4 after | weighted4 after - plain | distinct before | distinct after | distinct after / plain |"
    echo "|---|---|---|---|---|---|---|---|"
    for n in 8 64 512 4096; do
        p=$(per_lookup "$new" "$backend" plain "$n")
        w4b=$(per_lookup "$base" "$backend" weighted4 "$n")
        w4a=$(per_lookup "$new" "$backend" weighted4 "$n")
        wdb=$(per_lookup "$base" "$backend" weighted_distinct "$n")
        wda=$(per_lookup "$new" "$backend" weighted_distinct "$n")
        python3 -c "print(f'| $n | $p | $w4b | $w4a | {$w4a-$p} | $wdb | $wda | {$wda/$p:.2f}x |')"
    done
    echo
done
