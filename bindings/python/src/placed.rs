//! The three placement modes behind one interface, so that every Python
//! class shares one implementation of conversions and membership updates.
//! Each method forwards to `longstraw-set`; none decides a placement.

use std::sync::Arc;

use longstraw::{KeyOffset, PackedKeys};
use longstraw_set::{Rendezvous, Result, Skeleton, SkeletonSnapshot, Snapshot, Table, TableSnapshot};

/// An immutable membership that places keys (flat, table or skeleton).
pub(crate) trait Placed: Send + Sync + 'static {
    /// The membership: ids, weights and domain labels by node index.
    fn members(&self) -> &Snapshot;
    fn owner_index(&self, key: &[u8]) -> Result<u32>;
    fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize;
    fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize;
    fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()>;
}

/// A mutable node set that publishes [`Placed`] snapshots.
pub(crate) trait Owned: Send + Sync + 'static {
    type Snap: Placed;
    fn snapshot(&self) -> Arc<Self::Snap>;
    fn add(&self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> Result<()>;
    fn remove(&self, id: &[u8]) -> Result<()>;
    fn set_weight(&self, id: &[u8], weight: f64) -> Result<()>;
    fn set_domain(&self, id: &[u8], domain: Option<&[u8]>) -> Result<()>;
}

macro_rules! placed {
    ($snap:ty, |$s:ident| $members:expr) => {
        impl Placed for $snap {
            #[inline]
            fn members(&self) -> &Snapshot {
                let $s = self;
                $members
            }
            #[inline]
            fn owner_index(&self, key: &[u8]) -> Result<u32> {
                <$snap>::owner_index(self, key)
            }
            #[inline]
            fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
                <$snap>::top_k_into(self, key, out)
            }
            #[inline]
            fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
                <$snap>::top_k_distinct_into(self, key, out)
            }
            #[inline]
            fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
                <$snap>::owners_into(self, keys, out)
            }
        }
    };
}

placed!(Snapshot, |s| s);
placed!(TableSnapshot, |s| s.members());
placed!(SkeletonSnapshot, |s| s.members());

macro_rules! owned {
    ($set:ty, $snap:ty) => {
        impl Owned for $set {
            type Snap = $snap;
            fn snapshot(&self) -> Arc<$snap> {
                <$set>::snapshot(self)
            }
            fn add(&self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> Result<()> {
                match domain {
                    Some(domain) => self.add_in_domain(id, weight, domain),
                    None => <$set>::add(self, id, weight),
                }
            }
            fn remove(&self, id: &[u8]) -> Result<()> {
                <$set>::remove(self, id)
            }
            fn set_weight(&self, id: &[u8], weight: f64) -> Result<()> {
                <$set>::set_weight(self, id, weight)
            }
            fn set_domain(&self, id: &[u8], domain: Option<&[u8]>) -> Result<()> {
                <$set>::set_domain(self, id, domain)
            }
        }
    };
}

owned!(Rendezvous, Snapshot);
owned!(Table, TableSnapshot);
owned!(Skeleton, SkeletonSnapshot);
