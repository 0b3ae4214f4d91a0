//! Readers racing writers never see a torn state or a spurious error.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use longstraw_set::{Options, Rendezvous};

#[test]
fn lookups_racing_membership_changes() {
    let base: Vec<String> = (0..50).map(|i| format!("node-{i}")).collect();
    let r = Arc::new(Rendezvous::flat(&base, Options::default()).unwrap());
    let stop = Arc::new(AtomicBool::new(false));

    let writer = {
        let (r, stop) = (r.clone(), stop.clone());
        thread::spawn(move || {
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let id = format!("flapping-{}", i % 5);
                if r.add(&id, 1.0 + (i % 3) as f64).is_err() {
                    r.remove(&id).unwrap();
                }
                r.set_weight("node-0", (i % 4) as f64).unwrap();
                i += 1;
            }
            i
        })
    };
    let readers: Vec<_> = (0..2)
        .map(|t| {
            let (r, stop) = (r.clone(), stop.clone());
            thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let snap = r.snapshot();
                    let key = format!("key-{t}-{n}");
                    let owner = snap.owner(key.as_bytes()).expect("the set is never empty");
                    // Consistency within one snapshot: the owner is a member, heads its ranking,
                    // and the batch path agrees.
                    assert!(snap.contains(owner.id()));
                    assert_eq!(snap.rank(key.as_bytes())[0].id(), owner.id());
                    assert_eq!(snap.owners([key.as_bytes()]).unwrap()[0], owner.index());
                    assert_eq!(snap.len(), snap.members().ids().len());
                    n += 1;
                }
                n
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    let writes = writer.join().unwrap();
    let reads: u64 = readers.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(writes > 100 && reads > 100, "writes {writes}, reads {reads}");
}
