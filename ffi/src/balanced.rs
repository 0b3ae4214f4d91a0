//! Balanced partition tables through the C ABI (SPEC.md section 17): a
//! `longstraw_table` whose nodes are capped per replica rank. Every table
//! call works on it; only creation and the balance accessor are new.

use longstraw_set::{Balance, Table, TableOptions};

use crate::boundary::{boundary, Out};
use crate::held::Held;
use crate::mode::view;
use crate::result::longstraw_result;
use crate::snapshot::longstraw_snapshot;
use crate::table::{longstraw_table, set, LONGSTRAW_AUTO};

/// Creates a balanced partition table (SPEC.md section 17) over the
/// membership of `members`, like `longstraw_table_new` without flags: at
/// each of the `replicas` ranks, no node holds more than
/// `ceil(balance * P * w_i / W)` partitions (`P = 2^partition_bits`, `W` the
/// total weight), unless every node a partition may use at a rank above 0 is
/// full (SPEC.md section 17.4).
///
/// `balance` is a number from 1.0 to 4.0, held to millionths. A lookup reads
/// the stored ranks only: `longstraw_snapshot_top_k` and
/// `longstraw_snapshot_rank` return at most `replicas` nodes. Every add, remove or weight change places every
/// partition again (every cap depends on the total weight); the plain
/// ranking underneath is patched incrementally, so no pair is scored twice.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_PARAMETER` (bits,
/// replicas or balance out of range, NaN included), `LONGSTRAW_OUT_OF_MEMORY`.
///
/// # Safety
/// `members` must be NULL or a live snapshot; `out` must be NULL or valid
/// for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_new_balanced(
    members: *const longstraw_snapshot,
    partition_bits: u8,
    replicas: usize,
    balance: f64,
    out: *mut *mut longstraw_table,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let members = unsafe { view(members)? }.members();
        let out = Out::new(out)?;
        let options = TableOptions {
            set: members.options(),
            partition_bits: (partition_bits != LONGSTRAW_AUTO).then_some(partition_bits),
            replicas,
            balance: Some(Balance::new(balance)?),
            ..TableOptions::default()
        };
        let table = Table::with_domains(members.nodes().map(|n| (n.id(), n.weight(), n.domain())), options)?;
        let ptr = Held::new(table).into_raw::<longstraw_table>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Writes the table's balance to `*balance` (millionths as a double, e.g.
/// 1.05), or 0.0 for a plain table.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `t` must be NULL or a live handle; `balance` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_balance(t: *const longstraw_table, balance: *mut f64) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let table = unsafe { set(t)? };
        let out = Out::new(balance)?;
        let value = table.load().balance().map_or(0.0, |b| b.as_f64());
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(value) };
        Ok(())
    })
}
