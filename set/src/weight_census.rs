//! The weight summary of a membership (eligible count and weight shape),
//! kept up to date one change at a time instead of re-scanning every weight
//! per published snapshot.

use longstraw::{Shape, TableSummary};

use crate::error::Result;
use crate::shared_map::SharedMap;

/// How many nodes carry each non-zero weight. Shared between snapshots like
/// their other maps, so a change copies one shard at most.
#[derive(Clone, Debug)]
pub(crate) struct WeightCensus {
    /// Non-zero weight (its bits; validated weights are never NaN, and only
    /// zeros have two encodings) to its node count.
    counts: SharedMap<u64, u32>,
    distinct: usize,
    eligible: u32,
}

impl WeightCensus {
    pub(crate) fn new() -> Self {
        WeightCensus {
            counts: SharedMap::new(),
            distinct: 0,
            eligible: 0,
        }
    }

    /// The census of nodes whose (validated) weights had these counts:
    /// non-zero weight bits to node count (zero weights left out).
    pub(crate) fn of_counts(counts: impl ExactSizeIterator<Item = (u64, u32)>) -> Result<Self> {
        let mut census = WeightCensus {
            counts: SharedMap::with_capacity(counts.len())?,
            distinct: 0,
            eligible: 0,
        };
        for (bits, count) in counts {
            debug_assert!(bits != 0.0f64.to_bits() && bits != (-0.0f64).to_bits() && count > 0);
            census.counts.insert(bits, count)?;
            census.distinct += 1;
            census.eligible += count;
        }
        Ok(census)
    }

    /// Counts a node of (validated) weight `w` in.
    pub(crate) fn add(&mut self, w: f64) -> Result<()> {
        if w == 0.0 {
            return Ok(());
        }
        let count = self.counts.get(&w.to_bits()).copied().unwrap_or(0);
        self.counts.insert(w.to_bits(), count + 1)?;
        self.distinct += usize::from(count == 0);
        self.eligible += 1;
        Ok(())
    }

    /// Counts a node of weight `w` out; it must have been counted in.
    pub(crate) fn remove(&mut self, w: f64) -> Result<()> {
        if w == 0.0 {
            return Ok(());
        }
        let count = self.counts.get(&w.to_bits()).copied().unwrap_or(0);
        debug_assert!(count > 0, "weight {w} was counted in");
        if count <= 1 {
            self.counts.remove(&w.to_bits());
            self.distinct -= usize::from(count == 1);
        } else {
            self.counts.insert(w.to_bits(), count - 1)?;
        }
        self.eligible -= u32::from(count > 0);
        Ok(())
    }

    /// How many distinct non-zero weights there are.
    pub(crate) fn distinct(&self) -> usize {
        self.distinct
    }

    /// What [`TableSummary::of`] says of the counted weights of `len` nodes.
    pub(crate) fn summary(&self, len: usize) -> TableSummary {
        let shape = if self.distinct > 1 {
            Shape::Weighted
        } else if self.eligible as usize == len {
            Shape::AllEqual
        } else {
            Shape::EqualWithDrained
        };
        TableSummary {
            eligible: self.eligible,
            shape,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the core's scan, over every sequence of a few adds and removes.
    #[test]
    fn the_census_agrees_with_a_full_scan() {
        let palette = [0.0, 1.0, 2.0, 0.5];
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            let mut census = WeightCensus::new();
            let mut weights: Vec<f64> = Vec::new();
            for _ in 0..12 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                if rng.is_multiple_of(3) && !weights.is_empty() {
                    let w = weights.swap_remove((rng >> 8) as usize % weights.len());
                    census.remove(w).unwrap();
                } else {
                    let w = palette[(rng >> 8) as usize % palette.len()];
                    weights.push(w);
                    census.add(w).unwrap();
                }
                let hashes: Vec<u64> = (0..weights.len() as u64).collect();
                let scanned = TableSummary::of(&hashes, Some(&weights)).unwrap();
                assert_eq!(census.summary(weights.len()), scanned, "{weights:?}");
                let mut counts = std::collections::HashMap::new();
                for w in weights.iter().filter(|&&w| w != 0.0) {
                    *counts.entry(w.to_bits()).or_insert(0u32) += 1;
                }
                let counted = WeightCensus::of_counts(counts.into_iter()).unwrap();
                assert_eq!(counted.summary(weights.len()), scanned, "{weights:?} counted at once");
            }
        }
    }
}
