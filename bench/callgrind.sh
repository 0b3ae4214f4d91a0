#!/usr/bin/env bash
# Instructions per lookup and per node-score under callgrind, for the backends
# valgrind can run (it has no AVX-512). Two runs with L and 3L lookups
# (L = max(20, 200000 / n)), subtracted, cancel the setup.
# Usage: bench/callgrind.sh [backends...]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-bench --bin count
bin="$target/release/count"
backends=("${@:-scalar sse2 avx2}")
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
echo "| backend | operation | n | instr/lookup | instr/node-score |"
echo "|---|---|---|---|---|"
for backend in ${backends[*]}; do
    for op in plain weighted4 weighted_distinct top3; do
        for n in 8 64 512 4096; do
            lookups=$((200000 / n > 20 ? 200000 / n : 20))
            a=$(count "$backend" "$op" "$n" "$lookups")
            b=$(count "$backend" "$op" "$n" $((3 * lookups)))
            python3 -c "d=($b-$a)/(2*$lookups); print(f'| $backend | $op | $n | {d:.0f} | {d/$n:.2f} |')"
        done
    done
done
