//! The cost of one membership change at scale, and the flat
//! lookups beside it (the storage change must not slow them):
//! `cargo run --release -p longstraw-bench-scale --bin membership-change -- LABEL [N... | lookups]`
//!
//! For each N it builds a flat set and a default-shape skeleton set
//! of N nodes, then times single changes (remove one node, add it back, set
//! a weight, set it back), each publishing a snapshot and dropping the old
//! one. It prints the median of `REPS` changes per kind as one Markdown table
//! headed by LABEL, so two builds (before, after) can be run one after the
//! other and recorded together through `bench/record.py`.

use std::hint::black_box;
use std::time::Instant;

use longstraw::PackedKeys;
use longstraw_bench_scale::{keys, ms, node_ids, skeleton};
use longstraw_set::{Options, Rendezvous};

/// Changes timed per kind and size; the median is printed.
const REPS: usize = 5;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// This thread's CPU time in ms: unlike wall time, it leaves out the time
/// the thread waited for a core, which on a shared 2-core machine can be
/// most of it.
fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // every Linux has.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

/// One change's (wall ms, thread CPU ms).
fn timed(change: impl FnOnce()) -> (f64, f64) {
    let (t, cpu) = (Instant::now(), thread_cpu_ms());
    change();
    (ms(t), thread_cpu_ms() - cpu)
}

/// Median (wall, CPU) ms of remove / add / set_weight over `REPS` rounds.
fn time_changes(
    ids: &[String],
    remove: impl Fn(&str),
    add: impl Fn(&str),
    reweight: impl Fn(&str, f64),
) -> [(f64, f64); 3] {
    let mut runs: [Vec<(f64, f64)>; 3] = Default::default();
    for rep in 0..REPS {
        // Nodes spread over the index range, so removals shift different amounts.
        let id = &ids[(rep * 7919 + ids.len() / 3) % ids.len()];
        runs[0].push(timed(|| remove(id)));
        runs[1].push(timed(|| add(id)));
        runs[2].push(timed(|| reweight(id, 2.0)));
        reweight(id, 1.0);
    }
    runs.map(|r| {
        (
            median(r.iter().map(|x| x.0).collect()),
            median(r.iter().map(|x| x.1).collect()),
        )
    })
}

/// ns per node-score of the flat batch lookup at `n` nodes (best of 5).
fn flat_batch_ns_per_node_score(n: usize) -> f64 {
    let r = Rendezvous::flat(node_ids(n), Options::default()).expect("valid nodes");
    let snap = r.snapshot();
    let pool = keys(4096);
    let mut bytes = Vec::new();
    let mut offsets = vec![0u32];
    for k in &pool {
        bytes.extend_from_slice(k.as_bytes());
        offsets.push(bytes.len() as u32);
    }
    let batch = PackedKeys::new(&bytes, &offsets).expect("valid batch");
    let mut out = vec![0u32; pool.len()];
    let rounds = (1 << 26) / (n * pool.len()) + 1;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..rounds {
            snap.owners_into(&batch, &mut out).expect("eligible nodes");
            black_box(&out);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / (rounds * pool.len() * n) as f64);
    }
    best
}

/// ns per single-key `owner_index` at `n` nodes (best of 5 over 4096 keys).
fn flat_owner_ns(n: usize) -> f64 {
    let r = Rendezvous::flat(node_ids(n), Options::default()).expect("valid nodes");
    let snap = r.snapshot();
    let pool = keys(4096);
    let rounds = (1 << 24) / (n.max(64) * pool.len()) + 1;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..rounds {
            for k in &pool {
                black_box(snap.owner_index(black_box(k.as_bytes())).expect("eligible nodes"));
            }
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / (rounds * pool.len()) as f64);
    }
    best
}

/// `count LAYOUT N LOOKUPS`: only lookups, for instruction counts under
/// callgrind (bench/scale/membership_change_ab.sh runs it with L and 3L
/// lookups and subtracts, which cancels the setup). LAYOUT is `owner` (one
/// key at a time) or `batch` (4096-key packed batches; LOOKUPS batches).
fn count(layout: &str, n: usize, lookups: usize) {
    let r = Rendezvous::flat(node_ids(n), Options::default()).expect("valid nodes");
    let snap = r.snapshot();
    let pool = keys(4096);
    if layout == "owner" {
        for k in pool.iter().cycle().take(lookups) {
            black_box(snap.owner_index(black_box(k.as_bytes())).expect("eligible nodes"));
        }
        return;
    }
    let mut bytes = Vec::new();
    let mut offsets = vec![0u32];
    for k in &pool {
        bytes.extend_from_slice(k.as_bytes());
        offsets.push(bytes.len() as u32);
    }
    let batch = PackedKeys::new(&bytes, &offsets).expect("valid batch");
    let mut out = vec![0u32; pool.len()];
    for _ in 0..lookups {
        snap.owners_into(&batch, &mut out).expect("eligible nodes");
        black_box(&out);
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().is_some_and(|a| a == "count") {
        let n = |i: usize| all.get(i).and_then(|a| a.parse().ok()).expect("count LAYOUT N LOOKUPS");
        count(&all[1], n(2), n(3));
        return;
    }
    let mut args = std::env::args().skip(1);
    let label = args.next().unwrap_or_else(|| "this build".to_string());
    let args: Vec<String> = args.collect();
    let lookups_only = args.first().is_some_and(|a| a == "lookups");
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() && !lookups_only {
        vec![10_000, 100_000, 1_000_000]
    } else {
        sizes
    };
    println!("## {label}");
    println!();
    if !sizes.is_empty() {
        println!("one change, median of {REPS}, wall ms (thread CPU ms):");
        println!();
        println!(
            "| n | flat remove | flat add | flat set_weight | skeleton remove | skeleton add | skeleton set_weight |"
        );
        println!("|---|---|---|---|---|---|---|");
    }
    for &n in &sizes {
        let ids = node_ids(n);
        let r = Rendezvous::flat(&ids, Options::default()).expect("valid nodes");
        let flat = time_changes(
            &ids,
            |id| r.remove(id).expect("member"),
            |id| r.add(id, 1.0).expect("new member"),
            |id, w| r.set_weight(id, w).expect("member"),
        );
        drop(r);
        let s = skeleton(n, None);
        let tree = time_changes(
            &ids,
            |id| s.remove(id).expect("member"),
            |id| s.add(id, 1.0).expect("new member"),
            |id, w| s.set_weight(id, w).expect("member"),
        );
        drop(s);
        let cells: Vec<String> = flat
            .iter()
            .chain(&tree)
            .map(|(wall, cpu)| format!("{wall:.3} ms ({cpu:.3} ms)"))
            .collect();
        println!("| {n} | {} |", cells.join(" | "));
    }
    println!();
    println!("flat lookups, best of 5:");
    println!();
    println!("| n | flat owner, ns per key | flat batch, ns per node-score |");
    println!("|---|---|---|");
    for n in [10, 100, 4096, 65536] {
        println!(
            "| {n} | {:.1} ns | {:.3} ns |",
            flat_owner_ns(n),
            flat_batch_ns_per_node_score(n)
        );
    }
    println!();
}
