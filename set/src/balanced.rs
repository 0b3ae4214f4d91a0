//! Owned scratch for balanced partition tables (SPEC.md §17); the
//! placement itself is `longstraw::balanced`.
//!
//! A balanced build needs scratch proportional to the partition count (each
//! node's accepted pairs, each partition's next candidates), so it is
//! allocated here, fallibly, and dropped when the build returns.
//!
//! A balanced table also keeps its plain rows (each partition's first
//! `replicas` nodes): they are the expensive part of a build (`P * n` pair
//! scores) and update incrementally like a plain table's. Every cap depends
//! on the total weight, so after any change the assignment itself is placed
//! again from them (SPEC.md §17.6): a change costs the plain patch plus one
//! deferred acceptance, not a full build.

use longstraw::balanced::{self, Balance, BalancedBuffers, BalancedLayout, BalancedReport, Cursor, Held, NodeSlot};
use longstraw::NodeTable;

use crate::error::Result;

/// Places a balanced table into `rows` from `plain`, the plain table's rows
/// for the same nodes and shape (each partition's first choices), so that
/// no pair is scored twice: a build scores pairs once for the plain rows
/// (on all cores), and a change patches those incrementally.
pub(crate) fn place(
    table: &NodeTable<'_>,
    bits: u8,
    replicas: usize,
    balance: Balance,
    plain: &[u32],
    rows: &mut [u32],
) -> Result<BalancedReport> {
    let layout = BalancedLayout::of(table, bits, replicas, balance)?;
    let mut candidates = crate::alloc::filled(layout.candidates, 0u32)?;
    let mut cursors = crate::alloc::filled(layout.cursors, Cursor::default())?;
    let mut holders = crate::alloc::filled(layout.holders, Held::EMPTY)?;
    let mut slots = crate::alloc::filled(layout.slots, NodeSlot::default())?;
    balanced::prepare_from_rows(table, replicas, plain, &mut candidates, &mut cursors)?;
    let buffers = BalancedBuffers {
        candidates: &mut candidates,
        cursors: &mut cursors,
        holders: &mut holders,
        slots: &mut slots,
    };
    Ok(balanced::build_prepared(table, bits, replicas, balance, rows, buffers)?)
}
