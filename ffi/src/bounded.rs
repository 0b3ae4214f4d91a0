//! `longstraw_bounded`: bounded loads (SPEC.md §16) over a flat node set.

use longstraw_set::{BoundedLoad, ModeOptions, Options, OwnedLease, Placement, Rendezvous, Secret};

use crate::boundary::{boundary, handle, in_slice, out_slice, FfiResult, Out};
use crate::result::longstraw_result::{self, *};
use crate::snapshot::{into_handle, longstraw_snapshot};

/// A flat node set that caps each node's in-flight requests at
/// `ceil(c * (in_flight + 1) * w_i / W)` (SPEC.md section 16).
///
/// Create it with `longstraw_bounded_new`, place each request with
/// `longstraw_bounded_acquire` and end it with `longstraw_bounded_release`.
/// Every function except `longstraw_bounded_free` may be called
/// concurrently from any thread on the same handle; acquire and release take
/// no lock.
pub struct longstraw_bounded {
    _private: [u8; 0],
}

/// One request in flight, from `longstraw_bounded_acquire`. Release it
/// exactly once with `longstraw_bounded_release`, from any thread; it may
/// outlive its `longstraw_bounded`.
pub struct longstraw_lease {
    _private: [u8; 0],
}

/// # Safety
/// `b` must be NULL or a live handle from `longstraw_bounded_new`.
unsafe fn bounded<'a>(b: *const longstraw_bounded) -> FfiResult<&'a BoundedLoad> {
    // SAFETY: forwarded contract; bounded handles are Box<BoundedLoad>.
    unsafe { handle::<longstraw_bounded, BoundedLoad>(b) }
}

/// The set-wide options from C: a seed of 0 is "no seed"; a NULL secret is
/// "no secret" (then `secret_len` must be 0), any other pointer is a secret
/// of `secret_len` bytes, checked by the set.
///
/// # Safety
/// `secret` must be NULL or point to `secret_len` readable bytes.
pub(crate) unsafe fn options(seed: u64, secret: *const u8, secret_len: usize, placement: u32) -> FfiResult<Options> {
    let secret = if secret.is_null() {
        if secret_len != 0 {
            return Err(LONGSTRAW_NULL_ARGUMENT);
        }
        None
    } else {
        // SAFETY: readability of `secret_len` bytes is the caller's contract.
        let bytes = unsafe { in_slice(secret, secret_len)? };
        Some(Secret::from_bytes(bytes)?)
    };
    Ok(Options {
        // 0 is "no seed" (the default): a seed with a secret is the set's error.
        seed: (seed != 0).then_some(seed),
        secret,
        placement: Placement::from_number(placement)?,
        ..Options::default()
    })
}

/// Creates an empty bounded-load set with balance factor `balance_factor`
/// (`c`; 1.25 is the usual choice; it must be finite and at least
/// 1 + 2^-16). `seed`, `secret` (NULL for none, else
/// `LONGSTRAW_SECRET_LEN` bytes for keyed placement, copied and never
/// printed) and `placement` are as the fields of `longstraw_options`, with a
/// `seed` of 0 meaning no seed.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_bounded_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_PARAMETER` (bad
/// balance factor), `LONGSTRAW_INVALID_SECRET`,
/// `LONGSTRAW_CONFLICTING_OPTIONS` (a seed other than 0 with a secret),
/// `LONGSTRAW_UNKNOWN_PLACEMENT`, `LONGSTRAW_BACKEND_UNAVAILABLE`.
/// Thread-safe.
///
/// # Safety
/// `secret` must be NULL or readable for `secret_len` bytes; `out` must be
/// NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_new(
    seed: u64,
    secret: *const u8,
    secret_len: usize,
    placement: u32,
    balance_factor: f64,
    out: *mut *mut longstraw_bounded,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let options = unsafe { options(seed, secret, secret_len, placement)? };
        let set = BoundedLoad::new(std::iter::empty::<&[u8]>(), options, balance_factor)?;
        let ptr = Box::into_raw(Box::new(set)).cast::<longstraw_bounded>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Releases a bounded-load set. `NULL` is ignored. Leases still out stay
/// valid and are released separately.
///
/// # Safety
/// `b` must be NULL or a live handle, not used again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_free(b: *mut longstraw_bounded) {
    let _ = boundary(|| {
        if !b.is_null() {
            // SAFETY: `b` came from Box::into_raw in longstraw_bounded_new and
            // the caller gives up its last use of it here.
            drop(unsafe { Box::from_raw(b.cast::<BoundedLoad>()) });
        }
        Ok(())
    });
}

/// Adds one node (`id_len` bytes at `id`, copied) with weight `weight`.
///
/// Errors: as `longstraw_rendezvous_add`.
///
/// # Safety
/// `b` must be NULL or a live handle; `id` must be NULL or point to `id_len`
/// readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_add(
    b: *mut longstraw_bounded,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id) = unsafe { (bounded(b)?, in_slice(id, id_len)?) };
        Ok(set.add(id, weight)?)
    })
}

/// Removes a node. Its leases stay valid and release cleanly; the in-flight
/// total keeps counting them until they are released.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`.
///
/// # Safety
/// As `longstraw_bounded_add`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_remove(
    b: *mut longstraw_bounded,
    id: *const u8,
    id_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id) = unsafe { (bounded(b)?, in_slice(id, id_len)?) };
        Ok(set.remove(id)?)
    })
}

/// Changes a node's weight; 0 drains it (no new requests; its leases run
/// out).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`,
/// `LONGSTRAW_INVALID_WEIGHT`.
///
/// # Safety
/// As `longstraw_bounded_add`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_set_weight(
    b: *mut longstraw_bounded,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id) = unsafe { (bounded(b)?, in_slice(id, id_len)?) };
        Ok(set.set_weight(id, weight)?)
    })
}

/// Places one request for `key` (`key_len` bytes): the first node of the
/// key's ranking with room, which is the owner whenever the owner has room.
///
/// On success `*lease` receives the lease, and `*id` / `*id_len` the chosen
/// node's id, valid until the lease is released.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_NO_ELIGIBLE_NODE` (empty
/// or all drained). Nothing is written on error.
///
/// # Safety
/// `b` must be NULL or a live handle; `key` must be NULL or point to
/// `key_len` readable bytes; each out-pointer must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_acquire(
    b: *const longstraw_bounded,
    key: *const u8,
    key_len: usize,
    lease: *mut *mut longstraw_lease,
    id: *mut *const u8,
    id_len: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, key) = unsafe { (bounded(b)?, in_slice(key, key_len)?) };
        let (lease_out, id_out, id_len_out) = (Out::new(lease)?, Out::new(id)?, Out::new(id_len)?);
        let acquired = Box::new(set.acquire_owned(key)?);
        let (id_ptr, len) = (acquired.node_id().as_ptr(), acquired.node_id().len());
        // SAFETY: checked by Out::new; validity is this function's contract.
        // The id bytes live in the lease's node counter, which the lease keeps alive.
        unsafe {
            id_out.write(id_ptr);
            id_len_out.write(len);
            lease_out.write(Box::into_raw(acquired).cast::<longstraw_lease>());
        }
        Ok(())
    })
}

/// Ends a request: frees its place on the node. Call it exactly once per
/// lease, from any thread. `NULL` is `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `lease` must be NULL or a lease from `longstraw_bounded_acquire` that was
/// not released yet; it must not be used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_release(lease: *mut longstraw_lease) -> longstraw_result {
    boundary(|| {
        if lease.is_null() {
            return Err(LONGSTRAW_NULL_ARGUMENT);
        }
        // SAFETY: `lease` came from Box::into_raw in longstraw_bounded_acquire
        // and the caller gives it up here.
        drop(unsafe { Box::from_raw(lease.cast::<OwnedLease>()) });
        Ok(())
    })
}

/// Writes the number of requests in flight (on all nodes, including nodes
/// removed since their requests started) to `*out`.
///
/// # Safety
/// `b` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_in_flight(b: *const longstraw_bounded, out: *mut u64) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let set = unsafe { bounded(b)? };
        let out = Out::new(out)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(set.in_flight()) };
        Ok(())
    })
}

/// Reads every current node's in-flight requests, for metrics.
///
/// `*snapshot` receives the membership the loads belong to, as a flat
/// snapshot whose node indices are the loads' (release it with
/// `longstraw_snapshot_free`; get node ids from it with
/// `longstraw_snapshot_node`; its generation is its own, not the set's), `*count` its node count, and
/// `loads[0 .. min(count, loads_len))` the load of each node by index.
/// Call with `loads_len` >= the node count to get them all.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`. Nothing is written on error.
///
/// # Safety
/// `b` must be NULL or a live handle; `loads` must be NULL (with
/// `loads_len` 0) or point to `loads_len` writable `uint64_t`; the other
/// out-pointers must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_loads(
    b: *const longstraw_bounded,
    snapshot: *mut *const longstraw_snapshot,
    loads: *mut u64,
    loads_len: usize,
    count: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, out) = unsafe { (bounded(b)?, out_slice(loads, loads_len)?) };
        let (snap_out, count_out) = (Out::new(snapshot)?, Out::new(count)?);
        let (members, now) = set.loads_with_snapshot();
        // The snapshot handle type is the any-mode snapshot: the membership is
        // copied into a flat one (same nodes in the same index order, same
        // hashing), which is what a reader of node ids and loads needs.
        let nodes = members.nodes().map(|n| (n.id(), n.weight(), n.domain()));
        let snap = Rendezvous::new(nodes, members.options(), ModeOptions::Flat)?.snapshot();
        for (o, l) in out.iter_mut().zip(&now) {
            *o = *l;
        }
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            count_out.write(now.len());
            snap_out.write(into_handle(snap));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::longstraw_snapshot_free;

    #[test]
    fn acquire_release_and_loads_through_the_c_abi() {
        let mut b = std::ptr::null_mut();
        // SAFETY: every pointer below is a live local or a handle made here.
        unsafe {
            assert_eq!(
                longstraw_bounded_new(0, std::ptr::null(), 0, 1, 1.0, &mut b),
                LONGSTRAW_INVALID_PARAMETER
            );
            assert_eq!(
                longstraw_bounded_new(0, std::ptr::null(), 0, 1, 1.25, &mut b),
                LONGSTRAW_OK
            );
            let (mut lease, mut id, mut id_len) = (std::ptr::null_mut(), std::ptr::null(), 0usize);
            assert_eq!(
                longstraw_bounded_acquire(b, b"k".as_ptr(), 1, &mut lease, &mut id, &mut id_len),
                LONGSTRAW_NO_ELIGIBLE_NODE
            );
            for n in [&b"a"[..], b"b", b"c"] {
                assert_eq!(longstraw_bounded_add(b, n.as_ptr(), n.len(), 1.0), LONGSTRAW_OK);
            }
            assert_eq!(
                longstraw_bounded_acquire(b, b"k".as_ptr(), 1, &mut lease, &mut id, &mut id_len),
                LONGSTRAW_OK
            );
            let chosen = std::slice::from_raw_parts(id, id_len).to_vec();
            assert_eq!(longstraw_bounded_remove(b, chosen.as_ptr(), chosen.len()), LONGSTRAW_OK);
            let (mut snap, mut count, mut loads) = (std::ptr::null(), 0usize, [9u64; 4]);
            assert_eq!(
                longstraw_bounded_loads(b, &mut snap, loads.as_mut_ptr(), 4, &mut count),
                LONGSTRAW_OK
            );
            assert_eq!((count, &loads[..2]), (2, &[0u64, 0][..]));
            let mut in_flight = 0;
            assert_eq!(longstraw_bounded_in_flight(b, &mut in_flight), LONGSTRAW_OK);
            assert_eq!(in_flight, 1, "a lease on a removed node still counts");
            longstraw_snapshot_free(snap);
            longstraw_bounded_free(b);
            // The lease outlives its set and still releases cleanly.
            assert_eq!(longstraw_bounded_release(lease), LONGSTRAW_OK);
            assert_eq!(longstraw_bounded_release(std::ptr::null_mut()), LONGSTRAW_NULL_ARGUMENT);
        }
    }
}
