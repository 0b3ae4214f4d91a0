//! `longstraw_bounded_rule`: SPEC.md §16's bounded-loads rule over in-flight
//! counts that the caller keeps (§16.7), for processes that share counts.

use longstraw_set::BoundedRule;

use crate::boundary::{boundary, handle, in_slice, FfiResult, Out};
use crate::result::longstraw_result::{self, *};
use crate::snapshot::longstraw_snapshot;

/// The bounded-loads rule (SPEC.md section 16) over one flat snapshot and a
/// balance factor, with no counters of its own: the caller keeps the
/// in-flight counts (for example in memory shared between processes) and asks
/// `longstraw_bounded_rule_admit` which node takes each request.
///
/// The shares `c * w_i / W` are computed once, by
/// `longstraw_bounded_rule_new`; admission allocates nothing. The rule is
/// immutable: every function except `longstraw_bounded_rule_free` may be
/// called concurrently from any thread. For a new membership, make a new
/// rule from the new snapshot.
pub struct longstraw_bounded_rule {
    _private: [u8; 0],
}

/// # Safety
/// `r` must be NULL or a live handle from `longstraw_bounded_rule_new`.
unsafe fn rule<'a>(r: *const longstraw_bounded_rule) -> FfiResult<&'a BoundedRule> {
    // SAFETY: forwarded contract; rule handles are Box<BoundedRule>.
    unsafe { handle::<longstraw_bounded_rule, BoundedRule>(r) }
}

/// Makes the bounded-loads rule over the flat snapshot `s` (from
/// `longstraw_rendezvous_snapshot`; it takes its own reference, so `s` may
/// be freed afterwards) with balance factor `balance_factor` (`c`; finite
/// and at least 1 + 2^-16; 1.25 is usual). Node indices in
/// `longstraw_bounded_rule_admit` are `s`'s indices.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_bounded_rule_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_MISALIGNED_POINTER`,
/// `LONGSTRAW_INVALID_PARAMETER` (bad balance factor), `LONGSTRAW_WRONG_MODE`
/// (a table or skeleton snapshot: bounded loads rank by flat HRW).
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or valid for
/// writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_rule_new(
    s: *const longstraw_snapshot,
    balance_factor: f64,
    out: *mut *mut longstraw_bounded_rule,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        // SAFETY: forwarded contract: `s` is NULL or a live snapshot handle.
        let snapshot = unsafe { crate::snapshot::shared(s)? };
        let r = BoundedRule::new(snapshot, balance_factor)?;
        let ptr = Box::into_raw(Box::new(r)).cast::<longstraw_bounded_rule>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Releases a rule. `NULL` is ignored.
///
/// # Safety
/// `r` must be NULL or a live handle, not used again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_rule_free(r: *mut longstraw_bounded_rule) {
    let _ = boundary(|| {
        if !r.is_null() {
            // SAFETY: `r` came from Box::into_raw in longstraw_bounded_rule_new
            // and the caller gives up its last use of it here.
            drop(unsafe { Box::from_raw(r.cast::<BoundedRule>()) });
        }
        Ok(())
    });
}

/// Which node takes one request for `key` (SPEC.md sections 16.1 and 16.7):
/// the first node of the key's ranking with `loads[i] + 1 <=
/// ceil(c * (in_flight + 1) * w_i / W)`, where `loads[i]` is the caller's
/// count of requests in flight on node `i` (one per node of the rule's
/// snapshot, `loads_len` = its length) and `in_flight` the caller's total,
/// which counts every request on every node (including removed ones), not
/// this one. Nothing is counted here: on success the caller adds one to
/// `loads[*index]` and to its total, and takes both off when the request
/// ends.
///
/// `unavailable` is NULL (with `unavailable_len` 0) or one byte per node;
/// nodes whose byte is non-zero (down or failing, in the caller's view) are
/// passed over. If every available node is at its cap (possible only when
/// some are unavailable), the request goes to the first available node of
/// the ranking and `*over_cap` is 1; otherwise `*over_cap` is 0. `*owner` is
/// 1 when the node is the key's owner.
///
/// With counts shared between processes, see SPEC.md section 16.7 for what
/// holds.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_MISALIGNED_POINTER`,
/// `LONGSTRAW_LENGTH_MISMATCH` (`loads_len`, or a non-zero
/// `unavailable_len`, is not the number of nodes), `LONGSTRAW_NO_ELIGIBLE_NODE`
/// (no eligible node, or every eligible node unavailable),
/// `LONGSTRAW_INVALID_PARAMETER` (the counts sum to more than `in_flight`
/// and no node has room). Nothing is written on error.
///
/// # Safety
/// `r` must be NULL or a live rule; `key` must be NULL or point to `key_len`
/// readable bytes; `loads` to `loads_len` readable `uint64_t`;
/// `unavailable` NULL or `unavailable_len` readable bytes; each
/// out-pointer NULL or writable.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_rule_admit(
    r: *const longstraw_bounded_rule,
    key: *const u8,
    key_len: usize,
    loads: *const u64,
    loads_len: usize,
    in_flight: u64,
    unavailable: *const u8,
    unavailable_len: usize,
    index: *mut u32,
    owner: *mut u32,
    over_cap: *mut u32,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (rule, key, loads, unavailable) = unsafe {
            (
                rule(r)?,
                in_slice(key, key_len)?,
                in_slice(loads, loads_len)?,
                in_slice(unavailable, unavailable_len)?,
            )
        };
        let (index, owner, over_cap) = (Out::new(index)?, Out::new(owner)?, Out::new(over_cap)?);
        let a = if unavailable.is_empty() {
            rule.admit(key, loads, in_flight)?
        } else {
            if unavailable.len() != loads.len() {
                return Err(LONGSTRAW_LENGTH_MISMATCH);
            }
            rule.admit_available(key, loads, in_flight, |i| unavailable[i as usize] == 0)?
        };
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            index.write(a.index);
            owner.write(u32::from(a.owner));
            over_cap.write(u32::from(a.over_cap));
        }
        Ok(())
    })
}

/// Writes to `*cap` the cap of node `index` for one more request when
/// `in_flight` requests are in flight: `ceil(c * (in_flight + 1) * w_i / W)`
/// as SPEC.md section 16.1 computes it (0 for a drained node).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_PARAMETER` (no node
/// `index`).
///
/// # Safety
/// `r` must be NULL or a live rule; `cap` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bounded_rule_cap(
    r: *const longstraw_bounded_rule,
    index: u32,
    in_flight: u64,
    cap: *mut u64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let rule = unsafe { rule(r)? };
        let out = Out::new(cap)?;
        let c = rule
            .cap(index, in_flight)
            .ok_or(longstraw_result::LONGSTRAW_INVALID_PARAMETER)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(c) };
        Ok(())
    })
}
