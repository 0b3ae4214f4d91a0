//! The Rust core's own `owner` per call, for side-by-side runs with a binding
//! (`make bench-java` starts it between its own rounds):
//! `owner_per_call <calls per sample> <samples> <n>...`.
//!
//! For each n: a flat table of n nodes `cache-0`.. `cache-{n-1}` (weight 1,
//! seed 0, the detected backend), keys `user:0`..`user:1023` cycled, as the
//! Java benchmark uses. Samples alternate between the node counts; each line
//! printed is `owner n=<n> backend=<name> ns=<median ns per call>`.

use std::hint::black_box;
use std::time::Instant;

use longstraw::{node_hash, NodeTable};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: owner_per_call <calls per sample> <samples> <n>...";
    if args.len() < 4 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let calls: usize = args[1].parse().expect("calls per sample");
    let samples: usize = args[2].parse().expect("samples");
    let ns: Vec<usize> = args[3..].iter().map(|a| a.parse().expect("n")).collect();
    let keys: Vec<Vec<u8>> = (0..1024).map(|i| format!("user:{i}").into_bytes()).collect();
    let hashes: Vec<Vec<u64>> = ns
        .iter()
        .map(|&n| (0..n).map(|i| node_hash(format!("cache-{i}").as_bytes(), 0)).collect())
        .collect();
    let tables: Vec<NodeTable<'_>> = hashes
        .iter()
        .map(|h| NodeTable::new(0, h, None).expect("valid table"))
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); ns.len()];
    // One untimed sample each to warm caches and the branch predictor.
    for round in 0..=samples {
        for (t, table) in tables.iter().enumerate() {
            let start = Instant::now();
            let mut sum = 0u64;
            for i in 0..calls {
                sum += u64::from(table.owner(black_box(&keys[i & 1023])).expect("eligible"));
            }
            black_box(sum);
            if round > 0 {
                times[t].push(start.elapsed().as_nanos() as f64 / calls as f64);
            }
        }
    }
    for (t, &n) in ns.iter().enumerate() {
        let mut v = times[t].clone();
        v.sort_by(f64::total_cmp);
        let median = v[v.len() / 2];
        println!("owner n={n} backend={} ns={median:.2}", tables[t].backend().name());
    }
}
