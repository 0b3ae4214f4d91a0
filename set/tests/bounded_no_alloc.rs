//! Acquire and release do not allocate, on the owner fast path and on the
//! walk, counted by a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use longstraw_set::{BoundedLoad, Options};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Only this test's thread is counted: the harness allocates on its own threads meanwhile.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
    }
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn acquire_and_release_do_not_allocate() {
    // 40 nodes: more than the walk's stack batch, so the one-step walk runs too.
    let ids: Vec<String> = (0..40).map(|i| format!("node-{i}")).collect();
    let b = BoundedLoad::new(&ids, Options::default(), 1.25).unwrap();
    let mut held = Vec::with_capacity(4000);
    let (mut owners, mut walked, mut deepest) = (0, 0, 0);
    let rank_of: Vec<usize> = {
        let ranking: Vec<u32> = b.snapshot().rank(b"hot").iter().map(|n| n.index()).collect();
        (0..40).map(|i| ranking.iter().position(|&r| r == i).unwrap()).collect()
    };
    // arc-swap sets up its per-thread slots on a thread's first load.
    drop(b.acquire(b"warm-up").unwrap());
    COUNTING.with(|c| c.set(true));
    for k in 0..4000u32 {
        // One key only: its owner fills at once and the walk goes deep.
        let lease = b.acquire(b"hot").unwrap();
        deepest = deepest.max(rank_of[lease.index() as usize]);
        if lease.is_owner() {
            owners += 1;
        } else {
            walked += 1;
        }
        if k % 3 == 0 {
            drop(lease);
        } else {
            held.push(lease);
        }
    }
    held.clear();
    COUNTING.with(|c| c.set(false));
    assert_eq!(ALLOCS.load(Ordering::SeqCst), 0);
    assert!(owners > 0 && walked > 0, "owners {owners} walked {walked}");
    assert!(
        deepest > 16,
        "the walk never passed the stack batch (deepest rank {deepest})"
    );
    assert_eq!(b.in_flight(), 0);
}
