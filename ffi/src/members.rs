//! The membership changes every set handle (`longstraw_rendezvous`,
//! `longstraw_table`, `longstraw_skeleton`) shares, written once.

use longstraw::PackedKeys;
use longstraw_set::{Rendezvous, Result, Skeleton, Table};

use crate::boundary::{boundary, in_slice, FfiResult, Out};
use crate::lengths::{id_arg, label_arg};
use crate::mode::{flat_handle, skeleton_handle, table_handle};
use crate::result::longstraw_result::{self, *};
use crate::snapshot::longstraw_snapshot;

/// A node set the C API can change and take snapshots of.
pub(crate) trait Members {
    fn add_node(&self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> Result<()>;
    /// Adds every node of a batch as one change.
    fn add_nodes(&self, batch: &Batch<'_>) -> Result<()>;
    fn remove_node(&self, id: &[u8]) -> Result<()>;
    fn reweight(&self, id: &[u8], weight: f64) -> Result<()>;
    fn relabel(&self, id: &[u8], domain: Option<&[u8]>) -> Result<()>;
    fn node_count(&self) -> usize;
    fn snapshot_handle(&self) -> *const longstraw_snapshot;
}

/// The nodes of a batch add, checked: ids in the packed layout, one weight
/// per node (or none: weight 1 each), one domain label per node (or none).
pub(crate) struct Batch<'a> {
    ids: PackedKeys<'a, u64>,
    weights: &'a [f64],
    domains: Option<PackedKeys<'a, u64>>,
}

impl<'a> Batch<'a> {
    pub(crate) fn new(
        ids: PackedKeys<'a, u64>,
        weights: &'a [f64],
        domains: Option<PackedKeys<'a, u64>>,
    ) -> FfiResult<Self> {
        let n = ids.len();
        if (!weights.is_empty() && weights.len() != n) || domains.as_ref().is_some_and(|d| d.len() != n) {
            return Err(LONGSTRAW_LENGTH_MISMATCH);
        }
        Ok(Batch { ids, weights, domains })
    }

    /// `(id, weight, domain)` of every node.
    fn nodes(&self) -> impl Iterator<Item = (&'a [u8], f64, Option<&'a [u8]>)> + '_ {
        self.ids.iter().enumerate().map(|(i, id)| {
            let weight = self.weights.get(i).copied().unwrap_or(1.0);
            let domain = self.domains.as_ref().and_then(|d| label(d.get(i).unwrap_or_default()));
            (id, weight, domain)
        })
    }
}

/// A domain label from C: length 0 means no label.
pub(crate) fn label(bytes: &[u8]) -> Option<&[u8]> {
    (!bytes.is_empty()).then_some(bytes)
}

macro_rules! members {
    ($set:ty, $handle:ident) => {
        impl Members for $set {
            fn add_node(&self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> Result<()> {
                match domain {
                    Some(d) => self.add_in_domain(id, weight, d),
                    None => self.add(id, weight),
                }
            }
            fn add_nodes(&self, batch: &Batch<'_>) -> Result<()> {
                self.update(|u| {
                    for (id, weight, domain) in batch.nodes() {
                        match domain {
                            Some(d) => u.add_in_domain(id, weight, d)?,
                            None => u.add(id, weight)?,
                        }
                    }
                    Ok(())
                })
            }
            fn remove_node(&self, id: &[u8]) -> Result<()> {
                self.remove(id)
            }
            fn reweight(&self, id: &[u8], weight: f64) -> Result<()> {
                self.set_weight(id, weight)
            }
            fn relabel(&self, id: &[u8], domain: Option<&[u8]>) -> Result<()> {
                self.set_domain(id, domain)
            }
            fn node_count(&self) -> usize {
                self.len()
            }
            fn snapshot_handle(&self) -> *const longstraw_snapshot {
                $handle(self.snapshot())
            }
        }
    };
}

members!(Rendezvous, flat_handle);
members!(Table, table_handle);
members!(Skeleton, skeleton_handle);

// The bodies of the exports, generic over the set. Each export borrows its
// handle (checking NULL) and passes the set here.

/// `*_add` and `*_add_in_domain`.
///
/// # Safety
/// `id` and `domain` must be NULL or point to their stated number of bytes.
pub(crate) unsafe fn add(
    set: FfiResult<&impl Members>,
    id: *const u8,
    id_len: usize,
    weight: f64,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (id, domain) = unsafe {
            (
                id_arg(id, id_len, LONGSTRAW_INVALID_NODE_ID)?,
                label_arg(domain, domain_len)?,
            )
        };
        Ok(set?.add_node(id, weight, label(domain))?)
    })
}

/// `*_add_batch` and `*_add_batch_in_domains`.
///
/// # Safety
/// Each array must be NULL or point to its stated number of elements.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn add_batch(
    set: FfiResult<&impl Members>,
    ids: *const u8,
    ids_len: usize,
    offsets: *const u64,
    offsets_len: usize,
    weights: *const f64,
    weights_len: usize,
    domains: Option<(*const u8, usize, *const u64, usize)>,
) -> longstraw_result {
    boundary(|| {
        let set = set?;
        // SAFETY: forwarded contract.
        let (ids, offsets, weights) = unsafe {
            (
                in_slice(ids, ids_len)?,
                in_slice(offsets, offsets_len)?,
                in_slice(weights, weights_len)?,
            )
        };
        let domains = match domains {
            None => None,
            Some((bytes, bytes_len, offsets, offsets_len)) => {
                // SAFETY: forwarded contract.
                let (bytes, offsets) = unsafe { (in_slice(bytes, bytes_len)?, in_slice(offsets, offsets_len)?) };
                Some(PackedKeys::new(bytes, offsets)?)
            }
        };
        let batch = Batch::new(PackedKeys::new(ids, offsets)?, weights, domains)?;
        Ok(set.add_nodes(&batch)?)
    })
}

/// `*_remove`.
///
/// # Safety
/// `id` must be NULL or point to `id_len` bytes.
pub(crate) unsafe fn remove(set: FfiResult<&impl Members>, id: *const u8, id_len: usize) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let id = unsafe { id_arg(id, id_len, LONGSTRAW_UNKNOWN_NODE)? };
        Ok(set?.remove_node(id)?)
    })
}

/// `*_set_weight`.
///
/// # Safety
/// `id` must be NULL or point to `id_len` bytes.
pub(crate) unsafe fn set_weight(
    set: FfiResult<&impl Members>,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let id = unsafe { id_arg(id, id_len, LONGSTRAW_UNKNOWN_NODE)? };
        Ok(set?.reweight(id, weight)?)
    })
}

/// `*_set_domain`.
///
/// # Safety
/// `id` and `domain` must be NULL or point to their stated number of bytes.
pub(crate) unsafe fn set_domain(
    set: FfiResult<&impl Members>,
    id: *const u8,
    id_len: usize,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (id, domain) = unsafe {
            (
                id_arg(id, id_len, LONGSTRAW_UNKNOWN_NODE)?,
                label_arg(domain, domain_len)?,
            )
        };
        Ok(set?.relabel(id, label(domain))?)
    })
}

/// `*_len`.
///
/// # Safety
/// `out` must be NULL or writable.
pub(crate) unsafe fn len(set: FfiResult<&impl Members>, out: *mut usize) -> longstraw_result {
    boundary(|| {
        let set = set?;
        let out = Out::new(out)?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(set.node_count()) };
        Ok(())
    })
}

/// `*_snapshot`.
///
/// # Safety
/// `out` must be NULL or writable.
pub(crate) unsafe fn snapshot(set: FfiResult<&impl Members>, out: *mut *const longstraw_snapshot) -> longstraw_result {
    boundary(|| {
        let set = set?;
        let out = Out::new(out)?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(set.snapshot_handle()) };
        Ok(())
    })
}
