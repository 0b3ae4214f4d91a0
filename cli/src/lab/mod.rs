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
//! jump hash can remove), double the weight of the first node. The report
//! names these nodes, the machine and the SIMD backend behind the times, and
//! ends with a recommendation computed from the rows ([`verdict`]).

pub mod peers;
pub mod svg;
pub mod verdict;

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use longstraw::SkeletonShape;
use longstraw_membership::{Membership, Mode, NodeSpec, Snapshot};
use serde::Serialize;

use peers::{maglev_size, Fleet, Jump, Maglev, ModN, Placer, Ring, WeightTimesU};
use verdict::{Criterion, Verdict};

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

/// Where the lookup times were measured.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// The CPU model (from /proc/cpuinfo where there is one).
    pub cpu: String,
    /// Logical cores (the lab's placements are computed on all of them; times are on one).
    pub cores: usize,
    /// The CPU architecture.
    pub arch: String,
    /// The SIMD backend longstraw chose (`LONGSTRAW_BACKEND` can force one).
    pub backend: String,
    /// The 1-minute load average when the lab started (where the system tells it).
    pub load_average: Option<f64>,
}

fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The nodes each change touched.
#[derive(Clone, Debug, Serialize)]
pub struct Changes {
    /// The node added (with the fleet's mean weight).
    pub added: serde_json::Value,
    /// Its weight.
    pub added_weight: f64,
    /// The node removed (the last one, the only one jump hash can remove).
    pub removed: serde_json::Value,
    /// The node whose weight doubled (the first one).
    pub reweighted: serde_json::Value,
    /// Its weight before and after.
    pub reweighted_from: f64,
    /// See `reweighted_from`.
    pub reweighted_to: f64,
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
    /// The machine behind the lookup times.
    pub machine: Machine,
    /// Which node each change added, removed or reweighted.
    pub changes: Changes,
    /// One row per placement.
    pub rows: Vec<Row>,
    /// The recommendation, computed from the rows and the priorities.
    pub recommendation: Verdict,
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Model") || l.starts_with("Hardware"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown CPU model".to_string())
}

/// A longstraw mode as a lab placement (the library answers; nothing is reimplemented).
struct Longstraw(Arc<Snapshot>);

impl Placer for Longstraw {
    fn owner(&self, key: &[u8]) -> Option<u32> {
        self.0.owner_index(key).ok()
    }
    fn bytes(&self) -> usize {
        let members = self.0.len() * 16;
        let table = self.0.as_table().map_or(0, |t| t.rows_bytes());
        let tree = self.0.as_skeleton().map_or(0, |s| s.tree_bytes());
        members + table + tree
    }
}

fn longstraw(fleet: &Fleet, mode: Mode) -> Result<Box<dyn Placer>, String> {
    Ok(Box::new(Longstraw(longstraw_snapshot(fleet, mode)?)))
}

fn longstraw_snapshot(fleet: &Fleet, mode: Mode) -> Result<Arc<Snapshot>, String> {
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
    Ok(built.snapshot())
}

/// How the lab builds longstraw's tables: the file's partition bits when it
/// is a table file (else the default for its node count), and the file's
/// balance (else [`DEFAULT_BALANCE`]) for the balanced-table row.
#[derive(Clone, Copy, Debug)]
pub struct TableSetup {
    /// Partition bits.
    pub bits: u8,
    /// The balanced table's balance.
    pub balance: f64,
    /// Whether `balance` is the file's.
    pub balance_from_file: bool,
}

/// The balance of the balanced-table row when the file names none.
pub const DEFAULT_BALANCE: f64 = 1.05;

type Build = Box<dyn Fn(&Fleet) -> Result<Box<dyn Placer>, String>>;

/// The placements the lab compares: (name, note, uses weights, builder).
/// `maglev`: the Maglev table size, the same for every fleet measured.
fn placements(base: &Fleet, table: TableSetup, maglev: usize) -> Vec<(String, String, bool, Build)> {
    let n = base.ids.len();
    let bits = table.bits;
    let balance = table.balance;
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
            "longstraw balanced".into(),
            format!(
                "2^{bits} partitions, balance {balance} ({})",
                if table.balance_from_file {
                    "the file's"
                } else {
                    "the file has none"
                }
            ),
            true,
            Box::new(move |f: &Fleet| {
                longstraw(
                    f,
                    Mode::Table {
                        bits: Some(bits),
                        replicas: 1,
                        distinct_domains: false,
                        balance: Some(balance),
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
            format!(
                "reference impl., no weights, M = {maglev} fixed (next prime >= 100 x {} nodes)",
                n + 1
            ),
            false,
            Box::new(move |f: &Fleet| Ok(Box::new(Maglev::new(f, maglev)) as Box<dyn Placer>)),
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

/// Lookup time per key on one thread: the best of 3 runs over up to 300,000 keys.
fn timed_ns_per_key(placer: &dyn Placer, corpus: &Corpus) -> f64 {
    let n = corpus.len().min(300_000);
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        let mut sink = 0u64;
        for i in 0..n {
            sink = sink.wrapping_add(u64::from(placer.owner(corpus.key(i)).unwrap_or(0)));
        }
        std::hint::black_box(sink);
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
    }
    best
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

/// Runs every placement on the corpus, with the default priorities.
pub fn run(m: &Membership, corpus: &Corpus) -> Result<Report, String> {
    run_with(m, corpus, &[])
}

/// Runs every placement on the corpus and recommends one for `priorities`
/// (most important first; unnamed criteria follow in the default order).
pub fn run_with(m: &Membership, corpus: &Corpus, priorities: &[Criterion]) -> Result<Report, String> {
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

    let (file_bits, file_balance) = match m.mode {
        Mode::Table { bits, balance, .. } => (bits, balance),
        _ => (None, None),
    };
    let table = TableSetup {
        bits: file_bits.unwrap_or_else(|| longstraw::partition::default_partition_bits(n)),
        balance: file_balance.unwrap_or(DEFAULT_BALANCE),
        balance_from_file: file_balance.is_some(),
    };
    // One Maglev size for every fleet measured: the largest fleet (after the add) sets it.
    let maglev = maglev_size(n + 1);
    let machine = Machine {
        cpu: cpu_model(),
        cores: crate::stream::threads(),
        arch: std::env::consts::ARCH.to_string(),
        backend: longstraw_snapshot(&base, Mode::Flat)?.backend().name().to_string(),
        load_average: load_average(),
    };
    let json_id = |id: &[u8]| crate::render::json_id(id);
    let changes = Changes {
        added: json_id(&add_fleet.ids[n]),
        added_weight: w_new,
        removed: json_id(&base.ids[n - 1]),
        reweighted: json_id(&base.ids[0]),
        reweighted_from: base.weights[0],
        reweighted_to: reweight_fleet.weights[0],
    };

    let mut rows = Vec::new();
    for (name, note, weighted, build) in placements(&base, table, maglev) {
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
    let weights_equal = base.weights.iter().all(|&w| w == base.weights[0]);
    let recommendation = verdict::recommend(&rows, corpus.len(), weights_equal, priorities);
    Ok(Report {
        keys: corpus.len(),
        nodes: base.ids.iter().map(|id| crate::render::json_id(id)).collect(),
        weight_shares,
        machine,
        changes,
        rows,
        recommendation,
    })
}

/// The side-by-side table, the machine, the changes and the recommendation.
pub fn write_table(r: &Report, w: &mut impl Write) -> io::Result<()> {
    let id = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let c = &r.changes;
    writeln!(
        w,
        "{} keys, {} nodes; moves are fractions of all keys (optimum in brackets); stray = moves not to/from the changed node",
        r.keys,
        r.nodes.len()
    )?;
    writeln!(
        w,
        "changes: add {} (weight {}); remove {} (the last node); 2x weight: {} ({} -> {})",
        id(&c.added),
        c.added_weight,
        id(&c.removed),
        id(&c.reweighted),
        c.reweighted_from,
        c.reweighted_to
    )?;
    writeln!(
        w,
        "machine: {}, {} logical cores, {}{}; longstraw backend {}; ns/key: best of 3 runs on one thread",
        r.machine.cpu,
        r.machine.cores,
        r.machine.arch,
        r.machine
            .load_average
            .map_or(String::new(), |l| format!(", load average {l:.2}")),
        r.machine.backend
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
    let v = &r.recommendation;
    let order: Vec<String> = v
        .priorities
        .iter()
        .map(|c| serde_json::to_value(c).map_or_else(|_| String::new(), |x| id(&x)))
        .collect();
    writeln!(w, "recommendation for priorities {}:", order.join(" > "))?;
    for reason in &v.reasons {
        writeln!(w, "  {reason}")?;
    }
    writeln!(w, "  => {}", v.pick)?;
    Ok(())
}

fn human_bytes(b: usize) -> String {
    match b {
        0..1024 => format!("{b} B"),
        1024..1_048_576 => format!("{:.1} KiB", b as f64 / 1024.0),
        _ => format!("{:.1} MiB", b as f64 / 1_048_576.0),
    }
}
