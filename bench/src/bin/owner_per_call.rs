//! The Rust core's own `owner` per call, for side-by-side runs with a binding
//! (`make bench-java` starts it between its own rounds):
//! `owner_per_call <calls per sample> <samples> <n>...`.
//!
//! For each n: a flat table of n nodes `cache-0`.. `cache-{n-1}` (weight 1,
//! seed 0, the detected backend), keys `user:0`..`user:1023` cycled, as the
//! Java benchmark uses. Two subjects: the core's `NodeTable::owner`, and the
//! set layer's `Snapshot::owner_index` (what the C ABI's
//! `longstraw_snapshot_owner` calls). Samples alternate between subjects and
//! node counts; each line printed is `<owner|set_owner> n=<n> backend=<name>
//! ns=<median wall ns per call> cpu_ns=<median on-CPU ns per call>`. On-CPU time (the thread's run time
//! from /proc/thread-self/schedstat) leaves out the time the thread waited
//! for a core, which dominates wall time on a busy machine.

use std::hint::black_box;
use std::time::Instant;

use longstraw::{node_hash, NodeTable};
use longstraw_set::{Options, Rendezvous};

/// This thread's time on a CPU so far, in ns (Linux), or 0 when unknown.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

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
    let sets: Vec<_> = ns
        .iter()
        .map(|&n| {
            let ids: Vec<String> = (0..n).map(|i| format!("cache-{i}")).collect();
            Rendezvous::flat(&ids, Options::default())
                .expect("valid set")
                .snapshot()
        })
        .collect();
    // [subject][n]: wall and on-CPU ns per call of each sample.
    let mut times = vec![vec![Vec::with_capacity(samples); ns.len()]; 2];
    let mut cpu = times.clone();
    // One untimed sample each first, to warm caches and the branch predictor.
    for round in 0..=samples {
        for t in 0..ns.len() {
            for subject in 0..2 {
                let (start, cpu_start) = (Instant::now(), cpu_ns());
                let mut sum = 0u64;
                if subject == 0 {
                    for i in 0..calls {
                        sum += u64::from(tables[t].owner(black_box(&keys[i & 1023])).expect("eligible"));
                    }
                } else {
                    for i in 0..calls {
                        sum += u64::from(sets[t].owner_index(black_box(&keys[i & 1023])).expect("eligible"));
                    }
                }
                black_box(sum);
                let (wall, on_cpu) = (
                    start.elapsed().as_nanos() as f64,
                    cpu_ns().saturating_sub(cpu_start) as f64,
                );
                if round > 0 {
                    times[subject][t].push(wall / calls as f64);
                    cpu[subject][t].push(on_cpu / calls as f64);
                }
            }
        }
    }
    for (subject, name) in ["owner", "set_owner"].iter().enumerate() {
        for (t, &n) in ns.iter().enumerate() {
            println!(
                "{name} n={n} backend={} ns={:.2} cpu_ns={:.2}",
                tables[t].backend().name(),
                median(times[subject][t].clone()),
                median(cpu[subject][t].clone())
            );
        }
    }
}
