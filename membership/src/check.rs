//! Every problem of a membership file at once (`longstraw check`), and the
//! line of the first node a duplicate or a colliding node repeats.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::error::{Error, ErrorKind};
use crate::model::{Membership, Mode};
use longstraw_set::Rendezvous;

/// Reads, validates and builds a membership file, reporting every problem
/// found rather than the first: each field and each node of the text, then
/// the problems between nodes ([`Membership::problems`]), then what building
/// the set refuses. The file and a secret file are each read once.
pub fn check(path: impl AsRef<Path>) -> std::result::Result<(Membership, Rendezvous), Vec<Error>> {
    let path = path.as_ref();
    let m = Membership::read_all(path)?;
    let origin = crate::input::origin(path);
    let problems = m.problems(&origin);
    if !problems.is_empty() {
        return Err(problems);
    }
    match m.build() {
        Ok(loaded) => Ok((m, loaded)),
        Err(mut e) => {
            e.origin = origin;
            Err(vec![e])
        }
    }
}

impl Membership {
    /// The problems between nodes, each naming the node's line and index:
    /// duplicate ids, two ids with the same node hash under the seed (a keyed
    /// set's hashes need its secret, so building reports its collisions), no
    /// node with a positive weight, and fewer failure domains than a table
    /// that keeps distinct domains has replicas. `origin` names the file.
    pub fn problems(&self, origin: &str) -> Vec<Error> {
        let mut found = Vec::new();
        let mut by_id: HashMap<&[u8], usize> = HashMap::with_capacity(self.nodes.len());
        let mut by_hash: HashMap<u64, usize> = HashMap::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let at = |kind| Error::new(origin, line(node.line), Some(format!("nodes[{i}]")), kind);
            if by_id.contains_key(node.id.as_slice()) {
                let e = longstraw_set::Error::DuplicateNode { id: node.id.clone() };
                found.push(at(self.with_first_line(e)));
                continue;
            }
            by_id.insert(&node.id, i);
            if self.secret.is_some() {
                continue;
            }
            let hash = longstraw::node_hash(&node.id, self.seed);
            match by_hash.get(&hash) {
                Some(&other) => {
                    let e = longstraw_set::Error::HashCollision {
                        id: node.id.clone(),
                        existing: self.nodes[other].id.clone(),
                    };
                    found.push(at(self.with_first_line(e)));
                }
                None => {
                    by_hash.insert(hash, i);
                }
            }
        }
        if self.nodes.iter().all(|n| n.weight == 0.0) {
            found.push(Error::new(
                origin,
                None,
                Some("nodes".into()),
                ErrorKind::Invalid("no node has a positive weight: every lookup would fail".into()),
            ));
        }
        if let Mode::Table {
            distinct_domains: true,
            replicas,
            ..
        } = self.mode
        {
            let mut labels = HashSet::new();
            let domains = self
                .nodes
                .iter()
                .filter(|n| n.domain.as_ref().is_none_or(|d| labels.insert(d.as_slice())))
                .count();
            if domains < replicas {
                found.push(Error::new(
                    origin,
                    None,
                    Some("table.distinct_domains".into()),
                    ErrorKind::Invalid(format!(
                        "{replicas} replicas in distinct failure domains need {replicas} domains; the file has {domains}"
                    )),
                ));
            }
        }
        found
    }

    /// A node the set refused, with the line of the node it repeats or collides with.
    pub(crate) fn with_first_line(&self, e: longstraw_set::Error) -> ErrorKind {
        let first = match &e {
            longstraw_set::Error::DuplicateNode { id } => self.nodes.iter().find(|n| n.id == *id),
            longstraw_set::Error::HashCollision { existing, .. } => self.nodes.iter().find(|n| n.id == *existing),
            _ => None,
        };
        let note = match &e {
            longstraw_set::Error::DuplicateNode { .. } => "first at line",
            _ => "the other node is at line",
        };
        match first.and_then(|n| line(n.line)) {
            Some(l) => ErrorKind::Invalid(format!("{e} ({note} {l})")),
            None => ErrorKind::Set(e),
        }
    }
}

fn line(l: usize) -> Option<usize> {
    (l > 0).then_some(l)
}
