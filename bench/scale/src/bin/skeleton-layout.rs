//! The skeleton at 10^5 and 10^6 nodes: lookup time, membership change time
//! and memory, in thread CPU time (on a shared machine wall time is mostly
//! waiting for a core), for a before/after pair of builds run one after the
//! other (`bench/skeleton_layout.sh`):
//!
//! - `skeleton-layout LABEL lookups N...`: ns of CPU per `owner_index` and per
//!   `top_k_into` (k = 3) at each N (default shape), best of 5 passes over
//!   2^16 keys;
//! - `skeleton-layout LABEL changes N...`: ms of CPU per remove, add and
//!   set_weight (median of 7), each publishing a snapshot and dropping the old;
//! - `skeleton-layout LABEL bytes N...`: heap bytes per node that a
//!   skeleton-mode set holds (counted by this binary's allocator);
//! - `skeleton-layout count N LOOKUPS`: only lookups, for cachegrind (run with
//!   L and 3L lookups and subtract, which cancels the setup).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use longstraw_bench_scale::{keys, node_ids, skeleton};

/// The system allocator, counting the bytes live at any moment.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, and only adds bookkeeping on a counter.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded as is; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded as is; `ptr` came from `alloc` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded as is; `ptr` came from this allocator with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// This thread's CPU time in ns.
fn thread_cpu_ns() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // every Linux has.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Best-of-5 CPU ns per call of `f` over every key of `pool`, 8 times each.
fn per_key(pool: &[String], mut f: impl FnMut(&[u8])) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = thread_cpu_ns();
        for _ in 0..8 {
            for k in pool {
                f(black_box(k.as_bytes()));
            }
        }
        best = best.min((thread_cpu_ns() - t) / (8 * pool.len()) as f64);
    }
    best
}

fn lookups(sizes: &[usize]) {
    println!("lookups, CPU ns per key (best of 5):");
    println!();
    println!("| n | owner | top_k 3 |");
    println!("|---|---|---|");
    let pool = keys(1 << 16);
    for &n in sizes {
        let set = skeleton(n, None);
        let snap = set.snapshot();
        let owner = per_key(&pool, |k| {
            black_box(snap.owner_index(k).expect("eligible nodes"));
        });
        let mut out = [0u32; 3];
        let top = per_key(&pool, |k| {
            black_box(snap.top_k_into(k, &mut out));
        });
        println!("| {n} | {owner:.1} ns | {top:.1} ns |");
    }
    println!();
}

const REPS: usize = 7;

fn changes(sizes: &[usize]) {
    println!("one change on a skeleton set (default shape), median of {REPS}, CPU ms:");
    println!();
    println!("| n | remove | add | set_weight |");
    println!("|---|---|---|---|");
    for &n in sizes {
        let ids = node_ids(n);
        let s = skeleton(n, None);
        let mut runs: [Vec<f64>; 3] = Default::default();
        let timed = |f: &dyn Fn()| {
            let t = thread_cpu_ns();
            f();
            (thread_cpu_ns() - t) / 1e6
        };
        for rep in 0..REPS {
            let id = ids[(rep * 7919 + n / 3) % n].as_str();
            runs[0].push(timed(&|| s.remove(id).expect("member")));
            runs[1].push(timed(&|| s.add(id, 1.0).expect("new member")));
            runs[2].push(timed(&|| s.set_weight(id, 2.0).expect("member")));
            s.set_weight(id, 1.0).expect("member");
        }
        let [r, a, w] = runs.map(median);
        println!("| {n} | {r:.3} ms | {a:.3} ms | {w:.3} ms |");
    }
    println!();
}

fn bytes(sizes: &[usize]) {
    println!("heap bytes per node held by a skeleton set (default shape):");
    println!();
    println!("| n | bytes per node |");
    println!("|---|---|");
    for &n in sizes {
        let ids = node_ids(n);
        let before = LIVE.load(Ordering::Relaxed);
        let s = skeleton(n, None);
        // One change, so the figure includes what a patched snapshot holds.
        s.set_weight(&ids[0], 2.0).expect("member");
        let held = LIVE.load(Ordering::Relaxed) - before;
        drop(s);
        println!("| {n} | {:.1} |", held as f64 / n as f64);
    }
    println!();
}

fn count(n: usize, lookups: usize) {
    let set = skeleton(n, None);
    let snap = set.snapshot();
    let pool = keys(1 << 16);
    for k in pool.iter().cycle().take(lookups) {
        black_box(snap.owner_index(black_box(k.as_bytes())).expect("eligible nodes"));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> usize { args.get(i).and_then(|a| a.parse().ok()).expect("a number") };
    if args.first().is_some_and(|a| a == "count") {
        count(num(1), num(2));
        return;
    }
    let (label, what) = (
        args.first().expect("LABEL"),
        args.get(1).expect("lookups|changes|bytes"),
    );
    let sizes: Vec<usize> = args[2..].iter().filter_map(|a| a.parse().ok()).collect();
    println!("## {label}: {what}");
    println!();
    match what.as_str() {
        "lookups" => lookups(&sizes),
        "changes" => changes(&sizes),
        "bytes" => bytes(&sizes),
        other => panic!("unknown measurement {other}"),
    }
}
