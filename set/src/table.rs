//! The owned partition table: O(1) lookups, exact HRW per partition,
//! incremental rebuilds, lock-free readers (SPEC.md §10).

use longstraw::partition::{self, default_partition_bits};
use longstraw::{KeyOffset, PackedKeys, PartitionTable, Ranked};

use crate::change::{apply, Applied, Change};
use crate::error::Result;
use crate::members::{Members, Node};

/// How a table-mode set is shaped. The shape is fixed for the set's lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableOptions {
    /// `P = 2^bits` partitions; `None` picks
    /// [`longstraw::partition::default_partition_bits`] of the initial node
    /// count (pass it explicitly for a fleet that starts small and grows).
    pub partition_bits: Option<u8>,
    /// Nodes stored per partition (1 to 32, default 1): `top_k` up to this
    /// many is a table read; longer lists rank the partition over all nodes.
    pub replicas: usize,
    /// Whether stored lists hold at most one node per failure domain (then
    /// [`TableSnapshot::top_k_distinct`] is the O(1) read and `top_k` the O(n) one).
    pub distinct_domains: bool,
    /// `Some(b)`: a balanced table (SPEC.md §17): at each replica rank no
    /// node holds more than `ceil(b * P * w_i / W)` partitions. `top_k` then
    /// and `rank` stop at `replicas`, and every change places every partition
    /// again from the plain rows, which are kept (as much memory again as the
    /// rows) and patched incrementally.
    pub balance: Option<longstraw::balanced::Balance>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            partition_bits: None,
            replicas: 1,
            distinct_domains: false,
            balance: None,
        }
    }
}

/// One immutable membership with its partition rows: a table-mode
/// [`crate::Snapshot`]'s mode-specific part ([`crate::Snapshot::as_table`]).
///
/// A key's owner is the owner of its partition (the top `bits` bits of its
/// key hash); each partition is placed by placement v1 HRW. Removing a node
/// moves exactly its partitions; adding one moves only the partitions it wins.
#[derive(Clone, Debug)]
pub struct TableSnapshot {
    members: Members,
    bits: u8,
    replicas: usize,
    distinct: bool,
    balance: Option<longstraw::balanced::Balance>,
    rows: Vec<u32>,
    /// A balanced table's plain rows (its partitions' first choices); empty otherwise.
    plain: Vec<u32>,
}

impl TableSnapshot {
    /// A table over `members`, its rows built from scratch.
    pub(crate) fn build(members: Members, options: TableOptions) -> Result<TableSnapshot> {
        let bits = options
            .partition_bits
            .unwrap_or_else(|| default_partition_bits(members.len()));
        let len = partition::rows_len(bits, options.replicas)?;
        if options.balance.is_some() && options.distinct_domains {
            return Err(crate::Error::ConflictingOptions {
                what: "a balanced table cannot also keep distinct failure domains",
            });
        }
        let mut snap = TableSnapshot {
            members,
            bits,
            replicas: options.replicas,
            distinct: options.distinct_domains,
            balance: options.balance,
            rows: crate::alloc::filled(len, partition::NO_NODE)?,
            plain: match options.balance {
                Some(_) => crate::alloc::filled(len, partition::NO_NODE)?,
                None => Vec::new(),
            },
        };
        snap.rebuild()?;
        Ok(snap)
    }

    /// A copy to change; the rows (caller-sized) are copied fallibly.
    pub(crate) fn try_clone(&self) -> Result<TableSnapshot> {
        Ok(TableSnapshot {
            members: self.members.try_clone()?,
            bits: self.bits,
            replicas: self.replicas,
            distinct: self.distinct,
            balance: self.balance,
            rows: crate::alloc::copied(&self.rows)?,
            plain: crate::alloc::copied(&self.plain)?,
        })
    }

    /// Seals a changed copy as generation `generation`.
    pub(crate) fn seal(&mut self, generation: u64) -> Result<()> {
        self.members.seal(generation)
    }
}

/// Below this many pair scores a build runs on one thread.
const PARALLEL_BUILD_MIN: usize = 1 << 22;

impl TableSnapshot {
    fn stored_domains(&self) -> Option<&[u32]> {
        if self.distinct {
            self.members.domain_ids()
        } else {
            None
        }
    }

    /// Builds the rows from scratch.
    fn rebuild(&mut self) -> Result<()> {
        let Some(balance) = self.balance else {
            return self.rebuild_plain();
        };
        // A balanced table keeps the plain rows: they are its first choices.
        std::mem::swap(&mut self.rows, &mut self.plain);
        let built = self.rebuild_plain();
        std::mem::swap(&mut self.rows, &mut self.plain);
        built?;
        self.place_balanced(balance)
    }

    /// Places a balanced table's rows from its plain rows (crate::balanced).
    fn place_balanced(&mut self, balance: longstraw::balanced::Balance) -> Result<()> {
        let table = self.members.table();
        crate::balanced::place(&table, self.bits, self.replicas, balance, &self.plain, &mut self.rows)?;
        Ok(())
    }

    /// Ranks every partition into `rows`, split across the available cores.
    fn rebuild_plain(&mut self) -> Result<()> {
        let table = self.members.table();
        let domains = if self.distinct { self.members.domain_ids() } else { None };
        let (bits, replicas) = (self.bits, self.replicas);
        let partitions = 1usize << bits;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads == 1 || partitions * self.members.len() < PARALLEL_BUILD_MIN {
            return Ok(partition::build(&table, domains, bits, replicas, &mut self.rows)?);
        }
        let per = partitions.div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = self
                .rows
                .chunks_mut(per * replicas)
                .enumerate()
                .map(|(i, rows)| {
                    s.spawn(move || partition::build_range(&table, domains, bits, replicas, (i * per) as u32, rows))
                })
                .collect();
            for h in handles {
                h.join().expect("a build thread panicked")?;
            }
            Ok(())
        })
    }

    pub(crate) fn apply(&mut self, change: Change<'_>) -> Result<()> {
        let applied = apply(&mut self.members, change)?;
        let Some(balance) = self.balance else {
            return self.patch_plain(applied);
        };
        if matches!(applied, Applied::Relabelled) {
            return Ok(());
        }
        // The plain rows update incrementally; the caps depend on the total
        // weight, so the assignment is placed again from them (crate::balanced).
        std::mem::swap(&mut self.rows, &mut self.plain);
        let patched = self.patch_plain(applied);
        std::mem::swap(&mut self.rows, &mut self.plain);
        patched?;
        self.place_balanced(balance)
    }

    /// Patches the plain rows after one membership change.
    fn patch_plain(&mut self, applied: Applied) -> Result<()> {
        let table = self.members.table();
        let domains = if self.distinct { self.members.domain_ids() } else { None };
        let (bits, replicas) = (self.bits, self.replicas);
        match applied {
            Applied::Added { index } => {
                partition::on_add(&table, domains, bits, replicas, &mut self.rows, index)?;
            }
            Applied::Removed { index } => {
                partition::on_remove(&table, domains, bits, replicas, &mut self.rows, index)?;
            }
            Applied::Reweighted { index, old_weight } => {
                partition::on_reweight(&table, domains, bits, replicas, &mut self.rows, index, old_weight)?;
            }
            Applied::Relabelled => {}
        }
        if matches!(applied, Applied::Relabelled) && self.distinct {
            self.rebuild()?;
        }
        Ok(())
    }

    /// The core's view.
    pub fn view(&self) -> PartitionTable<'_> {
        PartitionTable::new(
            self.members.table(),
            self.stored_domains(),
            self.bits,
            self.replicas,
            &self.rows,
        )
        .expect("rows are sized at construction")
    }

    // ---- shape ----

    /// The membership (ids, weights, domains, flat lookups).
    pub fn members(&self) -> &Members {
        &self.members
    }
    /// Partition bits: `P = 2^bits`.
    pub fn partition_bits(&self) -> u8 {
        self.bits
    }
    /// The number of partitions.
    pub fn partitions(&self) -> usize {
        1 << self.bits
    }
    /// Nodes stored per partition.
    pub fn replicas(&self) -> usize {
        self.replicas
    }
    /// Whether stored lists keep at most one node per failure domain.
    pub fn distinct_domains(&self) -> bool {
        self.distinct
    }
    /// The balance of a balanced table (SPEC.md §17), `None` for a plain one.
    pub fn balance(&self) -> Option<longstraw::balanced::Balance> {
        self.balance
    }
    /// The partition of a key.
    pub fn partition(&self, key: &[u8]) -> u32 {
        self.view().partition(key)
    }
    /// The stored node indices of partition `p`, best first.
    pub fn row(&self, p: u32) -> &[u32] {
        let start = p as usize * self.replicas;
        let row = self.rows.get(start..start + self.replicas).unwrap_or(&[]);
        let filled = row.iter().position(|&i| i == partition::NO_NODE).unwrap_or(row.len());
        &row[..filled]
    }
    /// Bytes held by the rows.
    pub fn rows_bytes(&self) -> usize {
        self.rows.len() * 4
    }

    // ---- the membership, as on [`Members`] ----

    // ---- lookups ----

    /// The owner of `key`: the first node of its partition. O(1).
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<Node<'_>> {
        let i = self.owner_index(key)?;
        Ok(self.members.node(i).expect("rows hold indices of this snapshot"))
    }
    /// The owner's index. O(1).
    #[inline]
    pub fn owner_index(&self, key: &[u8]) -> Result<u32> {
        // Replica 0 of a firstn list is the plain owner too.
        Ok(self.view().owner(key)?)
    }
    /// The first `out.len()` nodes of the key's partition ranking (placement
    /// v1 of the partition key); returns how many. A table read up to
    /// `replicas()` (unless the table keeps distinct domains), O(n) beyond.
    pub fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        if self.balance.is_some() {
            // A balanced table's lists are its stored ranks; nothing ranks past them.
            let row = self.row(self.partition(key));
            let n = out.len().min(row.len());
            out[..n].copy_from_slice(&row[..n]);
            return n;
        }
        if !self.distinct {
            return self.view().top_k(key, out);
        }
        let kh = self.members.hashing().partition_key_hash(self.partition(key));
        rank_flat(&self.members, kh, out)
    }
    /// [`TableSnapshot::top_k_into`] as nodes.
    pub fn top_k(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        let mut idx = vec![0u32; k.min(self.members.eligible())];
        let n = self.top_k_into(key, &mut idx);
        self.members.nodes_of(&idx[..n])
    }
    /// The partition's full ranking.
    pub fn rank(&self, key: &[u8]) -> Vec<Node<'_>> {
        self.top_k(key, self.members.eligible())
    }
    /// At most one node per failure domain, `firstn` over the partition's
    /// ranking (fewer when fewer domains have an eligible node). A table read
    /// up to `replicas()` when the table keeps distinct domains, O(n k) otherwise.
    /// A balanced table filters its stored ranks.
    pub fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        let Some(domains) = self.members.domain_ids() else {
            return self.top_k_into(key, out);
        };
        if self.distinct {
            return self.view().top_k(key, out);
        }
        if self.balance.is_some() {
            // The stored ranks, keeping the first node of each domain.
            let mut n = 0;
            for &i in self.row(self.partition(key)) {
                if n == out.len() {
                    break;
                }
                if !out[..n].iter().any(|&j| domains[j as usize] == domains[i as usize]) {
                    out[n] = i;
                    n += 1;
                }
            }
            return n;
        }
        let kh = self.members.hashing().partition_key_hash(self.partition(key));
        let mut ranks = vec![Ranked::EMPTY; out.len().min(self.members.eligible())];
        let n = longstraw::domains::top_k_distinct_of_hash(&self.members.table(), kh, domains, &mut ranks).unwrap_or(0);
        for (o, r) in out.iter_mut().zip(&ranks[..n]) {
            *o = r.index;
        }
        n
    }
    /// [`TableSnapshot::top_k_distinct_into`] as nodes.
    pub fn top_k_distinct(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        let mut idx = vec![0u32; k.min(self.members.eligible())];
        let n = self.top_k_distinct_into(key, &mut idx);
        self.members.nodes_of(&idx[..n])
    }
    /// The owner index of each key of a packed batch.
    pub fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        Ok(self.view().owners(keys, out)?)
    }
    /// The owner index of each key.
    pub fn owners<K: AsRef<[u8]>>(&self, keys: impl IntoIterator<Item = K>) -> Result<Vec<u32>> {
        let view = self.view();
        let hashing = self.members.hashing();
        keys.into_iter()
            .map(|k| {
                view.owner_of_hash(hashing.key_hash(k.as_ref()))
                    .ok_or(crate::Error::Core(longstraw::Error::NoEligibleNodes))
            })
            .collect()
    }
}

/// The first `out.len()` nodes of the flat ranking of a key hash.
fn rank_flat(members: &Members, kh: u64, out: &mut [u32]) -> usize {
    let mut ranks = vec![Ranked::EMPTY; out.len().min(members.eligible())];
    let n = members.table().top_k_of_hash(kh, &mut ranks);
    for (o, r) in out.iter_mut().zip(&ranks[..n]) {
        *o = r.index;
    }
    n
}
