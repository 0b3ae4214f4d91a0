#!/usr/bin/env bash
# The command's throughput goal: the `longstraw` command places 10^7 keys (`user:<i>`, one per line, read
# from a file) in at most 3 s. Prints one Markdown table of wall and CPU time per output format, for
# bench/record.py:
#   bench/cli_throughput.sh [KEYS] | python3 bench/record.py --run cli-throughput --command 'bench/cli_throughput.sh'
set -euo pipefail
cd "$(dirname "$0")/.."
keys=${1:-10000000}
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release -p longstraw-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seq 1 "$keys" | sed 's/^/user:/' > "$work/keys"
members=docs/examples/members.toml
echo "### longstraw owner, $keys keys from a file, $(grep -c '^\[\[nodes\]\]' "$members") nodes"
echo
echo "| output | wall | user + sys CPU | keys per second (wall) |"
echo "|---|---|---|---|"
for format in text summary json; do
  # %e wall seconds, %U + %S CPU seconds, from GNU time.
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$target/release/longstraw" owner -m "$members" \
    --keys-file "$work/keys" --format "$format" > /dev/null
  read -r wall user sys < "$work/time"
  awk -v f="$format" -v w="$wall" -v u="$user" -v s="$sys" -v n="$keys" \
    'BEGIN { printf "| %s | %.2f s | %.2f s | %.3g |\n", f, w, u + s, n / w }'
done
