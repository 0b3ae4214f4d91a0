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

use crate::error::Result;

/// Builds `rows` (already `P * replicas` long) as a balanced table.
pub(crate) fn build(
    table: &NodeTable<'_>,
    bits: u8,
    replicas: usize,
    balance: Balance,
    rows: &mut [u32],
) -> Result<BalancedReport> {
    let layout = BalancedLayout::of(table, bits, replicas, balance)?;
    let mut candidates = crate::alloc::filled(layout.candidates, 0u32)?;
    let mut cursors = crate::alloc::filled(layout.cursors, Cursor::default())?;
    let mut holders = crate::alloc::filled(layout.holders, Held::EMPTY)?;
    let mut slots = crate::alloc::filled(layout.slots, NodeSlot::default())?;
    prepare(table, replicas, layout.depth, &mut candidates, &mut cursors)?;
    let buffers = BalancedBuffers {
        candidates: &mut candidates,
        cursors: &mut cursors,
        holders: &mut holders,
        slots: &mut slots,
    };
    Ok(balanced::build_prepared(table, bits, replicas, balance, rows, buffers)?)
}

/// Below this many pair scores the pair-scoring pass runs on one thread.
const PARALLEL_MIN: usize = 1 << 22;

/// Scores every partition's first choices, split across the available cores
/// (the deferred acceptance after it is sequential and much cheaper).
fn prepare(
    table: &NodeTable<'_>,
    replicas: usize,
    depth: usize,
    candidates: &mut [u32],
    cursors: &mut [Cursor],
) -> Result<()> {
    let partitions = cursors.len();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads == 1 || partitions * table.hashes().len() < PARALLEL_MIN {
        return Ok(balanced::prepare_range(table, replicas, 0, candidates, cursors)?);
    }
    let per = partitions.div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = candidates
            .chunks_mut(per * depth)
            .zip(cursors.chunks_mut(per))
            .enumerate()
            .map(|(i, (cand, curs))| {
                s.spawn(move || balanced::prepare_range(table, replicas, (i * per) as u32, cand, curs))
            })
            .collect();
        for h in handles {
            h.join().expect("a build thread panicked")?;
        }
        Ok(())
    })
}
