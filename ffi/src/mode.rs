//! A set and a snapshot of any placement mode, until `longstraw_set` has its
//! own (`longstraw_set::{Rendezvous, Snapshot}`): the names and signatures
//! here are that API's, so that the rest of the crate does not change when
//! this file is deleted.
//!
//! A `longstraw_snapshot` handle is an `Arc` of a flat [`FlatSnapshot`], a
//! [`TableSnapshot`] or a [`SkeletonSnapshot`], turned into a raw pointer
//! with the mode in its two low bits.

use std::sync::Arc;

use longstraw::PackedKeys;
use longstraw_set::{
    Backend, Balance, Node, Options, Placement, Result, Skeleton, SkeletonShape, SkeletonSnapshot,
    Snapshot as FlatSnapshot, Table, TableSnapshot,
};

use crate::boundary::FfiResult;
use crate::result::longstraw_result::*;
use crate::snapshot::longstraw_snapshot;

/// How a set places keys (`longstraw_rendezvous_mode`, `longstraw_snapshot_mode`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum longstraw_mode {
    /// Flat rendezvous hashing, placement v1 (`longstraw_rendezvous_new`).
    LONGSTRAW_MODE_FLAT = 0,
    /// A partition table (`longstraw_rendezvous_new_table`, SPEC.md section 10).
    LONGSTRAW_MODE_TABLE = 1,
    /// Skeleton (hierarchical) rendezvous hashing (`longstraw_rendezvous_new_skeleton`, SPEC.md section 11).
    LONGSTRAW_MODE_SKELETON = 2,
}

use longstraw_mode::*;

/// The mode of a set or snapshot (`longstraw_set::Mode`).
pub(crate) type Mode = longstraw_mode;

/// Table parameters (`longstraw_set::TableOptions`).
pub(crate) struct TableOptions {
    pub(crate) partition_bits: Option<u8>,
    pub(crate) replicas: usize,
    pub(crate) distinct_domains: bool,
    pub(crate) balance: Option<Balance>,
}

/// Skeleton parameters (`longstraw_set::SkeletonOptions`).
pub(crate) struct SkeletonOptions {
    pub(crate) shape: Option<SkeletonShape>,
}

/// The mode a set is built in, with its parameters (`longstraw_set::ModeOptions`).
pub(crate) enum ModeOptions {
    Flat,
    Table(TableOptions),
    Skeleton(SkeletonOptions),
}

/// A set of any mode (`longstraw_set::Rendezvous`).
pub(crate) enum Rendezvous {
    Flat(longstraw_set::Rendezvous),
    Table(Table),
    Skeleton(Skeleton),
}

impl From<longstraw_membership::Loaded> for Rendezvous {
    fn from(l: longstraw_membership::Loaded) -> Self {
        match l {
            longstraw_membership::Loaded::Flat(s) => Rendezvous::Flat(s),
            longstraw_membership::Loaded::Table(s) => Rendezvous::Table(s),
            longstraw_membership::Loaded::Skeleton(s) => Rendezvous::Skeleton(s),
        }
    }
}

macro_rules! each {
    ($set:expr, $s:ident => $body:expr) => {
        match $set {
            Rendezvous::Flat($s) => $body,
            Rendezvous::Table($s) => $body,
            Rendezvous::Skeleton($s) => $body,
        }
    };
}

/// A change to a set, applied as one (`longstraw_set::Update`).
pub(crate) trait Update {
    fn add_in_domain(&mut self, id: &[u8], weight: f64, domain: &[u8]) -> Result<()>;
    fn add(&mut self, id: &[u8], weight: f64) -> Result<()>;
}

macro_rules! update {
    ($t:ty) => {
        impl Update for $t {
            fn add_in_domain(&mut self, id: &[u8], weight: f64, domain: &[u8]) -> Result<()> {
                <$t>::add_in_domain(self, id, weight, domain)
            }
            fn add(&mut self, id: &[u8], weight: f64) -> Result<()> {
                <$t>::add(self, id, weight)
            }
        }
    };
}
update!(longstraw_set::Update<'_>);
update!(longstraw_set::TableUpdate<'_>);
update!(longstraw_set::SkeletonUpdate<'_>);

impl Rendezvous {
    pub(crate) fn new<'a>(
        nodes: impl Iterator<Item = (&'a [u8], f64, Option<&'a [u8]>)>,
        set: Options,
        mode: ModeOptions,
    ) -> Result<Rendezvous> {
        Ok(match mode {
            ModeOptions::Flat => {
                let r = longstraw_set::Rendezvous::new(std::iter::empty::<&[u8]>(), set)?;
                r.update(|u| {
                    for (id, w, d) in nodes {
                        match d {
                            Some(d) => u.add_in_domain(id, w, d)?,
                            None => u.add(id, w)?,
                        }
                    }
                    Ok(())
                })?;
                Rendezvous::Flat(r)
            }
            ModeOptions::Table(t) => Rendezvous::Table(Table::with_domains(
                nodes,
                longstraw_set::TableOptions {
                    set,
                    partition_bits: t.partition_bits,
                    replicas: t.replicas,
                    distinct_domains: t.distinct_domains,
                    balance: t.balance,
                },
            )?),
            ModeOptions::Skeleton(k) => Rendezvous::Skeleton(Skeleton::with_domains(
                nodes,
                longstraw_set::SkeletonOptions { set, shape: k.shape },
            )?),
        })
    }

    pub(crate) fn mode(&self) -> Mode {
        match self {
            Rendezvous::Flat(_) => LONGSTRAW_MODE_FLAT,
            Rendezvous::Table(_) => LONGSTRAW_MODE_TABLE,
            Rendezvous::Skeleton(_) => LONGSTRAW_MODE_SKELETON,
        }
    }

    pub(crate) fn snapshot(&self) -> Snapshot {
        match self {
            Rendezvous::Flat(s) => Snapshot::Flat(s.snapshot()),
            Rendezvous::Table(s) => Snapshot::Table(s.snapshot()),
            Rendezvous::Skeleton(s) => Snapshot::Skeleton(s.snapshot()),
        }
    }

    pub(crate) fn add(&self, id: &[u8], weight: f64) -> Result<()> {
        each!(self, s => s.add(id, weight))
    }
    pub(crate) fn add_in_domain(&self, id: &[u8], weight: f64, domain: &[u8]) -> Result<()> {
        each!(self, s => s.add_in_domain(id, weight, domain))
    }
    pub(crate) fn remove(&self, id: &[u8]) -> Result<()> {
        each!(self, s => s.remove(id))
    }
    pub(crate) fn set_weight(&self, id: &[u8], weight: f64) -> Result<()> {
        each!(self, s => s.set_weight(id, weight))
    }
    pub(crate) fn set_domain(&self, id: &[u8], domain: Option<&[u8]>) -> Result<()> {
        each!(self, s => s.set_domain(id, domain))
    }
    pub(crate) fn update(&self, f: impl FnOnce(&mut dyn Update) -> Result<()>) -> Result<()> {
        each!(self, s => s.update(|u| f(u)))
    }
    pub(crate) fn len(&self) -> usize {
        each!(self, s => s.len())
    }
}

/// A snapshot of any mode (`Arc<longstraw_set::Snapshot>`).
pub(crate) enum Snapshot {
    Flat(Arc<FlatSnapshot>),
    Table(Arc<TableSnapshot>),
    Skeleton(Arc<SkeletonSnapshot>),
}

impl Snapshot {
    /// The C handle that owns this snapshot.
    pub(crate) fn into_handle(self) -> *const longstraw_snapshot {
        fn tagged<T>(arc: Arc<T>, mode: longstraw_mode) -> *const longstraw_snapshot {
            // wrapping_add keeps the pointer's provenance; the pointee's
            // alignment (asserted below) makes the low bits free.
            Arc::into_raw(arc).cast::<u8>().wrapping_add(mode as usize).cast()
        }
        match self {
            Snapshot::Flat(s) => tagged(s, LONGSTRAW_MODE_FLAT),
            Snapshot::Table(s) => tagged(s, LONGSTRAW_MODE_TABLE),
            Snapshot::Skeleton(s) => tagged(s, LONGSTRAW_MODE_SKELETON),
        }
    }
}

/// The pointer bits that hold the mode.
const MODE_BITS: usize = 0b11;

// The pointee of every `Arc` above is aligned to more than `MODE_BITS`, so the
// low bits of an untagged pointer are always zero.
const _: () = assert!(
    std::mem::align_of::<FlatSnapshot>() > MODE_BITS
        && std::mem::align_of::<TableSnapshot>() > MODE_BITS
        && std::mem::align_of::<SkeletonSnapshot>() > MODE_BITS
);

/// A borrowed snapshot of any mode (`&longstraw_set::Snapshot`).
#[derive(Clone, Copy)]
pub(crate) enum View<'a> {
    Flat(&'a FlatSnapshot),
    Table(&'a TableSnapshot),
    Skeleton(&'a SkeletonSnapshot),
}

/// The untagged pointer and the mode of a non-NULL handle.
fn untag(s: *const longstraw_snapshot) -> FfiResult<(*const u8, longstraw_mode)> {
    let tag = s as usize & MODE_BITS;
    let base = s.cast::<u8>().wrapping_sub(tag);
    let mode = match tag {
        0 => LONGSTRAW_MODE_FLAT,
        1 => LONGSTRAW_MODE_TABLE,
        2 => LONGSTRAW_MODE_SKELETON,
        // No handle of this library ends in 0b11: not a snapshot.
        _ => return Err(LONGSTRAW_MISALIGNED_POINTER),
    };
    Ok((base, mode))
}

/// Borrows a snapshot handle.
///
/// # Safety
/// `s` must be NULL or a live handle from [`Snapshot::into_handle`].
pub(crate) unsafe fn view<'a>(s: *const longstraw_snapshot) -> FfiResult<View<'a>> {
    if s.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    let (base, mode) = untag(s)?;
    // SAFETY: `base` is the pointer Arc::into_raw returned for the type the
    // tag names (see `into_handle`), still live by the caller's contract.
    Ok(unsafe {
        match mode {
            LONGSTRAW_MODE_FLAT => View::Flat(&*base.cast::<FlatSnapshot>()),
            LONGSTRAW_MODE_TABLE => View::Table(&*base.cast::<TableSnapshot>()),
            LONGSTRAW_MODE_SKELETON => View::Skeleton(&*base.cast::<SkeletonSnapshot>()),
        }
    })
}

/// Gives a handle's reference count back.
///
/// # Safety
/// `s` must be a live, non-NULL handle that is not used afterwards.
pub(crate) unsafe fn release(s: *const longstraw_snapshot) {
    let Ok((base, mode)) = untag(s) else { return };
    // SAFETY: as in `view`; the caller gives up this reference here.
    unsafe {
        match mode {
            LONGSTRAW_MODE_FLAT => drop(Arc::from_raw(base.cast::<FlatSnapshot>())),
            LONGSTRAW_MODE_TABLE => drop(Arc::from_raw(base.cast::<TableSnapshot>())),
            LONGSTRAW_MODE_SKELETON => drop(Arc::from_raw(base.cast::<SkeletonSnapshot>())),
        }
    }
}

macro_rules! each_view {
    ($v:expr, $s:ident => $body:expr) => {
        match $v {
            View::Flat($s) => $body,
            View::Table($s) => $body,
            View::Skeleton($s) => $body,
        }
    };
}

impl<'a> View<'a> {
    pub(crate) fn mode(self) -> Mode {
        match self {
            View::Flat(_) => LONGSTRAW_MODE_FLAT,
            View::Table(_) => LONGSTRAW_MODE_TABLE,
            View::Skeleton(_) => LONGSTRAW_MODE_SKELETON,
        }
    }

    /// The membership: ids, weights, domains, seed, placement, generation.
    pub(crate) fn members(self) -> &'a FlatSnapshot {
        match self {
            View::Flat(s) => s,
            View::Table(t) => t.members(),
            View::Skeleton(k) => k.members(),
        }
    }

    pub(crate) fn len(self) -> usize {
        self.members().len()
    }
    pub(crate) fn eligible(self) -> usize {
        self.members().eligible()
    }
    pub(crate) fn generation(self) -> u64 {
        self.members().generation()
    }
    pub(crate) fn seed(self) -> Option<u64> {
        self.members().seed()
    }
    pub(crate) fn is_keyed(self) -> bool {
        self.members().is_keyed()
    }
    pub(crate) fn placement(self) -> Placement {
        self.members().placement()
    }
    pub(crate) fn backend(self) -> Backend {
        self.members().backend()
    }
    pub(crate) fn node(self, i: u32) -> Option<Node<'a>> {
        self.members().node(i)
    }
    pub(crate) fn nodes(self) -> impl Iterator<Item = Node<'a>> {
        self.members().nodes()
    }
    pub(crate) fn index_of(self, id: &[u8]) -> Option<u32> {
        self.members().index_of(id)
    }
    pub(crate) fn options(self) -> Options {
        self.members().options()
    }

    pub(crate) fn owner_index(self, key: &[u8]) -> Result<u32> {
        each_view!(self, s => s.owner_index(key))
    }
    pub(crate) fn top_k_into(self, key: &[u8], out: &mut [u32]) -> usize {
        each_view!(self, s => s.top_k_into(key, out))
    }
    pub(crate) fn top_k_distinct_into(self, key: &[u8], out: &mut [u32]) -> usize {
        each_view!(self, s => s.top_k_distinct_into(key, out))
    }
    pub(crate) fn owners_into(self, keys: &PackedKeys<'_, u64>, out: &mut [u32]) -> Result<()> {
        each_view!(self, s => s.owners_into(keys, out))
    }

    fn as_table(self) -> Option<&'a TableSnapshot> {
        match self {
            View::Table(t) => Some(t),
            _ => None,
        }
    }
    /// `None` on a set of another mode (the set's `Error::WrongMode`).
    pub(crate) fn partition(self, key: &[u8]) -> Option<u32> {
        self.as_table().map(|t| t.partition(key))
    }
    pub(crate) fn partition_bits(self) -> Option<u8> {
        self.as_table().map(TableSnapshot::partition_bits)
    }
    pub(crate) fn replicas(self) -> Option<usize> {
        self.as_table().map(TableSnapshot::replicas)
    }
    pub(crate) fn distinct_domains(self) -> Option<bool> {
        self.as_table().map(TableSnapshot::distinct_domains)
    }
    pub(crate) fn balance(self) -> Option<Option<Balance>> {
        self.as_table().map(TableSnapshot::balance)
    }
    pub(crate) fn shape(self) -> Option<SkeletonShape> {
        match self {
            View::Skeleton(k) => Some(k.shape()),
            _ => None,
        }
    }
}

/// The membership file that describes a snapshot (`Membership::of`).
pub(crate) fn membership_of(s: &Snapshot) -> longstraw_membership::Membership {
    use longstraw_membership::Membership;
    match s {
        Snapshot::Flat(s) => Membership::of_snapshot(s),
        Snapshot::Table(t) => Membership::of_table(t),
        Snapshot::Skeleton(k) => Membership::of_skeleton(k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_round_trips_through_a_handle() {
        let nodes = || [(&b"a"[..], 1.0, None), (b"b", 1.0, None), (b"c", 1.0, None)].into_iter();
        let modes = [
            ModeOptions::Flat,
            ModeOptions::Table(TableOptions {
                partition_bits: None,
                replicas: 1,
                distinct_domains: false,
                balance: None,
            }),
            ModeOptions::Skeleton(SkeletonOptions { shape: None }),
        ];
        for (mode, want) in modes
            .into_iter()
            .zip([LONGSTRAW_MODE_FLAT, LONGSTRAW_MODE_TABLE, LONGSTRAW_MODE_SKELETON])
        {
            let set = Rendezvous::new(nodes(), Options::default(), mode).unwrap();
            assert_eq!(set.mode(), want);
            let h = set.snapshot().into_handle();
            // SAFETY: a live handle made just above, released once.
            unsafe {
                let v = view(h).unwrap();
                assert_eq!(v.mode(), want);
                assert_eq!(v.len(), 3);
                release(h);
            }
        }
    }

    #[test]
    fn a_pointer_with_both_low_bits_set_is_refused() {
        let bogus = 0x1003usize as *const longstraw_snapshot;
        // SAFETY: refused before any dereference.
        assert!(matches!(unsafe { view(bogus) }, Err(LONGSTRAW_MISALIGNED_POINTER)));
    }
}
