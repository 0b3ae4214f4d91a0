//! The Rust floor for bench/bench.js: the same kind of keys and nodes, through
//! `longstraw-set` directly, so the Node numbers can be split into the core's
//! time and the binding's.
//!
//! `cargo run --release -p longstraw-node --example core_floor`

use std::hint::black_box;
use std::time::Instant;

use longstraw::PackedKeys;
use longstraw_set::{Options, Rendezvous};

const KEYS: u64 = 10_000;
/// Many short rounds, best taken: the least disturbed estimate on a shared machine.
const ROUNDS: usize = 25;

fn best_of(mut f: impl FnMut()) -> f64 {
    (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_nanos() as f64 / KEYS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    // The bench's keys: `user:${i}:${(i * 2654435761) >>> 0}`.
    let keys: Vec<String> = (0..KEYS)
        .map(|i| format!("user:{i}:{}", (i * 2_654_435_761) & 0xffff_ffff))
        .collect();
    let mut bytes = Vec::new();
    let mut offsets = vec![0u32];
    for k in &keys {
        bytes.extend_from_slice(k.as_bytes());
        offsets.push(bytes.len() as u32);
    }
    let packed = PackedKeys::new(&bytes, &offsets).expect("valid offsets");
    println!("| n | owners_into (batch) | owner_index (per key) | top_k_into(3) |");
    println!("|---:|---:|---:|---:|");
    for n in [10usize, 100, 1000] {
        let nodes: Vec<String> = (0..n).map(|i| format!("10.0.{}.{}:11211", i >> 8, i & 255)).collect();
        let snap = Rendezvous::flat(&nodes, Options::default())
            .expect("distinct nodes")
            .snapshot();
        let mut out = vec![0u32; keys.len()];
        let batch = best_of(|| snap.owners_into(&packed, &mut out).expect("eligible nodes"));
        let single = best_of(|| {
            for k in &keys {
                black_box(snap.owner_index(k.as_bytes()).ok());
            }
        });
        let mut top = [0u32; 3];
        let top_k = best_of(|| {
            for k in &keys {
                black_box(snap.top_k_into(k.as_bytes(), &mut top));
            }
        });
        println!("| {n} | {batch:.1} ns | {single:.1} ns | {top_k:.1} ns |");
    }
}
