//! A keyed file read through a relative path remembers its secret file by an
//! absolute path, so the set still finds it after the working folder changes
//! and when it is saved to another folder.

use longstraw_membership::{Membership, SecretSource};

#[test]
fn a_secret_file_named_from_a_relative_membership_path_is_absolute() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(base.join("conf")).unwrap();
    std::fs::create_dir_all(base.join("elsewhere")).unwrap();
    std::fs::write(base.join("conf/secret"), format!("{}\n", "ab".repeat(16))).unwrap();
    std::fs::write(
        base.join("conf/m.toml"),
        "[secret]\nfile = \"secret\"\n\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n",
    )
    .unwrap();

    // This test binary holds this one test, so changing the working folder races nothing.
    std::env::set_current_dir(&base).unwrap();
    let m = Membership::read("conf/m.toml").unwrap();
    let Some(SecretSource::File(file)) = &m.secret else {
        panic!("a secret file source: {:?}", m.secret)
    };
    assert!(file.is_absolute(), "{}", file.display());
    assert_eq!(file.canonicalize().unwrap(), base.join("conf/secret"));

    // From another working folder the remembered source still reads.
    std::env::set_current_dir(base.join("elsewhere")).unwrap();
    let owner = m.build().unwrap().snapshot().owner_index(b"k").unwrap();

    // Saved in another folder, the file still names the same secret.
    m.write(base.join("elsewhere/copy.toml")).unwrap();
    let copy = Membership::read(base.join("elsewhere/copy.toml")).unwrap();
    assert_eq!(copy.secret, m.secret);
    assert_eq!(copy.build().unwrap().snapshot().owner_index(b"k").unwrap(), owner);
}
