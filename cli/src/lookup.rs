//! `longstraw owner` and `longstraw top-k`: keys from arguments or lines, answers streamed.

use std::io::{self, Read, Write};

use longstraw_membership::Snapshot;

use crate::render;
use crate::stream;

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `KEY<TAB>NODE[<TAB>NODE...]`, raw bytes, one line per key.
    Text,
    /// One JSON object per line: `{"key": ..., "owner": ...}` or `{"key": ..., "nodes": [...]}`;
    /// a key or id is a string, or `{"hex": "..."}` when it is not UTF-8.
    Json,
    /// Only the number and share of keys per node, after all keys.
    Summary,
}

/// What to look up per key.
#[derive(Clone, Copy, Debug)]
pub struct Query {
    /// `None`: the owner; `Some(k)`: the first k nodes.
    pub k: Option<usize>,
    /// With `k`: one node per failure domain.
    pub distinct: bool,
    /// The output format.
    pub format: Format,
}

/// Per-thread state: a count per node, keys that had no node, and scratch for top-k.
pub struct Counts {
    /// Keys owned (or listed first) per node index.
    pub per_node: Vec<u64>,
    /// Keys for which no node is eligible.
    pub unplaced: u64,
    /// Keys seen.
    pub keys: u64,
    scratch: Vec<u32>,
}

impl Counts {
    /// Zero counts for `nodes` nodes, with room for `k` answers per key.
    /// The scratch never holds more than `nodes` answers, whatever `k`.
    pub fn new(nodes: usize, k: usize) -> Counts {
        Counts {
            per_node: vec![0; nodes],
            unplaced: 0,
            keys: 0,
            scratch: vec![0; k.min(nodes).max(1)],
        }
    }
    /// Adds another thread's counts.
    pub fn merge(&mut self, other: &Counts) {
        for (a, b) in self.per_node.iter_mut().zip(&other.per_node) {
            *a += b;
        }
        self.unplaced += other.unplaced;
        self.keys += other.keys;
    }
}

/// Answers one key into `out` and counts it.
pub fn answer(snap: &Snapshot, query: &Query, key: &[u8], counts: &mut Counts, out: &mut Vec<u8>) {
    counts.keys += 1;
    let found = match query.k {
        None => match snap.owner_index(key) {
            Ok(i) => {
                counts.scratch[0] = i;
                1
            }
            Err(_) => 0,
        },
        Some(k) => {
            let want = k.min(counts.scratch.len());
            if query.distinct {
                snap.top_k_distinct_into(key, &mut counts.scratch[..want])
            } else {
                snap.top_k_into(key, &mut counts.scratch[..want])
            }
        }
    };
    match counts.scratch[..found].first() {
        Some(&first) => counts.per_node[first as usize] += 1,
        None => counts.unplaced += 1,
    }
    let nodes = &counts.scratch[..found];
    let id = |i: u32| snap.node(i).expect("an index this snapshot gave").id();
    match query.format {
        Format::Summary => {}
        Format::Text => {
            out.extend_from_slice(key);
            if nodes.is_empty() {
                out.extend_from_slice(b"\t-");
            }
            for &i in nodes {
                out.push(b'\t');
                out.extend_from_slice(id(i));
            }
            out.push(b'\n');
        }
        Format::Json => {
            let _ = write!(out, "{{\"key\":{},", render::json_id(key));
            if query.k.is_none() {
                let owner = nodes
                    .first()
                    .map(|&i| render::json_id(id(i)))
                    .unwrap_or(serde_json::Value::Null);
                let _ = write!(out, "\"owner\":{owner}");
            } else {
                let list: Vec<_> = nodes.iter().map(|&i| render::json_id(id(i))).collect();
                let _ = write!(out, "\"nodes\":{}", serde_json::Value::Array(list));
            }
            out.extend_from_slice(b"}\n");
        }
    }
}

/// Looks up keys given as arguments.
pub fn run_args(snap: &Snapshot, query: &Query, keys: &[Vec<u8>], sink: &mut impl Write) -> io::Result<Counts> {
    let mut counts = Counts::new(snap.len(), query.k.unwrap_or(1));
    let mut out = Vec::new();
    for key in keys {
        answer(snap, query, key, &mut counts, &mut out);
    }
    sink.write_all(&out)?;
    Ok(counts)
}

/// Looks up one key per line of `input` on every core, answers in input order.
pub fn run_lines(
    snap: &Snapshot,
    query: &Query,
    input: impl Read,
    sink: &mut impl Write,
    progress: &indicatif::ProgressBar,
) -> io::Result<Counts> {
    let k = query.k.unwrap_or(1);
    let mut states: Vec<Counts> = (0..stream::threads()).map(|_| Counts::new(snap.len(), k)).collect();
    stream::for_each_chunk(input, &mut states, sink, progress, |chunk, counts, out| {
        for key in stream::lines(chunk) {
            answer(snap, query, key, counts, out);
        }
    })?;
    let mut total = Counts::new(snap.len(), k);
    for s in &states {
        total.merge(s);
    }
    Ok(total)
}

/// The `--format summary` table: keys per node against the weight share.
pub fn write_summary(snap: &Snapshot, counts: &Counts, sink: &mut impl Write) -> io::Result<()> {
    let total_weight: f64 = snap.nodes().map(|n| n.weight()).sum();
    writeln!(sink, "keys\t{}", counts.keys)?;
    if counts.unplaced > 0 {
        writeln!(sink, "unplaced\t{}\t(no eligible node)", counts.unplaced)?;
    }
    writeln!(sink, "node\tkeys\tshare\tweight_share")?;
    for (node, &n) in snap.nodes().zip(&counts.per_node) {
        let share = if counts.keys == 0 {
            0.0
        } else {
            n as f64 / counts.keys as f64
        };
        let want = if total_weight > 0.0 {
            node.weight() / total_weight
        } else {
            0.0
        };
        writeln!(sink, "{}\t{n}\t{share:.6}\t{want:.6}", render::show(node.id()))?;
    }
    Ok(())
}
