//! Weighted owner against plain owner, side by side in one process:
//! `weighted_race [backend] [millis per cell]` prints, for n = 8..4096, the
//! ns per `owner()` of each layout (key hashing included) and the weighted
//! layouts' fixed cost over plain. Cells are measured in interleaved rounds
//! (best of 5), so load on a shared machine hits every layout alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

use longstraw_bench::{backend_named, keys, Layout, Nodes};

const SIZES: [usize; 5] = [8, 64, 512, 1024, 4096];
const LAYOUTS: [Layout; 3] = [Layout::Plain, Layout::FourClasses, Layout::AllDistinct];
const ROUNDS: usize = 5;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let backend_name = args.get(1).map(String::as_str).unwrap_or("avx512");
    let millis: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let backend = backend_named(backend_name).unwrap_or_else(|| {
        eprintln!("backend {backend_name} is unknown or not supported here");
        std::process::exit(2);
    });
    let pool = keys(4096);
    println!("weighted owner vs plain, backend {backend_name}, ns per owner() (best of {ROUNDS} interleaved rounds)");
    println!();
    println!("| n | plain | weighted4 | weighted4 / plain | weighted_distinct | distinct / plain |");
    println!("|---|---|---|---|---|---|");
    for n in SIZES {
        let nodes: Vec<Nodes> = LAYOUTS.iter().map(|&l| Nodes::new(n, l)).collect();
        let mut best = [f64::INFINITY; 3];
        for _ in 0..ROUNDS {
            for (slot, nodes) in best.iter_mut().zip(&nodes) {
                let table = nodes.table(backend);
                *slot = slot.min(time_owner(&table, &pool, Duration::from_millis(millis)));
            }
        }
        println!(
            "| {n} | {:.1} ns | {:.1} ns | {:.2}x | {:.1} ns | {:.2}x |",
            best[0],
            best[1],
            best[1] / best[0],
            best[2],
            best[2] / best[0]
        );
    }
}

/// ns per `owner()` over keys cycled from `pool`, for about `budget`.
fn time_owner(table: &longstraw::NodeTable<'_>, pool: &[Vec<u8>], budget: Duration) -> f64 {
    let start = Instant::now();
    let mut lookups = 0usize;
    while start.elapsed() < budget {
        for k in pool.iter().take(256) {
            black_box(table.owner(black_box(k)).unwrap());
        }
        lookups += 256;
    }
    start.elapsed().as_nanos() as f64 / lookups as f64
}
