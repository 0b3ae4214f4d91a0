//! `bounded`: random sequences of acquire, release, add, remove and
//! set_weight on a [`BoundedLoad`], single-threaded, against an integer
//! model of SPEC.md §16: one counter per node incarnation (a node removed and
//! added again gets a new one), the total, and the leases held.
//!
//! For every acquire the model walks the key's ranking (the core's scalar
//! oracle over the model's nodes) from the owner and takes the first node with
//! `load + 1 <= ceil((c * (w / W)) * T)`, computed in f64 in §16.1's order.
//! That f64 decision is itself checked against exact integer arithmetic
//! (`load * W < c * T * w`, all scaled to integers) wherever the two may not
//! differ by rounding, and the model asserts §16.3: some node has room.
//! After every step the set's total, loads and caps must equal the model's;
//! leases on removed nodes release cleanly, and owned leases outlive the set.

use std::collections::BTreeMap;

use arbitrary::{Result, Unstructured};
use longstraw_set::{BoundedLoad, Error, Lease, Options, OwnedLease, MIN_BALANCE_FACTOR};

use crate::input;
use crate::set_model::{same_outcome, Change, Model};
use crate::spec_hash::{SpecHashing, SpecOracle};

/// A balance factor: the usual ones, the smallest, random valid ones, and
/// every kind of invalid one.
fn balance_factor(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(match u.int_in_range(0..=15u8)? {
        0..=3 => 1.25,
        4 => 1.5,
        5 => 2.0,
        6 => MIN_BALANCE_FACTOR,
        7 => 1.1,
        8 => 1.0 + f64::from(u.int_in_range(1..=4096u16)?) / 1024.0,
        9 => f64::from_bits(u.arbitrary()?),
        10 => 1.0,
        11 => f64::NAN,
        12 => f64::INFINITY,
        13 => 0.5,
        14 => -1.25,
        _ => 1.0 + 1.0 / 131072.0, // just below the minimum
    })
}

/// A key: mostly one of four hot keys (so owners fill and the walk runs).
fn key(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    Ok(match u.int_in_range(0..=7u8)? {
        n @ 0..=5 => format!("hot-{}", n % 4).into_bytes(),
        _ => input::key(u)?,
    })
}

/// How many distinct ids [`id`] draws from: more than the walk takes from
/// one `top_k` call (16), so that a hot key's walk goes on node by node.
const BOUNDED_ID_POOL: u8 = 20;

/// A node id: mostly from a pool larger than the walk's first batch,
/// sometimes from the shared pools (invalid ones included).
fn id(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 | 1 => input::id(u)?,
        _ => format!("b-{}", u.int_in_range(0..=BOUNDED_ID_POOL - 1)?).into_bytes(),
    })
}

/// A weight that is mostly one of a few small values, so that nodes differ
/// and the exact check below applies.
fn weight(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => 3.0,
        1 => 0.25,
        2 => 1.5,
        _ => input::weight(u)?,
    })
}

/// `x * 2^shift` as an integer when that is exact and below `2^bits`.
fn scaled(x: f64, shift: i32, bits: u32) -> Option<u128> {
    let s = x * 2f64.powi(shift);
    (s >= 0.0 && s.fract() == 0.0 && s < 2f64.powi(bits as i32)).then_some(s as u128)
}

/// The model's decision with exact integers, `load < c * T * w / W`, when
/// every value scales to an integer and the two sides are not so close that
/// f64 rounding (well under a relative 2^-40 with at most a few dozen nodes)
/// may decide it; `None` otherwise.
fn exact_may_take(load: u64, total_after: u64, c: f64, w: f64, weights: &[f64]) -> Option<bool> {
    let c52 = scaled(c, 52, 63)?;
    let w8 = scaled(w, 8, 40)?;
    let big_w8 = weights.iter().map(|&x| scaled(x, 8, 40)).sum::<Option<u128>>()?;
    let lhs = (u128::from(load) * big_w8) << 52;
    let rhs = c52 * u128::from(total_after) * w8;
    (lhs.abs_diff(rhs) > rhs >> 40).then_some(lhs < rhs)
}

/// One node counter as the model keeps it (one per incarnation of an id).
struct Counter {
    id: Vec<u8>,
    load: u64,
}

/// The in-flight state: counters, the current node of each id, the total.
#[derive(Default)]
struct Loads {
    counters: Vec<Counter>,
    current: BTreeMap<Vec<u8>, usize>,
    total: u64,
}

impl Loads {
    fn join(&mut self, id: &[u8]) {
        self.counters.push(Counter {
            id: id.to_vec(),
            load: 0,
        });
        self.current.insert(id.to_vec(), self.counters.len() - 1);
    }

    fn release(&mut self, counter: usize) {
        let c = &mut self.counters[counter];
        c.load = c.load.checked_sub(1).expect("the model releases a lease it holds");
        self.total = self.total.checked_sub(1).expect("the model's total covers its leases");
    }
}

/// A lease and the model counter it holds a place on.
enum Held<'a> {
    Borrowed(Lease<'a>, usize),
    Owned(OwnedLease, usize),
}

impl Held<'_> {
    fn counter(&self) -> usize {
        match self {
            Held::Borrowed(_, c) | Held::Owned(_, c) => *c,
        }
    }
    fn node_id(&self) -> &[u8] {
        match self {
            Held::Borrowed(l, _) => l.node_id(),
            Held::Owned(l, _) => l.node_id(),
        }
    }
}

/// What the model says one acquire does: `None` when no node is eligible,
/// else the node's index in the model's order and whether it is the owner.
fn model_acquire(model: &Model, loads: &Loads, oracle: &SpecOracle, c: f64, key: &[u8]) -> Option<(usize, bool)> {
    let nodes = model.ordered();
    let weights: Vec<f64> = nodes.iter().map(|n| n.1).collect();
    let weight_sum: f64 = weights.iter().sum();
    let total_after = loads.total + 1;
    let ranking = oracle.rank_of_hash(oracle.key_hash(key));
    let first = *ranking.first()?;
    for &i in &ranking {
        let (id, w, _) = nodes[i as usize];
        assert!(w > 0.0, "the ranking holds drained node {id:?}");
        let load = loads.counters[loads.current[id]].load;
        let cap = ((c * (w / weight_sum)) * total_after as f64).ceil();
        let may_take = (load + 1) as f64 <= cap;
        if let Some(exact) = exact_may_take(load, total_after, c, w, &weights) {
            assert_eq!(
                may_take, exact,
                "f64 cap {cap} of {id:?} (load {load}, T {total_after}, c {c}, w {w}, W {weight_sum}) \
                 disagrees with exact arithmetic"
            );
        }
        if may_take {
            return Some((i as usize, i == first));
        }
    }
    panic!("§16.3: no node of {key:?}'s ranking has room (T {total_after}, c {c}, nodes {nodes:?})");
}

/// The set's total, loads and caps against the model's.
fn verify(set: &BoundedLoad, model: &Model, loads: &Loads, c: f64) {
    assert_eq!(set.in_flight(), loads.total, "in flight");
    let nodes = model.ordered();
    let got = set.loads();
    assert_eq!(got.len(), nodes.len(), "loads of every node");
    let weight_sum: f64 = nodes.iter().map(|n| n.1).sum();
    for (i, ((id, load), (want_id, w, _))) in got.iter().zip(&nodes).enumerate() {
        assert_eq!(&id[..], *want_id, "id of node {i}");
        assert_eq!(
            *load, loads.counters[loads.current[*want_id]].load,
            "load of {want_id:?}"
        );
        let share = if *w == 0.0 { 0.0 } else { c * (w / weight_sum) };
        let cap = (share * (loads.total + 1) as f64).ceil() as u64;
        assert_eq!(set.cap(i as u32), Some(cap), "cap of {want_id:?}");
    }
    assert_eq!(set.cap(nodes.len() as u32), None, "cap past the end");
    let on_current: u64 = got.iter().map(|(_, l)| l).sum();
    assert!(
        on_current <= loads.total,
        "current nodes hold {on_current} > total {}",
        loads.total
    );
}

/// The `bounded` target.
pub fn check(data: &[u8]) {
    let _ = run(&mut Unstructured::new(data));
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let hashing = if u.ratio(1, 4)? {
        SpecHashing::keyed(u.arbitrary()?)
    } else {
        SpecHashing::Seeded(if u.arbitrary()? { u.arbitrary()? } else { 0 })
    };
    let options = Options {
        seed: match hashing {
            SpecHashing::Seeded(s) => Some(s),
            SpecHashing::Keyed { .. } => None,
        },
        secret: match hashing {
            SpecHashing::Keyed { secret, .. } => Some(longstraw::Secret::from_bytes(&secret).expect("16 bytes")),
            SpecHashing::Seeded(_) => None,
        },
        backend: Some(input::backend(u)?),
        ..Options::default()
    };
    let c = balance_factor(u)?;
    let mut model = Model::default();
    let count = u.int_in_range(0..=usize::from(BOUNDED_ID_POOL))?;
    // Mostly distinct ids and equal weights, so that large sets build and a
    // hot key's walk can pass the first 16 ranks.
    let initial = (0..count)
        .map(|i| {
            let id = if u.ratio(1, 8)? {
                id(u)?
            } else {
                format!("b-{i}").into_bytes()
            };
            let w = if u.arbitrary()? { 1.0 } else { weight(u)? };
            Ok((id, w))
        })
        .collect::<Result<Vec<_>>>()?;
    let want = model.apply_all(
        &initial
            .iter()
            .map(|(id, w)| Change::Add(id.clone(), *w, None))
            .collect::<Vec<_>>(),
    );
    let built = BoundedLoad::with_weights(initial.iter().map(|(id, w)| (id, *w)), options, c);
    let c_valid = c.is_finite() && c >= MIN_BALANCE_FACTOR;
    let set = match (built, c_valid) {
        (Err(Error::InvalidBalanceFactor { factor }), false) => {
            assert_eq!(factor.to_bits(), c.to_bits(), "the error names the factor");
            return Ok(());
        }
        (got, false) => panic!("balance factor {c} accepted or refused wrongly: {got:?}"),
        (Ok(set), true) => {
            assert!(want.is_ok(), "built from {initial:?}, the model expects {want:?}");
            set
        }
        (Err(e), true) => {
            same_outcome(&Err(e), &want, || format!("with_weights {initial:?}"));
            return Ok(());
        }
    };
    assert_eq!(set.balance_factor().to_bits(), c.to_bits(), "balance factor");
    assert_eq!(set.snapshot().is_keyed(), hashing.is_keyed(), "keyed");
    let mut loads = Loads::default();
    for (id, ..) in model.ordered() {
        loads.join(id);
    }
    let mut held: Vec<Held<'_>> = Vec::new();
    for _ in 0..64 {
        if u.is_empty() {
            break;
        }
        match u.int_in_range(0..=11u8)? {
            0..=4 => {
                let key = key(u)?;
                let times = if u.ratio(1, 3)? { u.int_in_range(1..=40u8)? } else { 1 };
                for _ in 0..times {
                    let nodes = model.ordered();
                    let oracle = SpecOracle::new(hashing, nodes.iter().map(|n| (n.0, n.1)));
                    let want = model_acquire(&model, &loads, &oracle, c, &key);
                    let owned = u.ratio(1, 4)?;
                    let got = if owned {
                        set.acquire_owned(&key)
                            .map(|l| (l.node_id().to_vec(), l.index(), l.is_owner(), Some(l), None))
                    } else {
                        set.acquire(&key)
                            .map(|l| (l.node_id().to_vec(), l.index(), l.is_owner(), None, Some(l)))
                    };
                    match (got, want) {
                        (Err(Error::Core(longstraw::Error::NoEligibleNodes)), None) => {}
                        (Ok((id, index, is_owner, owned, borrowed)), Some((i, owner))) => {
                            assert_eq!(&id[..], nodes[i].0, "node of {key:?}");
                            assert_eq!(index as usize, i, "index of {key:?}");
                            assert_eq!(is_owner, owner, "is_owner of {key:?}");
                            let counter = loads.current[nodes[i].0];
                            loads.counters[counter].load += 1;
                            loads.total += 1;
                            held.extend(owned.map(|l| Held::Owned(l, counter)));
                            held.extend(borrowed.map(|l| Held::Borrowed(l, counter)));
                        }
                        (got, want) => panic!(
                            "acquire {key:?}: got {:?}, the model expects {want:?}",
                            got.map(|g| (g.0, g.1, g.2))
                        ),
                    }
                }
            }
            5..=7 if !held.is_empty() => {
                let lease = held.swap_remove(u.choose_index(held.len())?);
                let counter = lease.counter();
                assert_eq!(lease.node_id(), loads.counters[counter].id, "a held lease's node");
                drop(lease);
                loads.release(counter);
            }
            8 | 9 => {
                let change = match u.int_in_range(0..=2u8)? {
                    0 => Change::Add(id(u)?, weight(u)?, None),
                    1 => Change::Remove(id(u)?),
                    _ => Change::SetWeight(id(u)?, weight(u)?),
                };
                let want = model.apply(&change);
                let got = match &change {
                    Change::Add(id, w, _) => set.add(id, *w),
                    Change::Remove(id) => set.remove(id),
                    Change::SetWeight(id, w) => set.set_weight(id, *w),
                    Change::SetDomain(..) => unreachable!("not generated"),
                };
                same_outcome(&got, &want, || format!("{change:?}"));
                if want.is_ok() {
                    match &change {
                        Change::Add(id, ..) => loads.join(id),
                        Change::Remove(id) => {
                            loads.current.remove(id);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        verify(&set, &model, &loads, c);
    }
    // Borrowed leases end before the set; owned ones outlive it and still
    // release (AddressSanitizer checks the counters they touch).
    let mut owned = Vec::new();
    for lease in held {
        match lease {
            Held::Borrowed(l, counter) => {
                drop(l);
                loads.release(counter);
            }
            Held::Owned(l, counter) => owned.push((l, counter)),
        }
    }
    let still_held = owned.len() as u64;
    assert_eq!(set.in_flight(), still_held, "in flight once borrowed leases ended");
    drop(set);
    for (lease, counter) in owned {
        assert_eq!(
            lease.node_id(),
            loads.counters[counter].id,
            "an owned lease's node after the set"
        );
    }
    Ok(())
}
