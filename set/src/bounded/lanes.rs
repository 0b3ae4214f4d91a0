//! The bounded-load total without a shared hot counter (SPEC.md §16.4).
//!
//! Every thread owns a *lane* (claimed once, returned when the thread ends),
//! and every set keeps, per lane, two monotone counters: requests acquired
//! and requests released through that lane. A lane has one writer, its
//! thread, so it counts with a plain load and store: no locked instruction.
//! Threads past the [`LANES`] private lanes (and code that runs after its
//! thread's lane was returned, in a thread-local destructor) share one more
//! lane that counts with `fetch_add`.
//!
//! The total is `sum(acquired) - sum(released)`. [`Total::read`] reads every
//! lane's `acquired` first and every lane's `released` after, so the value it
//! returns is never above the total at one moment between the two scans: a
//! request it counts as acquired and not released was in flight at that
//! moment. With one thread it is exactly the total.

use std::cell::Cell;

#[cfg(not(loom))]
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Private lanes; the shared lane is index `LANES`.
#[cfg(not(loom))]
pub(super) const LANES: usize = 64;
/// Under loom, two: the models' first two threads count in private lanes,
/// the others in the shared one, so both kinds are checked (and the model
/// stays small).
#[cfg(loom)]
pub(super) const LANES: usize = 2;

/// One lane's counters, on its own cache line so that threads do not slow
/// each other down.
#[derive(Debug, Default)]
#[repr(align(64))]
struct LaneCount {
    acquired: AtomicU64,
    released: AtomicU64,
}

impl LaneCount {
    #[inline]
    fn bump(counter: &AtomicU64, lane: usize) {
        if lane < LANES {
            // Only this lane's thread writes the counter, so a load and a
            // store cannot lose an update. Release: a reader that sees the
            // new value sees everything this thread did before.
            counter.store(counter.load(Ordering::Relaxed).wrapping_add(1), Ordering::Release);
        } else {
            counter.fetch_add(1, Ordering::AcqRel);
        }
    }
}

/// The requests in flight on a set (all its nodes, removed ones included),
/// counted per lane.
#[derive(Debug)]
pub(super) struct Total {
    /// `LANES` private lanes and the shared one.
    lanes: Box<[LaneCount; LANES + 1]>,
    /// One more than the highest private lane that ever counted here: the
    /// scans read lanes `0..used` and the shared lane.
    used: AtomicUsize,
}

impl Total {
    pub(super) fn new() -> Total {
        Total {
            lanes: Box::new(std::array::from_fn(|_| LaneCount::default())),
            used: AtomicUsize::new(0),
        }
    }

    /// Makes sure scans read `lane` from now on. Called before the lane's
    /// first count in this set, so no scan that starts later misses it.
    #[inline]
    fn enter(&self, lane: usize) {
        if lane < LANES && lane >= self.used.load(Ordering::Acquire) {
            self.used.fetch_max(lane + 1, Ordering::AcqRel);
        }
    }

    /// Counts one acquired request (after its node's load was raised).
    #[inline]
    pub(super) fn acquired(&self, lane: usize) {
        self.enter(lane);
        LaneCount::bump(&self.lanes[lane].acquired, lane);
    }

    /// Counts one released request (after its node's load was lowered).
    #[inline]
    pub(super) fn released(&self, lane: usize) {
        self.enter(lane);
        LaneCount::bump(&self.lanes[lane].released, lane);
    }

    /// The requests in flight: exact with one thread; under concurrency never
    /// above the total at one moment during the call (SPEC.md §16.4).
    #[inline]
    pub(super) fn read(&self) -> u64 {
        let used = self.used.load(Ordering::Acquire).min(LANES);
        let acquired = self.sum(used, |l| &l.acquired);
        // Read again: a lane that entered since may hold releases of
        // requests counted above.
        let used = self.used.load(Ordering::Acquire).min(LANES);
        let released = self.sum(used, |l| &l.released);
        // Under concurrency the releases read may include requests whose
        // acquisition was read before it was counted: then the difference
        // is low (never negative in a real total), which only lowers caps.
        let t = acquired.wrapping_sub(released);
        if t > i64::MAX as u64 {
            0
        } else {
            t
        }
    }
}

impl Total {
    /// One counter summed over the shared lane and private lanes `0..used`.
    #[inline(always)]
    fn sum(&self, used: usize, counter: impl Fn(&LaneCount) -> &AtomicU64) -> u64 {
        let shared = counter(&self.lanes[LANES]).load(Ordering::Acquire);
        match &self.lanes[..used] {
            // One thread (the common case): no loop.
            [] => shared,
            [only] => shared.wrapping_add(counter(only).load(Ordering::Acquire)),
            lanes => lanes
                .iter()
                .fold(shared, |sum, l| sum.wrapping_add(counter(l).load(Ordering::Acquire))),
        }
    }
}

#[cfg(not(loom))]
static CLAIMED: [AtomicBool; LANES] = [const { AtomicBool::new(false) }; LANES];

/// A thread's private lane, returned when the thread ends.
struct Claim(usize);

impl Claim {
    #[cfg(not(loom))]
    fn new() -> Claim {
        for (i, c) in CLAIMED.iter().enumerate() {
            // Acquire: this thread sees every count the lane's last owner
            // made (its release below), so it continues from them.
            if !c.load(Ordering::Relaxed)
                && c.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                return Claim(i);
            }
        }
        Claim(LANES)
    }

    #[cfg(loom)]
    fn new() -> Claim {
        // Loom threads never hand a lane on: a fresh one each, per execution.
        Claim(NEXT.fetch_add(1, Ordering::Relaxed).min(LANES))
    }
}

#[cfg(not(loom))]
impl Drop for Claim {
    fn drop(&mut self) {
        if self.0 < LANES {
            // Count through the shared lane from now on (leases dropped by
            // later thread-local destructors), then hand the lane on.
            LANE.with(|l| l.0.set(LANES));
            CLAIMED[self.0].store(false, Ordering::Release);
        }
    }
}

#[cfg(not(loom))]
thread_local! {
    static LANE: LaneCell = const { LaneCell(Cell::new(usize::MAX)) };
    static CLAIM: Claim = Claim::new();
}

#[cfg(loom)]
loom::lazy_static! {
    static ref NEXT: AtomicUsize = AtomicUsize::new(0);
}

#[cfg(loom)]
loom::thread_local! {
    static LANE: LaneCell = LaneCell(Cell::new(usize::MAX));
    static CLAIM: Claim = Claim::new();
}

/// The lane index cached without a destructor (a cheap thread-local read);
/// [`CLAIM`] owns it.
struct LaneCell(Cell<usize>);

/// The calling thread's lane: its private one, or the shared lane `LANES`.
#[inline]
pub(super) fn current() -> usize {
    let cached = LANE.with(|l| l.0.get());
    if cached != usize::MAX {
        return cached;
    }
    claim()
}

#[cold]
fn claim() -> usize {
    // `try_with`: during thread-local destruction the claim may be gone
    // (or going); the shared lane is always right.
    match CLAIM.try_with(|c| c.0) {
        Ok(lane) => {
            if lane < LANES {
                LANE.with(|l| l.0.set(lane));
            }
            lane
        }
        Err(_) => LANES,
    }
}
