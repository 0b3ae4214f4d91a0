#!/bin/sh
# Instructions per flat lookup through a Snapshot, before and after (load-independent; valgrind has no
# AVX-512, so the kernels run on AVX2). Two runs with L and 3L lookups, subtracted, cancel the setup.
# Usage: BEFORE=/old/build/membership-change sh bench/scale/membership_change_callgrind.sh
set -eu
B=${BEFORE:?set BEFORE to the old build of membership-change}
A=${AFTER:-$(dirname "$0")/../../target/release/membership-change}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
echo "## instructions per flat lookup (callgrind, AVX2)"
echo
echo "| layout | n | before | after | after - before |"
echo "|---|---|---|---|---|"
for layout in owner batch; do
    for n in 10 100 4096; do
        if [ "$layout" = owner ]; then l=$((200000 / n > 100 ? 200000 / n : 100)); per=1; else l=4; per=4096; fi
        b1=$(count "$B" count "$layout" "$n" "$l"); b3=$(count "$B" count "$layout" "$n" $((3 * l)))
        a1=$(count "$A" count "$layout" "$n" "$l"); a3=$(count "$A" count "$layout" "$n" $((3 * l)))
        python3 -c "b=($b3-$b1)/(2*$l*$per); a=($a3-$a1)/(2*$l*$per); print(f'| $layout | $n | {b:.1f} | {a:.1f} | {a-b:+.1f} |')"
    done
done
