//! Bounded loads count the total per thread (SPEC.md §16.4): each thread has
//! a lane of its own, handed on when the thread ends, and threads past the
//! private lanes share one. These tests check that the total stays exact
//! when leases move between threads and lanes change hands, that a
//! single-threaded run after other threads have come and gone still follows
//! the rule exactly, and that with 8 threads no node passes the cap of the
//! stated bound.

use std::sync::{mpsc, Arc, Barrier};
use std::thread;

use longstraw_set::{BoundedLoad, Options, OwnedLease};

fn ids(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("node-{i}")).collect()
}

/// SplitMix64: a fixed-seed stream.
struct Stream(u64);
impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// §16.1 in exact integers for equal weights and `c = 5/4`: node `i` may
/// take a request when `load_i + 1 <= ceil(5 * (total + 1) / (4 * n))`.
fn integer_cap(total: u64, n: u64) -> u64 {
    (5 * (total + 1)).div_ceil(4 * n)
}

/// One thread acquires and releases against the integer rule; every choice
/// must agree. `b` may have leases out already (`outside` of them, held by
/// the caller).
fn agrees_with_integer_rule(b: &BoundedLoad, n: usize, outside: &[u64], steps: usize, seed: u64) {
    let mut loads = outside.to_vec();
    let mut held = Vec::new();
    let mut rng = Stream(seed);
    for step in 0..steps {
        if held.is_empty() || (rng.below(100) < 55 && held.len() < 300) {
            let key = format!("key-{}", rng.below(12));
            let total: u64 = loads.iter().sum();
            let cap = integer_cap(total, n as u64);
            let expected = b
                .snapshot()
                .rank(key.as_bytes())
                .iter()
                .map(|r| r.index() as usize)
                .find(|&i| loads[i] < cap)
                .expect("§16.3: some node has room");
            let lease = b.acquire(key.as_bytes()).unwrap();
            assert_eq!(lease.index() as usize, expected, "step {step} key {key}");
            loads[expected] += 1;
            held.push((lease, expected));
        } else {
            let (lease, i) = held.swap_remove(rng.below(held.len() as u64) as usize);
            drop(lease);
            loads[i] -= 1;
        }
        assert_eq!(b.in_flight(), loads.iter().sum::<u64>(), "step {step}");
    }
}

#[test]
fn leases_released_by_other_threads_keep_the_total_exact() {
    // n = 8, c = 1.25: shares 5/32, exact in binary, so the f64 rule equals
    // the integer one.
    let b = Arc::new(BoundedLoad::new(ids(8), Options::default(), 1.25).unwrap());
    // Threads acquire, and hand their leases to other threads that release
    // them: every lane counts releases of requests it never acquired.
    let (tx, rx) = mpsc::channel::<Vec<OwnedLease>>();
    let acquirers: Vec<_> = (0..4)
        .map(|t| {
            let (b, tx) = (b.clone(), tx.clone());
            thread::spawn(move || {
                let leases = (0..500)
                    .map(|k| b.acquire_owned(format!("k{t}-{k}").as_bytes()).unwrap())
                    .collect();
                tx.send(leases).unwrap();
            })
        })
        .collect();
    drop(tx);
    for a in acquirers {
        a.join().unwrap();
    }
    assert_eq!(b.in_flight(), 2000);
    let batches: Vec<Vec<OwnedLease>> = rx.iter().collect();
    // Keep 50 leases from the first batch in this thread; release the rest
    // elsewhere.
    let mut batches = batches.into_iter();
    let mut kept = batches.next().unwrap();
    let rest = kept.split_off(50);
    let releasers: Vec<_> = batches
        .chain(std::iter::once(rest))
        .map(|batch| thread::spawn(move || drop(batch)))
        .collect();
    for r in releasers {
        r.join().unwrap();
    }
    assert_eq!(b.in_flight(), 50);
    let loads: Vec<u64> = b.loads().iter().map(|(_, l)| *l).collect();
    assert_eq!(loads.iter().sum::<u64>(), 50);
    let mut by_node = vec![0u64; 8];
    for l in &kept {
        by_node[l.index() as usize] += 1;
    }
    assert_eq!(loads, by_node);
    // Now one thread (a fresh one, which may reuse a lane that another
    // thread handed on): the rule is exact again, with the 50 leases still
    // out.
    let (b2, outside) = (b.clone(), by_node.clone());
    thread::spawn(move || agrees_with_integer_rule(&b2, 8, &outside, 5_000, 7))
        .join()
        .unwrap();
    agrees_with_integer_rule(&b, 8, &by_node, 5_000, 8);
    drop(kept);
    assert_eq!(b.in_flight(), 0);
}

#[test]
fn more_threads_than_private_lanes_count_exactly() {
    // 80 threads alive at once: 64 private lanes at most, the rest share one.
    const THREADS: usize = 80;
    let b = Arc::new(BoundedLoad::new(ids(50), Options::default(), 1.25).unwrap());
    let all_in = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let (b, all_in) = (b.clone(), all_in.clone());
            thread::spawn(move || {
                let mut held: Vec<OwnedLease> = (0..20)
                    .map(|k| b.acquire_owned(format!("{t}/{k}").as_bytes()).unwrap())
                    .collect();
                // Every thread holds a lane (or the shared one) here.
                all_in.wait();
                held.truncate(5);
                held
            })
        })
        .collect();
    let held: Vec<OwnedLease> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    assert_eq!(b.in_flight(), (THREADS * 5) as u64);
    assert_eq!(b.loads().iter().map(|(_, l)| l).sum::<u64>(), (THREADS * 5) as u64);
    drop(held);
    assert_eq!(b.in_flight(), 0);
    assert!(b.loads().iter().all(|(_, l)| *l == 0));
}

/// While the total only grows (no releases), every admission's `T` is at
/// most the final total, so SPEC.md §16.4's bound says no node may end above
/// `ceil(c * T_final / n)`, with no slack at all. Hot keys fill their owners,
/// so the caps are reached: an over-counted total would show here.
#[test]
fn eight_threads_growing_the_total_never_pass_the_final_cap() {
    const THREADS: usize = 8;
    const N: u64 = 8;
    let b = Arc::new(BoundedLoad::new(ids(N as usize), Options::default(), 1.25).unwrap());
    let phase = |per_thread: usize, seed: u64| -> Vec<Vec<OwnedLease>> {
        let start = Arc::new(Barrier::new(THREADS));
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let (b, start) = (b.clone(), start.clone());
                thread::spawn(move || {
                    let mut rng = Stream(seed * 100 + t as u64);
                    start.wait();
                    (0..per_thread)
                        .map(|_| b.acquire_owned(format!("hot-{}", rng.below(3)).as_bytes()).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    };
    let check = |total: u64| {
        assert_eq!(b.in_flight(), total);
        // §16.1's cap for one more request is ceil(c (total + 1) / n); the
        // last admission saw at most `total` counting itself.
        let cap = (5 * total).div_ceil(4 * N);
        let loads: Vec<u64> = b.loads().iter().map(|(_, l)| *l).collect();
        assert_eq!(loads.iter().sum::<u64>(), total);
        assert!(
            loads.iter().all(|&l| l <= cap),
            "total {total}: loads {loads:?} above cap {cap}"
        );
        // Three hot keys over eight nodes: their owners are full.
        assert!(
            loads.iter().filter(|&&l| l + 1 >= cap).count() >= 2,
            "caps not reached: {loads:?}"
        );
    };
    let mut held: Vec<OwnedLease> = phase(200, 1).into_iter().flatten().collect();
    check(1600);
    // Release half, in this thread, then grow past the first total.
    held.truncate(800);
    assert_eq!(b.in_flight(), 800);
    held.extend(phase(150, 2).into_iter().flatten());
    check(2000);
    drop(held);
    assert_eq!(b.in_flight(), 0);
}

/// SPEC.md §16.4 with releases happening, at the benchmark's n = 50 (equal
/// weights, `c = 1.25`, `share_i = 0.025`) and 8 threads.
///
/// What §16.4 gives here, and why the test asserts what it does:
///
/// - Each thread holds at most `HELD` leases counting the one it is placing:
///   it releases its oldest lease before it acquires when it holds
///   `HELD`. So `total`, which counts announced requests not yet placed,
///   is at most `THREADS * HELD = 120` at every moment.
/// - Every admission satisfies `load_i <= cap_i(T_read)` with `T_read <=
///   total(m)` for a moment `m` inside that acquire (§16.4, Claim 1), so
///   `load_i <= ceil(share_i * 120) = 3`. A load only grows through an
///   admission, so no node ever shows more than 3, whatever is released
///   meanwhile.
/// - §16.4's per-node number, measured against the requests *placed*, is
///   weaker here: during an acquire `placed(m) <= 7 * 15 + 14 = 119`, so it
///   allows `ceil(share_i * (119 + 1)) + ceil(share_i * (8 - 1)) = 3 + 1 = 4`.
///   It follows from the bound on `total` (announced requests are at most
///   one per thread), so asserting 3 checks it and more. It cannot be
///   checked against a total the test observes instead: with releases, a
///   sampled total can miss the moment an acquire read, and the spec lets a
///   node hold more than the cap of a later, smaller total.
/// - `0.025 * 120` is exactly 3 in `f64` and `0.025 * 121` is above it, so
///   a total read one too high (the request counted twice, or releases read
///   before announcements) admits a fourth request, as does a lost race for
///   a node's last place.
///
/// Every thread checks all loads right after each of its acquires, when the
/// node it was admitted to is most likely at its cap.
#[test]
fn eight_threads_releasing_meanwhile_never_pass_the_cap_of_the_largest_total() {
    const THREADS: usize = 8;
    const HELD: usize = 15;
    const N: usize = 50;
    const ROUNDS: usize = 150_000;
    let b = Arc::new(BoundedLoad::new(ids(N), Options::default(), 1.25).unwrap());
    // §16.1's cap in f64, in the spec's order: c * (w_i / W), times T, ceil.
    let share = 1.25 * (1.0 / N as f64);
    let ceiling = (share * (THREADS * HELD) as f64).ceil() as u64;
    assert_eq!(ceiling, 3);
    assert_eq!((share * (THREADS * HELD + 1) as f64).ceil() as u64, 4);
    let start = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let (b, start) = (b.clone(), start.clone());
            thread::spawn(move || {
                let mut rng = Stream(500 + t as u64);
                let mut held = std::collections::VecDeque::new();
                let mut at_ceiling = 0u64;
                start.wait();
                for round in 0..ROUNDS {
                    // Four hot keys (their owners fill and the overflow walks
                    // their rankings), one request in four cold.
                    let key = if rng.below(4) == 0 {
                        format!("cold-{}", rng.below(10_000))
                    } else {
                        format!("hot-{}", rng.below(4))
                    };
                    // Released right before the acquire, so that the total
                    // is at its largest for as much of the run as it can be.
                    if held.len() == HELD {
                        held.pop_front();
                    }
                    held.push_back(b.acquire(key.as_bytes()).unwrap());
                    let (_, loads) = b.loads_with_snapshot();
                    let peak = loads.iter().copied().max().unwrap();
                    assert!(
                        peak <= ceiling,
                        "thread {t} round {round}: a node holds {peak}, above {ceiling}: {loads:?}"
                    );
                    at_ceiling += u64::from(peak == ceiling);
                }
                at_ceiling
            })
        })
        .collect();
    let at_ceiling: u64 = workers.into_iter().map(|w| w.join().unwrap()).sum();
    eprintln!(
        "n = 50, 8 threads: a node at the ceiling {ceiling} after {at_ceiling} of {} acquires",
        THREADS * ROUNDS
    );
    // The hot keys kept nodes at the ceiling, so one more place would show.
    assert!(
        at_ceiling * 4 >= (THREADS * ROUNDS) as u64,
        "a node was at {ceiling} after only {at_ceiling} of {} acquires: the caps were not stressed",
        THREADS * ROUNDS
    );
    assert_eq!(b.in_flight(), 0);
    assert!(b.loads().iter().all(|(_, l)| *l == 0));
}
