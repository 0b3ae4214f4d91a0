//! Keyed placement (`keyed-v1`, docs/SPEC.md §15) in the C ABI: a set built
//! with a secret instead of a seed. The secret is copied in and never
//! returned, logged or included in a message.

use longstraw_set::{Options, Placement, Rendezvous, Secret};

use crate::boundary::{boundary, in_slice, Out};
use crate::held::Held;
use crate::rendezvous::longstraw_rendezvous;
use crate::result::longstraw_result;
use crate::snapshot::{longstraw_snapshot, query};

/// The length of a keyed-v1 secret in bytes (SipHash-2-4's 128-bit key).
pub const LONGSTRAW_SECRET_LEN: usize = 16;

/// Creates an empty node set with keyed placement (`keyed-v1`): keys and
/// node ids are hashed with SipHash-2-4 under `secret`, so whoever chooses
/// keys cannot steer them onto one node. Use it when keys come from users.
///
/// `secret` points to `secret_len` bytes, which must be exactly
/// `LONGSTRAW_SECRET_LEN` (16) uniformly random bytes; the set keeps a copy.
/// Every user of one cluster must use the same secret. `placement` is the
/// placement version as for `longstraw_rendezvous_new` (1: keyed-v1 uses
/// v1's rules after the hashes). Tables and skeletons built from this set's
/// snapshots are keyed with the same secret.
///
/// On success `*out` receives a handle to release with
/// `longstraw_rendezvous_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT` (out or secret is NULL),
/// `LONGSTRAW_INVALID_SECRET`, `LONGSTRAW_UNKNOWN_PLACEMENT`,
/// `LONGSTRAW_BACKEND_UNAVAILABLE`.
///
/// # Safety
/// `secret` must be NULL or valid for reading `secret_len` bytes; `out` must
/// be NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_new_keyed(
    secret: *const u8,
    secret_len: usize,
    placement: u32,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        if secret.is_null() {
            return Err(longstraw_result::LONGSTRAW_NULL_ARGUMENT);
        }
        // SAFETY: non-null; readability of `secret_len` bytes is the caller's contract.
        let bytes = unsafe { in_slice(secret, secret_len)? };
        let options = Options {
            secret: Some(Secret::from_bytes(bytes)?),
            placement: Placement::from_number(placement)?,
            ..Options::default()
        };
        let set = Rendezvous::new(std::iter::empty::<&[u8]>(), options)?;
        let ptr = Held::new(set).into_raw::<longstraw_rendezvous>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Writes 1 to `*out` when the snapshot places by keyed-v1 (its set was
/// created with a secret), else 0. A keyed set has no seed:
/// `longstraw_snapshot_seed` reports 0 for it.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_is_keyed(s: *const longstraw_snapshot, out: *mut u32) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| u32::from(s.members().is_keyed())) }
}
