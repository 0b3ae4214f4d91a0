//! `longstraw plan`: what moves from one membership to another, streamed.
//!
//! Every key (or partition) is placed under both memberships. A key moves
//! when its owner changes; with `--replicas K`, copies are created on nodes
//! in the new replica set that were not in the old one, and dropped from
//! nodes that left it (drop only once the new copies exist).
//!
//! A replica set is what `longstraw top-k -k K` prints for the file
//! ([`ReplicaRule::Plain`]) or `top-k -k K --distinct`
//! ([`ReplicaRule::Distinct`]). Which one is never guessed: a table file
//! says it (`table.distinct_domains`), a file without domains makes both the
//! same, and otherwise the operator must say it ([`replica_rules`]).

use std::collections::HashMap;
use std::io::{self, Read, Write};

use longstraw_membership::Snapshot;

use crate::render;
use crate::stream;

/// How each moved key is listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MovesFormat {
    /// `KEY<TAB>FROM<TAB>TO`; with replicas `KEY<TAB>FROM<TAB>TO<TAB>CREATE<TAB>DROP`, lists joined by `,`.
    Text,
    /// One JSON object per line, with `from` and `to`.
    Jsonl,
    /// CSV with a header line, with `from` and `to` columns.
    Csv,
}

/// Which replica set of a key a plan compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicaRule {
    /// The first K nodes of the key's ranking: what `top-k -k K` prints.
    Plain,
    /// At most one node per failure domain: what `top-k -k K --distinct` prints.
    Distinct,
}

impl ReplicaRule {
    /// The command whose answer the rule follows.
    pub fn command(self) -> &'static str {
        match self {
            ReplicaRule::Plain => "top-k",
            ReplicaRule::Distinct => "top-k --distinct",
        }
    }
    fn flag(self) -> &'static str {
        match self {
            ReplicaRule::Plain => "--plain",
            ReplicaRule::Distinct => "--distinct",
        }
    }
}

/// The replica rule of each side of a plan, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The rule of the old membership's replica sets.
    pub old: ReplicaRule,
    /// The rule of the new membership's replica sets.
    pub new: ReplicaRule,
    /// Where the rules come from, for the summary.
    pub why: String,
}

/// What a file's mode says about its replica sets.
enum FileRule {
    /// Its mode says it (a table's `distinct_domains`).
    Set(ReplicaRule),
    /// It has no failure domains: both rules give the same sets.
    Either,
    /// It has domains and its mode says nothing.
    Unsaid,
}

fn file_rule(snap: &Snapshot) -> FileRule {
    match snap.distinct_domains() {
        Some(true) => FileRule::Set(ReplicaRule::Distinct),
        Some(false) => FileRule::Set(ReplicaRule::Plain),
        None if !has_domains(snap) => FileRule::Either,
        None => FileRule::Unsaid,
    }
}

/// Whether any node has a failure domain label.
fn has_domains(snap: &Snapshot) -> bool {
    snap.nodes().any(|n| n.domain().is_some())
}

/// Decides the replica rule of each side: the flag (`--plain` or
/// `--distinct`) when given, else what each file's mode says. A table file
/// says it with `table.distinct_domains`; a file without domains gives the
/// same sets under both rules. A file with domains whose mode says nothing
/// (flat, skeleton) needs the flag: the plan refuses rather than guess, and a
/// flag that contradicts a table's own setting is refused too.
pub fn replica_rules(
    old: (&Snapshot, &str),
    new: (&Snapshot, &str),
    flag: Option<ReplicaRule>,
) -> Result<Rules, String> {
    let sides = [(file_rule(old.0), old.1, old.0), (file_rule(new.0), new.1, new.0)];
    if let Some(rule) = flag {
        for (said, name, snap) in &sides {
            if let FileRule::Set(r) = said {
                if *r != rule && has_domains(snap) {
                    return Err(format!(
                        "{} contradicts {name}: its table keeps table.distinct_domains = {}, so its replica \
                         sets are what `{}` prints; drop the flag or change the file",
                        rule.flag(),
                        *r == ReplicaRule::Distinct,
                        r.command()
                    ));
                }
            }
        }
        let why = format!("{}: the same rule for both files", rule.flag());
        return Ok(Rules {
            old: rule,
            new: rule,
            why,
        });
    }
    for (said, name, _) in &sides {
        if matches!(said, FileRule::Unsaid) {
            return Err(format!(
                "{name} has failure domains and its mode does not say which replica sets to plan; \
                 pass --distinct (at most one node per failure domain, as `top-k --distinct`) \
                 or --plain (the first K nodes, as `top-k`)"
            ));
        }
    }
    let set = |said: &FileRule| match said {
        FileRule::Set(r) => Some(*r),
        _ => None,
    };
    let (a, b) = (set(&sides[0].0), set(&sides[1].0));
    let old_rule = a.or(b).unwrap_or(ReplicaRule::Plain);
    let new_rule = b.or(a).unwrap_or(ReplicaRule::Plain);
    let reason = |said: &FileRule, name: &str, r: ReplicaRule| match said {
        FileRule::Set(_) => format!("{name}: table.distinct_domains = {}", r == ReplicaRule::Distinct),
        _ => format!("{name}: no failure domains"),
    };
    let why = format!(
        "{}; {}",
        reason(&sides[0].0, old.1, old_rule),
        reason(&sides[1].0, new.1, new_rule)
    );
    Ok(Rules {
        old: old_rule,
        new: new_rule,
        why,
    })
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
    pub fn of(old: &Snapshot, new: &Snapshot) -> Nodes {
        let mut ids: Vec<Vec<u8>> = old.nodes().map(|n| n.id().to_vec()).collect();
        let mut index: HashMap<Vec<u8>, u32> = ids.iter().enumerate().map(|(i, id)| (id.clone(), i as u32)).collect();
        let old_to = (0..ids.len() as u32).collect();
        let new_to = new
            .nodes()
            .map(|n| {
                *index.entry(n.id().to_vec()).or_insert_with(|| {
                    ids.push(n.id().to_vec());
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
    /// The rule of the old and of the new replica sets (used with `replicas`).
    pub rules: (ReplicaRule, ReplicaRule),
    /// List every moved key in this format.
    pub moves: Option<MovesFormat>,
}

impl Request {
    /// The most nodes a replica set can hold here: `replicas`, at most the larger node count.
    pub fn set_size(&self, nodes: &Nodes) -> usize {
        self.replicas
            .unwrap_or(1)
            .min(nodes.old_to.len().max(nodes.new_to.len()))
            .max(1)
    }
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
fn place(
    snap: &Snapshot,
    item: Item<'_>,
    k: Option<usize>,
    rule: ReplicaRule,
    to_union: &[u32],
    scratch: &mut [u32],
) -> usize {
    let k = k.map(|k| k.min(scratch.len()));
    let n = match (item, k) {
        (Item::Key(key), None) => match snap.owner_index(key) {
            Ok(i) => {
                scratch[0] = i;
                1
            }
            Err(_) => 0,
        },
        (Item::Key(key), Some(k)) => match rule {
            ReplicaRule::Distinct => snap.top_k_distinct_into(key, &mut scratch[..k]),
            ReplicaRule::Plain => snap.top_k_into(key, &mut scratch[..k]),
        },
        (Item::Partition(p), k) => {
            let Some(t) = snap.as_table() else {
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
    old: &Snapshot,
    new: &Snapshot,
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
    let na = place(old, item, k, request.rules.0, &nodes.old_to, &mut a);
    let nb = place(new, item, k, request.rules.1, &nodes.new_to, &mut b);
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
            let columns = request.set_size(nodes);
            write_move(out, format, nodes, item, was, now, k.is_some().then_some(columns));
        }
    }
    t.scratch_old = a;
    t.scratch_new = b;
}

/// Writes one listed item. `columns`: with replicas, the most nodes a replica set holds.
fn write_move(
    out: &mut Vec<u8>,
    format: MovesFormat,
    nodes: &Nodes,
    item: Item<'_>,
    was: &[u32],
    now: &[u32],
    columns: Option<usize>,
) {
    let id = |i: u32| nodes.ids[i as usize].as_slice();
    let created: Vec<u32> = now.iter().copied().filter(|n| !was.contains(n)).collect();
    let dropped: Vec<u32> = was.iter().copied().filter(|o| !now.contains(o)).collect();
    match format {
        MovesFormat::Text => {
            match item {
                Item::Key(key) => out.extend_from_slice(key),
                Item::Partition(p) => {
                    let _ = write!(out, "{p}");
                }
            }
            let list = |out: &mut Vec<u8>, v: &[u32]| {
                out.push(b'\t');
                if v.is_empty() {
                    out.push(b'-');
                }
                for (j, &i) in v.iter().enumerate() {
                    if j > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(id(i));
                }
            };
            if columns.is_some() {
                for v in [was, now, &created, &dropped] {
                    list(out, v);
                }
            } else {
                list(out, &was[..was.len().min(1)]);
                list(out, &now[..now.len().min(1)]);
            }
            out.push(b'\n');
        }
        MovesFormat::Jsonl => {
            match item {
                Item::Key(key) => {
                    let _ = write!(out, "{{\"key\":{}", render::json_id(key));
                }
                Item::Partition(p) => {
                    let _ = write!(out, "{{\"partition\":{p}");
                }
            }
            let list = |v: &[u32]| serde_json::Value::Array(v.iter().map(|&i| render::json_id(id(i))).collect());
            let one = |v: Option<&u32>| v.map_or(serde_json::Value::Null, |&i| render::json_id(id(i)));
            if columns.is_some() {
                let _ = write!(
                    out,
                    ",\"from\":{},\"to\":{},\"create\":{},\"drop\":{},\"source\":{}}}",
                    list(was),
                    list(now),
                    list(&created),
                    list(&dropped),
                    one(was.first())
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
            if let Some(columns) = columns {
                // One row per copy action. `source` is the node to read a new
                // copy from (the old owner); a drop reads nothing, so its
                // `source` is empty. Every row carries the whole old and new
                // replica sets, one node per column.
                let sets = |out: &mut Vec<u8>| {
                    for set in [was, now] {
                        for j in 0..columns {
                            out.push(b',');
                            render::csv_field(out, &name(set.get(j)));
                        }
                    }
                };
                for (action, list) in [("create", &created), ("drop", &dropped)] {
                    for &node in list.iter() {
                        lead(out);
                        let _ = write!(out, ",{action},");
                        render::csv_field(out, &render::show(id(node)));
                        out.push(b',');
                        if action == "create" {
                            render::csv_field(out, &name(was.first()));
                        }
                        sets(out);
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

/// The CSV header for a plan's moves; `columns`: with replicas, the most nodes a replica set holds.
pub fn csv_header(partitions: bool, columns: Option<usize>) -> String {
    let lead = if partitions { "partition," } else { "key,key_hex" };
    match columns {
        None => format!("{lead},from,to\n"),
        Some(c) => {
            let mut h = format!("{lead},action,node,source");
            for side in ["from", "to"] {
                for j in 1..=c {
                    h.push_str(&format!(",{side}_{j}"));
                }
            }
            h.push('\n');
            h
        }
    }
}

/// Plans every line of `input` as a key, on every core, in constant memory.
pub fn plan_lines(
    old: &Snapshot,
    new: &Snapshot,
    nodes: &Nodes,
    request: &Request,
    input: impl Read,
    sink: &mut impl Write,
    progress: &indicatif::ProgressBar,
) -> io::Result<Totals> {
    let k = request.set_size(nodes);
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

/// Plans every partition of two tables with the same partition count. A
/// refused request is an [`io::ErrorKind::InvalidInput`] error with the reason.
pub fn plan_partitions(
    old: &Snapshot,
    new: &Snapshot,
    nodes: &Nodes,
    request: &Request,
    sink: &mut impl Write,
) -> io::Result<Totals> {
    let refuse = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    let (Some(a), Some(b)) = (old.as_table(), new.as_table()) else {
        return Err(refuse("--partitions needs two table files (mode = \"table\")".into()));
    };
    if a.partition_bits() != b.partition_bits() || old.hashing() != new.hashing() {
        let hashing = |s: &Snapshot| match s.seed() {
            Some(seed) => format!("seed {seed}"),
            None => "a secret".to_string(),
        };
        return Err(refuse(format!(
            "--partitions needs the same partition bits and the same seed or secret in both files \
             (old: bits {} {}, new: bits {} {}); plan --keys instead",
            a.partition_bits(),
            hashing(old),
            b.partition_bits(),
            hashing(new)
        )));
    }
    let k = request.replicas.unwrap_or(1);
    if k > a.replicas().min(b.replicas()) {
        return Err(refuse(format!(
            "--replicas {k} is more than the tables store (old {}, new {}); set table.replicas",
            a.replicas(),
            b.replicas()
        )));
    }
    let mut t = Totals::new(nodes.ids.len(), request.set_size(nodes));
    let mut out = Vec::new();
    for p in 0..a.partitions() as u32 {
        plan_item(old, new, nodes, request, Item::Partition(p), &mut t, &mut out);
        if out.len() > 1 << 20 {
            sink.write_all(&out)?;
            out.clear();
        }
    }
    sink.write_all(&out)?;
    Ok(t)
}

/// The human summary: totals, optimum against moved, per-node and from→to tables.
pub fn write_summary(
    t: &Totals,
    nodes: &Nodes,
    replicas: Option<(usize, &Rules)>,
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
    if let Some((k, rules)) = replicas {
        let created: u64 = t.create.iter().sum();
        let dropped: u64 = t.drop.iter().sum();
        writeln!(w, "replicas\t{k}")?;
        if rules.old == rules.new {
            writeln!(w, "replica_rule\t{}\t({})", rules.old.command(), rules.why)?;
        } else {
            writeln!(
                w,
                "replica_rule\told: {}, new: {}\t({})",
                rules.old.command(),
                rules.new.command(),
                rules.why
            )?;
        }
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
