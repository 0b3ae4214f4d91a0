//! `longstraw check`: every problem of a membership file at once, or the settings and the share each node should get.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;

use longstraw_membership::{ErrorKind, Membership, Snapshot};

use crate::render::show;

/// `longstraw check -m PATH`: every problem of the file (one per line, each as
/// loading would report it), or the report of a valid file. The file and its
/// secret source are read once.
pub fn run(path: &Path, out: &mut impl Write) -> Result<(), String> {
    match longstraw_membership::check(path) {
        Ok((m, loaded)) => report(&m, &loaded.snapshot(), out).map_err(|e| e.to_string()),
        Err(problems) => {
            // A file that cannot be read is one error, not a list of problems.
            if let [p] = problems.as_slice() {
                if matches!(p.kind, ErrorKind::Io(_)) {
                    return Err(p.to_string());
                }
            }
            for p in &problems {
                writeln!(out, "{p}").map_err(|e| e.to_string())?;
            }
            out.flush().map_err(|e| e.to_string())?;
            let s = if problems.len() == 1 { "" } else { "s" };
            Err(format!("{}: {} problem{s}", path.display(), problems.len()))
        }
    }
}

/// Total weight per failure domain (a node without a domain is a domain of its own).
fn domain_weights(m: &Membership) -> Vec<(String, f64, usize)> {
    let mut out: Vec<(String, f64, usize)> = Vec::new();
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    for node in &m.nodes {
        let (key, name) = match &node.domain {
            Some(d) => (d.clone(), show(d)),
            None => {
                let mut k = vec![0xff, 0xfe];
                k.extend_from_slice(&node.id);
                (k, format!("(own: {})", show(&node.id)))
            }
        };
        let i = *index.entry(key).or_insert_with(|| {
            out.push((name, 0.0, 0));
            out.len() - 1
        });
        out[i].1 += node.weight;
        out[i].2 += 1;
    }
    out
}

/// Writes the report of a valid file: the settings, domains and per-node shares.
pub fn report(m: &Membership, snap: &Snapshot, out: &mut impl Write) -> io::Result<()> {
    let total: f64 = m.nodes.iter().map(|n| n.weight).sum();
    let drained = m.nodes.iter().filter(|n| n.weight == 0.0).count();
    // A keyed set places keys by its secret, not a seed: name the source (never the secret).
    let hashing = match &m.secret {
        Some(source) => format!("keyed (secret from {})", source.describe()),
        None => format!("seed {}", m.seed),
    };
    writeln!(
        out,
        "ok: {} nodes ({} drained), {hashing}, placement {}",
        m.nodes.len(),
        drained,
        m.placement.number()
    )?;
    if let Some(t) = snap.as_table() {
        writeln!(
            out,
            "mode: table, 2^{} = {} partitions, {} replicas{}{}",
            t.partition_bits(),
            t.partitions(),
            t.replicas(),
            if t.distinct_domains() { ", distinct domains" } else { "" },
            t.balance()
                .map_or(String::new(), |b| format!(", balance {} (balanced table)", b.as_f64()))
        )?;
    } else if let Some(shape) = snap.shape() {
        writeln!(
            out,
            "mode: skeleton, fan-out 2^{}, {} levels",
            shape.fanout_bits(),
            shape.levels()
        )?;
    } else {
        writeln!(out, "mode: {}", snap.mode())?;
    }
    let positive: Vec<f64> = m.nodes.iter().map(|n| n.weight).filter(|&w| w > 0.0).collect();
    if let (Some(min), Some(max)) = (
        positive.iter().copied().reduce(f64::min),
        positive.iter().copied().reduce(f64::max),
    ) {
        writeln!(out, "weights: {min} to {max} (ratio {:.3}), total {total}", max / min)?;
    }
    let domains = domain_weights(m);
    if m.nodes.iter().any(|n| n.domain.is_some()) {
        writeln!(out, "failure domains: {}", domains.len())?;
        writeln!(out, "domain\tnodes\tweight_share")?;
        for (name, w, n) in &domains {
            writeln!(out, "{name}\t{n}\t{:.6}", if total > 0.0 { w / total } else { 0.0 })?;
        }
    }
    // The partition count of a table is what a node will really hold; the weight share is the expectation.
    let partitions = snap.as_table().map(|t| {
        let mut counts = vec![0u64; m.nodes.len()];
        for p in 0..t.partitions() as u32 {
            if let Some(&first) = t.row(p).first() {
                counts[first as usize] += 1;
            }
        }
        (counts, t.partitions() as f64)
    });
    match &partitions {
        Some(_) => writeln!(out, "node\tweight\tdomain\tshould_get\tpartition_share")?,
        None => writeln!(out, "node\tweight\tdomain\tshould_get")?,
    }
    for (i, node) in m.nodes.iter().enumerate() {
        let share = if total > 0.0 { node.weight / total } else { 0.0 };
        let domain = node.domain.as_deref().map_or("-".to_string(), show);
        write!(out, "{}\t{}\t{domain}\t{share:.6}", show(&node.id), node.weight)?;
        if let Some((counts, p)) = &partitions {
            write!(out, "\t{:.6}", counts[i] as f64 / p)?;
        }
        writeln!(out)?;
    }
    Ok(())
}
