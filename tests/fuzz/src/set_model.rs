//! `set`: random sequences of add, remove, set_weight, set_domain and
//! atomic updates on a [`Rendezvous`], against a `BTreeMap` model of the
//! membership. Every snapshot's lookups must equal the core's scalar oracle
//! over the model's nodes, and failed changes must publish nothing.

use std::collections::BTreeMap;
use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use longstraw::{key_hash, node_hash, NodeTable, Ranked};
use longstraw_set::{Error, Options, Rendezvous, Snapshot};

use crate::input;

/// Why the model says a change must fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The id is empty or too long.
    InvalidId,
    /// The weight is not 0 or a normal f64 in [2^-64, 2^64].
    InvalidWeight,
    /// The id is already in the set.
    Duplicate,
    /// The id is not in the set.
    Unknown,
    /// The label is empty or too long.
    InvalidDomain,
}

/// The reason a set error names (`None` for an error no model rule explains).
pub fn reason_of(e: &Error) -> Option<Reason> {
    use longstraw::Error as Core;
    match e {
        Error::Core(Core::EmptyNodeId | Core::NodeIdTooLong { .. }) => Some(Reason::InvalidId),
        Error::Core(Core::InvalidWeight { .. }) => Some(Reason::InvalidWeight),
        Error::DuplicateNode { .. } => Some(Reason::Duplicate),
        Error::UnknownNode { .. } => Some(Reason::Unknown),
        Error::InvalidDomain { .. } => Some(Reason::InvalidDomain),
        _ => None,
    }
}

/// One membership change.
#[derive(Clone, Debug)]
pub enum Change {
    /// `add` (no label) or `add_in_domain`.
    Add(Vec<u8>, f64, Option<Vec<u8>>),
    /// `remove`.
    Remove(Vec<u8>),
    /// `set_weight`.
    SetWeight(Vec<u8>, f64),
    /// `set_domain` (`None` clears).
    SetDomain(Vec<u8>, Option<Vec<u8>>),
}

impl Change {
    /// A random change over the pools of the `input` module.
    pub fn arbitrary(u: &mut Unstructured<'_>) -> Result<Change> {
        Ok(match u.int_in_range(0..=9u8)? {
            0..=3 => Change::Add(input::id(u)?, input::weight(u)?, input::domain(u)?),
            4 | 5 => Change::Remove(input::id(u)?),
            6 | 7 => Change::SetWeight(input::id(u)?, input::weight(u)?),
            _ => Change::SetDomain(input::id(u)?, input::domain(u)?),
        })
    }
}

/// A node as the model lists it: id, weight, failure domain label.
pub type NodeRef<'a> = (&'a [u8], f64, Option<&'a [u8]>);

/// Lookup keys, each with the `k` to ask for.
pub type Keys = Vec<(Vec<u8>, usize)>;

/// One node of the model.
#[derive(Clone, Debug)]
struct Entry {
    /// Insertion order: a node's index is its rank among the present nodes' `seq`.
    seq: u64,
    weight: f64,
    domain: Option<Vec<u8>>,
}

/// The membership as a plain map, with the validation rules written out.
#[derive(Clone, Debug, Default)]
pub struct Model {
    nodes: BTreeMap<Vec<u8>, Entry>,
    next_seq: u64,
    /// Published changes so far (the expected generation).
    pub generation: u64,
}

fn label_is_valid(label: &Option<Vec<u8>>) -> bool {
    label.as_ref().is_none_or(|l| input::id_is_valid(l))
}

impl Model {
    /// Applies a change, or returns every reason it must fail for (unchanged then).
    pub fn apply(&mut self, change: &Change) -> std::result::Result<(), Vec<Reason>> {
        let mut why = Vec::new();
        match change {
            Change::Add(id, w, d) => {
                if !input::id_is_valid(id) {
                    why.push(Reason::InvalidId);
                }
                if !input::weight_is_valid(*w) {
                    why.push(Reason::InvalidWeight);
                }
                if self.nodes.contains_key(id) {
                    why.push(Reason::Duplicate);
                }
                if !label_is_valid(d) {
                    why.push(Reason::InvalidDomain);
                }
                if why.is_empty() {
                    let seq = self.next_seq;
                    self.next_seq += 1;
                    self.nodes.insert(
                        id.clone(),
                        Entry {
                            seq,
                            weight: *w,
                            domain: d.clone(),
                        },
                    );
                }
            }
            Change::Remove(id) => {
                if self.nodes.remove(id).is_none() {
                    why.push(Reason::Unknown);
                }
            }
            Change::SetWeight(id, w) => {
                if !input::weight_is_valid(*w) {
                    why.push(Reason::InvalidWeight);
                }
                match self.nodes.get_mut(id) {
                    None => why.push(Reason::Unknown),
                    Some(e) if why.is_empty() => e.weight = *w,
                    Some(_) => {}
                }
            }
            Change::SetDomain(id, d) => {
                if !label_is_valid(d) {
                    why.push(Reason::InvalidDomain);
                }
                match self.nodes.get_mut(id) {
                    None => why.push(Reason::Unknown),
                    Some(e) if why.is_empty() => e.domain = d.clone(),
                    Some(_) => {}
                }
            }
        }
        if why.is_empty() {
            Ok(())
        } else {
            Err(why)
        }
    }

    /// Applies several changes as one: all or (on the first failure) none.
    pub fn apply_all(&mut self, changes: &[Change]) -> std::result::Result<(), Vec<Reason>> {
        let mut next = self.clone();
        for c in changes {
            next.apply(c)?;
        }
        *self = next;
        Ok(())
    }

    /// `(id, weight, domain)` in node index order.
    pub fn ordered(&self) -> Vec<NodeRef<'_>> {
        let mut v: Vec<_> = self.nodes.iter().collect();
        v.sort_by_key(|(_, e)| e.seq);
        v.into_iter()
            .map(|(id, e)| (id.as_slice(), e.weight, e.domain.as_deref()))
            .collect()
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// Checks a change's outcome against the model's: success together, and a
/// failure for a reason the model gives.
pub fn same_outcome(
    got: &std::result::Result<(), Error>,
    want: &std::result::Result<(), Vec<Reason>>,
    what: impl Fn() -> String,
) {
    match (got, want) {
        (Ok(()), Ok(())) => {}
        (Err(e), Err(why)) => {
            let reason = reason_of(e);
            assert!(
                reason.is_some_and(|r| why.contains(&r)),
                "{}: failed with {e:?}, the model expects one of {why:?}",
                what()
            );
        }
        (got, want) => panic!("{}: got {got:?}, the model expects {want:?}", what()),
    }
}

/// The first `k` nodes of a full ranking that are each the first of their
/// failure domain (unlabelled nodes are domains of their own).
pub fn firstn_by_domain(full: &[u32], labels: &[Option<&[u8]>], k: usize) -> Vec<u32> {
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut out = Vec::new();
    for &i in full {
        if out.len() == k {
            break;
        }
        match labels[i as usize] {
            None => out.push(i),
            Some(l) if !seen.contains(&l) => {
                seen.push(l);
                out.push(i);
            }
            Some(_) => {}
        }
    }
    out
}

/// The core's scalar oracle over the model's nodes.
pub struct Oracle {
    seed: u64,
    hashes: Vec<u64>,
    weights: Vec<f64>,
}

impl Oracle {
    /// The oracle of `(id, weight)` nodes in index order.
    pub fn new(seed: u64, nodes: &[NodeRef<'_>]) -> Oracle {
        Oracle {
            seed,
            hashes: nodes.iter().map(|(id, _, _)| node_hash(id, seed)).collect(),
            weights: nodes.iter().map(|&(_, w, _)| w).collect(),
        }
    }

    fn table(&self) -> NodeTable<'_> {
        NodeTable::new(self.seed, &self.hashes, Some(&self.weights)).expect("the model holds valid weights")
    }

    /// The oracle's owner for a key hash.
    pub fn owner_of_hash(&self, kh: u64) -> Option<u32> {
        self.table().oracle_owner(kh)
    }

    /// The oracle's first `k` indices for a key hash.
    pub fn top_k_of_hash(&self, kh: u64, k: usize) -> Vec<u32> {
        let mut out = vec![Ranked::EMPTY; k];
        let n = self.table().oracle_top_k(kh, &mut out);
        out[..n].iter().map(|r| r.index).collect()
    }

    /// The oracle's full ranking for a key hash.
    pub fn rank_of_hash(&self, kh: u64) -> Vec<u32> {
        self.top_k_of_hash(kh, self.hashes.len())
    }

    /// The key hash of a key under this seed.
    pub fn key_hash(&self, key: &[u8]) -> u64 {
        key_hash(key, self.seed)
    }
}

/// Checks a snapshot's membership and lookups against the model.
fn verify(snap: &Snapshot, model: &Model, seed: u64, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
    assert_eq!(snap.len(), nodes.len(), "len");
    assert_eq!(snap.generation(), model.generation, "generation");
    let eligible = nodes.iter().filter(|n| n.1 != 0.0).count();
    assert_eq!(snap.eligible(), eligible, "eligible");
    for (i, (id, w, d)) in nodes.iter().enumerate() {
        let node = snap.node(i as u32).expect("node in range");
        assert_eq!(node.id(), *id, "id of node {i}");
        assert_eq!(node.weight().to_bits(), w.to_bits(), "weight of node {i}");
        assert_eq!(node.domain(), *d, "domain of node {i}");
        assert_eq!(snap.index_of(id), Some(i as u32), "index_of node {i}");
    }
    assert!(snap.node(nodes.len() as u32).is_none(), "node past the end");
    let oracle = Oracle::new(seed, &nodes);
    let labels: Vec<Option<&[u8]>> = nodes.iter().map(|n| n.2).collect();
    for (key, k) in keys {
        let kh = oracle.key_hash(key);
        assert_eq!(snap.owner_index(key).ok(), oracle.owner_of_hash(kh), "owner of {key:?}");
        let mut got = vec![u32::MAX; *k];
        let n = snap.top_k_into(key, &mut got);
        assert_eq!(got[..n], oracle.top_k_of_hash(kh, *k)[..], "top-{k} of {key:?}");
        assert!(got[n..].iter().all(|&x| x == u32::MAX), "top-{k} wrote past its count");
        let mut got = vec![u32::MAX; *k];
        let n = snap.top_k_distinct_into(key, &mut got);
        let want = firstn_by_domain(&oracle.rank_of_hash(kh), &labels, *k);
        assert_eq!(got[..n], want[..], "top-{k} distinct of {key:?}");
    }
    let batch: Vec<&[u8]> = keys.iter().map(|(k, _)| k.as_slice()).collect();
    match snap.owners(&batch) {
        Ok(owners) => {
            let want: Vec<Option<u32>> = batch.iter().map(|k| oracle.owner_of_hash(oracle.key_hash(k))).collect();
            assert_eq!(owners.into_iter().map(Some).collect::<Vec<_>>(), want, "owners");
        }
        Err(e) => assert!(eligible == 0 && !batch.is_empty(), "owners failed: {e:?}"),
    }
}

/// The `set` target.
pub fn check(data: &[u8]) {
    let _ = run(&mut Unstructured::new(data));
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    // No seed (`None`) places as seed 0.
    let given: Option<u64> = if u.arbitrary()? { Some(u.arbitrary()?) } else { None };
    let seed = given.unwrap_or(0);
    let options = Options {
        seed: given,
        backend: Some(input::backend(u)?),
        ..Options::default()
    };
    let set = Rendezvous::flat(std::iter::empty::<&[u8]>(), options).expect("an empty set");
    let mut model = Model::default();
    let mut held: Option<(Arc<Snapshot>, Model, Keys)> = None;
    for _ in 0..64 {
        if u.is_empty() {
            break;
        }
        match u.int_in_range(0..=9u8)? {
            0..=5 => {
                let change = Change::arbitrary(u)?;
                let want = model.apply(&change);
                let got = match &change {
                    Change::Add(id, w, None) => set.add(id, *w),
                    Change::Add(id, w, Some(d)) => set.add_in_domain(id, *w, d),
                    Change::Remove(id) => set.remove(id),
                    Change::SetWeight(id, w) => set.set_weight(id, *w),
                    Change::SetDomain(id, d) => set.set_domain(id, d.as_deref()),
                };
                if want.is_ok() {
                    model.generation += 1;
                }
                same_outcome(&got, &want, || format!("{change:?}"));
            }
            6 => {
                let count = u.int_in_range(0..=4usize)?;
                let changes = (0..count).map(|_| Change::arbitrary(u)).collect::<Result<Vec<_>>>()?;
                let want = model.apply_all(&changes);
                let got = set.update(|up| {
                    for c in &changes {
                        match c {
                            Change::Add(id, w, None) => up.add(id, *w)?,
                            Change::Add(id, w, Some(d)) => up.add_in_domain(id, *w, d)?,
                            Change::Remove(id) => up.remove(id)?,
                            Change::SetWeight(id, w) => up.set_weight(id, *w)?,
                            Change::SetDomain(id, d) => up.set_domain(id, d.as_deref())?,
                        }
                    }
                    Ok(())
                });
                if want.is_ok() {
                    model.generation += 1;
                }
                same_outcome(&got, &want, || format!("update {changes:?}"));
            }
            7 => {
                // Hold a snapshot: later changes must not alter it.
                let keys = input::keys_with_k(u, model.len(), 4)?;
                held = Some((set.snapshot(), model.clone(), keys));
            }
            _ => {}
        }
        let keys = input::keys_with_k(u, model.len(), 4)?;
        verify(&set.load(), &model, seed, &keys);
    }
    if let Some((snap, old, keys)) = held {
        verify(&snap, &old, seed, &keys);
    }
    Ok(())
}
