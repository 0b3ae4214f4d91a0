//! `backends`: every backend this CPU supports against the scalar oracle, on
//! tables built from fuzz input: owner, top-k (full `Ranked` values, bit for
//! bit) and the batch path.
use longstraw::{Backend, NodeTable, PackedKeys, Ranked, MAX_WEIGHT, MIN_WEIGHT};

/// Reads little-endian integers from the input, then zeros.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |acc, i| acc | (u64::from(self.u8()) << (8 * i)))
    }
}

/// A valid weight chosen by one byte (and more input for arbitrary ones).
fn weight(input: &mut Input<'_>) -> f64 {
    match input.u8() % 8 {
        0 => 0.0,
        1 => MIN_WEIGHT,
        2 => MAX_WEIGHT,
        3 | 4 => 1.0,
        5 => 2.0,
        _ => {
            // A normal f64 in [2^-64, 2^64).
            let mantissa = input.u64() & ((1 << 52) - 1);
            let exponent = 1023 - 64 + u64::from(input.u8() % 128);
            f64::from_bits((exponent << 52) | mantissa)
        }
    }
}

fn same(a: &Ranked, b: &Ranked) -> bool {
    a.weighted.to_bits() == b.weighted.to_bits()
        && a.score == b.score
        && a.node_hash == b.node_hash
        && a.index == b.index
}

/// The `backends` target.
pub fn check(data: &[u8]) {
    let mut input = Input(data);
    let n = 1 + usize::from(input.u8()) + 256 * usize::from(input.u8() % 4);
    let seed = input.u64();
    let layout = input.u8();
    let distinct = 1 + usize::from(input.u8());
    // Few distinct hashes (from the input) give duplicates; many give a normal table.
    let pool: Vec<u64> = (0..distinct.min(n)).map(|_| input.u64()).collect();
    let hashes: Vec<u64> = (0..n)
        .map(|i| {
            pool[i % pool.len()]
                ^ if distinct > 200 {
                    (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                } else {
                    0
                }
        })
        .collect();
    let weights: Option<Vec<f64>> = match layout % 3 {
        0 => None,
        1 => {
            let classes: Vec<f64> = (0..1 + input.u8() % 6).map(|_| weight(&mut input)).collect();
            Some(
                (0..n)
                    .map(|i| classes[(i * 7 + usize::from(layout)) % classes.len()])
                    .collect(),
            )
        }
        _ => Some((0..n).map(|_| weight(&mut input)).collect()),
    };
    let Ok(table) = NodeTable::new(seed, &hashes, weights.as_deref()) else {
        return;
    };
    let key_hashes: Vec<u64> = (0..1 + input.u8() % 8).map(|_| input.u64()).collect();
    let k = 1 + usize::from(input.u8() % 20);
    for &kh in &key_hashes {
        let want_owner = table.oracle_owner(kh);
        let mut want = vec![Ranked::EMPTY; k];
        let want_len = table.oracle_top_k(kh, &mut want);
        for backend in Backend::available() {
            let t = table.with_backend(backend);
            assert_eq!(t.owner_of_hash(kh), want_owner, "owner on {}", backend.name());
            let mut got = vec![Ranked::EMPTY; k];
            assert_eq!(
                t.top_k_of_hash(kh, &mut got),
                want_len,
                "top-{k} length on {}",
                backend.name()
            );
            for (a, b) in got[..want_len].iter().zip(&want[..want_len]) {
                assert!(same(a, b), "top-{k} on {}: {a:?} != {b:?}", backend.name());
            }
        }
    }
    // The batch path, on the remaining input as keys of 0..8 bytes.
    let rest = input.0;
    let offsets: Vec<u32> = (0..=rest.len()).step_by(5).map(|o| o as u32).collect();
    if let Ok(batch) = PackedKeys::new(rest, &offsets) {
        let mut want = vec![0u32; batch.len()];
        let ok = table.with_backend(Backend::SCALAR).owners(&batch, &mut want).is_ok();
        for backend in Backend::available() {
            let mut got = vec![0u32; batch.len()];
            assert_eq!(table.with_backend(backend).owners(&batch, &mut got).is_ok(), ok);
            assert_eq!(got, want, "batch on {}", backend.name());
        }
    }
}
