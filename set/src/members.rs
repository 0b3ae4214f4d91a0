//! One immutable membership: node ids, hashes and weights, and lookups on it.

use std::collections::HashMap;
use std::sync::Arc;

use longstraw::{
    validate_node_id, validate_weight, Backend, ClassHeader, Hashing, KeyOffset, NodeTable, PackedKeys, Placement,
    Ranked, TableSummary, WeightClasses,
};

use crate::chunks::Chunks;
use crate::column::Column;
use crate::error::{Error, Result};
use crate::labels::Labels;
use crate::mapped_id::MappedId;
use crate::shared_map::SharedMap;
use crate::weight_census::WeightCensus;

/// A node as seen from one snapshot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node<'a> {
    index: u32,
    id: &'a [u8],
    weight: f64,
    hash: u64,
    domain: Option<&'a [u8]>,
}

impl<'a> Node<'a> {
    /// Its position in [`Members::nodes`] of the snapshot it came from.
    pub fn index(&self) -> u32 {
        self.index
    }
    /// Its id. The bytes live as long as the snapshot.
    pub fn id(&self) -> &'a [u8] {
        self.id
    }
    /// Its weight (0 = drained).
    pub fn weight(&self) -> f64 {
        self.weight
    }
    /// Its node hash under the snapshot's seed or secret.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Its failure domain label (rack, zone), if it has one. A node without
    /// a label is a failure domain of its own.
    pub fn domain(&self) -> Option<&'a [u8]> {
        self.domain
    }
}

/// The node ids of a [`Members`], by node index (a view of shared chunks).
#[derive(Clone, Copy)]
pub struct Ids<'a>(&'a Chunks<MappedId>);

impl<'a> Ids<'a> {
    /// How many ids.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The id of node `index`.
    pub fn get(&self, index: usize) -> Option<&'a Arc<[u8]>> {
        self.0.get(index).map(MappedId::as_arc)
    }
    /// The first id.
    pub fn first(&self) -> Option<&'a Arc<[u8]>> {
        self.get(0)
    }
    /// Every id, in node order.
    pub fn iter(&self) -> IdsIter<'a> {
        IdsIter(self.0.iter())
    }
    /// The ids, copied into a vector (counted references: the ids live on
    /// after the snapshot goes).
    pub fn to_vec(&self) -> Vec<Arc<[u8]>> {
        self.iter().cloned().collect()
    }
}

impl std::ops::Index<usize> for Ids<'_> {
    type Output = Arc<[u8]>;
    fn index(&self, index: usize) -> &Arc<[u8]> {
        self.0[index].as_arc()
    }
}

impl<'a> IntoIterator for Ids<'a> {
    type Item = &'a Arc<[u8]>;
    type IntoIter = IdsIter<'a>;
    fn into_iter(self) -> IdsIter<'a> {
        self.iter()
    }
}

/// The ids of an [`Ids`] view, in node order.
#[derive(Clone, Debug)]
pub struct IdsIter<'a>(crate::chunks::Iter<'a, MappedId>);

impl<'a> Iterator for IdsIter<'a> {
    type Item = &'a Arc<[u8]>;
    #[inline]
    fn next(&mut self) -> Option<&'a Arc<[u8]>> {
        self.0.next().map(MappedId::as_arc)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for IdsIter<'_> {}

impl PartialEq for Ids<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Ids<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An immutable node set. Lookups on it never lock, never allocate (except
/// the `Vec`-returning conveniences) and always agree with each other.
#[derive(Clone, Debug)]
pub struct Members {
    /// The set-wide options, resolved (the backend chosen, the seed or
    /// secret decided) and shared by every snapshot of the set: a new
    /// set-wide option is one field of [`crate::Options`] and nothing here.
    options: Arc<crate::Options>,
    // Copies of what every lookup reads, derived once from `options`, so the
    // hot path does not follow the `Arc`.
    hashing: Hashing,
    backend: Backend,
    generation: u64,
    // The per-node arrays and maps are shared with the snapshot this one was
    // changed from, except the parts the change touched.
    /// Uncounted copies of `by_id`'s keys (see `mapped_id` for the invariant).
    ids: Chunks<MappedId>,
    hashes: Column<u64>,
    weights: Column<f64>,
    summary: TableSummary,
    census: WeightCensus,
    /// The eligible nodes grouped by weight, for the core's class race;
    /// `None` unless the table is small and has few distinct weights.
    classes: Option<Arc<ClassColumns>>,
    /// Each node's sequence number, by node index: ascending, because nodes
    /// join at the end and leave without reordering the rest. The maps below
    /// name nodes by these numbers, which (unlike indices) never shift, so a
    /// change edits one entry of each map instead of re-indexing all.
    seqs: Chunks<u64>,
    next_seq: u64,
    by_id: SharedMap<Arc<[u8]>, u64>,
    by_hash: SharedMap<u64, u64>,
    domain_labels: Labels,
    /// One `u32` per node, equal exactly for nodes of one failure domain;
    /// `None` while no node has a label.
    domain_ids: Option<Vec<u32>>,
}

/// Tables up to this many nodes keep their eligible nodes grouped by weight
/// when they have at most [`longstraw::MAX_WEIGHT_CLASSES`] distinct weights:
/// 12 more bytes per eligible node, rebuilt on every published change. Larger
/// tables gain little (the lane race's filter makes their weighted owner
/// nearly as cheap as the plain one) and would pay the rebuild per change.
const CLASS_LAYOUT_MAX_NODES: usize = 4096;

/// A table's eligible nodes grouped by weight ([`longstraw::group_by_weight`]).
#[derive(Debug)]
struct ClassColumns {
    hashes: Vec<u64>,
    members: Vec<u32>,
    header: ClassHeader,
}

impl ClassColumns {
    /// The grouped layout of a sealed table, when it should have one.
    fn of(hashes: &[u64], weights: &[f64], summary: TableSummary, distinct: usize) -> Result<Option<Arc<Self>>> {
        if summary.shape != longstraw::Shape::Weighted
            || distinct > longstraw::MAX_WEIGHT_CLASSES
            || hashes.len() > CLASS_LAYOUT_MAX_NODES
        {
            return Ok(None);
        }
        let len = summary.eligible as usize;
        let mut grouped: Vec<u64> = crate::alloc::filled(len, 0)?;
        let mut members: Vec<u32> = crate::alloc::filled(len, 0)?;
        Ok(
            longstraw::group_by_weight(hashes, weights, &mut grouped, &mut members).map(|header| {
                Arc::new(ClassColumns {
                    hashes: grouped,
                    members,
                    header,
                })
            }),
        )
    }
}

/// Small top-k requests are ranked in a stack buffer; larger ones allocate.
const STACK_RANKS: usize = 32;

impl Members {
    /// An empty membership under `options`, already resolved by
    /// [`crate::change::members_of`]: `hashing` and `backend` are what
    /// `options` decides.
    pub(crate) fn empty(options: Arc<crate::Options>, hashing: Hashing, backend: Backend) -> Members {
        Members {
            options,
            hashing,
            backend,
            generation: 0,
            ids: Chunks::new(),
            hashes: Column::new(),
            weights: Column::new(),
            census: WeightCensus::new(),
            classes: None,
            summary: TableSummary {
                eligible: 0,
                shape: longstraw::Shape::AllEqual,
            },
            seqs: Chunks::new(),
            next_seq: 0,
            by_id: SharedMap::new(),
            by_hash: SharedMap::new(),
            domain_labels: Labels::new(),
            domain_ids: None,
        }
    }

    /// A sealed snapshot of `(id, weight, domain)` nodes, built at once:
    /// the same snapshot, and the same first error, as pushing the nodes one
    /// by one into an empty snapshot and sealing it, at a fraction of the
    /// cost (each id is looked up once per map, in maps and arrays sized
    /// up front, with no snapshot-sharing copies).
    ///
    /// Nodes are taken in order and each is checked before the next is
    /// asked for, so when a node is refused, it is the last one `nodes` gave.
    pub(crate) fn build<I, T, D>(
        options: Arc<crate::Options>,
        hashing: Hashing,
        backend: Backend,
        nodes: I,
    ) -> Result<Members>
    where
        I: IntoIterator<Item = (T, f64, Option<D>)>,
        T: AsRef<[u8]>,
        D: AsRef<[u8]>,
    {
        let nodes = nodes.into_iter();
        // On 32-bit targets MAX_NODES is usize::MAX, which makes this `min` a no-op there, not wrong.
        #[allow(clippy::unnecessary_min_or_max)]
        let room = nodes.size_hint().0.min(longstraw::MAX_NODES);
        let mut ids: Vec<MappedId> = crate::alloc::with_capacity(room)?;
        let mut hashes: Vec<u64> = crate::alloc::with_capacity(room)?;
        let mut weights: Vec<f64> = crate::alloc::with_capacity(room)?;
        let mut by_id: SharedMap<Arc<[u8]>, u64> = SharedMap::with_capacity(room)?;
        let mut by_hash: SharedMap<u64, u64> = SharedMap::with_capacity(room)?;
        // Weight bits to node count; most memberships have a few distinct weights.
        let mut counts: HashMap<u64, u32> = HashMap::new();
        // Allocated at the first labelled node.
        let mut labels: Option<Vec<Option<Arc<[u8]>>>> = None;
        for (id, weight, domain) in nodes {
            let (id, domain) = (id.as_ref(), domain.as_ref().map(|d| d.as_ref()));
            // The checks of `push_in_domain`, in its order.
            let label = domain.map(checked_label).transpose()?;
            validate_node_id(id)?;
            validate_weight(weight)?;
            let index = ids.len();
            longstraw::validate_node_count(index + 1)?;
            let seq = index as u64;
            let owner: Arc<[u8]> = Arc::from(id);
            // SAFETY: `owner` goes into `by_id` right below, before `mapped`
            // goes into `ids`, and the snapshot built here keeps both. If
            // `by_id` refuses it (a duplicate), `mapped` is dropped unused;
            // on any error both are dropped, and a `MappedId` releases nothing.
            let mapped = unsafe { MappedId::of(&owner) };
            if by_id.insert_new(owner, seq)?.is_some() {
                return Err(Error::DuplicateNode { id: id.to_vec() });
            }
            let hash = hashing.node_hash(id);
            if let Some(other) = by_hash.insert_new(hash, seq)? {
                return Err(Error::HashCollision {
                    id: id.to_vec(),
                    existing: ids[other as usize].as_arc().to_vec(),
                });
            }
            if weight != 0.0 {
                *counts.entry(weight.to_bits()).or_insert(0) += 1;
            }
            if let Some(label) = label {
                let labels = match &mut labels {
                    Some(labels) => labels,
                    None => labels.insert(crate::alloc::filled(index, None)?),
                };
                crate::alloc::reserve_one(labels)?;
                labels.resize(index, None);
                labels.push(Some(label));
            }
            crate::alloc::reserve_one(&mut ids)?;
            crate::alloc::reserve_one(&mut hashes)?;
            crate::alloc::reserve_one(&mut weights)?;
            ids.push(mapped);
            hashes.push(hash);
            weights.push(weight);
        }
        let len = ids.len();
        let labels = match labels {
            Some(mut labels) => {
                labels
                    .try_reserve_exact(len - labels.len())
                    .map_err(|_| Error::OutOfMemory {
                        bytes: len.saturating_mul(std::mem::size_of::<Option<Arc<[u8]>>>()),
                    })?;
                labels.resize(len, None);
                Labels::of_vec(labels)
            }
            None => Labels::of_vec(crate::alloc::filled(len, None)?),
        };
        let mut seqs: Vec<u64> = crate::alloc::with_capacity(len)?;
        seqs.extend(0..len as u64);
        let mut snap = Members {
            ids: Chunks::from_vec(ids)?,
            hashes: Column::from_vec(hashes),
            weights: Column::from_vec(weights),
            census: WeightCensus::of_counts(counts.into_iter())?,
            classes: None,
            seqs: Chunks::from_vec(seqs)?,
            next_seq: len as u64,
            by_id,
            by_hash,
            domain_labels: labels,
            ..Members::empty(options, hashing, backend)
        };
        snap.seal(0)?;
        Ok(snap)
    }

    // ---- membership edits: only `Rendezvous` calls these, on a private copy ----

    pub(crate) fn push(&mut self, id: &[u8], weight: f64) -> Result<()> {
        validate_node_id(id)?;
        validate_weight(weight)?;
        longstraw::validate_node_count(self.ids.len() + 1)?;
        if self.by_id.contains_key(id) {
            return Err(Error::DuplicateNode { id: id.to_vec() });
        }
        let hash = self.hashing.node_hash(id);
        if let Some(&other) = self.by_hash.get(&hash) {
            return Err(Error::HashCollision {
                id: id.to_vec(),
                existing: self
                    .position_of(other)
                    .map(|i| self.ids[i].as_arc().to_vec())
                    .unwrap_or_default(),
            });
        }
        let seq = self.next_seq;
        let id: Arc<[u8]> = Arc::from(id);
        // SAFETY: `id` goes into `by_id` below, before `mapped` goes into
        // `ids`; it leaves `by_id` only after leaving `ids` (`remove`).
        let mapped = unsafe { MappedId::of(&id) };
        // A push that fails part way leaves a broken copy; the caller
        // drops it (a failed change publishes nothing).
        let len = self.ids.len();
        self.domain_labels.push(len, None)?;
        self.census.add(weight)?;
        self.by_id.insert(id.clone(), seq)?;
        self.by_hash.insert(hash, seq)?;
        self.next_seq += 1;
        self.ids.push(mapped)?;
        self.hashes.push(hash)?;
        self.weights.push(weight)?;
        self.seqs.push(seq)?;
        Ok(())
    }

    /// The node index of sequence number `seq`.
    fn position_of(&self, seq: u64) -> Option<usize> {
        self.seqs.position(&seq)
    }

    /// The node index of `id`, or `UnknownNode`.
    fn member_index(&self, id: &[u8]) -> Result<usize> {
        self.index_of(id)
            .map(|i| i as usize)
            .ok_or_else(|| Error::UnknownNode { id: id.to_vec() })
    }

    pub(crate) fn push_in_domain(&mut self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> Result<()> {
        let label = domain.map(checked_label).transpose()?;
        self.push(id, weight)?;
        self.domain_labels.set(self.ids.len() - 1, label)
    }

    pub(crate) fn set_domain(&mut self, id: &[u8], domain: Option<&[u8]>) -> Result<()> {
        let label = domain.map(checked_label).transpose()?;
        let index = self.member_index(id)?;
        self.domain_labels.set(index, label)
    }

    pub(crate) fn remove(&mut self, id: &[u8]) -> Result<()> {
        let index = self.member_index(id)?;
        self.domain_labels.remove(index)?;
        self.census.remove(self.weights[index])?;
        // Out of the column before out of the map, which owns the id.
        self.ids.remove(index)?;
        self.by_id.remove(id);
        self.by_hash.remove(&self.hashes[index]);
        self.hashes.remove(index)?;
        self.weights.remove(index)?;
        self.seqs.remove(index)?;
        Ok(())
    }

    pub(crate) fn set_weight(&mut self, id: &[u8], weight: f64) -> Result<()> {
        validate_weight(weight)?;
        let index = self.member_index(id)?;
        let weights = self.weights.edit()?;
        self.census.remove(weights[index])?;
        self.census.add(weight)?;
        weights[index] = weight;
        Ok(())
    }

    /// A private copy to change: it shares every array and map with `self`
    /// until a change copies the part it touches (fallibly: array sizes are
    /// the caller's).
    pub(crate) fn try_clone(&self) -> Result<Members> {
        Ok(Members {
            domain_ids: self.domain_ids.as_deref().map(crate::alloc::copied).transpose()?,
            ..self.clone()
        })
    }

    /// Refreshes the summary and domain ids; called once per published snapshot.
    pub(crate) fn seal(&mut self, generation: u64) -> Result<()> {
        longstraw::validate_node_count(self.ids.len())?;
        self.summary = self.census.summary(self.ids.len());
        self.classes = ClassColumns::of(&self.hashes, &self.weights, self.summary, self.census.distinct())?;
        self.generation = generation;
        self.domain_ids = match self.domain_labels.labelled() {
            0 => None,
            _ => domain_ids(self.domain_labels.of(self.ids.len())),
        };
        Ok(())
    }

    /// Renumbers a snapshot that [`crate::change::apply`] already sealed.
    pub(crate) fn set_generation(&mut self, generation: u64) {
        self.generation = generation;
    }

    /// What the last seal learned about the weights.
    pub(crate) fn summary(&self) -> TableSummary {
        self.summary
    }

    // ---- accessors ----

    /// The seed every hash in this snapshot was computed with, or `None` for a
    /// keyed set, which has no seed (hash keys with [`Members::hashing`],
    /// never with a seed, or a keyed set's placements come out wrong).
    pub fn seed(&self) -> Option<u64> {
        self.hashing.seed()
    }
    /// The options that build a set placing exactly like this one (same seed
    /// or secret, placement version and backend): a table or skeleton built
    /// over these members must use them, or it would silently drop the secret.
    pub fn options(&self) -> crate::Options {
        (*self.options).clone()
    }
    /// Whether this snapshot places by keyed-v1 (it was built with a secret).
    pub fn is_keyed(&self) -> bool {
        self.hashing.is_keyed()
    }
    /// How keys, nodes, partitions and groups are hashed. Its `Debug` never
    /// shows a secret.
    pub fn hashing(&self) -> Hashing {
        self.hashing
    }
    /// The placement version.
    pub fn placement(&self) -> Placement {
        self.options.placement
    }
    /// The kernel lookups run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }
    /// Increases by one with every published change of the owning set.
    pub fn generation(&self) -> u64 {
        self.generation
    }
    /// How many nodes, including drained ones.
    pub fn len(&self) -> usize {
        self.ids.len()
    }
    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
    /// How many nodes have a non-zero weight.
    pub fn eligible(&self) -> usize {
        self.summary.eligible as usize
    }
    /// The node ids, by node index: a view of chunks that successive
    /// snapshots share (a change copies the chunk it touches), not a slice.
    ///
    /// The contiguous-slice accessors (`weights`, `hashes`, `domains`,
    /// `table`) are for Rust callers that want one; no binding uses them (they
    /// read [`Members::nodes`] and [`Members::node`]), so that a later minor
    /// version may keep those columns in chunks too and change them to views.
    pub fn ids(&self) -> Ids<'_> {
        Ids(&self.ids)
    }
    /// The weights, by node index.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }
    /// The node hashes, by node index.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    /// Node `index`.
    pub fn node(&self, index: u32) -> Option<Node<'_>> {
        let i = index as usize;
        Some(Node {
            index,
            id: self.ids.get(i)?.as_arc(),
            weight: self.weights[i],
            hash: self.hashes[i],
            domain: self.domain_labels.of(self.ids.len())[i].as_deref(),
        })
    }
    /// Every node, in index order.
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
        let labels = self.domain_labels.of(self.ids.len());
        self.ids.iter().enumerate().map(move |(i, id)| Node {
            index: i as u32,
            id: id.as_arc(),
            weight: self.weights[i],
            hash: self.hashes[i],
            domain: labels[i].as_deref(),
        })
    }
    /// The index of the node with this id.
    pub fn index_of(&self, id: &[u8]) -> Option<u32> {
        let seq = *self.by_id.get(id)?;
        self.position_of(seq).map(|i| i as u32)
    }
    /// Whether a node with this id is in the set.
    pub fn contains(&self, id: &[u8]) -> bool {
        self.by_id.contains_key(id)
    }
    /// The failure domain label of each node, by node index.
    pub fn domains(&self) -> &[Option<Arc<[u8]>>] {
        self.domain_labels.of(self.ids.len())
    }
    /// The domain of each node as a `u32` (equal exactly within one domain),
    /// or `None` when no node has a label (every node is its own domain).
    pub fn domain_ids(&self) -> Option<&[u32]> {
        self.domain_ids.as_deref()
    }
    /// The core's view of this snapshot.
    pub fn table(&self) -> NodeTable<'_> {
        let table = NodeTable::from_summary(0, &self.hashes, Some(&self.weights), self.summary)
            .with_hashing(self.hashing)
            .with_backend(self.backend);
        match &self.classes {
            Some(c) => table.with_classes(WeightClasses::new(&c.hashes, &c.members, &c.header)),
            None => table,
        }
    }

    // ---- lookups ----

    /// The node that owns `key`. Errors only when no node is eligible.
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<Node<'_>> {
        let i = self.owner_index(key)?;
        Ok(self.node(i).expect("the core returns indices of this table"))
    }

    /// The index of the node that owns `key`.
    #[inline]
    pub fn owner_index(&self, key: &[u8]) -> Result<u32> {
        Ok(self.table().owner(key)?)
    }

    /// Writes the indices of the best `out.len()` eligible nodes for `key`,
    /// best first; returns how many were written.
    pub fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        let kh = self.hashing.key_hash(key);
        let k = out.len().min(self.eligible());
        if k <= STACK_RANKS {
            let mut buf = [Ranked::EMPTY; STACK_RANKS];
            self.fill_indices(kh, &mut buf[..k], out)
        } else {
            let mut buf = vec![Ranked::EMPTY; k];
            self.fill_indices(kh, &mut buf, out)
        }
    }

    fn fill_indices(&self, kh: u64, ranks: &mut [Ranked], out: &mut [u32]) -> usize {
        let n = self.table().top_k_of_hash(kh, ranks);
        for (o, r) in out.iter_mut().zip(&ranks[..n]) {
            *o = r.index;
        }
        n
    }

    /// The best `k` eligible nodes for `key`, best first (fewer when fewer are eligible).
    pub fn top_k(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        let mut idx = vec![0u32; k.min(self.eligible())];
        let n = self.top_k_into(key, &mut idx);
        idx[..n]
            .iter()
            .map(|&i| self.node(i).expect("index from this table"))
            .collect()
    }

    /// Every eligible node for `key`, best first.
    pub fn rank(&self, key: &[u8]) -> Vec<Node<'_>> {
        self.top_k(key, self.eligible())
    }

    /// Writes the indices of the first `out.len()` nodes of the key's ranking
    /// that are each the first of their failure domain (CRUSH `firstn`):
    /// at most one replica per domain, `out[0]` is the owner. Returns how many
    /// were written: fewer than `out.len()` when fewer domains have an
    /// eligible node.
    pub fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        let Some(domains) = self.domain_ids() else {
            return self.top_k_into(key, out);
        };
        let kh = self.hashing.key_hash(key);
        let k = out.len().min(self.eligible());
        let mut ranks = vec![Ranked::EMPTY; k];
        let n = longstraw::domains::top_k_distinct_of_hash(&self.table(), kh, domains, &mut ranks).unwrap_or(0);
        for (o, r) in out.iter_mut().zip(&ranks[..n]) {
            *o = r.index;
        }
        n
    }

    /// [`Members::top_k_distinct_into`] as nodes.
    pub fn top_k_distinct(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        let mut idx = vec![0u32; k.min(self.eligible())];
        let n = self.top_k_distinct_into(key, &mut idx);
        self.nodes_of(&idx[..n])
    }

    pub(crate) fn nodes_of(&self, indices: &[u32]) -> Vec<Node<'_>> {
        indices
            .iter()
            .map(|&i| self.node(i).expect("index from this snapshot"))
            .collect()
    }

    /// The owner index of each key of a packed batch, into `out`.
    pub fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        Ok(self.table().owners(keys, out)?)
    }

    /// The owner index of each key.
    pub fn owners<K: AsRef<[u8]>>(&self, keys: impl IntoIterator<Item = K>) -> Result<Vec<u32>> {
        let table = self.table();
        keys.into_iter().map(|k| Ok(table.owner(k.as_ref())?)).collect()
    }
}

fn checked_label(label: &[u8]) -> Result<Arc<[u8]>> {
    if label.is_empty() || label.len() > longstraw::MAX_NODE_ID_LEN {
        return Err(Error::InvalidDomain { len: label.len() });
    }
    Ok(Arc::from(label))
}

/// Interns labels: labelled nodes get the index of their label's first
/// appearance among labels, unlabelled nodes numbers after all labels.
fn domain_ids(labels: &[Option<Arc<[u8]>>]) -> Option<Vec<u32>> {
    if labels.iter().all(Option::is_none) {
        return None;
    }
    let mut interned: HashMap<&[u8], u32> = HashMap::new();
    for label in labels.iter().flatten() {
        let next = interned.len() as u32;
        interned.entry(label).or_insert(next);
    }
    let mut next_own = interned.len() as u32;
    Some(
        labels
            .iter()
            .map(|label| match label {
                Some(l) => interned[&l[..]],
                None => {
                    next_own += 1;
                    next_own - 1
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod sharing_tests {
    use crate::{Options, Rendezvous};

    /// What a change does not touch, the next snapshot does not copy.
    #[test]
    fn a_change_copies_only_the_arrays_it_touches() {
        let r = Rendezvous::flat((0..1000).map(|i| format!("n{i}")), Options::default()).unwrap();
        let before = r.snapshot();
        let before = before.members();
        r.set_weight("n5", 2.0).unwrap();
        let reweighted = r.snapshot();
        let reweighted = reweighted.members();
        assert!(reweighted.ids.shares(&before.ids));
        assert!(reweighted.hashes.shares(&before.hashes));
        assert!(reweighted.seqs.shares(&before.seqs));
        assert!(!reweighted.weights.shares(&before.weights));
        r.remove("n7").unwrap();
        let removed = r.snapshot();
        let removed = removed.members();
        assert!(!removed.hashes.shares(&reweighted.hashes));
        // No node has a label: removing one shifts no label.
        assert_eq!(removed.domains().len(), 999);
        assert!(removed.domains().iter().all(Option::is_none));
        assert_eq!(before.weights()[5], 1.0);
        assert_eq!(before.len(), 1000);
    }

    /// The ids and sequence numbers are chunked: an add copies the last
    /// chunk only, a removal the chunk of the removed node only.
    #[test]
    fn an_add_or_removal_copies_one_chunk_of_ids_and_sequence_numbers() {
        let n = 50_000;
        let r = Rendezvous::flat((0..n).map(|i| format!("n{i}")), Options::default()).unwrap();
        let before = r.snapshot();
        let chunks = before.members().ids.chunk_count();
        assert!(chunks >= 10, "{chunks} chunks");
        r.remove("n20000").unwrap();
        let removed = r.snapshot();
        let (b, a) = (before.members(), removed.members());
        assert_eq!(a.ids.chunk_count(), chunks);
        assert_eq!(a.ids.shared_chunks(&b.ids), chunks - 1);
        assert_eq!(a.seqs.shared_chunks(&b.seqs), chunks - 1);
        r.add("new", 1.0).unwrap();
        let added = r.snapshot();
        let c = added.members();
        assert_eq!(c.ids.shared_chunks(&a.ids), a.ids.chunk_count() - 1);
        assert_eq!(c.seqs.shared_chunks(&a.seqs), a.seqs.chunk_count() - 1);
        // Every node is where a plain vector of the same changes puts it.
        let mut want: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
        want.remove(20000);
        want.push("new".into());
        let got: Vec<&[u8]> = c.ids().iter().map(|id| &id[..]).collect();
        let want_bytes: Vec<&[u8]> = want.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(got, want_bytes);
        for (i, id) in want.iter().enumerate() {
            assert_eq!(c.index_of(id.as_bytes()), Some(i as u32), "{id}");
            assert_eq!(c.node(i as u32).unwrap().id(), id.as_bytes());
        }
        assert_eq!(c.index_of(b"n20000"), None);
        assert_eq!(b.index_of(b"n20000"), Some(20000));
    }
}
