//! `tables`: random change sequences on a table-mode and a skeleton-mode
//! [`Rendezvous`]. After every change the incrementally updated structure must
//! equal a fresh build from the same membership (every row of the table;
//! owner, top-k and `top_k_distinct` with random domains for both), the
//! table must equal the scalar oracle over each partition key, and a failed
//! change must publish nothing.

use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use longstraw::partition::partition_key_hash;
use longstraw::SkeletonShape;
use longstraw_set::{ModeOptions, Options, Rendezvous, SkeletonOptions, Snapshot, TableOptions};

use crate::input;
use crate::set_model::{firstn_by_domain, same_outcome, Change, Model, Oracle};

/// A fresh build of the model's membership in `mode`.
fn fresh(model: &Model, options: Options, mode: impl Into<ModeOptions>) -> Arc<Snapshot> {
    Rendezvous::new(model.ordered(), options, mode.into())
        .expect("a valid membership builds")
        .snapshot()
}

fn check_table(got: &Snapshot, fresh: &Snapshot, model: &Model, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
    let (rows, fresh_rows) = (
        got.as_table().expect("a table-mode set"),
        fresh.as_table().expect("a table-mode set"),
    );
    assert_eq!(got.partitions(), Some(rows.partitions()), "partitions");
    assert_eq!(got.replicas(), Some(rows.replicas()), "replicas");
    assert_eq!(
        got.distinct_domains(),
        Some(rows.distinct_domains()),
        "distinct_domains"
    );
    assert_eq!(got.shape(), None, "a table has no skeleton shape");
    let oracle = Oracle::new(got.seed().expect("fuzzed sets are v1 (seeded)"), &nodes);
    let labels: Vec<Option<&[u8]>> = nodes.iter().map(|n| n.2).collect();
    assert_eq!(got.len(), nodes.len(), "table len");
    for p in 0..rows.partitions() as u32 {
        assert_eq!(rows.row(p), fresh_rows.row(p), "row {p}: incremental vs fresh build");
        let full = oracle.rank_of_hash(partition_key_hash(p, got.seed().expect("fuzzed sets are v1 (seeded)")));
        let want = if rows.distinct_domains() {
            firstn_by_domain(&full, &labels, rows.replicas())
        } else {
            full.into_iter().take(rows.replicas()).collect()
        };
        assert_eq!(rows.row(p), want, "row {p}: table vs oracle");
    }
    for (key, k) in keys {
        let partition = got.partition(key).expect("a table has partitions");
        assert_eq!(
            partition,
            rows.partition(key),
            "partition of {key:?}: the set against its rows"
        );
        let pkh = partition_key_hash(partition, got.seed().expect("fuzzed sets are v1 (seeded)"));
        assert_eq!(Some(partition), fresh.partition(key).ok(), "partition of {key:?}");
        assert_eq!(
            got.owner_index(key).ok(),
            oracle.owner_of_hash(pkh),
            "table owner of {key:?}"
        );
        let mut out = vec![u32::MAX; *k];
        let n = got.top_k_into(key, &mut out);
        assert_eq!(out[..n], oracle.top_k_of_hash(pkh, *k)[..], "table top-{k} of {key:?}");
        let n = got.top_k_distinct_into(key, &mut out);
        let want = firstn_by_domain(&oracle.rank_of_hash(pkh), &labels, *k);
        assert_eq!(out[..n], want[..], "table top-{k} distinct of {key:?}");
    }
}

fn check_skeleton(got: &Snapshot, fresh: &Snapshot, model: &Model, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
    let shape = got.shape().expect("a skeleton-mode set");
    assert!(got.as_skeleton().is_some(), "a skeleton-mode set has a tree");
    assert_eq!(got.partitions(), None, "a skeleton has no partitions");
    assert!(
        matches!(got.partition(b"k"), Err(longstraw_set::Error::WrongMode { .. })),
        "partition() on a skeleton"
    );
    let labels: Vec<Option<&[u8]>> = nodes.iter().map(|n| n.2).collect();
    let oracle = Oracle::new(got.seed().expect("fuzzed sets are v1 (seeded)"), &nodes);
    assert_eq!(got.len(), nodes.len(), "skeleton len");
    assert_eq!(got.shape(), fresh.shape(), "skeleton shape");
    for (key, k) in keys {
        assert_eq!(
            got.owner_index(key).ok(),
            fresh.owner_index(key).ok(),
            "skeleton owner of {key:?}"
        );
        let (mut a, mut b) = (vec![u32::MAX; *k], vec![u32::MAX; *k]);
        let (n, m) = (got.top_k_into(key, &mut a), fresh.top_k_into(key, &mut b));
        assert_eq!(a[..n], b[..m], "skeleton top-{k} of {key:?}: incremental vs fresh");
        assert_eq!(n, (*k).min(got.eligible()), "skeleton top-{k} count");
        if n > 0 {
            assert_eq!(got.owner_index(key).ok(), Some(a[0]), "skeleton top-1 is the owner");
        }
        let mut full = vec![0; got.eligible()];
        let len = got.top_k_into(key, &mut full);
        assert_eq!(full[..n], a[..n], "skeleton top-{k} is a prefix of the full ranking");
        if shape.levels() == 0 {
            assert_eq!(
                full[..len],
                oracle.rank_of_hash(oracle.key_hash(key))[..],
                "a flat skeleton is flat HRW"
            );
        }
        let (n, m) = (
            got.top_k_distinct_into(key, &mut a),
            fresh.top_k_distinct_into(key, &mut b),
        );
        assert_eq!(a[..n], b[..m], "skeleton top-{k} distinct: incremental vs fresh");
        assert_eq!(
            a[..n],
            firstn_by_domain(&full[..len], &labels, *k)[..],
            "skeleton top-{k} distinct is firstn"
        );
    }
}

/// The `tables` target.
pub fn check(data: &[u8]) {
    let _ = run(&mut Unstructured::new(data));
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let set = Options {
        seed: if u.arbitrary()? { Some(u.arbitrary()?) } else { None },
        backend: Some(input::backend(u)?),
        ..Options::default()
    };
    let table_options = TableOptions {
        partition_bits: Some(u.int_in_range(0..=6u8)?),
        replicas: *u.choose(&[1usize, 1, 2, 3, 4, 32])?,
        distinct_domains: u.arbitrary()?,
        // Balanced rows are not plain rankings, so the per-row oracle check below does not apply.
        balance: None,
    };
    let shape = match u.int_in_range(0..=3u8)? {
        0 => None,
        1 => Some(SkeletonShape::FLAT),
        _ => Some(SkeletonShape::new(u.int_in_range(1..=3u8)?, u.int_in_range(1..=3u8)?).expect("in range")),
    };
    let mut model = Model::default();
    for _ in 0..u.int_in_range(0..=8u8)? {
        let _ = model.apply(&Change::Add(input::id(u)?, input::weight(u)?, input::domain(u)?));
    }
    if u.ratio(1, 4)? {
        // A larger fleet, so that skeleton groups and partitions hold several nodes.
        for i in 0..u.int_in_range(8..=64u32)? {
            let domain = u.ratio(1, 2)?.then(|| format!("zone-{}", i % 5).into_bytes());
            let _ = model.apply(&Change::Add(
                format!("bulk-{i}").into_bytes(),
                input::weight(u)?,
                domain,
            ));
        }
    }
    let table = Rendezvous::new(model.ordered(), set.clone(), table_options.into()).expect("valid");
    let skeleton = Rendezvous::new(model.ordered(), set.clone(), SkeletonOptions { shape }.into()).expect("valid");
    let skeleton_options = SkeletonOptions {
        shape: skeleton.snapshot().shape(),
    };
    for _ in 0..24 {
        if u.is_empty() {
            break;
        }
        let changes: Vec<Change> = if u.ratio(1, 5)? {
            let count = u.int_in_range(0..=3usize)?;
            (0..count).map(|_| Change::arbitrary(u)).collect::<Result<_>>()?
        } else {
            vec![Change::arbitrary(u)?]
        };
        let (t0, s0) = (table.snapshot(), skeleton.snapshot());
        let want = model.apply_all(&changes);
        let got_t = table.update(|up| {
            for c in &changes {
                match c {
                    Change::Add(id, w, None) => up.add(id, *w)?,
                    Change::Add(id, w, Some(d)) => up.add_in_domain(id, *w, d)?,
                    Change::Remove(id) => up.remove(id)?,
                    Change::SetWeight(id, w) => up.set_weight(id, *w)?,
                    Change::SetDomain(id, d) => up.set_domain(id, d.as_deref())?,
                }
            }
            Ok(())
        });
        let got_s = if let [c] = &changes[..] {
            // The single-change entry points, as bindings call them.
            match c {
                Change::Add(id, w, None) => skeleton.add(id, *w),
                Change::Add(id, w, Some(d)) => skeleton.add_in_domain(id, *w, d),
                Change::Remove(id) => skeleton.remove(id),
                Change::SetWeight(id, w) => skeleton.set_weight(id, *w),
                Change::SetDomain(id, d) => skeleton.set_domain(id, d.as_deref()),
            }
        } else {
            skeleton.update(|up| {
                for c in &changes {
                    match c {
                        Change::Add(id, w, None) => up.add(id, *w)?,
                        Change::Add(id, w, Some(d)) => up.add_in_domain(id, *w, d)?,
                        Change::Remove(id) => up.remove(id)?,
                        Change::SetWeight(id, w) => up.set_weight(id, *w)?,
                        Change::SetDomain(id, d) => up.set_domain(id, d.as_deref())?,
                    }
                }
                Ok(())
            })
        };
        same_outcome(&got_t, &want, || format!("table {changes:?}"));
        same_outcome(&got_s, &want, || format!("skeleton {changes:?}"));
        if want.is_err() {
            assert!(Arc::ptr_eq(&t0, &table.snapshot()), "a failed table change published");
            assert!(
                Arc::ptr_eq(&s0, &skeleton.snapshot()),
                "a failed skeleton change published"
            );
            continue;
        }
        let keys = input::keys_with_k(u, model.len(), 3)?;
        check_table(
            &table.snapshot(),
            &fresh(&model, set.clone(), table_options),
            &model,
            &keys,
        );
        check_skeleton(
            &skeleton.snapshot(),
            &fresh(&model, set.clone(), skeleton_options),
            &model,
            &keys,
        );
    }
    Ok(())
}
