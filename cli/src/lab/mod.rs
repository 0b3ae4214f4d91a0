//! `longstraw lab`: the four outputs the founding documents ask for, measured
//! on one corpus for longstraw and the usual alternatives:
//!
//! 1. the share of keys per node against its weight share (max/mean, CV);
//! 2. the keys moved after adding one node and after removing one, each
//!    next to the optimum;
//! 3. the keys moved after doubling one node's weight, next to the optimum;
//! 4. the lookup time per key, and the memory of the lookup state.
//!
//! The change scenarios are the same for every placement: add a node of the
//! mean weight (it gets the last index), remove the last node (the only one
//! jump hash can remove), double the weight of the first node.

pub mod peers;
pub mod svg;

use std::io::{self, Write};
use std::time::Instant;

use longstraw::SkeletonShape;
use longstraw_membership::{LoadedSnapshot, Membership, Mode, NodeSpec};
use serde::Serialize;

use peers::{Fleet, Jump, Maglev, ModN, Placer, Ring, WeightTimesU};

/// Keys held in one buffer.
pub struct Corpus {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Corpus {
    /// `n` keys `key:<i>`.
    pub fn synthetic(n: usize) -> Corpus {
        let mut c = Corpus {
            bytes: Vec::with_capacity(n * 12),
            ends: Vec::with_capacity(n),
        };
        for i in 0..n {
            c.bytes.extend_from_slice(b"key:");
            c.bytes.extend_from_slice(i.to_string().as_bytes());
            c.ends.push(c.bytes.len());
        }
        c
    }
    /// The lines of `input` as keys (see `longstraw --help` for how lines map
    /// to bytes), read with the same line-length limit as every subcommand.
    pub fn from_lines(input: impl io::Read) -> io::Result<Corpus> {
        let mut c = [Corpus {
            bytes: Vec::new(),
            ends: Vec::new(),
        }];
        crate::stream::for_each_chunk(
            input,
            &mut c,
            &mut io::sink(),
            &indicatif::ProgressBar::hidden(),
            |chunk, c, _| {
                for key in crate::stream::lines(chunk) {
                    c.bytes.extend_from_slice(key);
                    c.ends.push(c.bytes.len());
                }
            },
        )?;
        let [c] = c;
        Ok(c)
    }
    /// The number of keys.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// Key `i`.
    pub fn key(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }
}

/// Keys moved by one change, as fractions of the corpus.
#[derive(Clone, Debug, Serialize)]
pub struct Moved {
    /// Keys whose owner changed.
    pub moved: f64,
    /// The least any placement must move for this change.
    pub optimum: f64,
    /// Moves that neither come from nor go to the changed node (0 for a placement that is minimal).
    pub stray: f64,
}

/// One placement's four outputs.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The placement.
    pub name: String,
    /// What is special about it here.
    pub note: String,
    /// Whether it uses the weights.
    pub weighted: bool,
    /// Each node's share of the keys.
    pub shares: Vec<f64>,
    /// Max over nodes of share / weight share.
    pub max_over_mean: f64,
    /// Coefficient of variation of share / weight share over the nodes with weight.
    pub cv: f64,
    /// After adding a node.
    pub add: Moved,
    /// After removing the last node.
    pub remove: Moved,
    /// After doubling the first node's weight (`None`: the placement has no weights).
    pub reweight: Option<Moved>,
    /// Lookup time per key, one thread.
    pub lookup_ns: f64,
    /// Bytes of lookup state.
    pub memory_bytes: usize,
}

/// The lab's result.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Keys in the corpus.
    pub keys: usize,
    /// Node ids: a string, or `{"hex": ...}` when not UTF-8.
    pub nodes: Vec<serde_json::Value>,
    /// Each node's weight share.
    pub weight_shares: Vec<f64>,
    /// One row per placement.
    pub rows: Vec<Row>,
}

/// A longstraw mode as a lab placement (the library answers; nothing is reimplemented).
struct Longstraw(LoadedSnapshot);

impl Placer for Longstraw {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        self.0.owner_index(key).ok()
    }
    fn bytes(&self) -> usize {
        let members = self.0.members().len() * 16;
        members
            + match &self.0 {
                LoadedSnapshot::Flat(_) => 0,
                LoadedSnapshot::Table(t) => t.rows_bytes(),
                LoadedSnapshot::Skeleton(s) => s.tree_bytes(),
            }
    }
}

fn longstraw(fleet: &Fleet, mode: Mode) -> Result<Box<dyn Placer>, String> {
    let m = Membership {
        seed: fleet.seed,
        placement: longstraw::Placement::V1,
        mode,
        secret: None,
        nodes: fleet
            .ids
            .iter()
            .zip(&fleet.weights)
            .map(|(id, &w)| NodeSpec::new(id.clone(), w, None))
            .collect(),
    };
    let built = m.build().map_err(|e| e.to_string())?;
    Ok(Box::new(Longstraw(built.snapshot())))
}

type Build = Box<dyn Fn(&Fleet) -> Result<Box<dyn Placer>, String>>;

/// The placements the lab compares: (name, note, uses weights, builder).
fn placements(base: &Fleet) -> Vec<(String, String, bool, Build)> {
    let n = base.ids.len();
    let bits = longstraw::partition::default_partition_bits(n);
    let default_shape = SkeletonShape::for_nodes(n);
    // A skeleton as deep as the default at this size, but never flat, so it differs from flat HRW.
    let shape = if default_shape == SkeletonShape::FLAT {
        SkeletonShape::new(3, 1).expect("a valid shape")
    } else {
        default_shape
    };
    let ring = |v: usize| -> Build { Box::new(move |f: &Fleet| Ok(Box::new(Ring::new(f, v)) as Box<dyn Placer>)) };
    vec![
        (
            "longstraw flat".into(),
            "placement v1".into(),
            true,
            Box::new(|f: &Fleet| longstraw(f, Mode::Flat)),
        ),
        (
            "longstraw table".into(),
            format!("2^{bits} partitions"),
            true,
            Box::new(move |f: &Fleet| {
                longstraw(
                    f,
                    Mode::Table {
                        bits: Some(bits),
                        replicas: 1,
                        distinct_domains: false,
                        balance: None,
                    },
                )
            }),
        ),
        (
            "longstraw skeleton".into(),
            format!("fan-out {}, {} level(s)", 1u32 << shape.fanout_bits(), shape.levels()),
            true,
            Box::new(move |f: &Fleet| longstraw(f, Mode::Skeleton { shape: Some(shape) })),
        ),
        ("ring V=100".into(), "reference impl.".into(), true, ring(100)),
        ("ring V=256".into(), "reference impl.".into(), true, ring(256)),
        (
            "jump".into(),
            "reference impl., no weights, removes last only".into(),
            false,
            Box::new(|f: &Fleet| Ok(Box::new(Jump::new(f)) as Box<dyn Placer>)),
        ),
        (
            "maglev".into(),
            "reference impl., no weights".into(),
            false,
            Box::new(|f: &Fleet| Ok(Box::new(Maglev::new(f)) as Box<dyn Placer>)),
        ),
        (
            "mod n".into(),
            "reference impl., no weights".into(),
            false,
            Box::new(|f: &Fleet| Ok(Box::new(ModN::new(f)) as Box<dyn Placer>)),
        ),
        (
            "w*u shortcut".into(),
            "reference impl., biased".into(),
            true,
            Box::new(|f: &Fleet| Ok(Box::new(WeightTimesU::new(f)) as Box<dyn Placer>)),
        ),
    ]
}

/// The owner index of every key (`u32::MAX`: none), on every core.
pub fn owners(placer: &dyn Placer, corpus: &Corpus) -> Vec<u32> {
    let mut out = vec![u32::MAX; corpus.len()];
    let threads = crate::stream::threads();
    let per = corpus.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, chunk) in out.chunks_mut(per).enumerate() {
            s.spawn(move || {
                for (j, o) in chunk.iter_mut().enumerate() {
                    *o = placer.owner(corpus.key(c * per + j)).unwrap_or(u32::MAX);
                }
            });
        }
    });
    out
}

fn timed_ns_per_key(placer: &dyn Placer, corpus: &Corpus) -> f64 {
    let n = corpus.len().min(1_000_000);
    let start = Instant::now();
    let mut sink = 0u64;
    for i in 0..n {
        sink = sink.wrapping_add(u64::from(placer.owner(corpus.key(i)).unwrap_or(0)));
    }
    std::hint::black_box(sink);
    start.elapsed().as_nanos() as f64 / n as f64
}

/// Fraction of keys that moved, and of those that did not involve `changed`.
fn moved(before: &[u32], after: &[u32], changed: u32) -> (f64, f64) {
    let mut moved = 0u64;
    let mut stray = 0u64;
    for (&b, &a) in before.iter().zip(after) {
        if b != a {
            moved += 1;
            if b != changed && a != changed {
                stray += 1;
            }
        }
    }
    let n = before.len().max(1) as f64;
    (moved as f64 / n, stray as f64 / n)
}

/// The fleet with one change applied.
fn changed(base: &Fleet, change: &str) -> Fleet {
    let mut f = base.clone();
    match change {
        "add" => {
            let mean = f.weights.iter().sum::<f64>() / f.weights.len().max(1) as f64;
            let mut id = b"lab-added-node".to_vec();
            while f.ids.contains(&id) {
                id.push(b'+');
            }
            f.ids.push(id);
            f.weights.push(if mean > 0.0 { mean } else { 1.0 });
        }
        "remove" => {
            f.ids.pop();
            f.weights.pop();
        }
        "reweight" => f.weights[0] *= 2.0,
        _ => unreachable!("a known change"),
    }
    f
}

/// Runs every placement on the corpus.
pub fn run(m: &Membership, corpus: &Corpus) -> Result<Report, String> {
    if m.nodes.len() < 2 {
        return Err("the lab needs at least 2 nodes (it removes one)".into());
    }
    if corpus.is_empty() {
        return Err("the key corpus is empty: nothing to measure".into());
    }
    let base = Fleet {
        ids: m.nodes.iter().map(|n| n.id.clone()).collect(),
        weights: m.nodes.iter().map(|n| n.weight).collect(),
        seed: m.seed,
    };
    let total: f64 = base.weights.iter().sum();
    if total <= 0.0 || base.weights[0] <= 0.0 {
        return Err("the lab needs positive weights (it doubles the first node's)".into());
    }
    let weight_shares: Vec<f64> = base.weights.iter().map(|w| w / total).collect();
    let add_fleet = changed(&base, "add");
    let remove_fleet = changed(&base, "remove");
    let reweight_fleet = changed(&base, "reweight");
    let n = base.ids.len();
    let keys = corpus.len() as f64;
    let w_new = add_fleet.weights[n];
    let add_optimum = w_new / (total + w_new);
    let w0 = base.weights[0];
    let reweight_optimum = 2.0 * w0 / (total + w0) - w0 / total;

    let mut rows = Vec::new();
    for (name, note, weighted, build) in placements(&base) {
        let placer = build(&base)?;
        let before = owners(&*placer, corpus);
        let lookup_ns = timed_ns_per_key(&*placer, corpus);
        let mut counts = vec![0u64; n];
        for &o in &before {
            if let Some(c) = counts.get_mut(o as usize) {
                *c += 1;
            }
        }
        let shares: Vec<f64> = counts.iter().map(|&c| c as f64 / keys).collect();
        // Unweighted placements aim at equal shares, but are judged against the weights like the rest.
        let ratios: Vec<f64> = shares
            .iter()
            .zip(&weight_shares)
            .filter(|(_, &w)| w > 0.0)
            .map(|(s, w)| s / w)
            .collect();
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        let max = ratios.iter().copied().fold(0.0, f64::max);
        let var = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / ratios.len() as f64;

        let after_add = owners(&*build(&add_fleet)?, corpus);
        let (add_moved, add_stray) = moved(&before, &after_add, n as u32);
        let after_remove = owners(&*build(&remove_fleet)?, corpus);
        let (remove_moved, remove_stray) = moved(&before, &after_remove, (n - 1) as u32);
        let reweight = if weighted {
            let after = owners(&*build(&reweight_fleet)?, corpus);
            let (moved, stray) = moved(&before, &after, 0);
            Some(Moved {
                moved,
                optimum: reweight_optimum,
                stray,
            })
        } else {
            None
        };
        rows.push(Row {
            name,
            note,
            weighted,
            max_over_mean: max / mean,
            cv: var.sqrt() / mean,
            add: Moved {
                moved: add_moved,
                optimum: add_optimum,
                stray: add_stray,
            },
            remove: Moved {
                moved: remove_moved,
                optimum: shares[n - 1],
                stray: remove_stray,
            },
            reweight,
            lookup_ns,
            memory_bytes: placer.bytes(),
            shares,
        });
    }
    Ok(Report {
        keys: corpus.len(),
        nodes: base.ids.iter().map(|id| crate::render::json_id(id)).collect(),
        weight_shares,
        rows,
    })
}

/// The side-by-side table.
pub fn write_table(r: &Report, w: &mut impl Write) -> io::Result<()> {
    writeln!(
        w,
        "{} keys, {} nodes; moves are fractions of all keys (optimum in brackets); stray = moves not to/from the changed node",
        r.keys,
        r.nodes.len()
    )?;
    writeln!(
        w,
        "{:<19} {:>8} {:>7} {:>19} {:>19} {:>19} {:>9} {:>8} {:>10}  note",
        "placement", "max/mean", "cv", "add (opt)", "remove (opt)", "2x weight (opt)", "stray", "ns/key", "memory"
    )?;
    for row in &r.rows {
        let pair = |m: &Moved| format!("{:.4} ({:.4})", m.moved, m.optimum);
        let stray = row.add.stray + row.remove.stray + row.reweight.as_ref().map_or(0.0, |m| m.stray);
        writeln!(
            w,
            "{:<19} {:>8.4} {:>7.4} {:>19} {:>19} {:>19} {:>9.4} {:>8.1} {:>10}  {}",
            row.name,
            row.max_over_mean,
            row.cv,
            pair(&row.add),
            pair(&row.remove),
            row.reweight.as_ref().map_or("n/a (no weights)".to_string(), pair),
            stray,
            row.lookup_ns,
            human_bytes(row.memory_bytes),
            row.note
        )?;
    }
    Ok(())
}

fn human_bytes(b: usize) -> String {
    match b {
        0..1024 => format!("{b} B"),
        1024..1_048_576 => format!("{:.1} KiB", b as f64 / 1024.0),
        _ => format!("{:.1} MiB", b as f64 / 1_048_576.0),
    }
}
