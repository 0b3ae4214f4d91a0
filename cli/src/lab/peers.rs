//! SMALL LOCAL REFERENCE IMPLEMENTATIONS of other placements, for the lab only.
//!
//! These are not longstraw and not the peers' own code: each is a short,
//! textbook version written here so the lab can measure every placement on
//! the same corpus with the same key hash (XXH3-64 with the file's seed).
//! Production code must not use them.
//!
//! - [`Ring`]: a ketama-style consistent hash ring, `V` points per unit of
//!   weight (the lightest positive weight is one unit), a key belongs to the
//!   first point clockwise.
//! - [`Jump`]: Lamping and Veach's jump consistent hash over numbered buckets
//!   (no weights; only the last bucket can be removed).
//! - [`Maglev`]: the Maglev lookup table (Eisenbud et al., NSDI 2016) of a
//!   fixed prime size, as deployments run it: the lab picks the next prime
//!   of at least 100 entries per node of the largest fleet it measures, and
//!   keeps it across every change (no weights).
//! - [`ModN`]: `hash mod n` (no weights).
//! - [`WeightTimesU`]: rendezvous with the biased `w * u` score.

use xxhash_rust::xxh3::xxh3_64_with_seed;

/// A placement the lab can measure: node indices are positions in the fleet it was built from.
pub trait Placer: Sync {
    /// The owner of `key`, or `None` when no node can take it.
    fn owner(&self, key: &[u8]) -> Option<u32>;
    /// Bytes of lookup state (excluding the node ids themselves).
    fn bytes(&self) -> usize;
}

/// The nodes a placement is built from, in index order.
#[derive(Clone, Debug)]
pub struct Fleet {
    /// Ids.
    pub ids: Vec<Vec<u8>>,
    /// Weights.
    pub weights: Vec<f64>,
    /// The hash seed.
    pub seed: u64,
}

fn key_hash(key: &[u8], seed: u64) -> u64 {
    xxh3_64_with_seed(key, seed)
}

/// A ketama-style ring.
pub struct Ring {
    points: Vec<(u64, u32)>,
}

impl Ring {
    /// `per_unit` points per unit of weight.
    pub fn new(fleet: &Fleet, per_unit: usize) -> Ring {
        let unit = fleet
            .weights
            .iter()
            .copied()
            .filter(|&w| w > 0.0)
            .fold(f64::INFINITY, f64::min);
        let mut points = Vec::new();
        for (i, (id, &w)) in fleet.ids.iter().zip(&fleet.weights).enumerate() {
            if w <= 0.0 {
                continue;
            }
            let count = ((per_unit as f64) * w / unit).round().max(1.0) as usize;
            let mut label = id.clone();
            label.push(b'#');
            let base = label.len();
            for j in 0..count {
                label.truncate(base);
                label.extend_from_slice(j.to_string().as_bytes());
                points.push((xxh3_64_with_seed(&label, fleet.seed ^ 0x9e37_79b9_7f4a_7c15), i as u32));
            }
        }
        points.sort_unstable();
        Ring { points }
    }
    /// The number of points on the ring.
    pub fn points(&self) -> usize {
        self.points.len()
    }
}

impl Placer for Ring {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        if self.points.is_empty() {
            return None;
        }
        let h = key_hash(key, 0x51_7c_c1_b7_27_22_0a_95);
        let at = self.points.partition_point(|&(p, _)| p < h);
        Some(self.points[if at == self.points.len() { 0 } else { at }].1)
    }
    fn bytes(&self) -> usize {
        self.points.len() * std::mem::size_of::<(u64, u32)>()
    }
}

/// Jump consistent hash over `n` buckets.
pub struct Jump {
    n: u32,
    seed: u64,
}

impl Jump {
    /// Buckets 0 to n-1 (the fleet's weights are ignored).
    pub fn new(fleet: &Fleet) -> Jump {
        Jump {
            n: fleet.ids.len() as u32,
            seed: fleet.seed,
        }
    }
}

/// Lamping and Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm" (2014), figure 1.
pub fn jump_bucket(mut key: u64, buckets: u32) -> u32 {
    let (mut b, mut j) = (-1i64, 0i64);
    while j < i64::from(buckets) {
        b = j;
        key = key.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    b as u32
}

impl Placer for Jump {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        (self.n > 0).then(|| jump_bucket(key_hash(key, self.seed), self.n))
    }
    fn bytes(&self) -> usize {
        0
    }
}

/// The Maglev lookup table.
pub struct Maglev {
    table: Vec<u32>,
    seed: u64,
}

fn is_prime(n: usize) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
}

/// The smallest prime of at least `100 * nodes` (and at least 2): a Maglev table size.
pub fn maglev_size(nodes: usize) -> usize {
    let mut m = (100 * nodes).max(2);
    while !is_prime(m) {
        m += 1;
    }
    m
}

impl Maglev {
    /// A table of `m` entries (a prime; weights ignored). Keep `m` fixed across
    /// membership changes: a table that is resized remaps almost every key.
    pub fn new(fleet: &Fleet, m: usize) -> Maglev {
        let n = fleet.ids.len();
        assert!(is_prime(m), "a Maglev table size is prime");
        if n == 0 {
            return Maglev {
                table: Vec::new(),
                seed: fleet.seed,
            };
        }
        let perm: Vec<(usize, usize)> = fleet
            .ids
            .iter()
            .map(|id| {
                let offset = xxh3_64_with_seed(id, fleet.seed ^ 0xa5a5) as usize % m;
                let skip = xxh3_64_with_seed(id, fleet.seed ^ 0x5a5a) as usize % (m - 1) + 1;
                (offset, skip)
            })
            .collect();
        let mut next = vec![0usize; n];
        let mut table = vec![u32::MAX; m];
        let mut filled = 0;
        'fill: loop {
            for i in 0..n {
                let (offset, skip) = perm[i];
                let mut c = (offset + next[i] * skip) % m;
                while table[c] != u32::MAX {
                    next[i] += 1;
                    c = (offset + next[i] * skip) % m;
                }
                table[c] = i as u32;
                next[i] += 1;
                filled += 1;
                if filled == m {
                    break 'fill;
                }
            }
        }
        Maglev {
            table,
            seed: fleet.seed,
        }
    }
}

impl Placer for Maglev {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        if self.table.is_empty() {
            return None;
        }
        Some(self.table[(key_hash(key, self.seed) % self.table.len() as u64) as usize])
    }
    fn bytes(&self) -> usize {
        self.table.len() * 4
    }
}

impl Maglev {
    /// The table size.
    pub fn size(&self) -> usize {
        self.table.len()
    }
}

/// `hash mod n`.
pub struct ModN {
    n: u64,
    seed: u64,
}

impl ModN {
    /// Over the fleet's node count (weights ignored).
    pub fn new(fleet: &Fleet) -> ModN {
        ModN {
            n: fleet.ids.len() as u64,
            seed: fleet.seed,
        }
    }
}

impl Placer for ModN {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        (self.n > 0).then(|| (key_hash(key, self.seed) % self.n) as u32)
    }
    fn bytes(&self) -> usize {
        0
    }
}

/// Rendezvous with the biased score `w * u`, `u` uniform in [0, 1).
pub struct WeightTimesU {
    node_hashes: Vec<u64>,
    weights: Vec<f64>,
    seed: u64,
}

impl WeightTimesU {
    /// Over the fleet.
    pub fn new(fleet: &Fleet) -> WeightTimesU {
        WeightTimesU {
            node_hashes: fleet
                .ids
                .iter()
                .map(|id| xxh3_64_with_seed(id, fleet.seed ^ 0x77))
                .collect(),
            weights: fleet.weights.clone(),
            seed: fleet.seed,
        }
    }
}

/// MurmurHash3's 64-bit finalizer: spreads a key-node pair over 64 bits.
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

impl Placer for WeightTimesU {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        let kh = key_hash(key, self.seed);
        let mut best: Option<(f64, u32)> = None;
        for (i, (&nh, &w)) in self.node_hashes.iter().zip(&self.weights).enumerate() {
            if w <= 0.0 {
                continue;
            }
            let u = (fmix64(kh ^ nh) >> 11) as f64 / (1u64 << 53) as f64;
            let score = w * u;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i as u32));
            }
        }
        best.map(|(_, i)| i)
    }
    fn bytes(&self) -> usize {
        self.node_hashes.len() * 16
    }
}
