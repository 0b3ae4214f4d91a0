//! A hash map that successive snapshots share: cloning it copies one `Arc`
//! per shard, and changing one entry of a clone copies only that entry's
//! shard. One membership change of a 10^6-node set then copies about a
//! thousand entries instead of rebuilding a million.

use std::borrow::Borrow;
use std::collections::hash_map::Entry;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

use crate::error::{Error, Result};

/// Entries per shard, on average, above which the shard count doubles.
const MAX_PER_SHARD: usize = 1024;

/// A persistent map as `Arc`-shared shards: O(shards) to clone, O(n / shards)
/// to change a clone. Cloning never copies an entry.
#[derive(Clone, Debug)]
pub(crate) struct SharedMap<K, V> {
    /// A power-of-two count of shards.
    shards: Vec<Arc<HashMap<K, V>>>,
    /// Picks a key's shard. A hasher of its own (keys unrelated to each
    /// shard's), so the keys of one shard still spread over its buckets.
    selector: RandomState,
    len: usize,
}

impl<K: Hash + Eq + Clone, V: Clone> SharedMap<K, V> {
    pub(crate) fn new() -> Self {
        SharedMap {
            shards: vec![Arc::new(HashMap::new())],
            selector: RandomState::new(),
            len: 0,
        }
    }

    /// An empty map with room for `capacity` entries: filling it that far
    /// splits no shard and grows no shard's table.
    pub(crate) fn with_capacity(capacity: usize) -> Result<Self> {
        let count = capacity.div_ceil(MAX_PER_SHARD).max(1).next_power_of_two();
        let per = capacity / count + 1;
        let mut shards = Vec::new();
        shards.try_reserve_exact(count).map_err(|_| Error::OutOfMemory {
            bytes: count.saturating_mul(std::mem::size_of::<HashMap<K, V>>()),
        })?;
        for _ in 0..count {
            let mut shard = HashMap::new();
            shard.try_reserve(per + per / 4).map_err(|_| Error::OutOfMemory {
                bytes: per.saturating_mul(std::mem::size_of::<(K, V)>()),
            })?;
            shards.push(Arc::new(shard));
        }
        Ok(SharedMap {
            shards,
            selector: RandomState::new(),
            len: 0,
        })
    }

    /// Inserts `key` if it is absent, looking it up once; if it is present,
    /// changes nothing and returns its value.
    pub(crate) fn insert_new(&mut self, key: K, value: V) -> Result<Option<V>> {
        if self.len >= self.shards.len() * MAX_PER_SHARD {
            self.split()?;
        }
        let at = self.shard_of(&key);
        let shard = Arc::make_mut(&mut self.shards[at]);
        shard.try_reserve(1).map_err(|_| Error::OutOfMemory {
            bytes: (shard.len() + 1).saturating_mul(std::mem::size_of::<(K, V)>()),
        })?;
        match shard.entry(key) {
            Entry::Occupied(there) => Ok(Some(there.get().clone())),
            Entry::Vacant(room) => {
                room.insert(value);
                self.len += 1;
                Ok(None)
            }
        }
    }

    fn shard_of<Q: Hash + ?Sized>(&self, key: &Q) -> usize {
        (self.selector.hash_one(key) as usize) & (self.shards.len() - 1)
    }

    pub(crate) fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shards[self.shard_of(key)].get(key)
    }

    pub(crate) fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.get(key).is_some()
    }

    /// Inserts or replaces; copies the key's shard first if a snapshot shares it.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Result<()> {
        if self.len >= self.shards.len() * MAX_PER_SHARD {
            self.split()?;
        }
        let at = self.shard_of(&key);
        let shard = Arc::make_mut(&mut self.shards[at]);
        shard.try_reserve(1).map_err(|_| Error::OutOfMemory {
            bytes: (shard.len() + 1).saturating_mul(std::mem::size_of::<(K, V)>()),
        })?;
        if shard.insert(key, value).is_none() {
            self.len += 1;
        }
        Ok(())
    }

    /// Removes `key`; copies its shard first if a snapshot shares it.
    pub(crate) fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let at = self.shard_of(key);
        if !self.shards[at].contains_key(key) {
            return None;
        }
        let removed = Arc::make_mut(&mut self.shards[at]).remove(key);
        self.len -= 1;
        removed
    }

    /// Doubles the shards, moving every entry (O(n), once per doubling of
    /// the map, so amortised O(1) per insert).
    fn split(&mut self) -> Result<()> {
        let count = self.shards.len() * 2;
        let mut shards: Vec<HashMap<K, V>> = Vec::new();
        shards.try_reserve_exact(count).map_err(|_| Error::OutOfMemory {
            bytes: count.saturating_mul(std::mem::size_of::<HashMap<K, V>>()),
        })?;
        let per = self.len / count + 1;
        for _ in 0..count {
            let mut shard = HashMap::new();
            shard.try_reserve(per + per / 4).map_err(|_| Error::OutOfMemory {
                bytes: per.saturating_mul(std::mem::size_of::<(K, V)>()),
            })?;
            shards.push(shard);
        }
        for shard in &self.shards {
            for (k, v) in shard.iter() {
                let at = (self.selector.hash_one(k) as usize) & (count - 1);
                shards[at].insert(k.clone(), v.clone());
            }
        }
        self.shards = shards.into_iter().map(Arc::new).collect();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_keeps_its_entries_while_the_original_changes() {
        let mut map = SharedMap::new();
        for i in 0..5000u64 {
            map.insert(i, i * 2).unwrap();
        }
        assert!(map.shards.len() > 1, "5000 entries split the map");
        let before = map.clone();
        map.remove(&7);
        map.insert(7_000_000, 1).unwrap();
        map.insert(8, 99).unwrap();
        assert_eq!(before.get(&7), Some(&14));
        assert_eq!(before.get(&8), Some(&16));
        assert_eq!(before.get(&7_000_000), None);
        assert_eq!(map.get(&7), None);
        assert_eq!(map.get(&8), Some(&99));
        assert_eq!(map.get(&7_000_000), Some(&1));
        assert_eq!((before.len, map.len), (5000, 5000));
        for i in (0..5000u64).filter(|&i| i != 7 && i != 8) {
            assert_eq!(map.get(&i), Some(&(i * 2)), "entry {i} survives the splits");
        }
    }

    #[test]
    fn a_presized_map_splits_nothing_and_insert_new_keeps_the_first_value() {
        let mut map = SharedMap::with_capacity(5000).unwrap();
        let shards = map.shards.len();
        assert_eq!(shards, 8, "5000 entries over at most 1024 per shard");
        for i in 0..5000u64 {
            assert_eq!(map.insert_new(i, i * 3).unwrap(), None);
        }
        assert_eq!(map.shards.len(), shards);
        assert_eq!(map.insert_new(17, 0).unwrap(), Some(51));
        assert_eq!(map.get(&17), Some(&51));
        assert_eq!(map.len, 5000);
        assert_eq!(
            map.insert_new(5000, 1).unwrap(),
            None,
            "past the capacity it still grows"
        );
        assert_eq!(map.get(&5000), Some(&1));
    }

    #[test]
    fn a_change_copies_one_shard_only() {
        let mut map = SharedMap::new();
        for i in 0..10_000u64 {
            map.insert(i, i).unwrap();
        }
        let before = map.clone();
        map.insert(3, 4).unwrap();
        let shared = map
            .shards
            .iter()
            .zip(&before.shards)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        assert_eq!(shared, map.shards.len() - 1);
    }
}
