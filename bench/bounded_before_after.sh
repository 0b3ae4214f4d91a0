#!/usr/bin/env bash
# Bounded loads' acquire + release against owner at n = 50 (`bounded_cost`), for a baseline build and this
# tree's: callgrind instructions per operation (two runs of L and 3L operations, subtracted, cancel the
# setup), then timing rounds alternating the two binaries so that load drifts hit both alike (each table
# is one process: compare acquire with owner within a table). The baseline is `bounded_cost` built from
# the baseline's set/ (copy bench/src/bin/bounded_cost.rs into a checkout of it and build it there).
# Usage: bench/bounded_before_after.sh BASE_BOUNDED_COST [ROUNDS] [ROUNDS_PER_TABLE]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/bounded_before_after.sh BASE_BOUNDED_COST [ROUNDS] [ROUNDS_PER_TABLE]}
rounds=${2:-3}
per=${3:-5}
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-bench --bin bounded_cost
after=$target/release/bounded_cost
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
echo "### bounded instructions per operation (callgrind), n = 50"
echo
echo "| build | owner | acquire + release | acquire_owned + release | acquire - owner |"
echo "|---|---|---|---|---|"
l=20000
for which in before after; do
    bin=$base
    [ "$which" = after ] && bin=$after
    row="| $which |"
    for op in owner acquire acquire_owned; do
        a=$(count "$bin" count "$op" "$l")
        b=$(count "$bin" count "$op" $((3 * l)))
        v=$(python3 -c "print(f'{($b-$a)/(2*$l):.0f}')")
        row="$row $v |"
        eval "ins_$op=$v"
    done
    echo "$row $((ins_acquire - ins_owner)) |"
done
echo
for r in $(seq "$rounds"); do
    "$base" time "$per" "before, round $r"
    echo
    "$after" time "$per" "after, round $r"
    echo
done
