//! The mutable, shareable set of any mode: serialised writers, lock-free readers.

use std::sync::Arc;

use arc_swap::Guard;
use longstraw::{Backend, Hashing, Placement, Secret};

use crate::change::{apply, apply_unsealed, Change};
use crate::error::Result;
use crate::members::Members;
use crate::mode::{Mode, ModeOptions};
use crate::publish::Published;
use crate::skeleton::SkeletonSnapshot;
use crate::snapshot::{Kind, Snapshot};
use crate::table::TableSnapshot;

/// How a set hashes and which kernel it runs on. Placement never depends on
/// `backend`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The seed for key and node hashes; `None` (default) is seed 0. A seed
    /// together with a secret is an error, even `Some(0)`: the secret alone
    /// decides a keyed set's placement.
    pub seed: Option<u64>,
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
    /// A secret with a seed is an error ([`longstraw::Error::SeedWithSecret`]).
    /// This is the one place that rule is decided.
    pub fn hashing(&self) -> Result<Hashing> {
        Ok(Hashing::select(self.seed, self.secret)?)
    }
}

/// A node set of any [`Mode`] that many threads read while others change it.
///
/// Reads ([`Rendezvous::load`], [`Rendezvous::snapshot`]) never block and see
/// either the membership before a change or after it, never a mix. Changes
/// are serialised and each publishes a new [`Snapshot`]; a failed change
/// publishes nothing.
///
/// ```
/// use longstraw_set::{ModeOptions, Options, Rendezvous, TableOptions};
///
/// let flat = Rendezvous::flat(["a", "b", "c"], Options::default()).unwrap();
/// let table = Rendezvous::new(
///     [("a", 1.0, None::<&str>), ("b", 2.0, None), ("c", 1.0, Some("rack-1"))],
///     Options::default(),
///     ModeOptions::Table(TableOptions { partition_bits: Some(10), ..TableOptions::default() }),
/// )
/// .unwrap();
/// assert_eq!(table.snapshot().partitions(), Some(1024));
/// flat.add("d", 1.0).unwrap();
/// assert_eq!(flat.len(), 4);
/// ```
#[derive(Debug)]
pub struct Rendezvous {
    published: Published<Snapshot>,
}

impl Rendezvous {
    /// A set of `(id, weight, domain)` nodes in the given mode.
    ///
    /// Nodes are taken in order, and each is checked before the next is
    /// asked for: when the set is refused for a node, that node is the last
    /// one `nodes` gave (a caller can count them to name it).
    pub fn new<I, T, D>(nodes: I, options: Options, mode: ModeOptions) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = (T, f64, Option<D>)>,
        T: AsRef<[u8]>,
        D: AsRef<[u8]>,
    {
        let members = crate::change::members_of(nodes, &options)?;
        let kind = match mode {
            ModeOptions::Flat => Kind::Flat(members),
            ModeOptions::Table(t) => Kind::Table(TableSnapshot::build(members, t)?),
            ModeOptions::Skeleton(s) => Kind::Skeleton(SkeletonSnapshot::build(members, s)?),
        };
        Ok(Rendezvous {
            published: Published::new(Snapshot(kind)),
        })
    }

    /// A flat set of nodes, each with weight 1.
    pub fn flat<I, T>(ids: I, options: Options) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Self::new(
            ids.into_iter().map(|id| (id, 1.0, None::<&[u8]>)),
            options,
            ModeOptions::Flat,
        )
    }

    /// A set of `(id, weight)` nodes in the given mode.
    pub fn with_weights<I, T>(nodes: I, options: Options, mode: ModeOptions) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = (T, f64)>,
        T: AsRef<[u8]>,
    {
        Self::new(nodes.into_iter().map(|(id, w)| (id, w, None::<&[u8]>)), options, mode)
    }

    /// How this set places keys (fixed for its lifetime).
    pub fn mode(&self) -> Mode {
        self.load().mode()
    }

    /// The current snapshot, without touching a reference count. Hold it
    /// briefly (for one lookup); use [`Rendezvous::snapshot`] to keep it.
    #[inline]
    pub fn load(&self) -> Guard<Arc<Snapshot>> {
        self.published.load()
    }

    /// The current snapshot, shared.
    #[inline]
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.published.snapshot()
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
        Ok(self.load().owner(key)?.id().to_vec())
    }

    /// Adds a node. Fails on a duplicate id, a hash collision, a bad id or weight.
    pub fn add(&self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        let id = id.as_ref();
        self.change(Change::Add {
            id,
            weight,
            domain: None,
        })
    }

    /// Adds a node in a failure domain (rack, zone): see [`Snapshot::top_k_distinct`].
    pub fn add_in_domain(&self, id: impl AsRef<[u8]>, weight: f64, domain: impl AsRef<[u8]>) -> Result<()> {
        let (id, domain) = (id.as_ref(), Some(domain.as_ref()));
        self.change(Change::Add { id, weight, domain })
    }

    /// Removes a node. Fails if it is not in the set.
    pub fn remove(&self, id: impl AsRef<[u8]>) -> Result<()> {
        self.change(Change::Remove { id: id.as_ref() })
    }

    /// Changes a node's weight (0 drains it). Fails if it is not in the set.
    pub fn set_weight(&self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.change(Change::SetWeight {
            id: id.as_ref(),
            weight,
        })
    }

    /// Sets (or with `None` clears) a node's failure domain label.
    pub fn set_domain(&self, id: impl AsRef<[u8]>, domain: Option<&[u8]>) -> Result<()> {
        self.change(Change::SetDomain {
            id: id.as_ref(),
            domain,
        })
    }

    /// Applies several changes as one: readers see all of them or none, and
    /// a table or skeleton is rebuilt or patched once, not per change.
    pub fn update(&self, f: impl FnOnce(&mut Update<'_>) -> Result<()>) -> Result<()> {
        self.published.change(|current| {
            let generation = current.generation() + 1;
            let next = match &current.0 {
                Kind::Flat(m) => {
                    let mut next = m.try_clone()?;
                    f(&mut Update(Target::Members(&mut next)))?;
                    next.seal(generation)?;
                    Kind::Flat(next)
                }
                Kind::Table(t) => {
                    let mut next = t.try_clone()?;
                    f(&mut Update(Target::Table(&mut next)))?;
                    next.seal(generation)?;
                    Kind::Table(next)
                }
                Kind::Skeleton(s) => Kind::Skeleton(s.updated(|m| f(&mut Update(Target::Members(m))))?),
            };
            Ok(Snapshot(next))
        })
    }

    /// One change, applied the cheapest way the mode allows.
    fn change(&self, change: Change<'_>) -> Result<()> {
        self.published.change(|current| {
            let generation = current.generation() + 1;
            let next = match &current.0 {
                Kind::Flat(m) => {
                    let mut next = m.try_clone()?;
                    apply(&mut next, change)?;
                    next.set_generation(generation);
                    Kind::Flat(next)
                }
                Kind::Table(t) => {
                    let mut next = t.try_clone()?;
                    next.apply(change)?;
                    next.seal(generation)?;
                    Kind::Table(next)
                }
                Kind::Skeleton(s) => Kind::Skeleton(s.changed(change)?),
            };
            Ok(Snapshot(next))
        })
    }
}

/// Several changes applied together by [`Rendezvous::update`].
pub struct Update<'a>(Target<'a>);

enum Target<'a> {
    /// Flat and skeleton sets change their members and are sealed (and a
    /// skeleton's tree rebuilt) once at the end.
    Members(&'a mut Members),
    /// A table patches its rows change by change.
    Table(&'a mut TableSnapshot),
}

impl Update<'_> {
    fn apply(&mut self, change: Change<'_>) -> Result<()> {
        match &mut self.0 {
            Target::Members(m) => apply_unsealed(m, change),
            Target::Table(t) => t.apply(change),
        }
    }
    /// Adds a node.
    pub fn add(&mut self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        let id = id.as_ref();
        self.apply(Change::Add {
            id,
            weight,
            domain: None,
        })
    }
    /// Adds a node in a failure domain.
    pub fn add_in_domain(&mut self, id: impl AsRef<[u8]>, weight: f64, domain: impl AsRef<[u8]>) -> Result<()> {
        let (id, domain) = (id.as_ref(), Some(domain.as_ref()));
        self.apply(Change::Add { id, weight, domain })
    }
    /// Sets or clears a node's failure domain label.
    pub fn set_domain(&mut self, id: impl AsRef<[u8]>, domain: Option<&[u8]>) -> Result<()> {
        self.apply(Change::SetDomain {
            id: id.as_ref(),
            domain,
        })
    }
    /// Removes a node.
    pub fn remove(&mut self, id: impl AsRef<[u8]>) -> Result<()> {
        self.apply(Change::Remove { id: id.as_ref() })
    }
    /// Changes a node's weight.
    pub fn set_weight(&mut self, id: impl AsRef<[u8]>, weight: f64) -> Result<()> {
        self.apply(Change::SetWeight {
            id: id.as_ref(),
            weight,
        })
    }
}
