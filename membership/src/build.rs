//! A validated [`Membership`] to the set it describes.

use std::cell::Cell;
use std::sync::Arc;

use longstraw::Backend;
use longstraw_set::{
    Node, Options, Rendezvous, Skeleton, SkeletonOptions, SkeletonSnapshot, Snapshot, Table, TableOptions,
    TableSnapshot,
};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Membership, Mode};

/// The set a membership file describes, of the file's mode.
#[derive(Debug)]
pub enum Loaded {
    /// `mode = "flat"`.
    Flat(Rendezvous),
    /// `mode = "table"`.
    Table(Table),
    /// `mode = "skeleton"`.
    Skeleton(Skeleton),
}

/// One immutable snapshot of a [`Loaded`] set: the lookups every mode has.
#[derive(Clone, Debug)]
pub enum LoadedSnapshot {
    /// A flat snapshot.
    Flat(Arc<Snapshot>),
    /// A table snapshot.
    Table(Arc<TableSnapshot>),
    /// A skeleton snapshot.
    Skeleton(Arc<SkeletonSnapshot>),
}

impl Loaded {
    /// The current snapshot.
    pub fn snapshot(&self) -> LoadedSnapshot {
        match self {
            Loaded::Flat(s) => LoadedSnapshot::Flat(s.snapshot()),
            Loaded::Table(t) => LoadedSnapshot::Table(t.snapshot()),
            Loaded::Skeleton(s) => LoadedSnapshot::Skeleton(s.snapshot()),
        }
    }
}

impl LoadedSnapshot {
    /// The membership (ids, weights, domains).
    pub fn members(&self) -> &Snapshot {
        match self {
            LoadedSnapshot::Flat(s) => s,
            LoadedSnapshot::Table(t) => t.members(),
            LoadedSnapshot::Skeleton(s) => s.members(),
        }
    }
    /// The owner's node index.
    #[inline]
    pub fn owner_index(&self, key: &[u8]) -> longstraw_set::Result<u32> {
        match self {
            LoadedSnapshot::Flat(s) => s.owner_index(key),
            LoadedSnapshot::Table(t) => t.owner_index(key),
            LoadedSnapshot::Skeleton(s) => s.owner_index(key),
        }
    }
    /// The first `out.len()` nodes of the key's ranking in this mode; returns how many.
    #[inline]
    pub fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        match self {
            LoadedSnapshot::Flat(s) => s.top_k_into(key, out),
            LoadedSnapshot::Table(t) => t.top_k_into(key, out),
            LoadedSnapshot::Skeleton(s) => s.top_k_into(key, out),
        }
    }
    /// At most one node per failure domain, `firstn` over this mode's ranking.
    #[inline]
    pub fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        match self {
            LoadedSnapshot::Flat(s) => s.top_k_distinct_into(key, out),
            LoadedSnapshot::Table(t) => t.top_k_distinct_into(key, out),
            LoadedSnapshot::Skeleton(s) => s.top_k_distinct_into(key, out),
        }
    }
    /// Node `index` of this snapshot.
    pub fn node(&self, index: u32) -> Option<Node<'_>> {
        self.members().node(index)
    }
    /// The file content that rebuilds this snapshot.
    pub fn to_membership(&self) -> Membership {
        match self {
            LoadedSnapshot::Flat(s) => Membership::of_snapshot(s),
            LoadedSnapshot::Table(t) => Membership::of_table(t),
            LoadedSnapshot::Skeleton(s) => Membership::of_skeleton(s),
        }
    }
}

impl Membership {
    /// Builds the set, with the backend `LONGSTRAW_BACKEND` names (or the best one).
    pub fn build(&self) -> Result<Loaded> {
        self.build_with(None)
    }

    /// Builds the set with a chosen backend (`None`: `LONGSTRAW_BACKEND` or the best).
    /// Placement never depends on the backend.
    pub fn build_with(&self, backend: Option<Backend>) -> Result<Loaded> {
        self.build_keyed(self.read_secret()?, backend)
    }

    /// Reads a keyed membership's secret from its source (`None` for an
    /// unkeyed one), for a caller that needs the secret as well as the set:
    /// reading once and passing it to [`Membership::build_keyed`] reads a
    /// source such as a FIFO, which gives its content once, only once.
    pub fn read_secret(&self) -> Result<Option<longstraw::Secret>> {
        match &self.secret {
            None => Ok(None),
            Some(source) => crate::secret::read(source)
                .map(Some)
                .map_err(|why| Error::new("membership", None, Some("secret".into()), ErrorKind::Secret(why))),
        }
    }

    /// Builds the set with a secret already read by [`Membership::read_secret`].
    /// A secret for an unkeyed membership, or none for a keyed one, is an error.
    pub fn build_keyed(&self, secret: Option<longstraw::Secret>, backend: Option<Backend>) -> Result<Loaded> {
        let origin = "membership";
        if self.secret.is_some() != secret.is_some() {
            let message = if secret.is_some() {
                "a secret was given for a membership that is not keyed"
            } else {
                "a keyed membership needs its secret to be built"
            };
            return Err(Error::new(
                origin,
                None,
                Some("secret".into()),
                ErrorKind::Secret(message.into()),
            ));
        }
        let set = Options {
            seed: self.seed,
            secret,
            placement: self.placement,
            backend,
        };
        // The set is built once. It takes the nodes in order and stops at a
        // refused one, so `taken` names the node a node error is about; the
        // sentinel after the last node clears it for errors about the whole set.
        let taken = Cell::new(None);
        let nodes = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                taken.set(Some(i));
                (n.id.as_slice(), n.weight, n.domain.as_deref())
            })
            .chain(std::iter::from_fn(|| {
                taken.set(None);
                None
            }));
        let refused = |e: longstraw_set::Error| match taken.get() {
            Some(i) => Error::new(
                origin,
                Some(self.nodes[i].line).filter(|&l| l > 0),
                Some(format!("nodes[{i}]")),
                self.with_first_line(e),
            ),
            None => Error::new(origin, None, None, ErrorKind::Set(e)),
        };
        Ok(match self.mode {
            Mode::Flat => Loaded::Flat(Rendezvous::with_domains(nodes, set).map_err(refused)?),
            Mode::Table {
                bits,
                replicas,
                distinct_domains,
                balance,
            } => {
                let balance = balance
                    .map(longstraw::balanced::Balance::new)
                    .transpose()
                    .map_err(|e| Error::new(origin, None, Some("table.balance".into()), ErrorKind::Set(e.into())))?;
                let options = TableOptions {
                    set,
                    partition_bits: bits,
                    replicas,
                    distinct_domains,
                    balance,
                };
                Loaded::Table(Table::with_domains(nodes, options).map_err(refused)?)
            }
            Mode::Skeleton { shape } => {
                Loaded::Skeleton(Skeleton::with_domains(nodes, SkeletonOptions { set, shape }).map_err(refused)?)
            }
        })
    }
}
