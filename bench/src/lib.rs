//! Shared inputs for the longstraw benchmarks (`benches/placement.rs`) and the
//! instruction counter (`src/bin/count.rs`).

#[cfg(doctest)]
mod readme_doctests;

use longstraw::{
    class_layout_len, group_by_weight, node_hash, Backend, BackendKind, ClassHeader, NodeTable, WeightClasses,
};

/// Table sizes every benchmark runs.
pub const SIZES: [usize; 5] = [8, 64, 512, 4096, 32768];

/// The weight layouts benchmarked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// No weights: every node weight 1.
    Plain,
    /// Four weight classes (1, 2, 3, 4), round robin.
    FourClasses,
    /// Every node a different weight.
    AllDistinct,
}

impl Layout {
    /// Its short name in benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Plain => "plain",
            Layout::FourClasses => "weighted4",
            Layout::AllDistinct => "weighted_distinct",
        }
    }
}

/// Owned node storage for a benchmark table.
pub struct Nodes {
    /// Node ids, `node-0`, `node-1`, ...
    pub ids: Vec<String>,
    /// Their node hashes under seed 0.
    pub hashes: Vec<u64>,
    /// Weights (`None` for [`Layout::Plain`]).
    pub weights: Option<Vec<f64>>,
    /// The eligible nodes grouped by weight, as a snapshot of `longstraw-set`
    /// keeps them (at most `MAX_WEIGHT_CLASSES` distinct weights).
    pub classes: Option<(Vec<u64>, Vec<u32>, ClassHeader)>,
}

impl Nodes {
    /// `n` nodes with the given weight layout.
    pub fn new(n: usize, layout: Layout) -> Nodes {
        let ids: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
        let hashes: Vec<u64> = ids.iter().map(|id| node_hash(id.as_bytes(), 0)).collect();
        let weights = match layout {
            Layout::Plain => None,
            Layout::FourClasses => Some((0..n).map(|i| (i % 4 + 1) as f64).collect()),
            Layout::AllDistinct => Some((0..n).map(|i| 1.0 + i as f64 / n as f64).collect()),
        };
        let classes = weights.as_deref().and_then(|w: &[f64]| {
            let len = class_layout_len(w)?;
            let (mut h, mut m) = (vec![0; len], vec![0; len]);
            let header = group_by_weight(&hashes, w, &mut h, &mut m)?;
            Some((h, m, header))
        });
        Nodes {
            ids,
            hashes,
            weights,
            classes,
        }
    }

    /// A table over this storage running on `backend`.
    pub fn table(&self, backend: Backend) -> NodeTable<'_> {
        let table = NodeTable::new(0, &self.hashes, self.weights.as_deref())
            .expect("valid table")
            .with_backend(backend);
        match &self.classes {
            Some((h, m, header)) => table.with_classes(WeightClasses::new(h, m, header)),
            None => table,
        }
    }
}

/// `count` distinct keys, `user:0`, `user:1`, ...
pub fn keys(count: usize) -> Vec<Vec<u8>> {
    (0..count).map(|i| format!("user:{i}").into_bytes()).collect()
}

/// The keys packed for the batch call: bytes and `count + 1` offsets.
pub fn packed(keys: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
    let mut bytes = Vec::new();
    let mut offsets = vec![0u64];
    for k in keys {
        bytes.extend_from_slice(k);
        offsets.push(bytes.len() as u64);
    }
    (bytes, offsets)
}

/// Every backend this CPU supports, named.
pub fn backends() -> Vec<Backend> {
    Backend::available().collect()
}

/// The backend named `name` (as in `LONGSTRAW_BACKEND`), if available.
pub fn backend_named(name: &str) -> Option<Backend> {
    BackendKind::from_name(name).and_then(Backend::new)
}
