#!/usr/bin/env bash
# Instructions per skeleton owner lookup at n = 10^5 (default
# shape (4, 3)) under callgrind (load-independent; valgrind has no AVX-512,
# so the backend is forced to AVX2), for a baseline `lookup-quick` and this
# tree's: the inclusive cost of `Skeleton::owner_of_hash` and of the level
# races (`group_race`), divided by the 5 x 16 x 65536 lookups the binary makes.
# Usage: bench/skeleton_callgrind.sh BASE_LOOKUP_QUICK
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/skeleton_callgrind.sh BASE_LOOKUP_QUICK}
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-bench-scale --bin lookup-quick
lookups=$((5 * 16 * 65536))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
row() {
    local name=$1 bin=$2
    LONGSTRAW_BACKEND=avx2 valgrind --tool=callgrind --callgrind-out-file="$out/$name" "$bin" 100000 > /dev/null 2>&1
    local total level
    callgrind_annotate --inclusive=yes "$out/$name" > "$out/$name.txt"
    total=$(awk '/Skeleton::owner_of_hash \[/ {gsub(",", "", $1); print $1; exit}' "$out/$name.txt")
    level=$(awk '/group_race/ {gsub(",", "", $1); print $1; exit}' "$out/$name.txt")
    python3 -c "print(f'| $name | {$total / $lookups:.0f} | {$level / $lookups:.0f} |')"
}
echo "### skeleton owner at n = 100000, instructions per lookup (avx2)"
echo
echo "| build | owner_of_hash | level races |"
echo "|---|---|---|"
row before "$base"
row after "$target/release/lookup-quick"
