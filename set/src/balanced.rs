//! Owned scratch for balanced partition tables (SPEC.md §17); the
//! placement itself is `longstraw::balanced`.
//!
//! A balanced build needs scratch proportional to the partition count (each
//! node's accepted pairs, each partition's next candidates), so it is
//! allocated here, fallibly, and dropped when the build returns. Every
//! membership change rebuilds the whole table: every cap depends on the
//! total weight, so one change can move a pair anywhere (see SPEC.md §17.6).

use longstraw::balanced::{self, Balance, BalancedBuffers, BalancedLayout, BalancedReport, Cursor, Held, NodeSlot};
use longstraw::NodeTable;

use crate::error::{Error, Result};

/// A vector of `len` copies of `fill`, or [`Error::OutOfMemory`].
pub(crate) fn try_filled<T: Clone>(len: usize, fill: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        bytes: len.saturating_mul(std::mem::size_of::<T>()),
    })?;
    v.resize(len, fill);
    Ok(v)
}

/// Builds `rows` (already `P * replicas` long) as a balanced table.
pub(crate) fn build(
    table: &NodeTable<'_>,
    bits: u8,
    replicas: usize,
    balance: Balance,
    rows: &mut [u32],
) -> Result<BalancedReport> {
    let layout = BalancedLayout::of(table, bits, replicas, balance)?;
    let mut candidates = try_filled(layout.candidates, 0u32)?;
    let mut cursors = try_filled(layout.cursors, Cursor::default())?;
    let mut holders = try_filled(layout.holders, Held::EMPTY)?;
    let mut slots = try_filled(layout.slots, NodeSlot::default())?;
    let buffers = BalancedBuffers {
        candidates: &mut candidates,
        cursors: &mut cursors,
        holders: &mut holders,
        slots: &mut slots,
    };
    Ok(balanced::build(table, bits, replicas, balance, rows, buffers)?)
}
