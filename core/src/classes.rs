//! A weighted table's eligible nodes grouped by weight class, for tables with
//! few distinct weights.
//!
//! For a fixed weight the weighted score is non-decreasing in the raw score
//! (SPEC.md §5.2), and the ranking breaks equal weighted scores by raw score
//! (§6 rule 2). So within one class the node with the largest raw score ranks
//! before every other node of the class: the plain argmax finds it, with no
//! logarithm (ties in raw score mean equal node hashes, and then the lowest
//! index comes first, which is what the argmax returns, since each class keeps
//! its members in index order). Only the class leaders race each other:
//! logarithm-free intervals decide, and the exact weighted score runs only for
//! leaders whose intervals overlap (SPEC.md §6 says an implementation may do
//! exactly this: "compute `ln_u` only for the best raw score among nodes of
//! equal weight").
//!
//! The core never allocates, so the owner of node storage keeps the grouped
//! columns ([`group_by_weight`] fills them) and lends them with
//! [`crate::NodeTable::with_classes`].

use crate::limits::{LANE_E_HIGH, LANE_E_LOW};
use crate::weight::validate_weight;

/// The most weight classes a grouped layout holds; tables with more distinct
/// non-zero weights keep the lane race.
pub const MAX_WEIGHT_CLASSES: usize = 8;

/// The per-class part of a grouped layout: where each class ends in the
/// grouped columns, its weight and the weight's inverse, and the class
/// race's two scales of the inverse (`LANE_E_HIGH / w` and `LANE_E_LOW /
/// w`, `+inf` past the last class; see `crate::arch::class_race`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassHeader {
    count: usize,
    ends: [u32; MAX_WEIGHT_CLASSES],
    weights: [f64; MAX_WEIGHT_CLASSES],
    inverses: [f64; MAX_WEIGHT_CLASSES],
    upper_scales: [f64; MAX_WEIGHT_CLASSES],
    lower_scales: [f64; MAX_WEIGHT_CLASSES],
}

impl ClassHeader {
    /// How many classes (distinct non-zero weights) there are.
    pub fn count(&self) -> usize {
        self.count
    }
    /// How many nodes the grouped columns hold (the eligible nodes).
    pub fn len(&self) -> usize {
        match self.count {
            0 => 0,
            c => self.ends[c - 1] as usize,
        }
    }
    /// Whether no node is eligible.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How many eligible nodes (non-zero weight) `weights` has when it has at
/// most [`MAX_WEIGHT_CLASSES`] distinct non-zero weights, all valid; `None`
/// otherwise. The grouped columns for [`group_by_weight`] need that length.
pub fn class_layout_len(weights: &[f64]) -> Option<usize> {
    let mut seen = [0u64; MAX_WEIGHT_CLASSES];
    let mut count = 0;
    let mut eligible = 0;
    for &w in weights {
        validate_weight(w).ok()?;
        if w == 0.0 {
            continue;
        }
        eligible += 1;
        if !seen[..count].contains(&w.to_bits()) {
            *seen.get_mut(count)? = w.to_bits();
            count += 1;
        }
    }
    Some(eligible)
}

/// Groups the eligible nodes of a table by weight: writes their hashes,
/// class by class and in index order within a class, to `out_hashes`, and
/// each one's node index to `out_members`; returns the class header. Classes
/// are in order of first appearance. `None` when a weight is invalid, there
/// are more than [`MAX_WEIGHT_CLASSES`] distinct non-zero weights, the
/// lengths differ, or the outputs are not exactly [`class_layout_len`] long.
pub fn group_by_weight(
    hashes: &[u64],
    weights: &[f64],
    out_hashes: &mut [u64],
    out_members: &mut [u32],
) -> Option<ClassHeader> {
    let eligible = class_layout_len(weights)?;
    if hashes.len() != weights.len()
        || hashes.len() > u32::MAX as usize
        || out_hashes.len() != eligible
        || out_members.len() != eligible
    {
        return None;
    }
    let mut header = ClassHeader {
        count: 0,
        ends: [0; MAX_WEIGHT_CLASSES],
        weights: [0.0; MAX_WEIGHT_CLASSES],
        inverses: [0.0; MAX_WEIGHT_CLASSES],
        upper_scales: [f64::INFINITY; MAX_WEIGHT_CLASSES],
        lower_scales: [f64::INFINITY; MAX_WEIGHT_CLASSES],
    };
    let mut sizes = [0u32; MAX_WEIGHT_CLASSES];
    let class_of = |w: f64, header: &mut ClassHeader| -> usize {
        match header.weights[..header.count]
            .iter()
            .position(|&c| c.to_bits() == w.to_bits())
        {
            Some(c) => c,
            None => {
                let c = header.count;
                header.weights[c] = w;
                header.inverses[c] = 1.0 / w;
                header.upper_scales[c] = header.inverses[c] * LANE_E_HIGH;
                header.lower_scales[c] = header.inverses[c] * LANE_E_LOW;
                header.count += 1;
                c
            }
        }
    };
    for &w in weights.iter().filter(|&&w| w != 0.0) {
        let c = class_of(w, &mut header);
        sizes[c] += 1;
    }
    let mut next = [0u32; MAX_WEIGHT_CLASSES];
    let mut end = 0;
    for c in 0..header.count {
        next[c] = end;
        end += sizes[c];
        header.ends[c] = end;
    }
    for (i, (&h, &w)) in hashes.iter().zip(weights).enumerate() {
        if w == 0.0 {
            continue;
        }
        let c = class_of(w, &mut header);
        let at = next[c] as usize;
        out_hashes[at] = h;
        out_members[at] = i as u32;
        next[c] += 1;
    }
    Some(header)
}

/// A grouped layout lent to a [`crate::NodeTable`] (see the module docs).
///
/// Parts that were not filled by [`group_by_weight`] from the table's own
/// hashes and weights are not unsafe, but the placements are then
/// unspecified (like [`crate::NodeTable::from_summary`] with a wrong summary).
#[derive(Clone, Copy, Debug)]
pub struct WeightClasses<'a> {
    pub(crate) hashes: &'a [u64],
    pub(crate) members: &'a [u32],
    pub(crate) header: &'a ClassHeader,
}

impl<'a> WeightClasses<'a> {
    /// The view of columns that [`group_by_weight`] filled and the header it returned.
    pub fn new(hashes: &'a [u64], members: &'a [u32], header: &'a ClassHeader) -> Self {
        WeightClasses {
            hashes,
            members,
            header,
        }
    }

    /// Class `c`'s hashes, the index of its first one in the grouped
    /// columns, its weight and inverse; `None` past the last class or when
    /// the parts disagree.
    #[inline(always)]
    pub(crate) fn class(&self, c: usize) -> Option<(&'a [u64], usize, f64, f64)> {
        let h = self.header;
        if c >= h.count.min(MAX_WEIGHT_CLASSES) {
            return None;
        }
        let start = if c == 0 { 0 } else { h.ends[c - 1] as usize };
        let hashes = self.hashes.get(start..h.ends[c] as usize)?;
        Some((hashes, start, h.weights[c], h.inverses[c]))
    }

    /// Per class (`+inf` past the last one): `fl(fl(1 / w) LANE_E_HIGH)`,
    /// which scales an upper bound `H` of `-ln u` to an upper bound of `E`,
    /// and `fl(fl(1 / w) LANE_E_LOW)`, which scales a race key `p` to a lower
    /// bound of `E` (see `crate::arch::class_race`).
    #[inline(always)]
    pub(crate) fn scales(&self) -> (&'a [f64; MAX_WEIGHT_CLASSES], &'a [f64; MAX_WEIGHT_CLASSES]) {
        (&self.header.upper_scales, &self.header.lower_scales)
    }

    /// Where each class ends in the grouped columns (one per class).
    #[inline(always)]
    pub(crate) fn ends(&self) -> &'a [u32] {
        &self.header.ends[..self.count()]
    }

    /// How many classes.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        self.header.count.min(MAX_WEIGHT_CLASSES)
    }
}
