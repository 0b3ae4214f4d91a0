//! longstraw placement benchmarks: every backend side by side, and the crates a
//! Rust user would pick instead. Run with `make bench-rust` (see BENCHMARKS.md).
//!
//! Group names: `single/<layout>` (one `owner(key)` per iteration, key hashing
//! included), `top3/plain`, `batch/plain` (`owners` over a packed batch),
//! `peers/single` (per-key lookups of the other crates, n <= 4096) and
//! `goals` (owner at n = 10, and longstraw vs `hrw` at n = 1000). Throughput
//! is in node-scores, so criterion's `elem/s` is node-scores per second.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use longstraw::{Backend, PackedKeys, Ranked};
use longstraw_bench::{backends, keys, packed, Layout, Nodes, SIZES};

/// Counts allocations, to show that lookups make none.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Keys cycled through by the single-key benchmarks (a power of two).
const KEY_POOL: usize = 4096;

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_millis(1500))
        .sample_size(20)
        .configure_from_args()
}

/// Asserts that owner, top-3 and batch lookups allocate nothing, on every
/// backend, layout and size; prints the result once.
fn zero_allocations() {
    let pool = keys(256);
    let (bytes, offsets) = packed(&pool);
    let batch = PackedKeys::new(&bytes, &offsets).unwrap();
    let mut out = vec![0u32; pool.len()];
    let mut top = [Ranked::EMPTY; 3];
    let mut lookups = 0usize;
    for layout in [Layout::Plain, Layout::FourClasses, Layout::AllDistinct] {
        for n in [8, 64, 512, 4096] {
            let nodes = Nodes::new(n, layout);
            for backend in backends() {
                let table = nodes.table(backend);
                let before = ALLOCATIONS.load(Ordering::Relaxed);
                for k in &pool {
                    black_box(table.owner(k).unwrap());
                    black_box(table.top_k(k, &mut top));
                }
                table.owners(&batch, &mut out).unwrap();
                let after = ALLOCATIONS.load(Ordering::Relaxed);
                assert_eq!(after, before, "{} {:?} n={n} allocated", backend.name(), layout);
                lookups += 3 * pool.len();
            }
        }
    }
    println!("zero allocations: {lookups} lookups (owner, top-3, batch) on every backend allocated nothing");
}

fn single(c: &mut Criterion) {
    zero_allocations();
    let pool = keys(KEY_POOL);
    for layout in [Layout::Plain, Layout::FourClasses, Layout::AllDistinct] {
        let mut g = c.benchmark_group(format!("single/{}", layout.name()));
        for n in SIZES {
            let nodes = Nodes::new(n, layout);
            g.throughput(Throughput::Elements(n as u64));
            for backend in backends() {
                let table = nodes.table(backend);
                g.bench_with_input(BenchmarkId::new(backend.name(), n), &n, |b, _| {
                    let mut i = 0usize;
                    b.iter(|| {
                        let k = &pool[i & (KEY_POOL - 1)];
                        i = i.wrapping_add(1);
                        table.owner(black_box(k)).unwrap()
                    })
                });
            }
        }
        g.finish();
    }
}

fn top3(c: &mut Criterion) {
    let pool = keys(KEY_POOL);
    for layout in [Layout::Plain, Layout::FourClasses] {
        let mut g = c.benchmark_group(format!("top3/{}", layout.name()));
        for n in SIZES {
            let nodes = Nodes::new(n, layout);
            g.throughput(Throughput::Elements(n as u64));
            for backend in backends() {
                let table = nodes.table(backend);
                g.bench_with_input(BenchmarkId::new(backend.name(), n), &n, |b, _| {
                    let mut i = 0usize;
                    let mut out = [Ranked::EMPTY; 3];
                    b.iter(|| {
                        let k = &pool[i & (KEY_POOL - 1)];
                        i = i.wrapping_add(1);
                        table.top_k(black_box(k), &mut out);
                        out[2].index
                    })
                });
            }
        }
        g.finish();
    }
}

fn batch(c: &mut Criterion) {
    let mut g = c.benchmark_group("batch/plain");
    for n in SIZES {
        // About a million node-scores per iteration, at least 64 keys.
        let count = (1usize << 20).div_ceil(n).clamp(64, 16_384);
        let pool = keys(count);
        let (bytes, offsets) = packed(&pool);
        let batch = PackedKeys::new(&bytes, &offsets).unwrap();
        let nodes = Nodes::new(n, Layout::Plain);
        g.throughput(Throughput::Elements((n * count) as u64));
        for backend in backends() {
            let table = nodes.table(backend);
            let mut out = vec![0u32; count];
            g.bench_with_input(BenchmarkId::new(backend.name(), n), &n, |b, _| {
                b.iter(|| {
                    table.owners(black_box(&batch), &mut out).unwrap();
                    out[count - 1]
                })
            });
        }
    }
    g.finish();
}

/// Registers per-key lookups of longstraw (dispatched) and the peer crates at size `n`.
fn peers_at(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, n: usize, pool: &[Vec<u8>]) {
    use maglev::ConsistentHasher;
    let nodes = Nodes::new(n, Layout::Plain);
    let mask = pool.len() - 1;
    let table = nodes.table(Backend::detect());
    g.bench_with_input(BenchmarkId::new("longstraw", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            table.owner(black_box(&pool[i & mask])).unwrap()
        })
    });
    let scalar = nodes.table(Backend::SCALAR);
    g.bench_with_input(BenchmarkId::new("longstraw-scalar", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            scalar.owner(black_box(&pool[i & mask])).unwrap()
        })
    });

    let mut rendezvous = rendezvous_hash::RendezvousNodes::default();
    for id in &nodes.ids {
        rendezvous.insert(id.as_str());
    }
    g.bench_with_input(BenchmarkId::new("rendezvous_hash", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            *rendezvous.calc_candidates(black_box(&pool[i & mask])).next().unwrap()
        })
    });

    let hrw = hrw::Rendezvous::from_nodes(nodes.ids.iter().cloned());
    g.bench_with_input(BenchmarkId::new("hrw", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            hrw.pick_top(black_box(&pool[i & mask])).unwrap().len()
        })
    });

    let hrw_hash = hrw_hash::HrwNodes::new(nodes.ids.iter().cloned());
    g.bench_with_input(BenchmarkId::new("hrw-hash", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            hrw_hash.sorted(black_box(&pool[i & mask])).next().unwrap().len()
        })
    });

    // A ring with 100 virtual nodes per node (what users do for balance).
    // `add` re-sorts the whole ring each time; `batch_add` sorts once.
    let mut ring = hashring::HashRing::new();
    ring.batch_add(
        (0..n)
            .flat_map(|node| (0..100u32).map(move |replica| (node, replica)))
            .collect(),
    );
    g.bench_with_input(BenchmarkId::new("hashring-100vn", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            ring.get(black_box(&pool[i & mask])).unwrap().0
        })
    });

    g.bench_with_input(BenchmarkId::new("jump-xxh3", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            let h = xxhash_rust::xxh3::xxh3_64(black_box(&pool[i & mask]));
            jump_consistent_hash::hash(h, n)
        })
    });

    // Maglev's table has ~100 n entries (a prime): 410k entries at n = 4096, fine here.
    let maglev = maglev::Maglev::new(nodes.ids.iter().cloned());
    g.bench_with_input(BenchmarkId::new("maglev", n), &n, |b, _| {
        let mut i = 0usize;
        b.iter(|| {
            i = i.wrapping_add(1);
            maglev.get(black_box(&pool[i & mask])).unwrap().len()
        })
    });
}

fn peers(c: &mut Criterion) {
    let pool = keys(KEY_POOL);
    let mut g = c.benchmark_group("peers/single");
    for n in [8, 64, 512, 4096] {
        g.throughput(Throughput::Elements(n as u64));
        peers_at(&mut g, n, &pool);
    }
    g.finish();
}

fn goals(c: &mut Criterion) {
    let pool = keys(KEY_POOL);
    let mut g = c.benchmark_group("goals");
    for n in [10, 1000] {
        g.throughput(Throughput::Elements(n as u64));
        let nodes = Nodes::new(n, Layout::Plain);
        for backend in backends() {
            let table = nodes.table(backend);
            g.bench_with_input(BenchmarkId::new(backend.name(), n), &n, |b, _| {
                let mut i = 0usize;
                b.iter(|| {
                    i = i.wrapping_add(1);
                    table.owner(black_box(&pool[i & (KEY_POOL - 1)])).unwrap()
                })
            });
        }
        let hrw = hrw::Rendezvous::from_nodes(nodes.ids.iter().cloned());
        g.bench_with_input(BenchmarkId::new("hrw", n), &n, |b, _| {
            let mut i = 0usize;
            b.iter(|| {
                i = i.wrapping_add(1);
                hrw.pick_top(black_box(&pool[i & (KEY_POOL - 1)])).unwrap().len()
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = single, top3, batch, peers, goals
}
criterion_main!(benches);
