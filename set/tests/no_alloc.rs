//! The lookup path does not allocate: owner, top-k into a caller buffer, and
//! batch owners into a caller buffer, counted by a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use longstraw::PackedKeys;
use longstraw_set::{Options, Rendezvous};

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
    let plain = Rendezvous::new(&ids, Options::default()).unwrap();
    let weighted = Rendezvous::with_weights(
        ids.iter().enumerate().map(|(i, id)| (id, (i % 7) as f64)),
        Options::default(),
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
