//! The failure domain labels of a membership, shared between snapshots.
//!
//! Most sets label no node. Then the labels are one shared run of `None`s at
//! least as long as the membership, which adding or removing a node leaves
//! as it is, so a change copies nothing here.

use std::sync::Arc;

use crate::column::Column;
use crate::error::Result;

/// Labels by node index: `labels[..len]` for a membership of `len` nodes;
/// every entry past that is `None`.
#[derive(Clone, Debug)]
pub(crate) struct Labels {
    labels: Column<Option<Arc<[u8]>>>,
    labelled: usize,
}

impl Labels {
    pub(crate) fn new() -> Self {
        Labels {
            labels: Column::new(),
            labelled: 0,
        }
    }

    /// The labels of a membership of `labels.len()` nodes at once.
    pub(crate) fn of_vec(labels: Vec<Option<Arc<[u8]>>>) -> Self {
        let labelled = labels.iter().filter(|l| l.is_some()).count();
        Labels {
            labels: Column::from_vec(labels),
            labelled,
        }
    }

    /// The labels of the first `len` nodes.
    pub(crate) fn of(&self, len: usize) -> &[Option<Arc<[u8]>>] {
        &self.labels[..len]
    }

    /// How many nodes have a label.
    pub(crate) fn labelled(&self) -> usize {
        self.labelled
    }

    /// Node `len` (the membership had `len` nodes) joins with `label`.
    pub(crate) fn push(&mut self, len: usize, label: Option<Arc<[u8]>>) -> Result<()> {
        if self.labels.len() <= len {
            if self.labelled == 0 {
                // A run a quarter longer than needed, so this copy is amortised
                // over the next len / 4 adds without doubling the memory.
                let run = (len + 1).saturating_add(len / 4).max(16);
                self.labels = Column::from_vec(crate::alloc::filled(run, None)?);
            } else {
                self.labels.edit()?.push(None);
            }
        }
        if label.is_some() {
            self.labels.edit()?[len] = label;
            self.labelled += 1;
        }
        Ok(())
    }

    /// Sets or clears the label of node `index`.
    pub(crate) fn set(&mut self, index: usize, label: Option<Arc<[u8]>>) -> Result<()> {
        let had = self.labels[index].is_some();
        if !had && label.is_none() {
            return Ok(());
        }
        self.labelled = self.labelled - usize::from(had) + usize::from(label.is_some());
        self.labels.edit()?[index] = label;
        Ok(())
    }

    /// Node `index` leaves; later nodes move down one place.
    pub(crate) fn remove(&mut self, index: usize) -> Result<()> {
        if self.labelled == 0 {
            // Shifting a run of `None`s changes nothing.
            return Ok(());
        }
        if self.labels.edit()?.remove(index).is_some() {
            self.labelled -= 1;
        }
        Ok(())
    }
}
