//! Membership changes, validation errors, and snapshot semantics.

use longstraw::{Error as CoreError, WeightError};
use longstraw_set::{Error, Options, Rendezvous};

fn set(ids: &[&str]) -> Rendezvous {
    Rendezvous::flat(ids, Options::default()).unwrap()
}

#[test]
fn errors_are_specific() {
    let r = set(&["a", "b"]);
    assert_eq!(r.add("a", 1.0), Err(Error::DuplicateNode { id: b"a".to_vec() }));
    assert_eq!(r.remove("zz"), Err(Error::UnknownNode { id: b"zz".to_vec() }));
    assert_eq!(r.set_weight("zz", 1.0), Err(Error::UnknownNode { id: b"zz".to_vec() }));
    assert_eq!(r.add("", 1.0), Err(Error::Core(CoreError::EmptyNodeId)));
    assert_eq!(
        r.add(vec![b'x'; 65_536], 1.0),
        Err(Error::Core(CoreError::NodeIdTooLong { len: 65_536 }))
    );
    assert!(r.add(vec![b'x'; 65_535], 1.0).is_ok());
    for (w, reason) in [
        (f64::NAN, WeightError::NaN),
        (-0.0, WeightError::Negative),
        (-1.0, WeightError::Negative),
        (f64::INFINITY, WeightError::Infinite),
        (1e-300, WeightError::TooSmall),
        (1e30, WeightError::TooLarge),
    ] {
        match r.set_weight("a", w) {
            Err(Error::Core(CoreError::InvalidWeight { reason: got, .. })) => assert_eq!(got, reason),
            other => panic!("{w}: {other:?}"),
        }
    }
    let msg = r.add("c", f64::NAN).unwrap_err().to_string();
    assert!(msg.contains("NaN"), "{msg}");
    // A failed change publishes nothing.
    assert_eq!(r.snapshot().generation(), 1);
    assert_eq!(r.len(), 3);
}

#[test]
fn empty_and_drained_sets_fail_owner_and_rank_empty() {
    let r = set(&[]);
    assert_eq!(
        r.load().owner(b"k").unwrap_err(),
        Error::Core(CoreError::NoEligibleNodes)
    );
    assert!(r.load().top_k(b"k", 3).is_empty());
    r.add("a", 0.0).unwrap();
    assert!(r.load().owner(b"k").is_err());
    assert!(r.load().rank(b"k").is_empty());
    r.set_weight("a", 2.0).unwrap();
    assert_eq!(r.load().owner(b"k").unwrap().id(), b"a");
}

#[test]
fn update_is_atomic() {
    let r = set(&["a", "b", "c"]);
    let err = r.update(|u| {
        u.add("d", 1.0)?;
        u.remove("nope")
    });
    assert!(err.is_err());
    assert_eq!(r.len(), 3, "a failed update must publish nothing");
    r.update(|u| {
        u.add("d", 1.0)?;
        u.remove("a")?;
        u.set_weight("b", 3.0)
    })
    .unwrap();
    let s = r.snapshot();
    assert_eq!(s.len(), 3);
    assert!(s.contains(b"d") && !s.contains(b"a"));
    assert_eq!(s.members().weights()[s.index_of(b"b").unwrap() as usize], 3.0);
}

#[test]
fn snapshots_are_immutable_and_indices_belong_to_them() {
    let r = set(&["a", "b", "c"]);
    let old = r.snapshot();
    let owner = old.owner(b"key").unwrap();
    r.remove(owner.id()).unwrap();
    // The old snapshot and its ids are still valid.
    assert_eq!(old.owner(b"key").unwrap().id(), owner.id());
    assert_eq!(old.node(owner.index()).unwrap().id(), owner.id());
    let new = r.snapshot();
    assert_ne!(new.owner(b"key").unwrap().id(), owner.id());
    assert_eq!(new.generation(), old.generation() + 1);
}

#[test]
fn top_k_larger_than_n_gives_n() {
    let r = set(&["a", "b", "c"]);
    assert_eq!(r.load().top_k(b"k", 10).len(), 3);
    assert_eq!(r.load().top_k(b"k", 0).len(), 0);
    let mut out = [u32::MAX; 5];
    assert_eq!(r.load().top_k_into(b"k", &mut out), 3);
    assert_eq!(out[3..], [u32::MAX, u32::MAX], "nothing written past the result");
}
