#!/bin/sh
# One membership change at scale, before and after, side by side in one run.
# BEFORE: a membership-change binary built from the old commit, for example
#   git archive OLD | tar -x -C /tmp/old && cp bench/scale/src/bin/membership-change.rs /tmp/old/bench/scale/src/bin/
#   (and bench/scale/Cargo.toml), then cargo build --release -p longstraw-bench-scale --bin membership-change there.
# AFTER: this tree's (default target/release/membership-change).
# Usage: BEFORE=/tmp/old/target/release/membership-change sh bench/scale/membership_change_ab.sh | python3 bench/record.py ...
set -eu
B=${BEFORE:?set BEFORE to the old build of membership-change}
A=${AFTER:-$(dirname "$0")/../../target/release/membership-change}
OLD=${BEFORE_LABEL:-main}
"$B" "before ($OLD)" 10000 100000 1000000
"$A" "after" 10000 100000 1000000
"$B" "before, second run" 1000000
"$A" "after, second run" 1000000
for i in 1 2 3; do
    "$B" "lookups before, pass $i" lookups
    "$A" "lookups after, pass $i" lookups
done
