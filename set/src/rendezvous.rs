//! The mutable, shareable node set: serialised writers, lock-free readers.

use std::sync::{Arc, Mutex};

use arc_swap::{ArcSwap, Guard};
use longstraw::{Backend, Hashing, Placement, Secret};

use crate::error::Result;
use crate::snapshot::{Node, Snapshot};

/// How a set places keys. Placement never depends on `backend`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The seed for key and node hashes (default 0). Must stay 0 when
    /// `secret` is set.
    pub seed: u64,
    /// A secret selects keyed placement (`keyed-v1`, SPEC.md §15): keys can
    /// no longer be chosen to pile onto one node. `None` (default) is v1.
    pub secret: Option<Secret>,
    /// The placement version (default v1).
    pub placement: Placement,
    /// The kernel; `None` reads `LONGSTRAW_BACKEND` (default: the best available).
    pub backend: Option<Backend>,
}

impl Options {
    /// How this set hashes: keyed-v1 with a secret, else v1 with the seed.
    /// A secret with a non-zero seed is an error ([`longstraw::Error::SeedWithSecret`]).
    pub fn hashing(&self) -> Result<Hashing> {
        Ok(Hashing::select((self.seed != 0).then_some(self.seed), self.secret)?)
    }
}

/// A node set that many threads can read while others change it.
///
/// Reads ([`Rendezvous::load`], [`Rendezvous::snapshot`]) never block and see
/// either the membership before a change or after it, never a mix. Changes
/// are serialised and each publishes a new [`Snapshot`]; a failed change
/// publishes nothing.
#[derive(Debug)]
pub struct Rendezvous {
    current: ArcSwap<Snapshot>,
    writer: Mutex<()>,
}

impl Rendezvous {
    /// A set of nodes, each with weight 1.
    pub fn new<I, T>(ids: I, options: Options) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Self::with_weights(ids.into_iter().map(|id| (id, 1.0)), options)
    }

    /// A set of `(id, weight)` nodes.
    pub fn with_weights<I, T>(nodes: I, options: Options) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = (T, f64)>,
        T: AsRef<[u8]>,
    {
        Self::with_domains(nodes.into_iter().map(|(id, w)| (id, w, None::<&[u8]>)), options)
    }

    /// A set of `(id, weight, domain)` nodes (see [`Snapshot::top_k_distinct`]).
    ///
    /// Nodes are taken in order, and each is checked before the next is
    /// asked for: when the set is refused for a node, that node is the last
    /// one `nodes` gave (a caller can count them to name it).
    pub fn with_domains<I, T, D>(nodes: I, options: Options) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = (T, f64, Option<D>)>,
        T: AsRef<[u8]>,
        D: AsRef<[u8]>,
    {
        let snap = crate::membership::members_of(nodes, &options)?;
        Ok(Rendezvous {
            current: ArcSwap::from_pointee(snap),
            writer: Mutex::new(()),
        })
    }

    /// The current snapshot, without touching a reference count. Hold it
    /// briefly (for one lookup); use [`Rendezvous::snapshot`] to keep it.
    #[inline]
    pub fn load(&self) -> Guard<Arc<Snapshot>> {
        self.current.load()
    }

    /// The current snapshot, shared.
    #[inline]
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// Adds a node. Fails on a duplicate id, a hash collision, a bad id or weight.
    pub fn add(&self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.change(|s| s.push(id.as_ref(), weight))
    }

    /// Adds a node in a failure domain (rack, zone): see [`Snapshot::top_k_distinct`].
    pub fn add_in_domain(&self, id: impl AsRef<[u8]>, weight: f64, domain: impl AsRef<[u8]>) -> Result<()> {
        self.change(|s| s.push_in_domain(id.as_ref(), weight, Some(domain.as_ref())))
    }

    /// Sets (or with `None` clears) a node's failure domain label.
    pub fn set_domain(&self, id: impl AsRef<[u8]>, domain: Option<&[u8]>) -> Result<()> {
        self.change(|s| s.set_domain(id.as_ref(), domain))
    }

    /// Removes a node. Fails if it is not in the set.
    pub fn remove(&self, id: impl AsRef<[u8]>) -> Result<()> {
        self.change(|s| s.remove(id.as_ref()))
    }

    /// Changes a node's weight (0 drains it). Fails if it is not in the set.
    pub fn set_weight(&self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.change(|s| s.set_weight(id.as_ref(), weight))
    }

    /// Applies several changes as one: readers see all of them or none.
    pub fn update(&self, f: impl FnOnce(&mut Update<'_>) -> Result<()>) -> Result<()> {
        self.change(|s| f(&mut Update { snap: s }))
    }

    fn change(&self, f: impl FnOnce(&mut Snapshot) -> Result<()>) -> Result<()> {
        // A poisoned lock only means another writer panicked before
        // publishing; the published snapshot is intact, so carry on.
        let _w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let current = self.current.load_full();
        let mut next = current.try_clone()?;
        f(&mut next)?;
        next.seal(current.generation() + 1)?;
        self.current.store(Arc::new(next));
        Ok(())
    }

    /// How many nodes the current snapshot has.
    pub fn len(&self) -> usize {
        self.load().len()
    }

    /// Whether the current snapshot has no nodes.
    pub fn is_empty(&self) -> bool {
        self.load().is_empty()
    }

    /// The owner of `key` in the current snapshot, as an owned id.
    pub fn owner(&self, key: &[u8]) -> Result<Vec<u8>> {
        let snap = self.load();
        let node: Node<'_> = snap.owner(key)?;
        Ok(node.id().to_vec())
    }
}

/// Several changes applied together by [`Rendezvous::update`].
pub struct Update<'a> {
    snap: &'a mut Snapshot,
}

impl Update<'_> {
    /// Adds a node.
    pub fn add(&mut self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.snap.push(id.as_ref(), weight)
    }
    /// Adds a node in a failure domain.
    pub fn add_in_domain(&mut self, id: impl AsRef<[u8]>, weight: f64, domain: impl AsRef<[u8]>) -> Result<()> {
        self.snap.push_in_domain(id.as_ref(), weight, Some(domain.as_ref()))
    }
    /// Sets or clears a node's failure domain label.
    pub fn set_domain(&mut self, id: impl AsRef<[u8]>, domain: Option<&[u8]>) -> Result<()> {
        self.snap.set_domain(id.as_ref(), domain)
    }
    /// Removes a node.
    pub fn remove(&mut self, id: impl AsRef<[u8]>) -> Result<()> {
        self.snap.remove(id.as_ref())
    }
    /// Changes a node's weight.
    pub fn set_weight(&mut self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.snap.set_weight(id.as_ref(), weight)
    }
}
