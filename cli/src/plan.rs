//! `longstraw plan`: what moves from one membership to another, streamed.
//!
//! Every key (or partition) is placed under both memberships. A key moves
//! when its owner changes; with `--replicas K`, copies are created on nodes
//! in the new top K that were not in the old one, and dropped from nodes that
//! left it (drop only once the new copies exist).

use std::collections::HashMap;
use std::io::{self, Read, Write};

use longstraw_membership::LoadedSnapshot;

use crate::render;
use crate::stream;

/// How each moved key is listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MovesFormat {
    /// One JSON object per line.
    Jsonl,
    /// CSV with a header line.
    Csv,
}

/// The node ids of both memberships, one index space.
pub struct Nodes {
    /// Every id, old nodes first, then nodes only in the new membership.
    pub ids: Vec<Vec<u8>>,
    old_to: Vec<u32>,
    new_to: Vec<u32>,
}

impl Nodes {
    /// The union of both snapshots' ids.
    pub fn of(old: &LoadedSnapshot, new: &LoadedSnapshot) -> Nodes {
        let mut ids: Vec<Vec<u8>> = old.members().ids().iter().map(|i| i.to_vec()).collect();
        let mut index: HashMap<Vec<u8>, u32> = ids.iter().enumerate().map(|(i, id)| (id.clone(), i as u32)).collect();
        let old_to = (0..ids.len() as u32).collect();
        let new_to = new
            .members()
            .ids()
            .iter()
            .map(|id| {
                *index.entry(id.to_vec()).or_insert_with(|| {
                    ids.push(id.to_vec());
                    ids.len() as u32 - 1
                })
            })
            .collect();
        Nodes { ids, old_to, new_to }
    }
}

/// What to plan.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// `None`: owners only; `Some(k)`: replica sets of k.
    pub replicas: Option<usize>,
    /// List every moved key in this format.
    pub moves: Option<MovesFormat>,
}

/// Per-thread totals; merged at the end.
#[derive(Clone, Debug)]
pub struct Totals {
    /// Keys (or partitions) placed.
    pub keys: u64,
    /// Keys whose owner changed.
    pub moved: u64,
    /// Keys no node could take under the new membership.
    pub unplaced: u64,
    /// Owner counts per node, before and after.
    pub old_count: Vec<u64>,
    /// See `old_count`.
    pub new_count: Vec<u64>,
    /// Keys leaving and arriving per node.
    pub out: Vec<u64>,
    /// See `out`.
    pub arrive: Vec<u64>,
    /// Moves per (from, to) node pair.
    pub matrix: HashMap<(u32, u32), u64>,
    /// With replicas: copies held per node before and after, created and dropped per node.
    pub old_copies: Vec<u64>,
    /// See `old_copies`.
    pub new_copies: Vec<u64>,
    /// See `old_copies`.
    pub create: Vec<u64>,
    /// See `old_copies`.
    pub drop: Vec<u64>,
    scratch_old: Vec<u32>,
    scratch_new: Vec<u32>,
}

impl Totals {
    /// Zero totals over `nodes` nodes.
    pub fn new(nodes: usize, k: usize) -> Totals {
        Totals {
            keys: 0,
            moved: 0,
            unplaced: 0,
            old_count: vec![0; nodes],
            new_count: vec![0; nodes],
            out: vec![0; nodes],
            arrive: vec![0; nodes],
            matrix: HashMap::new(),
            old_copies: vec![0; nodes],
            new_copies: vec![0; nodes],
            create: vec![0; nodes],
            drop: vec![0; nodes],
            scratch_old: vec![0; k],
            scratch_new: vec![0; k],
        }
    }

    fn merge(&mut self, o: &Totals) {
        self.keys += o.keys;
        self.moved += o.moved;
        self.unplaced += o.unplaced;
        for (a, b) in [
            (&mut self.old_count, &o.old_count),
            (&mut self.new_count, &o.new_count),
            (&mut self.out, &o.out),
            (&mut self.arrive, &o.arrive),
            (&mut self.old_copies, &o.old_copies),
            (&mut self.new_copies, &o.new_copies),
            (&mut self.create, &o.create),
            (&mut self.drop, &o.drop),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        for (&cell, &n) in &o.matrix {
            *self.matrix.entry(cell).or_insert(0) += n;
        }
    }

    /// Keys that must move to turn the old per-node counts into the new ones
    /// (a node that loses keys must give away at least the difference).
    pub fn optimum(&self) -> u64 {
        self.old_count
            .iter()
            .zip(&self.new_count)
            .map(|(&o, &n)| o.saturating_sub(n))
            .sum()
    }

    /// Copies that must be created to turn the old per-node copy counts into the new ones.
    pub fn optimum_copies(&self) -> u64 {
        self.old_copies
            .iter()
            .zip(&self.new_copies)
            .map(|(&o, &n)| n.saturating_sub(o))
            .sum()
    }
}

/// The identity of a placed item: a key, or a partition number.
#[derive(Clone, Copy)]
pub enum Item<'a> {
    /// A key's bytes.
    Key(&'a [u8]),
    /// A partition of a table.
    Partition(u32),
}

/// The two placements of one item, as union indices.
fn place(snap: &LoadedSnapshot, item: Item<'_>, k: Option<usize>, to_union: &[u32], scratch: &mut [u32]) -> usize {
    let n = match (item, k) {
        (Item::Key(key), None) => match snap.owner_index(key) {
            Ok(i) => {
                scratch[0] = i;
                1
            }
            Err(_) => 0,
        },
        (Item::Key(key), Some(k)) => {
            let distinct = snap.members().domain_ids().is_some();
            if distinct {
                snap.top_k_distinct_into(key, &mut scratch[..k])
            } else {
                snap.top_k_into(key, &mut scratch[..k])
            }
        }
        (Item::Partition(p), k) => {
            let LoadedSnapshot::Table(t) = snap else {
                unreachable!("checked before planning partitions")
            };
            let row = t.row(p);
            let n = row.len().min(k.unwrap_or(1));
            scratch[..n].copy_from_slice(&row[..n]);
            n
        }
    };
    for s in &mut scratch[..n] {
        *s = to_union[*s as usize];
    }
    n
}

/// Plans one item: counts it and lists it when it moved.
pub fn plan_item(
    old: &LoadedSnapshot,
    new: &LoadedSnapshot,
    nodes: &Nodes,
    request: &Request,
    item: Item<'_>,
    t: &mut Totals,
    out: &mut Vec<u8>,
) {
    t.keys += 1;
    let k = request.replicas;
    let mut a = std::mem::take(&mut t.scratch_old);
    let mut b = std::mem::take(&mut t.scratch_new);
    let na = place(old, item, k, &nodes.old_to, &mut a);
    let nb = place(new, item, k, &nodes.new_to, &mut b);
    let (was, now) = (&a[..na], &b[..nb]);
    if let Some(&o) = was.first() {
        t.old_count[o as usize] += 1;
    }
    match now.first() {
        Some(&n) => t.new_count[n as usize] += 1,
        None => t.unplaced += 1,
    }
    let (from, to) = (was.first().copied(), now.first().copied());
    let owner_moved = from != to;
    if owner_moved {
        t.moved += 1;
        if let Some(f) = from {
            t.out[f as usize] += 1;
        }
        if let Some(to) = to {
            t.arrive[to as usize] += 1;
        }
        if let (Some(f), Some(to)) = (from, to) {
            *t.matrix.entry((f, to)).or_insert(0) += 1;
        }
    }
    let mut copies_changed = false;
    if k.is_some() {
        for &o in was {
            t.old_copies[o as usize] += 1;
            if !now.contains(&o) {
                t.drop[o as usize] += 1;
                copies_changed = true;
            }
        }
        for &n in now {
            t.new_copies[n as usize] += 1;
            if !was.contains(&n) {
                t.create[n as usize] += 1;
                copies_changed = true;
            }
        }
    }
    if let Some(format) = request.moves {
        if owner_moved || copies_changed {
            write_move(out, format, nodes, item, was, now, k.is_some());
        }
    }
    t.scratch_old = a;
    t.scratch_new = b;
}

fn write_move(
    out: &mut Vec<u8>,
    format: MovesFormat,
    nodes: &Nodes,
    item: Item<'_>,
    was: &[u32],
    now: &[u32],
    replicas: bool,
) {
    let id = |i: u32| nodes.ids[i as usize].as_slice();
    let created: Vec<u32> = now.iter().copied().filter(|n| !was.contains(n)).collect();
    let dropped: Vec<u32> = was.iter().copied().filter(|o| !now.contains(o)).collect();
    match format {
        MovesFormat::Jsonl => {
            out.push(b'{');
            match item {
                Item::Key(key) => render::json_field(out, "key", key),
                Item::Partition(p) => {
                    let _ = write!(out, "\"partition\":{p}");
                }
            }
            let list = |v: &[u32]| serde_json::Value::Array(v.iter().map(|&i| render::json_id(id(i))).collect());
            let one = |v: Option<&u32>| v.map_or(serde_json::Value::Null, |&i| render::json_id(id(i)));
            if replicas {
                let _ = write!(
                    out,
                    ",\"from\":{},\"to\":{},\"create\":{},\"drop\":{}}}",
                    list(was),
                    list(now),
                    list(&created),
                    list(&dropped)
                );
            } else {
                let _ = write!(out, ",\"from\":{},\"to\":{}}}", one(was.first()), one(now.first()));
            }
            out.push(b'\n');
        }
        MovesFormat::Csv => {
            let lead = |out: &mut Vec<u8>| match item {
                Item::Key(key) => render::csv_key(out, key),
                Item::Partition(p) => {
                    let _ = write!(out, "{p},");
                }
            };
            let name = |v: Option<&u32>| v.map_or(String::new(), |&i| render::show(id(i)));
            if replicas {
                // One row per copy action; the source of a new copy is the old owner.
                for (action, list) in [("create", &created), ("drop", &dropped)] {
                    for &node in list.iter() {
                        lead(out);
                        let _ = write!(out, ",{action},");
                        render::csv_field(out, &render::show(id(node)));
                        out.push(b',');
                        render::csv_field(out, &name(was.first()));
                        out.push(b'\n');
                    }
                }
            } else {
                lead(out);
                out.push(b',');
                render::csv_field(out, &name(was.first()));
                out.push(b',');
                render::csv_field(out, &name(now.first()));
                out.push(b'\n');
            }
        }
    }
}

/// The CSV header for a plan's moves.
pub fn csv_header(partitions: bool, replicas: bool) -> &'static str {
    match (partitions, replicas) {
        (false, false) => "key,key_hex,from,to\n",
        (true, false) => "partition,,from,to\n",
        (false, true) => "key,key_hex,action,node,source\n",
        (true, true) => "partition,,action,node,source\n",
    }
}

/// Plans every line of `input` as a key, on every core, in constant memory.
pub fn plan_lines(
    old: &LoadedSnapshot,
    new: &LoadedSnapshot,
    nodes: &Nodes,
    request: &Request,
    input: impl Read,
    sink: &mut impl Write,
    progress: &indicatif::ProgressBar,
) -> io::Result<Totals> {
    let k = request.replicas.unwrap_or(1);
    let mut states: Vec<Totals> = (0..stream::threads())
        .map(|_| Totals::new(nodes.ids.len(), k))
        .collect();
    stream::for_each_chunk(input, &mut states, sink, progress, |chunk, t, out| {
        for key in stream::lines(chunk) {
            plan_item(old, new, nodes, request, Item::Key(key), t, out);
        }
    })?;
    let mut total = Totals::new(nodes.ids.len(), k);
    for s in &states {
        total.merge(s);
    }
    Ok(total)
}

/// Plans every partition of two tables with the same partition count.
pub fn plan_partitions(
    old: &LoadedSnapshot,
    new: &LoadedSnapshot,
    nodes: &Nodes,
    request: &Request,
    sink: &mut impl Write,
) -> Result<Totals, String> {
    let (LoadedSnapshot::Table(a), LoadedSnapshot::Table(b)) = (old, new) else {
        return Err("--partitions needs two table files (mode = \"table\")".into());
    };
    if a.partition_bits() != b.partition_bits() || a.members().hashing() != b.members().hashing() {
        let hashing = |s: &longstraw_set::TableSnapshot| match s.seed() {
            Some(seed) => format!("seed {seed}"),
            None => "a secret".to_string(),
        };
        return Err(format!(
            "--partitions needs the same partition bits and the same seed or secret in both files \
             (old: bits {} {}, new: bits {} {}); plan --keys instead",
            a.partition_bits(),
            hashing(a),
            b.partition_bits(),
            hashing(b)
        ));
    }
    let k = request.replicas.unwrap_or(1);
    if k > a.replicas().min(b.replicas()) {
        return Err(format!(
            "--replicas {k} is more than the tables store (old {}, new {}); set table.replicas",
            a.replicas(),
            b.replicas()
        ));
    }
    let mut t = Totals::new(nodes.ids.len(), k);
    let mut out = Vec::new();
    for p in 0..a.partitions() as u32 {
        plan_item(old, new, nodes, request, Item::Partition(p), &mut t, &mut out);
        if out.len() > 1 << 20 {
            sink.write_all(&out).map_err(|e| e.to_string())?;
            out.clear();
        }
    }
    sink.write_all(&out).map_err(|e| e.to_string())?;
    Ok(t)
}

/// The human summary: totals, optimum against moved, per-node and from→to tables.
pub fn write_summary(
    t: &Totals,
    nodes: &Nodes,
    replicas: Option<usize>,
    unit: &str,
    w: &mut impl Write,
) -> io::Result<()> {
    let pct = |n: u64| {
        if t.keys == 0 {
            0.0
        } else {
            100.0 * n as f64 / t.keys as f64
        }
    };
    writeln!(w, "{unit}\t{}", t.keys)?;
    writeln!(w, "moved\t{}\t({:.4}%)\towners that change", t.moved, pct(t.moved))?;
    let opt = t.optimum();
    writeln!(
        w,
        "optimum\t{opt}\t({:.4}%)\tthe least any placement must move to reach the new per-node counts",
        pct(opt)
    )?;
    if opt > 0 {
        writeln!(w, "moved/optimum\t{:.4}", t.moved as f64 / opt as f64)?;
    }
    if t.unplaced > 0 {
        writeln!(w, "unplaced\t{}\tno eligible node in the new membership", t.unplaced)?;
    }
    let show = |i: usize| render::show(&nodes.ids[i]);
    if let Some(k) = replicas {
        let created: u64 = t.create.iter().sum();
        let dropped: u64 = t.drop.iter().sum();
        writeln!(w, "replicas\t{k}")?;
        writeln!(w, "copies_created\t{created}")?;
        writeln!(w, "copies_dropped\t{dropped}\t(drop only after the new copies exist)")?;
        writeln!(w, "copies_optimum\t{}", t.optimum_copies())?;
        writeln!(w, "node\told\tnew\tout\tin\tcreate\tdrop")?;
        for i in 0..nodes.ids.len() {
            writeln!(
                w,
                "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                show(i),
                t.old_count[i],
                t.new_count[i],
                t.out[i],
                t.arrive[i],
                t.create[i],
                t.drop[i]
            )?;
        }
    } else {
        writeln!(w, "node\told\tnew\tout\tin")?;
        for i in 0..nodes.ids.len() {
            writeln!(
                w,
                "{}\t{}\t{}\t{}\t{}",
                show(i),
                t.old_count[i],
                t.new_count[i],
                t.out[i],
                t.arrive[i]
            )?;
        }
    }
    writeln!(w, "from\tto\t{unit}")?;
    let mut cells: Vec<_> = t.matrix.iter().collect();
    cells.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (&(f, to), &n) in cells {
        writeln!(w, "{}\t{}\t{n}", show(f as usize), show(to as usize))?;
    }
    Ok(())
}
