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
//! `batch <layout> <backend> <min ns/key> <median ns/key>`, each the time of
//! one `owners` call over `KEYS` keys divided by `KEYS`, the minimum and the
//! median over `SAMPLES` calls (backends interleaved, after one warm-up call
//! each). Every backend's answers are checked against the scalar backend's.

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
    let mut bytes = Vec::new();
    let mut offsets = vec![0u64];
    for i in 0..count {
        bytes.extend_from_slice(format!("user:{i}").as_bytes());
        offsets.push(bytes.len() as u64);
    }
    let batch = PackedKeys::new(&bytes, &offsets).expect("valid batch");
    let backends: Vec<Backend> = Backend::available().collect();
    println!(
        "# n = {n}, {count} keys per call, {samples} calls per backend; best backend: {}",
        Backend::detect().name()
    );
    for (layout, weights) in [("plain", None), ("weighted4", Some(&weighted[..]))] {
        let table = NodeTable::new(0, &hashes, weights).expect("valid table");
        let mut want = vec![0u32; count];
        table
            .with_backend(Backend::SCALAR)
            .owners(&batch, &mut want)
            .expect("eligible nodes");
        let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); backends.len()];
        let mut out = vec![0u32; count];
        for round in 0..=samples {
            for (b, &backend) in backends.iter().enumerate() {
                let t = table.with_backend(backend);
                let start = Instant::now();
                t.owners(black_box(&batch), &mut out).expect("eligible nodes");
                let ns = start.elapsed().as_nanos() as f64 / count as f64;
                assert_eq!(out, want, "{layout}: {} differs from scalar", backend.name());
                if round > 0 {
                    times[b].push(ns);
                }
            }
        }
        for (backend, mut t) in backends.iter().zip(times) {
            t.sort_by(f64::total_cmp);
            println!("batch {layout} {} {:.1} {:.1}", backend.name(), t[0], t[t.len() / 2]);
        }
    }
}
