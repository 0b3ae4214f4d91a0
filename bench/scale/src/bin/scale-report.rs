//! Build and rebuild times, memory per node, keys moved on add and remove,
//! and table balance, for longstraw's modes and the crates users pick instead.
//!
//! `cargo run --release -p longstraw-bench-scale --bin scale-report [max_n]`
//!
//! Memory is measured with a counting allocator: the bytes a structure still
//! holds after it is built, divided by n.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::hash_map::RandomState;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Instant;

use longstraw_bench_scale::{keys, ms, node_ids, skeleton, table};
use longstraw_set::{Options, Rendezvous};

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same layout contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Builds with `f`, returning the value, build milliseconds and bytes held per node.
fn measure<T>(n: usize, f: impl FnOnce() -> T) -> (T, f64, f64) {
    let before = LIVE.load(Ordering::Relaxed);
    let start = Instant::now();
    let v = f();
    let t = ms(start);
    let held = LIVE.load(Ordering::Relaxed) - before;
    (v, t, held as f64 / n as f64)
}

/// Keys whose owner changed, over the keys that had to move: those the
/// changed node owns after an add (`node` in `b`) or owned before a remove
/// (`node` in `a`). 1.00 means nothing else moved.
fn excess<T: PartialEq>(a: &[T], b: &[T], node: &T, added: bool) -> f64 {
    let moved = a.iter().zip(b).filter(|(x, y)| x != y).count() as f64;
    let must = if added { b } else { a }.iter().filter(|x| *x == node).count() as f64;
    moved / must
}

const VNODES: usize = 100;

fn main() {
    let max_n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let keys = keys(400_000);
    println!("moved = keys whose owner changed / keys that had to move (those of the added or removed node; 1.00 = nothing else moved); {} sample keys", keys.len());
    println!();
    println!("| n | structure | build ms | add ms | remove ms | reweight ms | bytes/node | moved add | moved remove |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut ns = vec![1_000usize, 10_000, 100_000, 1_000_000];
    ns.retain(|&n| n <= max_n);
    for &n in &ns {
        let ids = node_ids(n + 1);
        let newcomer = ids[n].clone();
        let victim = ids[n / 2].clone();

        // Flat HRW: the membership only.
        let (flat, build, mem) = measure(n, || Rendezvous::flat(&ids[..n], Options::default()).unwrap());
        let row = |name: &str, build: f64, add: f64, remove: f64, rew: f64, mem: f64, ma: f64, mr: f64| {
            let f = |x: f64| if x.is_nan() { "-".to_owned() } else { format!("{x:.2}") };
            println!(
                "| {n} | {name} | {} | {} | {} | {} | {mem:.0} | {} | {} |",
                f(build),
                f(add),
                f(remove),
                f(rew),
                f(ma),
                f(mr)
            );
        };
        let t = Instant::now();
        flat.add(&newcomer, 1.0).unwrap();
        let add = ms(t);
        let t = Instant::now();
        flat.remove(&newcomer).unwrap();
        let remove = ms(t);
        row("flat HRW (membership)", build, add, remove, f64::NAN, mem, 1.0, 1.0);
        drop(flat);

        // Partition table: up to 10^4 nodes.
        if n <= 10_000 {
            for replicas in [1usize, 3] {
                let (t, build, mem) = measure(n, || table(n, replicas));
                let snap = t.snapshot();
                let rows = snap.as_table().expect("a table-mode set");
                let p = rows.partitions();
                let owners = |s: &longstraw_set::Snapshot| -> Vec<Vec<u8>> {
                    let rows = s.as_table().expect("a table-mode set");
                    (0..p as u32)
                        .map(|q| s.node(rows.row(q)[0]).expect("a node").id().to_vec())
                        .collect()
                };
                let base = owners(&snap);
                let start = Instant::now();
                t.add(&newcomer, 1.0).unwrap();
                let add = ms(start);
                let ma = excess(&base, &owners(&t.snapshot()), &newcomer.as_bytes().to_vec(), true);
                t.remove(&newcomer).unwrap();
                let start = Instant::now();
                t.remove(&victim).unwrap();
                let remove = ms(start);
                let mr = excess(&base, &owners(&t.snapshot()), &victim.as_bytes().to_vec(), false);
                t.add(&victim, 1.0).unwrap();
                let start = Instant::now();
                t.set_weight(&victim, 2.0).unwrap();
                let rew = ms(start);
                let mut load = vec![0usize; n];
                for q in 0..p as u32 {
                    load[rows.row(q)[0] as usize] += 1;
                }
                let worst = *load.iter().max().unwrap() as f64 / (p as f64 / n as f64);
                let name = format!(
                    "table P=2^{} R={replicas} (worst/mean load {worst:.2})",
                    rows.partition_bits()
                );
                row(&name, build, add, remove, rew, mem, ma, mr);
            }
        }

        // Skeleton, default shape for n.
        let (s, build, mem) = measure(n, || skeleton(n, None));
        let shape = s.snapshot().shape().expect("a skeleton-mode set");
        let owners = |s: &longstraw_set::Snapshot| -> Vec<u32> {
            keys.iter().map(|k| s.owner_index(k.as_bytes()).unwrap()).collect()
        };
        let base_snap = s.snapshot();
        let base: Vec<&[u8]> = owners(&base_snap)
            .iter()
            .map(|&i| base_snap.node(i).expect("a node").id())
            .collect();
        let ids_of = |s: &longstraw_set::Snapshot| -> Vec<Vec<u8>> {
            owners(s)
                .iter()
                .map(|&i| s.node(i).expect("a node").id().to_vec())
                .collect()
        };
        let base: Vec<Vec<u8>> = base.into_iter().map(|b| b.to_vec()).collect();
        let start = Instant::now();
        s.add(&newcomer, 1.0).unwrap();
        let add = ms(start);
        let ma = excess(&base, &ids_of(&s.snapshot()), &newcomer.as_bytes().to_vec(), true);
        s.remove(&newcomer).unwrap();
        let start = Instant::now();
        s.remove(&victim).unwrap();
        let remove = ms(start);
        let mr = excess(&base, &ids_of(&s.snapshot()), &victim.as_bytes().to_vec(), false);
        s.add(&victim, 1.0).unwrap();
        let start = Instant::now();
        s.set_weight(&victim, 2.0).unwrap();
        let rew = ms(start);
        let name = format!("skeleton fan-out {} levels {}", shape.fanout(), shape.levels());
        row(&name, build, add, remove, rew, mem, ma, mr);
        drop(s);
        drop(base_snap);

        // hashring with 100 virtual nodes per node (SipHash).
        if n <= 100_000 {
            let (mut ring, build, mem) = measure(n, || {
                let mut r = hashring::HashRing::new();
                r.batch_add(
                    (0..n as u32)
                        .flat_map(|i| (0..VNODES as u16).map(move |v| (i, v)))
                        .collect(),
                );
                r
            });
            let owners =
                |r: &hashring::HashRing<(u32, u16)>| -> Vec<u32> { keys.iter().map(|k| r.get(k).unwrap().0).collect() };
            let base = owners(&ring);
            let start = Instant::now();
            for v in 0..VNODES as u16 {
                ring.add((n as u32, v));
            }
            let add = ms(start);
            let ma = excess(&base, &owners(&ring), &(n as u32), true);
            for v in 0..VNODES as u16 {
                ring.remove(&(n as u32, v));
            }
            let start = Instant::now();
            for v in 0..VNODES as u16 {
                ring.remove(&((n / 2) as u32, v));
            }
            let remove = ms(start);
            let mr = excess(&base, &owners(&ring), &((n / 2) as u32), false);
            row("hashring, 100 vnodes/node", build, add, remove, f64::NAN, mem, ma, mr);
        }

        // Jump: only the last bucket can leave.
        let hashes: Vec<u64> = keys.iter().map(|k| longstraw::key_hash(k.as_bytes(), 0)).collect();
        let jump = |b: usize| -> Vec<u32> { hashes.iter().map(|&h| jump_consistent_hash::hash(h, b)).collect() };
        let base = jump(n);
        let ma = excess(&base, &jump(n + 1), &(n as u32), true);
        let mr = excess(&base, &jump(n - 1), &(n as u32 - 1), false);
        row("jump (remove = last bucket only)", 0.0, 0.0, 0.0, f64::NAN, 0.0, ma, mr);

        // AnchorHash: capacity is a u16.
        if n < 65_535 {
            let (mut a, build, mem) = measure(n, || {
                anchorhash::Builder::with_hasher(RandomState::new())
                    .with_resources(0..n as u32)
                    .build::<&str>((2 * n).min(65_535) as u16)
            });
            let owners = |a: &anchorhash::AnchorHash<&str, u32, RandomState>| -> Vec<u32> {
                keys.iter().map(|k| *a.get_resource(k.as_str()).unwrap()).collect()
            };
            let base = owners(&a);
            let start = Instant::now();
            a.add_resource(n as u32).unwrap();
            let add = ms(start);
            let ma = excess(&base, &owners(&a), &(n as u32), true);
            a.remove_resource(&(n as u32)).unwrap();
            let start = Instant::now();
            a.remove_resource(&((n / 2) as u32)).unwrap();
            let remove = ms(start);
            let mr = excess(&base, &owners(&a), &((n / 2) as u32), false);
            row("anchorhash (capacity 2n)", build, add, remove, f64::NAN, mem, ma, mr);
        }

        // Maglev: the crate materialises n permutations of M entries each.
        if n <= 1_000 {
            use maglev::ConsistentHasher;
            let m = 65_537;
            let (mg, build, mem) = measure(n, || maglev::Maglev::with_capacity(0..n as u32, m));
            let owners = |g: &maglev::Maglev<u32>| -> Vec<u32> { keys.iter().map(|k| *g.get(k).unwrap()).collect() };
            let base = owners(&mg);
            let start = Instant::now();
            let added = maglev::Maglev::with_capacity(0..=n as u32, m);
            let add = ms(start);
            let ma = excess(&base, &owners(&added), &(n as u32), true);
            let start = Instant::now();
            let removed = maglev::Maglev::with_capacity((0..n as u32).filter(|&i| i != (n / 2) as u32), m);
            let remove = ms(start);
            let mr = excess(&base, &owners(&removed), &((n / 2) as u32), false);
            row(
                "maglev M=65537 (full rebuild)",
                build,
                add,
                remove,
                f64::NAN,
                mem,
                ma,
                mr,
            );
        }
    }
}
