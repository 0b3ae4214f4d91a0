//! Membership content parsed with its `secret.file` kept as written, for a
//! caller that resolves the path by rules of its own (a WebAssembly host) and
//! names the resolved path: the one parser, the same answers as the native
//! loads, and the named path is the one read, reported and saved.

use std::path::{Path, PathBuf};

use longstraw_membership::{Membership, SecretFileRead, SecretSource};

const KEYED: &[u8] = b"[secret]\nfile = \"../keys/s.hex\"\n\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n";

fn file_of(m: &Membership) -> &Path {
    match &m.secret {
        Some(SecretSource::File(file)) => file,
        other => panic!("a secret file source: {other:?}"),
    }
}

#[test]
fn the_secret_file_is_kept_as_written_and_the_resolving_parsers_are_built_on_it() {
    let as_written = Membership::parse_bytes_as_written(KEYED, "m.toml").unwrap();
    assert_eq!(file_of(&as_written), Path::new("../keys/s.hex"));

    // The membership file's folder, then the current directory.
    let folder = std::env::temp_dir().join("conf");
    let from_file = Membership::parse_file_bytes(KEYED, folder.join("m.toml")).unwrap();
    assert_eq!(
        file_of(&from_file),
        std::path::absolute(folder.join("../keys/s.hex")).unwrap()
    );
    // Content with no file: the current directory.
    let from_bytes = Membership::parse_bytes(KEYED, "<data>").unwrap();
    assert_eq!(file_of(&from_bytes), std::path::absolute("../keys/s.hex").unwrap());

    // Everything but the secret file's path is the same membership.
    let mut named = as_written.clone();
    named.secret = from_file.secret.clone();
    assert_eq!(named, from_file);

    // An absolute secret.file, an environment variable and an unkeyed file are the same either way.
    let absolute = std::path::absolute("s.hex").unwrap();
    let text = format!(
        "[secret]\nfile = {:?}\n[[nodes]]\nid = \"a\"\n",
        absolute.display().to_string()
    );
    let m = Membership::parse_bytes_as_written(text.as_bytes(), "m.toml").unwrap();
    assert_eq!(file_of(&m), absolute);
    for text in [
        "[secret]\nenv = \"S\"\n[[nodes]]\nid = \"a\"\n",
        "[[nodes]]\nid = \"a\"\n",
    ] {
        assert_eq!(
            Membership::parse_bytes_as_written(text.as_bytes(), "m.toml").unwrap(),
            Membership::parse_bytes(text.as_bytes(), "m.toml").unwrap()
        );
    }
}

#[test]
fn content_that_is_not_a_membership_fails_with_the_same_message() {
    for data in [&b"\xff\xfe"[..], b"seed = 1\n[[nodes]]\nid = \"a\"\nweight = -1\n"] {
        let as_written = Membership::parse_bytes_as_written(data, "m.toml").unwrap_err();
        let from_file = Membership::parse_file_bytes(data, "m.toml").unwrap_err();
        let from_bytes = Membership::parse_bytes(data, "m.toml").unwrap_err();
        assert_eq!(as_written.to_string(), from_file.to_string());
        assert_eq!(as_written.to_string(), from_bytes.to_string());
        assert!(as_written.to_string().contains("m.toml"), "{as_written}");
    }
}

#[test]
fn a_path_resolved_by_the_caller_is_the_one_read_reported_and_saved() {
    let mut m = Membership::parse_bytes_as_written(KEYED, "m.toml").unwrap();
    let resolved = PathBuf::from("/host/keys/s.hex");
    m.name_secret_source(Some(resolved.clone()), None).unwrap();
    assert_eq!(file_of(&m), resolved);

    let mut asked = None;
    let e = m
        .read_secret_with(|path| {
            asked = Some(path.to_path_buf());
            SecretFileRead::Failed("No such file or directory".into())
        })
        .unwrap_err();
    assert_eq!(asked.as_deref(), Some(resolved.as_path()));
    assert!(e.to_string().contains(&resolved.display().to_string()), "{e}");

    let secret = m
        .read_secret_with(|_| SecretFileRead::Content(format!("{}\n", "ab".repeat(16)).into_bytes()))
        .unwrap();
    assert!(m.build_keyed(secret, None).is_ok());
    let text = m.to_toml();
    assert!(
        text.contains(&format!("file = {:?}", resolved.display().to_string())),
        "{text}"
    );
    assert!(!text.contains("../keys"), "{text}");
}
