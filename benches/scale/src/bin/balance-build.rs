//! Build time of one table at n nodes and default bits, single-threaded in
//! the core: plain `partition::build` against `balanced::build`, alternating
//! runs so that machine noise hits both alike.
//!
//! `cargo run --release -p longstraw-bench-scale --bin balance-build [n] [runs] [balance] [replicas]`

use std::time::Instant;

use longstraw::balanced::{self, Balance, BalancedBuffers, BalancedLayout, Cursor, Held, NodeSlot};
use longstraw::partition::{self, default_partition_bits};
use longstraw::{node_hash, NodeTable};
use longstraw_bench_scale::{ms, node_ids};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let balance_arg: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1.05);
    let replicas: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let hashes: Vec<u64> = node_ids(n).iter().map(|id| node_hash(id.as_bytes(), 0)).collect();
    let table = NodeTable::new(0, &hashes, None).unwrap();
    let bits = default_partition_bits(n);
    let balance = Balance::new(balance_arg).unwrap();
    let layout = BalancedLayout::of(&table, bits, replicas, balance).unwrap();
    let mut rows = vec![0u32; layout.rows];
    let mut candidates = vec![0u32; layout.candidates];
    let mut cursors = vec![Cursor::default(); layout.cursors];
    let mut holders = vec![Held::EMPTY; layout.holders];
    let mut slots = vec![NodeSlot::default(); layout.slots];
    let (mut plain, mut bal) = (f64::MAX, f64::MAX);
    for _ in 0..runs {
        let start = Instant::now();
        partition::build(&table, None, bits, replicas, &mut rows).unwrap();
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
    println!(
        "{{\"n\":{n},\"bits\":{bits},\"backend\":\"{}\",\"plain_ms\":{plain:.1},\"replicas\":{replicas},\"balance\":{balance_arg},\"balanced_ms\":{bal:.1},\"ratio\":{:.2}}}",
        table.backend().name(),
        bal / plain
    );
}
