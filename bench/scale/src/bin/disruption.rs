//! Skeleton HRW disruption: keys moved over the optimum, as a function of
//! levels and fan-out, for add, remove and reweight (1 -> 2).
//!
//! `cargo run --release -p longstraw-bench-scale --bin disruption [n] [keys] [trials]`

use longstraw_bench_scale::{keys, node_ids, skeleton};
use longstraw_set::{SkeletonShape, Snapshot};

fn owners(s: &Snapshot, keys: &[String]) -> Vec<Vec<u8>> {
    keys.iter()
        .map(|k| s.owner(k.as_bytes()).unwrap().id().to_vec())
        .collect()
}

fn moved(a: &[Vec<u8>], b: &[Vec<u8>]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = args.first().copied().unwrap_or(1000);
    let key_count = args.get(1).copied().unwrap_or(200_000);
    let trials = args.get(2).copied().unwrap_or(8);
    let keys = keys(key_count);
    let ids = node_ids(n + trials);
    println!("n = {n}, {key_count} keys, {trials} trials per cell; moved / optimal (1.00 = flat HRW)");
    println!();
    println!("| levels | fan-out | leaf size | add | remove | reweight 1->2 |");
    println!("|---|---|---|---|---|---|");
    let shapes = [
        (0, 0),
        (6, 1),
        (5, 1),
        (4, 1),
        (3, 1),
        (2, 1),
        (4, 2),
        (3, 2),
        (2, 2),
        (4, 3),
        (3, 3),
        (4, 4),
    ];
    for (bits, levels) in shapes {
        let shape = SkeletonShape::new(bits, levels).unwrap();
        let s = skeleton(n, Some(shape));
        let base = owners(&s.snapshot(), &keys);
        let (mut add, mut remove, mut reweight) = (0.0, 0.0, 0.0);
        for t in 0..trials {
            // Add a node, measure, take it out again.
            let newcomer = &ids[n + t];
            s.add(newcomer, 1.0).unwrap();
            add += moved(&base, &owners(&s.snapshot(), &keys)) as f64 / (key_count as f64 / (n + 1) as f64);
            s.remove(newcomer).unwrap();
            // Remove an existing node and put it back.
            let victim = &ids[t * (n / trials.max(1))];
            s.remove(victim).unwrap();
            remove += moved(&base, &owners(&s.snapshot(), &keys)) as f64 / (key_count as f64 / n as f64);
            s.add(victim, 1.0).unwrap();
            // Double a node's weight: optimal moves 2/(n+1) - 1/n of the keys.
            s.set_weight(victim, 2.0).unwrap();
            let optimal = key_count as f64 * (2.0 / (n + 1) as f64 - 1.0 / n as f64);
            reweight += moved(&base, &owners(&s.snapshot(), &keys)) as f64 / optimal;
            s.set_weight(victim, 1.0).unwrap();
        }
        let tr = trials as f64;
        let leaf = n as f64 / (shape.fanout() as f64).powi(levels as i32);
        let fanout = if levels == 0 {
            "-".to_owned()
        } else {
            shape.fanout().to_string()
        };
        println!(
            "| {levels} | {fanout} | {leaf:.1} | {:.2} | {:.2} | {:.2} |",
            add / tr,
            remove / tr,
            reweight / tr
        );
    }
}
