//! An atomically published immutable value with serialised writers: the
//! one mechanism behind every set's lock-free reads.

use std::sync::{Arc, Mutex};

use arc_swap::{ArcSwap, Guard};

use crate::error::Result;

/// The current `S` behind an atomic pointer, and a lock that serialises
/// writers. Readers never block; a writer builds the next value from the
/// current one and publishes it whole, or publishes nothing if it fails.
#[derive(Debug)]
pub(crate) struct Published<S> {
    current: ArcSwap<S>,
    writer: Mutex<()>,
}

impl<S> Published<S> {
    pub(crate) fn new(value: S) -> Self {
        Published {
            current: ArcSwap::from_pointee(value),
            writer: Mutex::new(()),
        }
    }

    /// The current value, without touching a reference count.
    #[inline]
    pub(crate) fn load(&self) -> Guard<Arc<S>> {
        self.current.load()
    }

    /// The current value, shared.
    #[inline]
    pub(crate) fn snapshot(&self) -> Arc<S> {
        self.current.load_full()
    }

    /// Publishes `next(current)`; on error publishes nothing.
    pub(crate) fn change(&self, next: impl FnOnce(&S) -> Result<S>) -> Result<()> {
        // A poisoned lock only means another writer panicked before
        // publishing; the published value is intact, so carry on.
        let _w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let current = self.current.load_full();
        let value = next(&current)?;
        self.current.store(Arc::new(value));
        Ok(())
    }
}
