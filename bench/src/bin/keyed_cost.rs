//! keyed-v1's costs on a shared, noisy machine: each figure is the fastest
//! of many short batches (a batch of 64 operations takes well under the
//! scheduler's time slice, so the fastest batch is one that ran alone).
//! Criterion's means (`benches/keyed.rs`) are the same operations, but they
//! average in every preemption when other jobs load the cores.
//!
//! `cargo run --release -p longstraw-bench --bin keyed_cost`

use std::hash::Hasher;
use std::hint::black_box;
use std::time::Instant;

use longstraw::{Backend, Hashing, NodeTable, Secret};
use siphasher::sip::SipHasher24;

const SECRET: [u8; 16] = *b"bench-secret-16b";
const BATCH: usize = 64;
const ROUNDS: usize = 20_000;

/// Nanoseconds per call of `f` over the fastest batch of `BATCH` calls.
fn fastest(mut f: impl FnMut(usize) -> u64) -> f64 {
    let mut best = f64::INFINITY;
    let mut sink = 0u64;
    for round in 0..ROUNDS {
        let start = Instant::now();
        for i in 0..BATCH {
            sink = sink.wrapping_add(f(round * BATCH + i));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / BATCH as f64);
    }
    black_box(sink);
    best
}

/// [`fastest`] of two operations measured in alternating batches, so that
/// both see the same machine.
fn fastest_pair(mut f: impl FnMut(usize) -> u64, mut g: impl FnMut(usize) -> u64) -> (f64, f64) {
    let (mut best_f, mut best_g) = (f64::INFINITY, f64::INFINITY);
    let mut sink = 0u64;
    for round in 0..ROUNDS * 2 {
        for (op, best) in [
            (&mut f as &mut dyn FnMut(usize) -> u64, &mut best_f),
            (&mut g, &mut best_g),
        ] {
            let start = Instant::now();
            for i in 0..BATCH {
                sink = sink.wrapping_add(op(round * BATCH + i));
            }
            *best = best.min(start.elapsed().as_nanos() as f64 / BATCH as f64);
        }
    }
    black_box(sink);
    (best_f, best_g)
}

fn keys(len: usize, count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let mut key = format!("key:{i:012}").into_bytes();
            key.resize(len, b'.');
            key
        })
        .collect()
}

fn main() {
    let (k0, k1) = (
        u64::from_le_bytes(SECRET[..8].try_into().unwrap()),
        u64::from_le_bytes(SECRET[8..].try_into().unwrap()),
    );
    let blake_key: [u8; 32] = [SECRET, SECRET].concat().try_into().unwrap();
    println!("## PRF, ns per key (fastest batch of {BATCH}, {ROUNDS} batches)\n");
    println!("| key bytes | XXH3-64 seeded (v1) | SipHash-2-4 | keyed BLAKE3, 64 bits |");
    println!("|---|---|---|---|");
    for len in [16usize, 100, 4096] {
        let pool = keys(len, 256);
        let xxh3 = fastest(|i| xxhash_rust::xxh3::xxh3_64_with_seed(black_box(&pool[i & 255]), 7));
        let sip = fastest(|i| {
            let mut h = SipHasher24::new_with_keys(k0, k1);
            h.write(black_box(&pool[i & 255]));
            h.finish()
        });
        let blake = fastest(|i| {
            let out = blake3::keyed_hash(&blake_key, black_box(&pool[i & 255]));
            u64::from_le_bytes(out.as_bytes()[..8].try_into().unwrap())
        });
        println!("| {len} | {xxh3:.1} | {sip:.1} | {blake:.1} |");
    }

    let backend = Backend::detect();
    let keyed = Hashing::keyed(Secret::from_bytes(&SECRET).unwrap());
    let pool = keys(16, 4096);
    println!(
        "\n## owner(key), 16-byte keys, {} backend, ns per lookup\n",
        backend.name()
    );
    println!("| n | v1 | keyed-v1 | extra |");
    println!("|---|---|---|---|");
    for n in [10usize, 100, 1000] {
        let ids: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
        let v1_hashes: Vec<u64> = ids.iter().map(|id| longstraw::node_hash(id.as_bytes(), 0)).collect();
        let keyed_hashes: Vec<u64> = ids.iter().map(|id| keyed.node_hash(id.as_bytes())).collect();
        let v1 = NodeTable::new(0, &v1_hashes, None).unwrap().with_backend(backend);
        let k = NodeTable::new(0, &keyed_hashes, None)
            .unwrap()
            .with_hashing(keyed)
            .with_backend(backend);
        let (a, b) = fastest_pair(
            |i| u64::from(v1.owner(black_box(&pool[i & 4095])).unwrap()),
            |i| u64::from(k.owner(black_box(&pool[i & 4095])).unwrap()),
        );
        println!("| {n} | {a:.1} | {b:.1} | {:+.1} |", b - a);
    }
}
