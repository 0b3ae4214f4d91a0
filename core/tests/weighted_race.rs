//! The weighted race's shortcuts (logarithm-free candidate bounds,
//! and the first chunk narrowed by rerunning the vector filter) against a
//! brute-force model built from the spec's exact standings, on every backend.
//! The tables are the ones the shortcuts find hardest: whole chunks with the
//! same `(1 - u) / w`, scores near `u = 1`, tiny and huge weights, drained
//! nodes between the winners.

use longstraw::{rank_order, Backend, NodeTable, Ranked, Shape};

/// SplitMix64: a fixed, seedable source of test inputs.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        longstraw::mix(self.0)
    }
}

/// Every eligible node's exact standing, best first (SPEC.md §5, §6).
fn model(key_hash: u64, hashes: &[u64], weights: &[f64]) -> Vec<Ranked> {
    let mut all: Vec<Ranked> = (0..hashes.len())
        .filter(|&i| weights[i] != 0.0)
        .map(|i| Ranked::weighted(key_hash, hashes[i], weights[i], i as u32))
        .collect();
    all.sort_by(rank_order);
    all
}

fn check(name: &str, hashes: &[u64], weights: &[f64], keys: usize, rng: &mut Prng) {
    let table = NodeTable::new(0, hashes, Some(weights)).expect("valid table");
    // Equal-weight tables leave `Ranked::weighted` at 0.0 (see its docs).
    let weighted = table.summary().shape == Shape::Weighted;
    for _ in 0..keys {
        let key_hash = rng.next();
        let want = model(key_hash, hashes, weights);
        for backend in Backend::available() {
            let t = table.with_backend(backend);
            assert_eq!(
                t.owner_of_hash(key_hash),
                want.first().map(|r| r.index),
                "{name}: owner of {key_hash:#x} on {}",
                backend.name()
            );
            let mut top = [Ranked::EMPTY; 3];
            let got = t.top_k_of_hash(key_hash, &mut top);
            let k = want.len().min(3);
            assert_eq!(got, k, "{name}: top-3 length on {}", backend.name());
            for (g, w) in top[..k].iter().zip(&want) {
                assert_eq!(g.index, w.index, "{name}: top-3 of {key_hash:#x} on {}", backend.name());
                if weighted {
                    assert_eq!(g.weighted.to_bits(), w.weighted.to_bits(), "{name}: weighted score");
                }
            }
        }
    }
}

#[test]
fn whole_chunks_with_equal_lower_bounds() {
    let mut rng = Prng(14);
    for n in [3, 8, 16, 17, 33, 64, 100] {
        // One hash everywhere: every lane has the same raw score; weights 2
        // and a single 3 make the table weighted.
        let hashes = vec![rng.next(); n];
        let mut weights = vec![2.0; n];
        weights[n / 2] = 3.0;
        check(&format!("one hash n={n}"), &hashes, &weights, 20, &mut rng);
        // Two hashes, equal weights but one: ties by index inside each.
        let pair = [rng.next(), rng.next()];
        let hashes: Vec<u64> = (0..n).map(|i| pair[i % 2]).collect();
        check(&format!("two hashes n={n}"), &hashes, &weights, 20, &mut rng);
    }
}

#[test]
fn random_weighted_tables() {
    let mut rng = Prng(41);
    for n in [2, 5, 8, 15, 16, 31, 32, 64, 65, 257] {
        let hashes: Vec<u64> = (0..n).map(|_| rng.next()).collect();
        let layouts: [(&str, Vec<f64>); 4] = [
            ("four classes", (0..n).map(|i| (i % 4 + 1) as f64).collect()),
            ("distinct", (0..n).map(|i| 1.0 + i as f64 / n as f64).collect()),
            (
                "extreme",
                (0..n)
                    .map(|i| [longstraw::MIN_WEIGHT, 1.0, longstraw::MAX_WEIGHT, 1e-10][i % 4])
                    .collect(),
            ),
            (
                "drained",
                (0..n)
                    .map(|i| if i % 3 == 0 { 0.0 } else { (i % 5 + 1) as f64 })
                    .collect(),
            ),
        ];
        for (name, weights) in layouts {
            if weights.iter().all(|&w| w == 0.0) {
                continue;
            }
            check(&format!("{name} n={n}"), &hashes, &weights, 200, &mut rng);
        }
    }
}
