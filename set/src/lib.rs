//! # longstraw-set
//!
//! The one owned node set of longstraw. Every binding (C, Python, Node) uses
//! this crate; none keeps membership logic of its own.
//!
//! A [`Rendezvous`] is a set of any [`Mode`] (flat, table, skeleton) and
//! holds its current [`Snapshot`]. Readers load it without locking and never
//! see a half-applied change; writers are serialised and publish a new
//! snapshot. A node index is a position in one snapshot's
//! [`Snapshot::nodes`], so anything that returns indices returns them with
//! the snapshot they belong to. Every mode's snapshot answers the same
//! [`Lookup`]s; what only one mode has ([`Snapshot::partition`],
//! [`Snapshot::shape`]) says so for the others.
//!
//! ```
//! use longstraw_set::{Options, Rendezvous};
//!
//! let r = Rendezvous::flat(["cache-a", "cache-b", "cache-c"], Options::default()).unwrap();
//! let snap = r.snapshot();
//! let owner = snap.owner(b"user:42").unwrap();
//! println!("user:42 -> {}", String::from_utf8_lossy(owner.id()));
//!
//! r.add("cache-d", 1.0).unwrap();
//! // `snap` still answers for the old membership; `r.snapshot()` for the new one.
//! assert_eq!(snap.len(), 3);
//! assert_eq!(r.snapshot().len(), 4);
//! ```
#![warn(missing_docs)]

mod alloc;
mod backend_env;
mod balanced;
mod bounded;
mod change;
mod chunks;
mod column;
mod delegate;
mod error;
mod labels;
mod mapped_id;
mod members;
mod mode;
mod publish;
#[cfg(doctest)]
mod readme_doctests;
mod rendezvous;
mod shared_map;
mod skeleton;
mod snapshot;
mod table;
mod weight_census;

pub use backend_env::{backend_from_env, parse_backend, BACKEND_ENV};
pub use bounded::{
    validate_balance_factor, Admission, BoundedLoad, BoundedRule, Lease, OwnedLease, DEFAULT_BALANCE_FACTOR,
    MIN_BALANCE_FACTOR,
};
pub use error::{Error, Result};
pub use longstraw::balanced::Balance;
pub use longstraw::SkeletonShape;
pub use longstraw::{Backend, BackendKind, Hashing, Placement, Ranked, Secret, SECRET_LEN};
pub use members::{Ids, IdsIter, Members, Node};
pub use mode::{Mode, ModeOptions, UnknownMode};
pub use rendezvous::{Options, Rendezvous, Update};
pub use skeleton::{SkeletonOptions, SkeletonSnapshot};
pub use snapshot::{Lookup, Snapshot};
pub use table::{TableOptions, TableSnapshot};
