#!/usr/bin/env bash
# Where the time of the string batches goes: perf (cpu-clock; this VM
# has no hardware counters) over a loop of each call at n = 10, self time by
# symbol, top 25. Writes bench/runs/<date>-strings/profile-*.txt.
#
#   bench/strings/profile.sh [baseline-dir]   (baseline-dir: longstraw.node of another build)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/bench/runs/$(date -u +%Y-%m-%d)-strings
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cat > "$TMP/loop.js" <<'JS'
const addon = process.argv[2]
const { Rendezvous } = require(addon)
const r = new Rendezvous(Array.from({ length: 10 }, (_, i) => `10.0.0.${i}:11211`))
const keys = Array.from({ length: 50000 }, (_, i) => `user:${i}:${(i * 2654435761) >>> 0}`)
let sink = 0
for (let round = 0; round < Number(process.argv[4]); round++) {
  if (process.argv[3] === 'owners') sink += r.owners(keys).length
  else for (const k of keys) sink += r.owner(k).length
}
if (sink === 0.5) console.log(sink)
JS
cat > "$TMP/loop.py" <<'PY'
import sys
import longstraw
r = longstraw.Rendezvous([f"node-{i}" for i in range(10)])
keys = [f"user:{i}" for i in range(200_000)]
for _ in range(int(sys.argv[1])):
    r.owners(keys)
PY

report() { # name, command...
  local name=$1; shift
  perf record -q -e cpu-clock -F 2000 -o "$TMP/perf.data" -- "$@" >/dev/null 2>&1
  { echo "# $name: $*"; echo "# perf record -e cpu-clock -F 2000; self time by symbol (top 25)"
    perf report -i "$TMP/perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null > "$TMP/report.txt"
    grep -E '^ +[0-9]' "$TMP/report.txt" | cut -c1-160 | sed -n 1,25p; } > "$OUT/profile-$name.txt"
  echo "wrote $OUT/profile-$name.txt"
}

report node-owners node "$TMP/loop.js" "$ROOT/bindings/node" owners 200
report node-owner node "$TMP/loop.js" "$ROOT/bindings/node" owner 40
report python-owners "$ROOT/.venv/bin/python" "$TMP/loop.py" 60
if [ $# -ge 1 ]; then
  report baseline-node-owners node "$TMP/loop.js" "$1" owners 40
  report baseline-node-owner node "$TMP/loop.js" "$1" owner 40
fi
