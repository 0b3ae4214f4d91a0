//! What `bounded.rs` synchronises with, as loom models it (built only with
//! `--cfg loom`: `make test-loom`), so that loom runs the real acquire,
//! release and membership-change code under every interleaving.
//!
//! The counters and locks are loom's own. `arc_swap::ArcSwap` is not
//! loom-aware; its load and store are linearizable swaps of one pointer,
//! modelled here by a loom mutex around an `Arc` (every interleaving of
//! loads and stores is still explored).

use std::fmt;
use std::sync::Arc;

pub(super) use loom::hint;
pub(super) use loom::sync::atomic::{AtomicU64, Ordering};
pub(super) use loom::sync::Mutex;

/// The published state, swapped whole.
pub(super) struct ArcSwap<T>(Mutex<Arc<T>>);

impl<T> ArcSwap<T> {
    pub(super) fn from_pointee(value: T) -> Self {
        ArcSwap(Mutex::new(Arc::new(value)))
    }
    pub(super) fn load(&self) -> Arc<T> {
        self.load_full()
    }
    pub(super) fn load_full(&self) -> Arc<T> {
        self.0.lock().unwrap().clone()
    }
    pub(super) fn store(&self, value: Arc<T>) {
        *self.0.lock().unwrap() = value;
    }
}

impl<T> fmt::Debug for ArcSwap<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ArcSwap")
    }
}
