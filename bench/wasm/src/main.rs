//! The batch lookup (`owners` over a packed batch) at one table size, on
//! every backend this build has: natively the scalar oracle, SSE2, AVX2 and
//! AVX-512 as the CPU allows; on wasm32 the scalar backend, and simd128 in a
//! build with `-C target-feature=+simd128`. Only the core crate, so the same
//! program builds for wasm32-wasip1 and runs under any WASI runtime
//! (`make bench-wasm` runs it natively, and both wasm builds under Node and
//! wasmtime, and tabulates the ratios with `tools/wasm/bench_batch.py`).
//!
//! ```text
//! longstraw-bench-wasm [N] [KEYS] [SAMPLES]
//! ```
//!
//! Prints one line per layout and backend:
//! `batch <layout> <backend> <min ns/key> <median ns/key>`. Each key is
//! timed alone (an `owners` call over a batch of one key) `SAMPLES` times,
//! backends interleaved, after one warm-up round; the figures are the mean
//! over the keys of each key's minimum, and of its median. Timing a key at a
//! time keeps a call shorter than a scheduler time slice, so on a loaded
//! machine the minimum is a run nobody interrupted. Every backend's answers
//! are checked against the scalar backend's.

use std::hint::black_box;
use std::time::Instant;

use longstraw::{node_hash, Backend, NodeTable, PackedKeys};

fn arg(i: usize, default: usize) -> usize {
    std::env::args()
        .nth(i)
        .map(|a| {
            a.parse()
                .unwrap_or_else(|_| panic!("argument {i} ({a:?}) is not a count"))
        })
        .unwrap_or(default)
}

fn main() {
    let n = arg(1, 4096);
    let count = arg(2, 256);
    let samples = arg(3, 15).max(1);
    let hashes: Vec<u64> = (0..n).map(|i| node_hash(format!("node-{i}").as_bytes(), 0)).collect();
    // The layouts of the criterion benchmarks (bench/src/lib.rs): no weights, and four weight classes.
    let weighted: Vec<f64> = (0..n).map(|i| (i % 4 + 1) as f64).collect();
    let keys: Vec<String> = (0..count).map(|i| format!("user:{i}")).collect();
    let offsets: Vec<[u64; 2]> = keys.iter().map(|k| [0, k.len() as u64]).collect();
    let batches: Vec<PackedKeys<'_, u64>> = keys
        .iter()
        .zip(&offsets)
        .map(|(k, o)| PackedKeys::new(k.as_bytes(), o).expect("valid batch"))
        .collect();
    let backends: Vec<Backend> = Backend::available().collect();
    println!(
        "# n = {n}, {count} keys timed one per call, {samples} times each; best backend: {}",
        Backend::detect().name()
    );
    for (layout, weights) in [("plain", None), ("weighted4", Some(&weighted[..]))] {
        let table = NodeTable::new(0, &hashes, weights).expect("valid table");
        let scalar = table.with_backend(Backend::SCALAR);
        let want: Vec<u32> = batches
            .iter()
            .map(|b| {
                let mut out = [0u32];
                scalar.owners(b, &mut out).expect("eligible nodes");
                out[0]
            })
            .collect();
        // times[backend][key][round]
        let mut times = vec![vec![Vec::with_capacity(samples); count]; backends.len()];
        let mut out = [0u32];
        for round in 0..=samples {
            for (b, &backend) in backends.iter().enumerate() {
                let t = table.with_backend(backend);
                for (k, batch) in batches.iter().enumerate() {
                    let start = Instant::now();
                    t.owners(black_box(batch), &mut out).expect("eligible nodes");
                    let ns = start.elapsed().as_nanos() as f64;
                    assert_eq!(out[0], want[k], "{layout}: {} differs from scalar", backend.name());
                    if round > 0 {
                        times[b][k].push(ns);
                    }
                }
            }
        }
        for (backend, per_key) in backends.iter().zip(times) {
            let (mut low, mut median) = (0.0, 0.0);
            for mut t in per_key {
                t.sort_by(f64::total_cmp);
                low += t[0];
                median += t[t.len() / 2];
            }
            let c = count as f64;
            println!("batch {layout} {} {:.1} {:.1}", backend.name(), low / c, median / c);
        }
    }
}
