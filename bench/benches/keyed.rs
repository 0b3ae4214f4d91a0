//! keyed-v1 (docs/SPEC.md §15): the PRF candidates side by side, and the
//! cost of a keyed lookup against v1. Run with
//! `cargo bench -p longstraw-bench --bench keyed`.
//!
//! Groups: `prf/<len>` hashes one key of 16 B, 100 B or 4 KB with XXH3
//! (v1's seeded hash, the baseline), SipHash-2-4 (`siphasher`) and keyed
//! BLAKE3 (`blake3`, runtime SIMD dispatch) truncated to 64 bits.
//! `owner16/<n>` is `owner(key)` for 16-byte keys at n nodes, v1 against
//! keyed-v1, on the best backend.

use std::hash::Hasher;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use longstraw::{Backend, Hashing, NodeTable, Secret};
use siphasher::sip::SipHasher24;

const SECRET: [u8; 16] = *b"bench-secret-16b";

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_millis(1200))
        .sample_size(20)
        .configure_from_args()
}

/// Keys of `len` bytes, distinct, cycled through so no key stays in a register.
fn keys(len: usize, count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let mut key = format!("key:{i:012}").into_bytes();
            key.resize(len, b'.');
            key
        })
        .collect()
}

fn prf(c: &mut Criterion) {
    let (k0, k1) = (
        u64::from_le_bytes(SECRET[..8].try_into().unwrap()),
        u64::from_le_bytes(SECRET[8..].try_into().unwrap()),
    );
    let blake_key: [u8; 32] = [SECRET, SECRET].concat().try_into().unwrap();
    for len in [16usize, 100, 4096] {
        let pool = keys(len, 256);
        let mut g = c.benchmark_group(format!("prf/{len}"));
        g.throughput(Throughput::Bytes(len as u64));
        let mut i = 0usize;
        g.bench_function("xxh3_seeded", |b| {
            b.iter(|| {
                i = (i + 1) & 255;
                xxhash_rust::xxh3::xxh3_64_with_seed(black_box(&pool[i]), 7)
            })
        });
        g.bench_function("siphash24", |b| {
            b.iter(|| {
                i = (i + 1) & 255;
                let mut h = SipHasher24::new_with_keys(k0, k1);
                h.write(black_box(&pool[i]));
                h.finish()
            })
        });
        g.bench_function("blake3_keyed_trunc64", |b| {
            b.iter(|| {
                i = (i + 1) & 255;
                let out = blake3::keyed_hash(&blake_key, black_box(&pool[i]));
                u64::from_le_bytes(out.as_bytes()[..8].try_into().unwrap())
            })
        });
        g.finish();
    }
}

fn owner16(c: &mut Criterion) {
    let keyed = Hashing::keyed(Secret::from_bytes(&SECRET).unwrap());
    let pool = keys(16, 4096);
    for n in [10usize, 100, 1000] {
        let ids: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
        let v1_hashes: Vec<u64> = ids.iter().map(|id| longstraw::node_hash(id.as_bytes(), 0)).collect();
        let keyed_hashes: Vec<u64> = ids.iter().map(|id| keyed.node_hash(id.as_bytes())).collect();
        let backend = Backend::detect();
        let v1 = NodeTable::new(0, &v1_hashes, None).unwrap().with_backend(backend);
        let k = NodeTable::new(0, &keyed_hashes, None)
            .unwrap()
            .with_hashing(keyed)
            .with_backend(backend);
        let mut g = c.benchmark_group(format!("owner16/{}", backend.name()));
        let mut i = 0usize;
        for (name, table) in [("v1", v1), ("keyed", k)] {
            g.bench_with_input(BenchmarkId::new(name, n), &table, |b, t| {
                b.iter(|| {
                    i = (i + 1) & 4095;
                    t.owner(black_box(&pool[i])).unwrap()
                })
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = prf, owner16
}
criterion_main!(benches);
