//! Plain against balanced partition tables (SPEC.md §17): load balance,
//! partitions moved on add, remove and reweight against the optimum, and
//! build time. Prints a table and writes JSON lines.
//!
//! `cargo run --release -p longstraw-bench-scale --bin balance-report [out.jsonl] [max_n] [--no-default-bits-at-10k]`
//!
//! n = 10^4 runs twice: with 2^16 partitions for the moves (every balanced
//! change is a rebuild), and at the default 2^20 for balance and build only.
//!
//! *max/mean*: the most partitions any node owns (rank 0) over `P / n`.
//! *moved/optimal*: partitions whose owner changed over the fewest that must
//! change for every node to keep its fair share `P * w_i / W` (for an add
//! `P * w / W'`; a remove `P / n`; doubling one weight `P * (2/(n+1) - 1/n)`).

use std::io::Write;
use std::time::Instant;

use longstraw::partition::default_partition_bits;
use longstraw_bench_scale::{ms, node_ids};
use longstraw_set::{Balance, ModeOptions, Options, Rendezvous, Snapshot, TableOptions, TableSnapshot};

/// A table set's rows.
fn rows(s: &Snapshot) -> &TableSnapshot {
    s.as_table().expect("a table-mode set")
}

fn owners(s: &Snapshot) -> Vec<Vec<u8>> {
    (0..rows(s).partitions() as u32)
        .map(|p| s.node(rows(s).row(p)[0]).unwrap().id().to_vec())
        .collect()
}

fn moved(a: &[Vec<u8>], b: &[Vec<u8>]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

fn max_over_mean(s: &Snapshot) -> f64 {
    let t = rows(s);
    let mut load = vec![0u32; s.len()];
    for p in 0..t.partitions() as u32 {
        load[t.row(p)[0] as usize] += 1;
    }
    let mean = t.partitions() as f64 / s.eligible() as f64;
    *load.iter().max().unwrap() as f64 / mean
}

/// Nanoseconds per `owner_index` over `keys`, best of three passes.
fn lookup_ns(s: &Snapshot, keys: &[Vec<u8>]) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let mut sum = 0u64;
        for k in keys {
            sum = sum.wrapping_add(s.owner_index(k).unwrap() as u64);
        }
        std::hint::black_box(sum);
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / keys.len() as f64);
    }
    best
}

/// A table set of `ids`, each of weight 1.
fn table(ids: &[String], options: TableOptions) -> Rendezvous {
    Rendezvous::with_weights(
        ids.iter().map(|id| (id, 1.0)),
        Options::default(),
        ModeOptions::Table(options),
    )
    .unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out_path = args.next().unwrap_or_else(|| "balance-report.jsonl".into());
    let max_n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let default_bits_at_10k = args.next().as_deref() != Some("--no-default-bits-at-10k");
    let mut out = std::fs::File::create(&out_path).expect("writable output");
    let keys: Vec<Vec<u8>> = (0..200_000u32).map(|i| format!("user:{i}").into_bytes()).collect();
    println!("| n | bits | table | max/mean | add moved/opt | remove moved/opt | reweight moved/opt | build ms | add ms | lookup ns |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for n in [100usize, 1000, 10_000].into_iter().filter(|&n| n <= max_n) {
        // Default bits up to 10^3; 2^16 at 10^4 (the default 2^20 builds 10^10 pairs per run).
        let bits = if n <= 1000 { default_partition_bits(n) } else { 16 };
        let partitions = (1usize << bits) as f64;
        let ids = node_ids(n);
        for balance in [None, Some(1.01), Some(1.05), Some(1.10)] {
            let options = TableOptions {
                partition_bits: Some(bits),
                balance: balance.map(|b| Balance::new(b).unwrap()),
                ..TableOptions::default()
            };
            let start = Instant::now();
            let t = table(&ids, options);
            let build = ms(start);
            let before = t.snapshot();
            let base = owners(&before);

            let start = Instant::now();
            t.add("joiner", 1.0).unwrap();
            let add_ms = ms(start);
            let add = moved(&base, &owners(&t.snapshot())) as f64 / (partitions / (n + 1) as f64);
            t.remove("joiner").unwrap();
            assert_eq!(owners(&t.snapshot()), base, "add then remove must restore the table");

            t.remove(&ids[n / 2]).unwrap();
            let remove = moved(&base, &owners(&t.snapshot())) as f64 / (partitions / n as f64);
            t.add(&ids[n / 2], 1.0).unwrap();

            let back = owners(&t.snapshot());
            t.set_weight(&ids[n / 3], 2.0).unwrap();
            let grow = partitions * (2.0 / (n + 1) as f64 - 1.0 / n as f64);
            let reweight = moved(&back, &owners(&t.snapshot())) as f64 / grow;

            let mm = max_over_mean(&before);
            let lookup = lookup_ns(&before, &keys);
            let name = balance.map_or("plain".to_string(), |b| format!("balanced {b:.2}"));
            println!("| {n} | {bits} | {name} | {mm:.3} | {add:.2} | {remove:.2} | {reweight:.2} | {build:.0} | {add_ms:.1} | {lookup:.1} |");
            writeln!(
                out,
                "{{\"n\":{n},\"bits\":{bits},\"balance\":{},\"max_over_mean\":{mm:.4},\"add_moved_over_optimal\":{add:.3},\
                 \"remove_moved_over_optimal\":{remove:.3},\"reweight_moved_over_optimal\":{reweight:.3},\"build_ms\":{build:.1},\"add_ms\":{add_ms:.2},\"lookup_ns\":{lookup:.2}}}",
                balance.map_or("null".into(), |b| b.to_string())
            )
            .unwrap();
        }
    }
    if max_n >= 10_000 && default_bits_at_10k {
        // n = 10^4 at the default 2^20 partitions: balance, build and lookup only.
        let n = 10_000;
        let bits = default_partition_bits(n);
        let ids = node_ids(n);
        for balance in [None, Some(1.01), Some(1.05), Some(1.10)] {
            let options = TableOptions {
                partition_bits: Some(bits),
                balance: balance.map(|b| Balance::new(b).unwrap()),
                ..TableOptions::default()
            };
            let start = Instant::now();
            let t = table(&ids, options);
            let build = ms(start);
            let s = t.snapshot();
            let (mm, lookup) = (max_over_mean(&s), lookup_ns(&s, &keys));
            let name = balance.map_or("plain".to_string(), |b| format!("balanced {b:.2}"));
            println!("| {n} | {bits} | {name} | {mm:.3} | - | - | - | {build:.0} | - | {lookup:.1} |");
            writeln!(
                out,
                "{{\"n\":{n},\"bits\":{bits},\"balance\":{},\"max_over_mean\":{mm:.4},\"build_ms\":{build:.1},\"lookup_ns\":{lookup:.2}}}",
                balance.map_or("null".into(), |b| b.to_string())
            )
            .unwrap();
        }
    }
}
