//! Bounded loads: `acquire` + release against `owner`, single
//! threaded, with the owner under its cap, at n = 50. The goal is
//! acquire + release <= owner + 40 ns. Run with
//! `cargo bench -p longstraw-bench --bench bounded`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use longstraw_bench::keys;
use longstraw_set::{BoundedLoad, Options, Rendezvous};

const NODES: usize = 50;
/// Keys cycled through (a power of two).
const KEY_POOL: usize = 4096;

fn bounded(c: &mut Criterion) {
    let ids: Vec<String> = (0..NODES).map(|i| format!("node-{i}")).collect();
    let plain = Rendezvous::flat(&ids, Options::default()).unwrap();
    let bounded = BoundedLoad::new(&ids, Options::default(), 1.25).unwrap();
    let pool = keys(KEY_POOL);
    // With nothing else in flight every owner has room: this is the fast path.
    for key in &pool {
        let lease = bounded.acquire(key).unwrap();
        assert!(lease.is_owner());
    }
    let mut g = c.benchmark_group("bounded/n50");
    let mut i = 0usize;
    g.bench_function("owner", |b| {
        b.iter(|| {
            i = (i + 1) & (KEY_POOL - 1);
            black_box(plain.load().owner_index(black_box(&pool[i])).unwrap())
        })
    });
    // What a shared total costs: owner plus four atomic read-modify-writes
    // (announce, admit, release node, release total). `BoundedLoad` counts
    // the total per thread, so two of them (admit, release node) remain; see
    // bench/bounded_before_after.sh for instruction counts.
    let (total, load) = (AtomicU64::new(0), AtomicU64::new(0));
    g.bench_function("owner_plus_4_atomics", |b| {
        b.iter(|| {
            i = (i + 1) & (KEY_POOL - 1);
            let owner = plain.load().owner_index(black_box(&pool[i])).unwrap();
            total.fetch_add(1, Ordering::Relaxed);
            let l = load.load(Ordering::Relaxed);
            let _ = load.compare_exchange(l, l + 1, Ordering::Relaxed, Ordering::Relaxed);
            load.fetch_sub(1, Ordering::Relaxed);
            total.fetch_sub(1, Ordering::Relaxed);
            black_box(owner)
        })
    });
    g.bench_function("acquire_release", |b| {
        b.iter(|| {
            i = (i + 1) & (KEY_POOL - 1);
            let lease = bounded.acquire(black_box(&pool[i])).unwrap();
            black_box(lease.index());
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
        .configure_from_args()
}

criterion_group! { name = benches; config = config(); targets = bounded }
criterion_main!(benches);
