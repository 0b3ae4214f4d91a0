//! A quick single-threaded lookup timer, for iterating on kernels:
//! `cargo run --release -p longstraw-bench-scale --bin lookup-quick -- N FANOUT_BITS LEVELS`
//! (LEVELS 0 = flat). Prints ns per owner lookup over 2^20 keys. The
//! criterion bench (`--bench lookup`) is the one to quote.

use std::hint::black_box;
use std::time::Instant;

use longstraw_bench_scale::{keys, skeleton};
use longstraw_set::SkeletonShape;

fn main() {
    let a: Vec<usize> = std::env::args().skip(1).filter_map(|x| x.parse().ok()).collect();
    let n = a.first().copied().unwrap_or(100_000);
    let shape = match (a.get(1), a.get(2)) {
        (Some(&f), Some(&l)) => Some(SkeletonShape::new(f as u8, l as u8).expect("valid shape")),
        _ => None,
    };
    let s = skeleton(n, shape).snapshot();
    let keys = keys(1 << 16);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..16 {
            for k in &keys {
                black_box(s.owner_index(k.as_bytes()).unwrap());
            }
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / (16.0 * keys.len() as f64));
    }
    println!(
        "n={n} shape={:?}: {best:.1} ns/lookup (best of 5)",
        s.shape().expect("a skeleton-mode set")
    );
}
