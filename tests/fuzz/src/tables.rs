//! `tables`: random change sequences on a partition [`Table`] and a
//! [`Skeleton`]. After every change the incrementally updated structure must
//! equal a fresh build from the same membership (every row of the table;
//! owner, top-k and `top_k_distinct` with random domains for both), the
//! table must equal the scalar oracle over each partition key, and a failed
//! change must publish nothing.

use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use longstraw::partition::partition_key_hash;
use longstraw::SkeletonShape;
use longstraw_set::{Options, Skeleton, SkeletonOptions, SkeletonSnapshot, Table, TableOptions, TableSnapshot};

use crate::input;
use crate::set_model::{firstn_by_domain, same_outcome, Change, Model, Oracle};

fn table_of(model: &Model, options: TableOptions) -> Arc<TableSnapshot> {
    Table::with_domains(model.ordered(), options)
        .expect("a valid membership builds")
        .snapshot()
}

fn skeleton_of(model: &Model, options: SkeletonOptions) -> Arc<SkeletonSnapshot> {
    Skeleton::with_domains(model.ordered(), options)
        .expect("a valid membership builds")
        .snapshot()
}

fn check_table(got: &TableSnapshot, fresh: &TableSnapshot, model: &Model, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
    let oracle = Oracle::new(got.seed().expect("fuzzed sets are v1 (seeded)"), &nodes);
    let labels: Vec<Option<&[u8]>> = nodes.iter().map(|n| n.2).collect();
    assert_eq!(got.len(), nodes.len(), "table len");
    for p in 0..got.partitions() as u32 {
        assert_eq!(got.row(p), fresh.row(p), "row {p}: incremental vs fresh build");
        let full = oracle.rank_of_hash(partition_key_hash(p, got.seed().expect("fuzzed sets are v1 (seeded)")));
        let want = if got.distinct_domains() {
            firstn_by_domain(&full, &labels, got.replicas())
        } else {
            full.into_iter().take(got.replicas()).collect()
        };
        assert_eq!(got.row(p), want, "row {p}: table vs oracle");
    }
    for (key, k) in keys {
        let pkh = partition_key_hash(got.partition(key), got.seed().expect("fuzzed sets are v1 (seeded)"));
        assert_eq!(got.partition(key), fresh.partition(key), "partition of {key:?}");
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

fn check_skeleton(got: &SkeletonSnapshot, fresh: &SkeletonSnapshot, model: &Model, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
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
        if got.shape().levels() == 0 {
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
        seed: if u.arbitrary()? { u.arbitrary()? } else { 0 },
        backend: Some(input::backend(u)?),
        ..Options::default()
    };
    let table_options = TableOptions {
        set,
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
    let table = Table::with_domains(model.ordered(), table_options).expect("valid");
    let skeleton = Skeleton::with_domains(model.ordered(), SkeletonOptions { set, shape }).expect("valid");
    let skeleton_options = SkeletonOptions {
        set,
        shape: Some(skeleton.snapshot().shape()),
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
        check_table(&table.snapshot(), &table_of(&model, table_options), &model, &keys);
        check_skeleton(
            &skeleton.snapshot(),
            &skeleton_of(&model, skeleton_options),
            &model,
            &keys,
        );
    }
    Ok(())
}
