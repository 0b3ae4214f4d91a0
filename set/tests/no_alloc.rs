//! The lookup path does not allocate: owner, top-k into a caller buffer,
//! batch owners into a caller buffer, and bounded-load acquire and release (on
//! the owner fast path and on the walk), counted by a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use longstraw::PackedKeys;
use longstraw_set::{BoundedLoad, ModeOptions, Options, Rendezvous};

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
fn lookups_do_not_allocate() {
    let ids: Vec<String> = (0..300).map(|i| format!("node-{i}")).collect();
    let plain = Rendezvous::flat(&ids, Options::default()).unwrap();
    let weighted = Rendezvous::with_weights(
        ids.iter().enumerate().map(|(i, id)| (id, (i % 7) as f64)),
        Options::default(),
        ModeOptions::Flat,
    )
    .unwrap();
    let keys: Vec<String> = (0..1000).map(|i| format!("key-{i}")).collect();
    let mut bytes = Vec::new();
    let mut offsets = vec![0u64];
    for k in &keys {
        bytes.extend_from_slice(k.as_bytes());
        offsets.push(bytes.len() as u64);
    }
    let packed = PackedKeys::new(&bytes, &offsets).unwrap();
    let mut out = vec![0u32; keys.len()];
    let mut top = [0u32; 8];

    for r in [&plain, &weighted] {
        // arc-swap registers each thread once, on its first load; that is not per lookup.
        let _ = r.load().owner(b"warm-up");
        let before = ALLOCS.load(Ordering::SeqCst);
        COUNTING.with(|c| c.set(true));
        let mut sink = 0u64;
        for k in &keys {
            let snap = r.load();
            sink += snap.owner(k.as_bytes()).unwrap().index() as u64;
            sink += snap.top_k_into(k.as_bytes(), &mut top) as u64;
        }
        r.load().owners_into(&packed, &mut out).unwrap();
        COUNTING.with(|c| c.set(false));
        let after = ALLOCS.load(Ordering::SeqCst);
        assert_eq!(after - before, 0, "lookups allocated {} times", after - before);
        assert!(sink > 0);
    }
}

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
