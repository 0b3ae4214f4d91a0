#!/usr/bin/env bash
# The weighted owner against plain (`weighted_race`) and the
# skeleton owner at n = 10^5 (`lookup-quick`), for a baseline build and this
# tree's, alternating ROUNDS times so that load drifts hit both alike. Each
# `weighted_race` table is one process with plain, weighted4 and
# weighted_distinct interleaved: compare the ratios within a table.
# Usage: bench/weighted_before_after.sh BASE_WEIGHTED_RACE BASE_LOOKUP_QUICK [ROUNDS] [MILLIS]
set -euo pipefail
cd "$(dirname "$0")/.."
base_race=${1:?usage: bench/weighted_before_after.sh BASE_WEIGHTED_RACE BASE_LOOKUP_QUICK [ROUNDS] [MILLIS]}
base_quick=${2:?usage: bench/weighted_before_after.sh BASE_WEIGHTED_RACE BASE_LOOKUP_QUICK [ROUNDS] [MILLIS]}
rounds=${3:-2}
millis=${4:-60}
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-bench --bin weighted_race
cargo build --quiet --release -p longstraw-bench-scale --bin lookup-quick
for r in $(seq "$rounds"); do
    for which in before after; do
        bin=$base_race
        [ "$which" = after ] && bin=$target/release/weighted_race
        echo "### $which, round $r"
        echo
        "$bin" avx512 "$millis" | sed -n '/^|/p'
        echo
    done
done
echo "### skeleton owner at n = 100000, default shape (4, 3), ns per lookup (best of 5 passes)"
echo
header="| build |"
sep="|---|"
for r in $(seq "$rounds"); do header="$header round $r |"; sep="$sep---|"; done
before="| before |"
after="| after |"
for r in $(seq "$rounds"); do
    b=$("$base_quick" 100000 | grep -o '[0-9.]* ns/lookup' | grep -o '^[0-9.]*')
    a=$("$target/release/lookup-quick" 100000 | grep -o '[0-9.]* ns/lookup' | grep -o '^[0-9.]*')
    before="$before $b ns |"
    after="$after $a ns |"
done
echo "$header"
echo "$sep"
echo "$before"
echo "$after"
