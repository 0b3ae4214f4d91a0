#!/bin/sh
# How the 2026-11-29 result files were made: the raw output kept in bench/runs/ converted by
# bench/record.py, nothing re-run. Metadata comes from bench/runs/*/README.md and the outputs' headers.
set -eu
cd "$(dirname "$0")/../.."
R=bench/runs/2026-11-29-avx512
T=bench/runs/2026-11-29-transcribed
CPU="AMD EPYC (Zen 4, AVX-512), 2 vCPUs shared with other sessions' builds, 24 GiB"
conv() { # id source command backend load commit provenance-extra
  python3 bench/record.py --exact-id --run "$1" --from "$2" --command "$3" \
    --meta date=2026-11-29 --meta "cpu=$CPU" --meta "backend=$4" --meta "load_average=$5" \
    --meta "commit=$6" --provenance "converted from $2 by bench/record.py; not re-run. $7"
}
conv 2026-11-29-python $R/bench-python-run.txt 'make bench-python' avx512 '3.18 2.02 2.09 (before)' 196e993 ''
conv 2026-11-29-node $R/bench-node-run.txt 'make bench-node' avx512 '3.7 2.9 2.4 (at end)' 196e993 ''
conv 2026-11-29-node-second $R/bench-node-run2.txt 'node bindings/node/bench/bench.js (right after the first)' avx512 '5.6 4.4 3.2 (at end)' 196e993 ''
conv 2026-11-29-go $R/bench-go-run.txt 'make bench-go' avx512 '3-5 (not recorded per run)' 196e993 ''
conv 2026-11-29-go-scalar $R/bench-go-scalar-run.txt 'LONGSTRAW_BACKEND=scalar go run ./cmd/longstraw-bench' 'scalar (forced)' '3-5 (not recorded per run)' 196e993 ''
conv 2026-11-29-scale-lookup $R/bench-lookup-run.txt 'SCALE_MAX_N=100000 cargo bench -p longstraw-bench-scale --bench lookup' avx512 '3-5 (not recorded per run)' 196e993 'Per-key times are criterion/<name>/per-element (the bench counts keys as elements).'
conv 2026-11-29-scale-report $R/scale-report-run.txt 'cargo run --release -p longstraw-bench-scale --bin scale-report 10000' avx512 '3-5 (not recorded per run)' 196e993 ''
conv 2026-11-29-scale-report-scalar $R/scale-report-scalar-run.txt 'LONGSTRAW_BACKEND=scalar cargo run --release -p longstraw-bench-scale --bin scale-report 10000' 'scalar (forced)' '3-5 (not recorded per run)' 196e993 ''
conv 2026-11-29-rust-goals $R/bench-rust-goals-run.txt "make bench-rust BENCH_ARGS='goals'" 'every backend, side by side' 'not recorded' 196e993 'The report step failed on the scale group; the goals table is the one bench/report.py re-printed.'
conv 2026-11-29-rust-single-plain $R/bench-rust-single-plain-run.txt "make bench-rust BENCH_ARGS='single/plain'" 'every backend, side by side' 'not recorded' 196e993 ''
conv 2026-11-29-rust-core-f344840 $T/rust-core-f344840.md 'make bench-rust (three invocations) and make bench-callgrind' 'every backend, side by side' '0.2-5' f344840 'The raw output was not kept: these are the tables BENCHMARKS.md showed at 7fdec5e.'
conv 2026-11-29-scale-reruns $T/scale-reruns.md "cargo bench -p longstraw-bench-scale --bench lookup -- 'table|jump...' and the lookup-quick bin" avx512 'see each table title' 196e993 'The raw output was not kept: numbers copied from the docs at 7fdec5e.'
conv 2026-11-29-disruption $T/disruption-earlier-session.md 'cargo run --release -p longstraw-bench-scale --bin disruption 1000 100000 4' 'scalar (before SIMD; key counts do not depend on it)' 'not recorded' bb793ef 'The raw output was not kept: the table BENCH-scale.md showed at 7fdec5e.'
conv 2026-11-29-ffi-table-build $T/ffi-table-build-from-node.md 'table build through the set from Node (script not kept)' avx512 'not recorded' 'unknown' 'The raw output was not kept: numbers copied from ffi/README.md at 7fdec5e.'
