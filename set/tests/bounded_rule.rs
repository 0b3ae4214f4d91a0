//! The stateless bounded-loads rule (SPEC.md §16.7) against the counting
//! `BoundedLoad` (§16.1): with the same counts they admit the same nodes.

use longstraw_set::{BoundedLoad, BoundedRule, Error, ModeOptions, Options, Rendezvous};

#[test]
fn the_rule_admits_what_bounded_load_acquires() {
    let ids: Vec<String> = (0..7).map(|i| format!("node-{i}")).collect();
    let weights = [1.0, 2.0, 1.0, 0.5, 3.0, 1.0, 1.0];
    let nodes: Vec<(&str, f64)> = ids.iter().map(String::as_str).zip(weights).collect();
    let bounded = BoundedLoad::with_weights(nodes.clone(), Options::default(), 1.25).unwrap();
    let set = Rendezvous::with_weights(nodes, Options::default(), ModeOptions::Flat).unwrap();
    let rule = BoundedRule::new(set.snapshot(), 1.25).unwrap();
    let mut loads = vec![0u64; ids.len()];
    let mut leases = Vec::new();
    // Hot keys and cold keys, some released along the way.
    for i in 0..2000u32 {
        let key = if i % 3 == 0 {
            format!("cold:{i}")
        } else {
            format!("hot:{}", i % 2)
        };
        let total = leases.len() as u64;
        let a = rule.admit(key.as_bytes(), &loads, total).unwrap();
        assert!(!a.over_cap);
        let lease = bounded.acquire_owned(key.as_bytes()).unwrap();
        assert_eq!(
            set.snapshot().members().ids()[a.index as usize].as_ref(),
            lease.node_id(),
            "request {i}"
        );
        assert_eq!(a.owner, lease.is_owner());
        loads[a.index as usize] += 1;
        leases.push((a.index, lease));
        if i % 5 == 4 {
            let (index, lease) = leases.swap_remove((i as usize * 7) % leases.len());
            loads[index as usize] -= 1;
            drop(lease);
        }
    }
    assert_eq!(bounded.in_flight(), leases.len() as u64);
}

#[test]
fn bad_counts_are_refused_with_a_message() {
    let set = Rendezvous::flat(["a", "b"], Options::default()).unwrap();
    let rule = BoundedRule::new(set.snapshot(), 1.25).unwrap();
    let e = rule.admit(b"k", &[5, 5], 3).unwrap_err();
    assert_eq!(e, Error::InconsistentLoads { sum: 10, in_flight: 3 });
    assert!(e.to_string().contains("sum to 10, more than the in-flight total 3"));
    assert!(rule.admit(b"k", &[0], 0).is_err());
    assert!(BoundedRule::new(set.snapshot(), 1.0).is_err());
    // Both nodes unavailable: no eligible node. The owner holding 10 of 10
    // (cap ceil(0.625 * 11) = 7) and the other node unavailable: the owner,
    // over its cap.
    assert!(rule.admit_available(b"k", &[0, 0], 0, |_| false).is_err());
    let owner = set.snapshot().owner_index(b"k").unwrap();
    let mut loads = [0, 0];
    loads[owner as usize] = 10;
    assert!(!rule.admit(b"k", &loads, 10).unwrap().owner);
    let a = rule.admit_available(b"k", &loads, 10, |i| i == owner).unwrap();
    assert_eq!((a.index, a.owner, a.over_cap), (owner, true, true));
}
