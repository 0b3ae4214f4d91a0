//! Build time of one table at n nodes and default bits, single-threaded in
//! the core: plain `partition::build` against `balanced::build`, alternating
//! runs so that machine noise hits both alike.
//!
//! `cargo run --release -p longstraw-bench-scale --bin balance-build [n] [runs] [balance] [replicas]`
//!
//! Then times `owner` lookups on both tables, alternating, best of five.

use std::time::Instant;

use longstraw::balanced::{self, Balance, BalancedBuffers, BalancedLayout, Cursor, Held, NodeSlot};
use longstraw::partition::{self, default_partition_bits};
use longstraw::{node_hash, NodeTable, PartitionTable};
use longstraw_bench_scale::{ms, node_ids};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let balance_arg: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1.05);
    let replicas: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let hashes: Vec<u64> = node_ids(n).iter().map(|id| node_hash(id.as_bytes(), 0)).collect();
    let table = NodeTable::new(0, &hashes, None).unwrap();
    let bits = std::env::var("BITS")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| default_partition_bits(n));
    let balance = Balance::new(balance_arg).unwrap();
    let layout = BalancedLayout::of(&table, bits, replicas, balance).unwrap();
    let mut rows = vec![0u32; layout.rows];
    let mut plain_rows = vec![0u32; layout.rows];
    let mut candidates = vec![0u32; layout.candidates];
    let mut cursors = vec![Cursor::default(); layout.cursors];
    let mut holders = vec![Held::EMPTY; layout.holders];
    let mut slots = vec![NodeSlot::default(); layout.slots];
    let (mut plain, mut bal) = (f64::MAX, f64::MAX);
    for _ in 0..runs {
        let start = Instant::now();
        partition::build(&table, None, bits, replicas, &mut plain_rows).unwrap();
        plain = plain.min(ms(start));
        let start = Instant::now();
        let buffers = BalancedBuffers {
            candidates: &mut candidates,
            cursors: &mut cursors,
            holders: &mut holders,
            slots: &mut slots,
        };
        balanced::build(&table, bits, replicas, balance, &mut rows, buffers).unwrap();
        bal = bal.min(ms(start));
    }
    // Lookups on both tables, alternating, best of five: the same code reads either.
    let keys: Vec<Vec<u8>> = (0..200_000u32).map(|i| format!("user:{i}").into_bytes()).collect();
    let views = [
        PartitionTable::new(table, None, bits, replicas, &plain_rows).unwrap(),
        PartitionTable::new(table, None, bits, replicas, &rows).unwrap(),
    ];
    let mut lookup = [f64::MAX; 2];
    for _ in 0..5 {
        for (best, view) in lookup.iter_mut().zip(&views) {
            let start = Instant::now();
            let mut sum = 0u64;
            for k in &keys {
                sum = sum.wrapping_add(view.owner(k).unwrap() as u64);
            }
            std::hint::black_box(sum);
            *best = best.min(start.elapsed().as_secs_f64() * 1e9 / keys.len() as f64);
        }
    }
    println!(
        "{{\"n\":{n},\"bits\":{bits},\"backend\":\"{}\",\"plain_ms\":{plain:.1},\"replicas\":{replicas},\"balance\":{balance_arg},\"balanced_ms\":{bal:.1},\"ratio\":{:.2},\"plain_lookup_ns\":{:.2},\"balanced_lookup_ns\":{:.2}}}",
        table.backend().name(),
        bal / plain,
        lookup[0],
        lookup[1]
    );
}
