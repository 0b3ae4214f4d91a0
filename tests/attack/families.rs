// Key families an attacker builds against placement v1 with a KNOWN seed.
// Shared by the Rust tests and the runnable example (examples/attack.rs); the
// Python example in tests/attack/attack.py builds the same families.

/// The first 16 bytes of XXH3's default secret (`kSecret` in xxhash.h). With
/// seed 0 XXH3 uses it as is; with a seed `s`, bytes 0..8 become
/// `read64(k) + s` and bytes 8..16 `read64(k + 8) - s`.
const XXH3_SECRET_HEAD: [u8; 16] = [
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
];

/// `count` distinct 1024-byte keys with one XXH3-64 hash under seed 0.
///
/// Above 240 bytes XXH3 accumulates 8-byte lanes: for lane `i` of a stripe it
/// adds `lo32(d ^ s) * hi32(d ^ s)` to `acc[i]` and `d` itself to `acc[i ^ 1]`.
/// When the low 32 bits of `d` equal those of the secret word `s`, the product
/// is 0 and only `d` is added. Lane 0 of stripes 0 and 1 then contributes
/// `d0 + d1`, so any high halves `h0 + h1 = const (mod 2^32)` give the same
/// accumulators, hence the same hash: 2^32 keys per family, in microseconds.
pub fn xxh3_colliding_family(count: usize) -> Vec<Vec<u8>> {
    let lo0 = u32::from_le_bytes([XXH3_SECRET_HEAD[0], XXH3_SECRET_HEAD[1], XXH3_SECRET_HEAD[2], XXH3_SECRET_HEAD[3]]);
    let lo1 = u32::from_le_bytes([XXH3_SECRET_HEAD[8], XXH3_SECRET_HEAD[9], XXH3_SECRET_HEAD[10], XXH3_SECRET_HEAD[11]]);
    (0..count as u32)
        .map(|h0| {
            let h1 = 0x1234_5678u32.wrapping_sub(h0);
            let mut key = vec![0u8; 1024];
            key[0..8].copy_from_slice(&(((h0 as u64) << 32) | lo0 as u64).to_le_bytes());
            key[64..72].copy_from_slice(&(((h1 as u64) << 32) | lo1 as u64).to_le_bytes());
            key
        })
        .collect()
}

/// The first `count` keys `attack-<i>` that `lands_on_target` accepts: the
/// brute force against a known seed (about `n` tries per key for `n` nodes).
pub fn brute_force_onto(count: usize, mut lands_on_target: impl FnMut(&[u8]) -> bool) -> Vec<Vec<u8>> {
    let mut keys = Vec::with_capacity(count);
    let mut i = 0u64;
    while keys.len() < count {
        let key = format!("attack-{i}").into_bytes();
        if lands_on_target(&key) {
            keys.push(key);
        }
        i += 1;
    }
    keys
}
