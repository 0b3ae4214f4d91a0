//! Lookup cost per key, side by side, for n = 10^3 .. 10^6.
//!
//! `cargo bench -p longstraw-bench-scale --bench lookup`
//!
//! Each iteration looks up 1024 distinct 12-16 byte keys; criterion reports
//! time per key (throughput elements). Our modes hash keys with XXH3, jump
//! uses the same XXH3 key hash, the other crates use their default hashers
//! (SipHash), as their users get them.

use std::collections::hash_map::RandomState;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use longstraw_bench_scale::{keys, node_ids, skeleton, table};
use longstraw_set::{Options, Rendezvous, SkeletonShape};
use maglev::ConsistentHasher;

const BATCH: usize = 1024;

fn lookups(c: &mut Criterion) {
    let keys = keys(BATCH);
    let max_n: usize = std::env::var("SCALE_MAX_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let mut group = c.benchmark_group("lookup");
    group
        .throughput(Throughput::Elements(BATCH as u64))
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for n in [1_000usize, 10_000, 100_000, 1_000_000]
        .into_iter()
        .filter(|&n| n <= max_n)
    {
        if n <= 10_000 {
            let t = table(n, 1).snapshot();
            group.bench_with_input(BenchmarkId::new("table", n), &n, |b, _| {
                b.iter(|| {
                    for k in &keys {
                        black_box(t.owner_index(k.as_bytes()).unwrap());
                    }
                })
            });
            let flat = Rendezvous::flat(node_ids(n), Options::default()).unwrap().snapshot();
            group.throughput(Throughput::Elements(64));
            group.bench_with_input(BenchmarkId::new("flat-hrw", n), &n, |b, _| {
                b.iter(|| {
                    for k in &keys[..64] {
                        black_box(flat.owner_index(k.as_bytes()).unwrap());
                    }
                })
            });
            group.throughput(Throughput::Elements(BATCH as u64));
        }
        let shapes = [
            ("skeleton-default", None),
            ("skeleton-L1-F64", Some(SkeletonShape::new(6, 1).unwrap())),
            ("skeleton-L2-F32", Some(SkeletonShape::new(5, 2).unwrap())),
            ("skeleton-L3-F16", Some(SkeletonShape::new(4, 3).unwrap())),
        ];
        for (name, shape) in shapes {
            if n >= 100_000 && name == "skeleton-L1-F64" {
                continue; // leaves of n/64 nodes: flat-like cost
            }
            let s = skeleton(n, shape).snapshot();
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| {
                    for k in &keys {
                        black_box(s.owner_index(k.as_bytes()).unwrap());
                    }
                })
            });
        }
        if n <= 100_000 {
            let mut ring = hashring::HashRing::new();
            ring.batch_add((0..n as u32).flat_map(|i| (0..100u16).map(move |v| (i, v))).collect());
            group.bench_with_input(BenchmarkId::new("hashring-100vnodes", n), &n, |b, _| {
                b.iter(|| {
                    for k in &keys {
                        black_box(ring.get(k).unwrap());
                    }
                })
            });
        }
        group.bench_with_input(BenchmarkId::new("jump-xxh3", n), &n, |b, _| {
            b.iter(|| {
                for k in &keys {
                    black_box(jump_consistent_hash::hash(longstraw::key_hash(k.as_bytes(), 0), n));
                }
            })
        });
        if n < 65_535 {
            let a = anchorhash::Builder::with_hasher(RandomState::new())
                .with_resources(0..n as u32)
                .build::<&str>((2 * n).min(65_535) as u16);
            group.bench_with_input(BenchmarkId::new("anchorhash", n), &n, |b, _| {
                b.iter(|| {
                    for k in &keys {
                        black_box(a.get_resource(k.as_str()).unwrap());
                    }
                })
            });
        }
        if n <= 1_000 {
            let m = maglev::Maglev::with_capacity(0..n as u32, 65_537);
            group.bench_with_input(BenchmarkId::new("maglev", n), &n, |b, _| {
                b.iter(|| {
                    for k in &keys {
                        black_box(m.get(k).unwrap());
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, lookups);
criterion_main!(benches);
