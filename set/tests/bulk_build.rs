//! Building a set at once gives the set, and the first error, that adding
//! its nodes one by one gives.

use longstraw_set::{ModeOptions, Options, Rendezvous, Snapshot};

type Node = (Vec<u8>, f64, Option<Vec<u8>>);

/// The reference: an empty set, then every node added in one update.
fn one_by_one(nodes: &[Node], options: Options) -> Result<Rendezvous, String> {
    let set = Rendezvous::flat(std::iter::empty::<&[u8]>(), options).map_err(|e| e.to_string())?;
    set.update(|u| {
        for (id, w, d) in nodes {
            match d {
                Some(d) => u.add_in_domain(id, *w, d)?,
                None => u.add(id, *w)?,
            }
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(set)
}

fn at_once(nodes: &[Node], options: Options) -> Result<Rendezvous, String> {
    Rendezvous::new(
        nodes.iter().map(|(id, w, d)| (id, *w, d.as_ref())),
        options,
        ModeOptions::Flat,
    )
    .map_err(|e| e.to_string())
}

fn assert_same(a: &Snapshot, b: &Snapshot, what: &str) {
    assert_eq!(a.members().ids(), b.members().ids(), "{what}");
    assert_eq!(a.members().hashes(), b.members().hashes(), "{what}");
    assert_eq!(a.members().weights(), b.members().weights(), "{what}");
    assert_eq!(a.members().domains(), b.members().domains(), "{what}");
    assert_eq!(a.members().domain_ids(), b.members().domain_ids(), "{what}");
    assert_eq!(a.eligible(), b.eligible(), "{what}");
    assert_eq!(a.members().table().summary(), b.members().table().summary(), "{what}");
    for (i, id) in a.members().ids().iter().enumerate() {
        assert_eq!(b.index_of(id), Some(i as u32), "{what}");
    }
    for k in 0..50u32 {
        let key = k.to_le_bytes();
        assert_eq!(a.owner_index(&key).ok(), b.owner_index(&key).ok(), "{what}");
        assert_eq!(a.top_k(&key, 3), b.top_k(&key, 3), "{what}");
        assert_eq!(a.top_k_distinct(&key, 3), b.top_k_distinct(&key, 3), "{what}");
    }
}

#[test]
fn building_at_once_equals_adding_one_by_one() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let weights = [0.0, 1.0, 2.5, 1.0, f64::NAN, -1.0];
    let mut built = 0;
    let mut refused = 0;
    for round in 0..600 {
        let n = (next() % 40) as usize;
        let labelled = round % 3 == 0;
        let nodes: Vec<Node> = (0..n)
            .map(|_| {
                let r = next();
                // Ids from a small range repeat; a rare empty id is invalid.
                let id = if r % 97 == 0 {
                    Vec::new()
                } else {
                    format!("n{}", r % 60).into_bytes()
                };
                // Invalid weights are rare, so most rounds build.
                let w = if r % 53 == 0 {
                    weights[4 + (r as usize >> 9) % 2]
                } else {
                    weights[(r >> 12) as usize % 4]
                };
                let d = match labelled && r % 5 != 0 {
                    true if r % 89 == 0 => Some(Vec::new()),
                    true => Some(format!("rack{}", (r >> 20) % 4).into_bytes()),
                    false => None,
                };
                (id, w, d)
            })
            .collect();
        for options in [
            Options::default(),
            Options {
                seed: Some(9),
                ..Options::default()
            },
        ] {
            match (one_by_one(&nodes, options.clone()), at_once(&nodes, options)) {
                (Ok(a), Ok(b)) => {
                    built += 1;
                    assert_same(&a.snapshot(), &b.snapshot(), &format!("round {round}"));
                    // Both sets take later changes alike.
                    let (extra, w) = (b"extra-node".as_slice(), 3.0);
                    a.add_in_domain(extra, w, b"rack9").unwrap();
                    b.add_in_domain(extra, w, b"rack9").unwrap();
                    if let Some(first) = a.snapshot().members().ids().first().cloned() {
                        a.remove(&first).unwrap();
                        b.remove(&first).unwrap();
                    }
                    assert_same(&a.snapshot(), &b.snapshot(), &format!("round {round}, changed"));
                }
                (Err(a), Err(b)) => {
                    refused += 1;
                    assert_eq!(a, b, "round {round}");
                }
                (a, b) => panic!("round {round}: one by one {:?}, at once {:?}", a.err(), b.err()),
            }
        }
    }
    // Both outcomes were exercised often.
    assert!(built > 200 && refused > 200, "built {built}, refused {refused}");
}

#[test]
fn a_refused_node_is_the_last_one_taken() {
    let nodes = [("a", 1.0), ("b", 1.0), ("a", 2.0), ("c", 1.0)];
    let taken = std::cell::Cell::new(0);
    let err = Rendezvous::with_weights(
        nodes.iter().map(|&(id, w)| {
            taken.set(taken.get() + 1);
            (id, w)
        }),
        Options::default(),
        ModeOptions::Flat,
    )
    .unwrap_err();
    assert_eq!(taken.get(), 3, "{err}");
    assert!(matches!(err, longstraw_set::Error::DuplicateNode { .. }), "{err}");
}
