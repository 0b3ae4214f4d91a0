//! Saving replaces the file atomically and safely: a symlink planted where a
//! temporary file could be is never followed, concurrent saves of one path
//! never fail, and a reader never sees a partial file.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use longstraw_membership::{Membership, Mode, NodeSpec};

fn membership(nodes: usize, tag: usize) -> Membership {
    Membership {
        seed: tag as u64,
        placement: longstraw::Placement::V1,
        mode: Mode::Flat,
        secret: None,
        nodes: (0..nodes)
            .map(|i| NodeSpec::new(format!("node-{tag}-{i}"), 1.0 + (i % 5) as f64, None))
            .collect(),
    }
}

/// Names a save could use for its temporary file if it were predictable.
fn predictable_names(target: &Path) -> Vec<std::path::PathBuf> {
    let name = target.file_name().unwrap().to_string_lossy().into_owned();
    let pid = std::process::id();
    [
        format!(".{name}.tmp-{pid}"),
        format!(".{name}.tmp"),
        format!("{name}.tmp"),
        format!("{name}.tmp-{pid}"),
        format!("{name}~"),
        format!(".{name}.swp"),
        format!("{name}.new"),
    ]
    .into_iter()
    .map(|n| target.with_file_name(n))
    .collect()
}

#[cfg(unix)]
#[test]
fn a_symlink_at_a_predictable_temporary_name_is_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "do not touch\n").unwrap();
    let target = dir.path().join("members.toml");
    membership(3, 1).write(&target).unwrap();
    for planted in predictable_names(&target) {
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
    }
    membership(4, 2).write(&target).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "do not touch\n");
    for planted in predictable_names(&target) {
        let meta = std::fs::symlink_metadata(&planted).unwrap();
        assert!(meta.file_type().is_symlink(), "{} was replaced", planted.display());
    }
    // The target is the new file, a regular file, and nothing else was left behind.
    let again = Membership::read(&target).unwrap();
    assert_eq!(again, membership(4, 2));
    assert!(std::fs::symlink_metadata(&target).unwrap().file_type().is_file());
    let entries = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(entries, 2 + predictable_names(&target).len());
}

#[cfg(unix)]
#[test]
fn a_save_keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("members.toml");
    membership(2, 1).write(&target).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    membership(2, 2).write(&target).unwrap();
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn concurrent_saves_never_fail_and_a_reader_never_sees_a_partial_file() {
    const WRITERS: usize = 4;
    const SAVES: usize = 300;
    // On tmpfs where there is one, so that the test measures the protocol, not the disk.
    let dir = if Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm").unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let target = Arc::new(dir.path().join("members.toml"));
    let contents: Arc<Vec<Membership>> = Arc::new((0..WRITERS).map(|w| membership(400, w)).collect());
    contents[0].write(&*target).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let reader = {
        let (target, contents, done, reads) = (target.clone(), contents.clone(), done.clone(), reads.clone());
        std::thread::spawn(move || {
            let mut bad = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let text = std::fs::read_to_string(&*target).unwrap();
                reads.fetch_add(1, Ordering::Relaxed);
                match Membership::parse(&text, "read") {
                    Ok(m) if contents.contains(&m) => {}
                    Ok(_) => bad.push("a file no writer saved".to_string()),
                    Err(e) => bad.push(format!("{e} ({} bytes)", text.len())),
                }
            }
            bad
        })
    };
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (target, contents) = (target.clone(), contents.clone());
            std::thread::spawn(move || {
                (0..SAVES)
                    .filter_map(|_| contents[w].write(&*target).err().map(|e| e.to_string()))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let failed: Vec<String> = writers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    done.store(true, Ordering::Relaxed);
    let partial = reader.join().unwrap();
    assert!(
        failed.is_empty(),
        "{} of {} saves failed, first: {}",
        failed.len(),
        WRITERS * SAVES,
        failed[0]
    );
    assert!(
        partial.is_empty(),
        "{} of {} reads were not a saved file, first: {}",
        partial.len(),
        reads.load(Ordering::Relaxed),
        partial[0]
    );
    assert!(reads.load(Ordering::Relaxed) > 0);
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("members.toml")]);
}
