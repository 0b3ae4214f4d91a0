//! Structure-aware pieces of fuzz input: ids, weights, labels and keys drawn
//! from small pools (so that duplicates, removals of present nodes and shared
//! domains are common) plus the invalid values each rule must refuse.

use arbitrary::{Result, Unstructured};

/// How many distinct valid ids the pool has.
pub const ID_POOL: u8 = 12;

/// A node id: mostly from a small pool, sometimes empty, arbitrary or too long.
pub fn id(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    Ok(match u.int_in_range(0..=31u8)? {
        0 => Vec::new(),
        1 => vec![b'x'; longstraw::MAX_NODE_ID_LEN + 1],
        2 => vec![0xAB; longstraw::MAX_NODE_ID_LEN],
        3 | 4 => u.arbitrary::<Vec<u8>>()?.into_iter().take(16).collect(),
        n => format!("node-{}", n % ID_POOL).into_bytes(),
    })
}

/// A weight: usually valid (0, 1, 2, the limits, a random normal value),
/// sometimes each kind of invalid one.
pub fn weight(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(match u.int_in_range(0..=19u8)? {
        0 | 1 => 0.0,
        2..=6 => 1.0,
        7 => 2.0,
        8 => 0.5,
        9 => longstraw::MIN_WEIGHT,
        10 => longstraw::MAX_WEIGHT,
        11 => f64::NAN,
        12 => -1.0,
        13 => -0.0,
        14 => f64::INFINITY,
        15 => f64::from_bits(1), // subnormal
        16 => 2f64.powi(65),
        17 => 2f64.powi(-65),
        _ => f64::from_bits(u.arbitrary()?),
    })
}

/// Whether a weight is valid, written from SPEC.md's rule (0, or a normal
/// f64 in [2^-64, 2^64]; -0.0 refused) without calling the core's validator.
pub fn weight_is_valid(w: f64) -> bool {
    (w == 0.0 && w.is_sign_positive()) || (w >= 2f64.powi(-64) && w <= 2f64.powi(64))
}

/// Whether an id has a valid length (1 to 65535 bytes).
pub fn id_is_valid(id: &[u8]) -> bool {
    (1..=65535).contains(&id.len())
}

/// A failure domain label: `None` (no label) or a label from a pool of
/// three, sometimes an empty or too long one (both invalid).
pub fn domain(u: &mut Unstructured<'_>) -> Result<Option<Vec<u8>>> {
    Ok(match u.int_in_range(0..=15u8)? {
        0..=5 => None,
        6 => Some(Vec::new()),
        7 => Some(vec![b'd'; longstraw::MAX_NODE_ID_LEN + 1]),
        n => Some(format!("rack-{}", n % 3).into_bytes()),
    })
}

/// A lookup key (up to 24 bytes).
pub fn key(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    Ok(u.arbitrary::<Vec<u8>>()?.into_iter().take(24).collect())
}

/// 1 to `max_count` lookup keys, each with a `k` in `0..=n + 2` (past the set's size on purpose).
pub fn keys_with_k(u: &mut Unstructured<'_>, n: usize, max_count: usize) -> Result<Vec<(Vec<u8>, usize)>> {
    let count = u.int_in_range(1..=max_count)?;
    (0..count).map(|_| Ok((key(u)?, u.int_in_range(0..=n + 2)?))).collect()
}

/// One of the backends this CPU has.
pub fn backend(u: &mut Unstructured<'_>) -> Result<longstraw::Backend> {
    let all: Vec<longstraw::Backend> = longstraw::Backend::available().collect();
    Ok(*u.choose(&all)?)
}
