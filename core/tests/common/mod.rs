//! Helpers shared by the core's integration tests.
#![allow(dead_code)]

use longstraw::{key_hash, node_hash, NodeTable, Ranked};

/// SplitMix64, for reproducible test inputs.
pub struct Prng(pub u64);

impl Prng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A draw in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The spec's `-ln u` of node `hash` for `key_hash` (weight 1: exact).
pub fn neg_ln(key_hash: u64, hash: u64) -> f64 {
    -Ranked::weighted(key_hash, hash, 1.0, 0).weighted
}

/// A node hash whose `1 - u` for `key_hash` is below 2^-12 (the top 12 bits of the
/// pair's mix all set): there the near-tie bounds are nearly exact.
pub fn hash_with_tiny_one_minus_u(rng: &mut Prng, key_hash: u64) -> u64 {
    loop {
        let h = rng.next();
        if longstraw::mix(key_hash ^ h) >> 52 == 0xFFF {
            return h;
        }
    }
}

/// Relative gaps planted between near-tied leaders' exact scores (the near-tie tests).
pub const NEAR_TIE_GAPS: [f64; 10] = [0.0, 1.2e-16, 2.3e-16, 1e-13, 1e-10, 1e-7, 1e-5, 1e-4, 1e-3, 1e-2];

/// An owned node table for tests.
pub struct Nodes {
    pub seed: u64,
    pub ids: Vec<Vec<u8>>,
    pub hashes: Vec<u64>,
    pub weights: Vec<f64>,
}

impl Nodes {
    pub fn named(prefix: &str, n: usize, seed: u64) -> Nodes {
        Self::from_ids((0..n).map(|i| format!("{prefix}{i}").into_bytes()).collect(), seed)
    }

    pub fn from_ids(ids: Vec<Vec<u8>>, seed: u64) -> Nodes {
        let hashes = ids.iter().map(|id| node_hash(id, seed)).collect();
        let weights = vec![1.0; ids.len()];
        Nodes {
            seed,
            ids,
            hashes,
            weights,
        }
    }

    pub fn with_weights(mut self, weights: &[f64]) -> Nodes {
        self.weights = weights.to_vec();
        self
    }

    pub fn table(&self) -> NodeTable<'_> {
        NodeTable::new(self.seed, &self.hashes, Some(&self.weights)).unwrap()
    }

    /// The owner's id for a key.
    pub fn owner(&self, key: &[u8]) -> Vec<u8> {
        self.ids[self.table().owner(key).unwrap() as usize].clone()
    }

    pub fn top_ids(&self, key: &[u8], k: usize) -> Vec<Vec<u8>> {
        let mut buf = vec![Ranked::EMPTY; k];
        let n = self.table().top_k(key, &mut buf);
        buf[..n].iter().map(|r| self.ids[r.index as usize].clone()).collect()
    }

    pub fn remove(&mut self, id: &[u8]) {
        let i = self.ids.iter().position(|x| x == id).unwrap();
        self.ids.remove(i);
        self.hashes.remove(i);
        self.weights.remove(i);
    }

    pub fn add(&mut self, id: &[u8], weight: f64) {
        self.ids.push(id.to_vec());
        self.hashes.push(node_hash(id, self.seed));
        self.weights.push(weight);
    }
}

pub fn keys(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| i.to_string().into_bytes()).collect()
}

/// Upper bound for a chi-square statistic with `dof` degrees of freedom: mean + 6 standard deviations
/// (the chance that a fair distribution exceeds it is below 1e-6 for the sizes used here).
pub fn chi_square_bound(dof: usize) -> f64 {
    dof as f64 + 6.0 * (2.0 * dof as f64).sqrt()
}

pub fn chi_square(counts: &[u64], expected: &[f64]) -> f64 {
    counts
        .iter()
        .zip(expected)
        .map(|(&c, &e)| (c as f64 - e).powi(2) / e)
        .sum()
}

/// Half-width of a 6-sigma interval for a proportion `p` estimated from `n` samples.
pub fn six_sigma(p: f64, n: usize) -> f64 {
    6.0 * (p * (1.0 - p) / n as f64).sqrt()
}

pub fn kh(key: &[u8], seed: u64) -> u64 {
    key_hash(key, seed)
}
