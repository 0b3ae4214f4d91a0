//! Keyed placement (`keyed-v1`, SPEC.md §15): every hash of caller bytes is
//! SipHash-2-4 under a secret, so whoever chooses keys cannot predict or steer
//! where they land. Everything after the hashes is exactly placement v1.

use core::fmt;
use core::hash::Hasher;

use siphasher::sip::SipHasher24;

use crate::error::Error;
use crate::hash::{key_hash as seeded_key_hash, node_hash as seeded_node_hash};

pub use crate::limits::SECRET_LEN;

/// Labels hashed under the caller's secret to derive the node key and the
/// group seed (SPEC.md §15.2).
const NODE_KEY_LABELS: [&[u8]; 2] = [b"longstraw/keyed-v1/node-key/0", b"longstraw/keyed-v1/node-key/1"];
const GROUP_SEED_LABEL: &[u8] = b"longstraw/keyed-v1/group-seed";

/// A 128-bit SipHash key. Its `Debug` never shows the bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Secret {
    k0: u64,
    k1: u64,
}

impl Secret {
    /// A secret from exactly [`SECRET_LEN`] bytes (`k0` is the first 8 bytes
    /// little-endian, `k1` the last 8, as in the SipHash reference code).
    pub fn from_bytes(bytes: &[u8]) -> Result<Secret, Error> {
        let bytes: &[u8; SECRET_LEN] = bytes
            .try_into()
            .map_err(|_| Error::BadSecretLength { len: bytes.len() })?;
        let (lo, hi) = bytes.split_at(8);
        Ok(Secret {
            k0: u64::from_le_bytes(lo.try_into().unwrap_or([0; 8])),
            k1: u64::from_le_bytes(hi.try_into().unwrap_or([0; 8])),
        })
    }

    /// The secret's bytes. Only for a caller that explicitly asks to export it.
    pub fn expose_bytes(&self) -> [u8; SECRET_LEN] {
        let mut out = [0u8; SECRET_LEN];
        out[..8].copy_from_slice(&self.k0.to_le_bytes());
        out[8..].copy_from_slice(&self.k1.to_le_bytes());
        out
    }

    /// SipHash-2-4 of `data` under this key.
    #[inline]
    pub fn siphash24(&self, data: &[u8]) -> u64 {
        let mut h = SipHasher24::new_with_keys(self.k0, self.k1);
        h.write(data);
        h.finish()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// The keys of one keyed-v1 set: the caller's secret and the two values
/// derived from it once (SPEC.md §15.2). `Debug` shows none of them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Keyed {
    key: Secret,
    node: Secret,
    group_seed: u64,
}

impl Keyed {
    /// Derives the node key and the group seed from `secret`.
    pub fn new(secret: Secret) -> Keyed {
        Keyed {
            key: secret,
            node: Secret {
                k0: secret.siphash24(NODE_KEY_LABELS[0]),
                k1: secret.siphash24(NODE_KEY_LABELS[1]),
            },
            group_seed: secret.siphash24(GROUP_SEED_LABEL),
        }
    }

    /// The caller's secret.
    pub fn secret(&self) -> Secret {
        self.key
    }
}

impl fmt::Debug for Keyed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Keyed(<redacted>)")
    }
}

/// How a table hashes keys, node ids, partitions and groups: placement v1's
/// seeded XXH3 (SPEC.md §3) or keyed-v1's SipHash-2-4 under a secret (§15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hashing {
    /// Placement v1 with this seed.
    Seeded(u64),
    /// keyed-v1.
    Keyed(Keyed),
}

impl Default for Hashing {
    fn default() -> Self {
        Hashing::Seeded(0)
    }
}

impl Hashing {
    /// keyed-v1 under `secret`.
    pub fn keyed(secret: Secret) -> Hashing {
        Hashing::Keyed(Keyed::new(secret))
    }

    /// The hashing a caller selects (SPEC.md §15.1): a secret selects
    /// keyed-v1, otherwise v1 with the seed (default 0). Giving both is an
    /// error, never a silent choice.
    pub fn select(seed: Option<u64>, secret: Option<Secret>) -> Result<Hashing, Error> {
        match (seed, secret) {
            (Some(_), Some(_)) => Err(Error::SeedWithSecret),
            (_, Some(secret)) => Ok(Hashing::keyed(secret)),
            (seed, None) => Ok(Hashing::Seeded(seed.unwrap_or(0))),
        }
    }

    /// The key hash (§3 or §15.2).
    #[inline]
    pub fn key_hash(&self, key: &[u8]) -> u64 {
        match self {
            Hashing::Seeded(seed) => seeded_key_hash(key, *seed),
            Hashing::Keyed(k) => k.key.siphash24(key),
        }
    }

    /// The node hash (§3 or §15.2).
    #[inline]
    pub fn node_hash(&self, id: &[u8]) -> u64 {
        match self {
            Hashing::Seeded(seed) => seeded_node_hash(id, *seed),
            Hashing::Keyed(k) => k.node.siphash24(id),
        }
    }

    /// The key hash a partition is placed by (§10): the key hash of its 4
    /// little-endian bytes.
    #[inline]
    pub fn partition_key_hash(&self, partition: u32) -> u64 {
        self.key_hash(&partition.to_le_bytes())
    }

    /// The value §11.2's group hash uses as `seed`: the seed itself, or
    /// keyed-v1's derived group seed.
    #[inline]
    pub fn group_seed(&self) -> u64 {
        match self {
            Hashing::Seeded(seed) => *seed,
            Hashing::Keyed(k) => k.group_seed,
        }
    }

    /// The v1 seed, or `None` for a keyed table (it has no seed).
    pub fn seed(&self) -> Option<u64> {
        match self {
            Hashing::Seeded(seed) => Some(*seed),
            Hashing::Keyed(_) => None,
        }
    }

    /// Whether this is keyed-v1.
    pub fn is_keyed(&self) -> bool {
        matches!(self, Hashing::Keyed(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SipHash paper's Appendix A vectors (key 00..0f, message 00..len-1),
    /// from the reference implementation's `vectors.h`: an independent check
    /// that the PRF is SipHash-2-4 with the reference key encoding.
    #[test]
    fn matches_siphash24_reference_vectors() {
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let secret = Secret::from_bytes(&key).unwrap();
        let msg: [u8; 64] = core::array::from_fn(|i| i as u8);
        let expected: [(usize, u64); 4] = [
            (0, 0x726f_db47_dd0e_0e31),
            (1, 0x74f8_39c5_93dc_67fd),
            (15, 0xa129_ca61_49be_45e5),
            (63, 0x958a_324c_eb06_4572),
        ];
        for (len, want) in expected {
            assert_eq!(secret.siphash24(&msg[..len]), want, "len {len}");
        }
    }

    #[test]
    fn rejects_wrong_secret_lengths() {
        for len in [0, 8, 15, 17, 32] {
            assert_eq!(
                Secret::from_bytes(&[7u8; 32][..len]).unwrap_err(),
                Error::BadSecretLength { len }
            );
        }
    }

    #[test]
    fn a_secret_and_a_seed_exclude_each_other() {
        let secret = Secret::from_bytes(&[1; 16]).unwrap();
        assert_eq!(Hashing::select(Some(0), Some(secret)), Err(Error::SeedWithSecret));
        assert_eq!(Hashing::select(None, Some(secret)), Ok(Hashing::keyed(secret)));
        assert_eq!(Hashing::select(Some(5), None), Ok(Hashing::Seeded(5)));
        assert_eq!(Hashing::select(None, None), Ok(Hashing::Seeded(0)));
    }

    #[test]
    fn debug_never_shows_the_secret() {
        let secret = Secret::from_bytes(&[0xAB; 16]).unwrap();
        let mut buf = [0u8; 256];
        assert_eq!(
            format_into(&mut buf, &Hashing::keyed(secret)),
            "Keyed(Keyed(<redacted>))"
        );
        assert_eq!(format_into(&mut buf, &secret), "Secret(<redacted>)");
    }

    #[test]
    fn exposes_the_bytes_it_was_built_from() {
        let bytes: [u8; 16] = core::array::from_fn(|i| (i * 17) as u8);
        assert_eq!(Secret::from_bytes(&bytes).unwrap().expose_bytes(), bytes);
    }

    fn format_into<'b>(buf: &'b mut [u8], value: &dyn fmt::Debug) -> &'b str {
        struct Cursor<'c>(&'c mut [u8], usize);
        impl fmt::Write for Cursor<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                let end = self.1 + s.len();
                self.0
                    .get_mut(self.1..end)
                    .ok_or(fmt::Error)?
                    .copy_from_slice(s.as_bytes());
                self.1 = end;
                Ok(())
            }
        }
        let mut c = Cursor(buf, 0);
        fmt::write(&mut c, format_args!("{value:?}")).unwrap();
        let len = c.1;
        core::str::from_utf8(&buf[..len]).unwrap()
    }
}
