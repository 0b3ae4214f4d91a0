#!/bin/sh
# docs/MIXER.md's timings come from the mixer prototype's kept raw output,
# tools/mixer-proto/results/bench.txt (`proto_mixer bench 7`), turned into a Markdown table and recorded
# by bench/record.py; nothing re-run.
set -eu
cd "$(dirname "$0")/../.."
table=$(mktemp)
trap 'rm -f "$table"' EXIT
{
  echo "### mixer prototype, ns per node-score, min of 7 runs"
  echo "| mixer, isa, n | ns/score |"
  echo "|---|---|"
  awk 'NR > 1 && NF >= 4 { printf "| %s %s %s n=%s | %s |\n", $1, $2, $3, $4, $5 }' tools/mixer-proto/results/bench.txt
} > "$table"
python3 bench/record.py --exact-id --run mixer-proto --from "$table" \
  --command './target/release/proto_mixer bench 7 (tools/mixer-proto)' \
  --meta date=unknown --meta 'cpu=AMD EPYC (Zen 4, AVX-512), 2 cores, a noisy VM' \
  --meta 'backend=scalar, avx2 and avx512 side by side' --meta 'load_average=not recorded' --meta commit=unknown \
  --provenance 'converted from tools/mixer-proto/results/bench.txt by bench/results/convert-mixer-proto.sh; not re-run'
