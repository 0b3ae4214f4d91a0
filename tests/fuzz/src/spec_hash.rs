//! The hashes of SPEC.md §3 and §15.2 as the models compute them, and the
//! core's scalar oracle over a model's nodes under either hashing.
//!
//! keyed-v1's SipHash-2-4 and its derived node key and group seed are written
//! out here from the spec (and checked against the SipHash paper's vectors),
//! so a keyed model shares no hashing code with the core: not its key
//! encoding, not its derivation labels, not the `siphasher` crate.

use longstraw::{key_hash, node_hash, NodeTable, Ranked};

/// SipHash-2-4 of `data` under the 16-byte key `key` (k0 = bytes 0..8,
/// k1 = bytes 8..16, little-endian), from Aumasson and Bernstein's paper.
pub fn siphash24(key: &[u8; 16], data: &[u8]) -> u64 {
    let k0 = u64::from_le_bytes(key[..8].try_into().expect("8 bytes"));
    let k1 = u64::from_le_bytes(key[8..].try_into().expect("8 bytes"));
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    fn round(v: &mut [u64; 4]) {
        v[0] = v[0].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(13) ^ v[0];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(16) ^ v[2];
        v[0] = v[0].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(21) ^ v[0];
        v[2] = v[2].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(17) ^ v[2];
        v[2] = v[2].rotate_left(32);
    }
    let compress = |m: u64, v: &mut [u64; 4]| {
        v[3] ^= m;
        round(v);
        round(v);
        v[0] ^= m;
    };
    let mut blocks = data.chunks_exact(8);
    for b in &mut blocks {
        compress(u64::from_le_bytes(b.try_into().expect("8 bytes")), &mut v);
    }
    let mut last = [0u8; 8];
    last[..blocks.remainder().len()].copy_from_slice(blocks.remainder());
    last[7] = data.len() as u8;
    compress(u64::from_le_bytes(last), &mut v);
    v[2] ^= 0xff;
    for _ in 0..4 {
        round(&mut v);
    }
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

/// How a model hashes: placement v1 under a seed, or keyed-v1 with the
/// values §15.2 derives from the secret.
#[derive(Clone, Copy, Debug)]
pub enum SpecHashing {
    /// v1 (§3) with this seed.
    Seeded(u64),
    /// keyed-v1 (§15.2).
    Keyed {
        /// The caller's secret `K`.
        secret: [u8; 16],
        /// `node_key`, derived from `K`.
        node_key: [u8; 16],
        /// `G`, derived from `K`.
        group_seed: u64,
    },
}

impl SpecHashing {
    /// keyed-v1 under `secret`, its node key and group seed derived as §15.2 says.
    pub fn keyed(secret: [u8; 16]) -> SpecHashing {
        let mut node_key = [0u8; 16];
        node_key[..8].copy_from_slice(&siphash24(&secret, b"longstraw/keyed-v1/node-key/0").to_le_bytes());
        node_key[8..].copy_from_slice(&siphash24(&secret, b"longstraw/keyed-v1/node-key/1").to_le_bytes());
        SpecHashing::Keyed {
            secret,
            node_key,
            group_seed: siphash24(&secret, b"longstraw/keyed-v1/group-seed"),
        }
    }

    /// The key hash.
    pub fn key_hash(&self, key: &[u8]) -> u64 {
        match self {
            SpecHashing::Seeded(seed) => key_hash(key, *seed),
            SpecHashing::Keyed { secret, .. } => siphash24(secret, key),
        }
    }

    /// The node hash.
    pub fn node_hash(&self, id: &[u8]) -> u64 {
        match self {
            SpecHashing::Seeded(seed) => node_hash(id, *seed),
            SpecHashing::Keyed { node_key, .. } => siphash24(node_key, id),
        }
    }

    /// The key hash a table's partition `p` is placed by (§10, §15.3).
    pub fn partition_key_hash(&self, p: u32) -> u64 {
        self.key_hash(&p.to_le_bytes())
    }

    /// Whether this is keyed-v1.
    pub fn is_keyed(&self) -> bool {
        matches!(self, SpecHashing::Keyed { .. })
    }
}

/// The core's scalar oracle over nodes given by id and weight, hashed by a
/// [`SpecHashing`]. The oracle takes key hashes, so the table's own seed
/// (0 here) never matters.
pub struct SpecOracle {
    hashing: SpecHashing,
    hashes: Vec<u64>,
    weights: Vec<f64>,
}

impl SpecOracle {
    /// The oracle of `(id, weight)` nodes in index order.
    pub fn new<'a>(hashing: SpecHashing, nodes: impl IntoIterator<Item = (&'a [u8], f64)>) -> SpecOracle {
        let (hashes, weights) = nodes.into_iter().map(|(id, w)| (hashing.node_hash(id), w)).unzip();
        SpecOracle {
            hashing,
            hashes,
            weights,
        }
    }

    fn table(&self) -> NodeTable<'_> {
        NodeTable::new(0, &self.hashes, Some(&self.weights)).expect("the model holds valid nodes")
    }

    /// The key hash of a key.
    pub fn key_hash(&self, key: &[u8]) -> u64 {
        self.hashing.key_hash(key)
    }

    /// The model's node hashes in index order.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The first `k` node indices of the ranking of a key hash.
    pub fn top_k_of_hash(&self, kh: u64, k: usize) -> Vec<u32> {
        let mut out = vec![Ranked::EMPTY; k];
        let n = self.table().oracle_top_k(kh, &mut out);
        out[..n].iter().map(|r| r.index).collect()
    }

    /// The whole ranking of a key hash (eligible nodes only).
    pub fn rank_of_hash(&self, kh: u64) -> Vec<u32> {
        self.top_k_of_hash(kh, self.hashes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SipHash paper's Appendix A vectors (key 00..0f, message 00..len-1).
    #[test]
    fn siphash_matches_the_reference_vectors() {
        let key: [u8; 16] = std::array::from_fn(|i| i as u8);
        let msg: [u8; 64] = std::array::from_fn(|i| i as u8);
        for (len, want) in [
            (0, 0x726f_db47_dd0e_0e31u64),
            (1, 0x74f8_39c5_93dc_67fd),
            (15, 0xa129_ca61_49be_45e5),
            (63, 0x958a_324c_eb06_4572),
        ] {
            assert_eq!(siphash24(&key, &msg[..len]), want, "len {len}");
        }
    }

    /// §15.5's frozen `derived` values (tests/vectors/keyed-v1.json, first
    /// and last secret): the model's node key and group seed derivation.
    #[test]
    fn derivation_matches_the_frozen_vectors() {
        let hex = |s: &str| -> [u8; 16] {
            std::array::from_fn(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        };
        for (secret, node_key, group_seed) in [
            (
                "000102030405060708090a0b0c0d0e0f",
                "2383c8618dff2e97ad7def9a3ece3e2b",
                10195259445779703170u64,
            ),
            (
                "4666b77a2f3f818e7d8d88fb4d0ab31f",
                "e321ed7d575f13972d2916f534d95e98",
                11728162231518150017,
            ),
        ] {
            match SpecHashing::keyed(hex(secret)) {
                SpecHashing::Keyed {
                    node_key: nk,
                    group_seed: g,
                    ..
                } => {
                    assert_eq!(nk, hex(node_key), "node key of {secret}");
                    assert_eq!(g, group_seed, "group seed of {secret}");
                }
                SpecHashing::Seeded(_) => unreachable!("keyed() is keyed"),
            }
        }
    }
}
