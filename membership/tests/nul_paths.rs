//! A path with a NUL byte is refused with one message wherever a path is
//! taken, instead of the OS silently using the path up to the NUL.

use std::path::PathBuf;

use longstraw_membership::{Membership, Mode, NodeSpec, SecretSource};

const NUL: &str = "path contains a NUL byte";

fn keyed() -> Membership {
    Membership {
        seed: 0,
        placement: longstraw::Placement::V1,
        mode: Mode::Flat,
        secret: Some(SecretSource::Env("LONGSTRAW_UNUSED".into())),
        nodes: vec![NodeSpec::new("a", 1.0, None)],
    }
}

#[test]
fn load_save_and_secret_files_refuse_a_nul_byte() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("m.toml");
    std::fs::write(&real, "[[nodes]]\nid = \"a\"\n").unwrap();
    // The path up to the NUL exists: it must not be used.
    let cut = PathBuf::from(format!("{}\0.bak", real.display()));
    let shown = format!("{}\\0.bak", real.display());
    assert_eq!(
        Membership::read(&cut).unwrap_err().to_string(),
        format!("{shown}: {NUL}")
    );
    assert_eq!(
        longstraw_membership::load(&cut).unwrap_err().to_string(),
        format!("{shown}: {NUL}")
    );
    let e = Membership::parse("[[nodes]]\nid = \"b\"\n", "t")
        .unwrap()
        .write(&cut)
        .unwrap_err();
    assert_eq!(e.to_string(), format!("{shown}: {NUL}"));
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "[[nodes]]\nid = \"a\"\n");

    let e = SecretSource::File(cut.clone()).read().unwrap_err();
    assert_eq!(e, format!("cannot read secret file {shown}: {NUL}"));
    let e = keyed().name_secret_source(Some(cut), None).unwrap_err();
    assert_eq!(e.to_string(), format!("save: secret: {NUL}"));
    let e = Membership::parse("[secret]\nfile = \"s\\u0000x\"\n[[nodes]]\nid = \"a\"\n", "m.toml").unwrap_err();
    assert_eq!(e.to_string(), format!("m.toml:2: secret.file: {NUL}"));
}
