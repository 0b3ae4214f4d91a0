//! The cost of bounded loads' `acquire` + release next to `owner`, at n = 50
//! nodes, with every owner under its cap (the fast path).
//!
//! - `bounded_cost count <owner|acquire|acquire_owned> <ops>` runs `ops`
//!   operations, for instruction counting under callgrind (two runs with
//!   different `ops`, subtracted, cancel the setup: bench/bounded_callgrind.sh).
//! - `bounded_cost time <rounds> [label]` times them single-threaded
//!   (interleaved rounds of 2^20 operations; the median round) and with 8
//!   threads sharing one set, and prints a Markdown table.

use std::hint::black_box;
use std::sync::Barrier;
use std::time::Instant;

use longstraw_bench::keys;
use longstraw_set::{BoundedLoad, Options, Rendezvous};

const NODES: usize = 50;
const KEY_POOL: usize = 4096;
const ROUND: usize = 1 << 20;
const THREADS: usize = 8;

struct Sets {
    plain: Rendezvous,
    bounded: BoundedLoad,
    pool: Vec<Vec<u8>>,
}

fn sets() -> Sets {
    let ids: Vec<String> = (0..NODES).map(|i| format!("node-{i}")).collect();
    let plain = Rendezvous::flat(&ids, Options::default()).unwrap();
    let bounded = BoundedLoad::new(&ids, Options::default(), 1.25).unwrap();
    let pool = keys(KEY_POOL);
    Sets { plain, bounded, pool }
}

/// Runs `ops` operations of kind `op` starting at key `start`; returns a
/// checksum so that nothing is optimised away.
fn run(s: &Sets, op: &str, ops: usize, start: usize) -> u64 {
    let mut sum = 0u64;
    let mut i = start;
    match op {
        "owner" => {
            for _ in 0..ops {
                i = (i + 1) & (KEY_POOL - 1);
                sum += u64::from(s.plain.load().owner_index(black_box(&s.pool[i])).unwrap());
            }
        }
        "acquire" => {
            for _ in 0..ops {
                i = (i + 1) & (KEY_POOL - 1);
                let lease = s.bounded.acquire(black_box(&s.pool[i])).unwrap();
                sum += u64::from(lease.index());
            }
        }
        "acquire_owned" => {
            for _ in 0..ops {
                i = (i + 1) & (KEY_POOL - 1);
                let lease = s.bounded.acquire_owned(black_box(&s.pool[i])).unwrap();
                sum += u64::from(lease.index());
            }
        }
        other => {
            eprintln!("unknown operation {other}: owner, acquire or acquire_owned");
            std::process::exit(2);
        }
    }
    sum
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: bounded_cost count <owner|acquire|acquire_owned> <ops> | bounded_cost time <rounds> [label]";
    let s = sets();
    match args.get(1).map(String::as_str) {
        Some("count") if args.len() == 4 => {
            let ops: usize = args[3].parse().expect("ops");
            // Warm the same code paths once, so both runs' setups match.
            black_box(run(&s, &args[2], 1, 0));
            println!("{}", run(&s, &args[2], ops, 0));
        }
        Some("time") if args.len() >= 3 => {
            let rounds: usize = args[2].parse().expect("rounds");
            let label = args.get(3).cloned().unwrap_or_default();
            let ops = ["owner", "acquire", "acquire_owned"];
            let mut single: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
            let mut eight: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
            for r in 0..rounds {
                for (k, op) in ops.iter().enumerate() {
                    let t = Instant::now();
                    black_box(run(&s, op, ROUND, r));
                    single[k].push(t.elapsed().as_nanos() as f64 / ROUND as f64);
                    // 8 threads on the same set: wall time per operation per thread.
                    let barrier = Barrier::new(THREADS);
                    let per = ROUND / THREADS;
                    let t = Instant::now();
                    std::thread::scope(|sc| {
                        for th in 0..THREADS {
                            let (s, barrier) = (&s, &barrier);
                            sc.spawn(move || {
                                barrier.wait();
                                black_box(run(s, op, per, th * 509 + r));
                            });
                        }
                    });
                    eight[k].push(t.elapsed().as_nanos() as f64 * THREADS as f64 / ROUND as f64);
                }
            }
            assert_eq!(s.bounded.in_flight(), 0);
            println!("### bounded acquire cost {label}");
            println!();
            println!("| operation | 1 thread (ns/op) | 8 threads (ns/op per thread) |");
            println!("|---|---|---|");
            for (k, op) in ops.iter().enumerate() {
                println!(
                    "| {op} | {:.1} | {:.1} |",
                    median(single[k].clone()),
                    median(eight[k].clone())
                );
            }
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
