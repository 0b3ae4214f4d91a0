//! Bad files get errors naming the line and the field; saved files reload to
//! the same placement.

use longstraw_membership::{ErrorKind, Membership, Mode, NodeSpec, SetMode};

fn err(text: &str) -> String {
    match Membership::parse(text, "m.toml").and_then(|m| m.build().map(|_| ())) {
        Ok(()) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_unknown_field_is_an_error_naming_it_and_its_line() {
    let e = err("seed = 1\n\n[[nodes]]\nid = \"a\"\nwieght = 2.0\n");
    assert!(e.starts_with("m.toml:5:"), "{e}");
    assert!(e.contains("wieght"), "{e}");
    let e = err("sead = 1\n");
    assert!(e.starts_with("m.toml:1:") && e.contains("sead"), "{e}");
}

#[test]
fn a_wrong_type_names_the_line_and_the_field() {
    let e = err("[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\nweight = \"heavy\"\n");
    assert_eq!(
        e,
        "m.toml:6: nodes[1].weight: must be a number such as 2 or 0.5, not a string"
    );
}

#[test]
fn a_bad_weight_names_the_node() {
    let e = err("[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\nweight = -1.0\n");
    assert!(
        e.starts_with("m.toml:5: nodes[1].weight:") && e.contains("negative"),
        "{e}"
    );
    let e = err("[[nodes]]\nid = \"a\"\nweight = nan\n");
    assert!(e.contains("nodes[0].weight") && e.contains("NaN"), "{e}");
}

#[test]
fn a_duplicate_node_is_named_with_its_line() {
    let e = err("[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid_hex = \"61\"\n");
    assert!(e.starts_with("membership:6: nodes[2]: duplicate node \"a\""), "{e}");
}

#[test]
fn missing_or_doubled_ids_are_errors() {
    assert!(err("[[nodes]]\nweight = 2.0\n").contains("nodes[0]: give exactly one of id"));
    assert!(err("[[nodes]]\nid = \"a\"\nid_hex = \"61\"\n").contains("nodes[0]: give exactly one of id"));
    assert!(err("[[nodes]]\nid = \"\"\n").contains("empty"));
    assert!(err("[[nodes]]\nid_hex = \"6\"\n").contains("nodes[0].id_hex"));
    assert!(err("[[nodes]]\nid = \"a\"\ndomain = \"\"\n").contains("nodes[0].domain"));
}

#[test]
fn settings_out_of_range_are_errors() {
    assert!(err("seed = -1\n").starts_with("m.toml:1: seed:"));
    assert!(err("seed = \"18446744073709551616\"\n").contains("seed"));
    assert!(err("placement = 2\n").starts_with("m.toml:1: placement: placement version 2 is unknown"));
    assert!(err("format = 2\n").contains("format 2 is unknown"));
    assert!(err("mode = \"ring\"\n").contains("mode \"ring\" is unknown"));
    assert!(err("mode = \"table\"\n[table]\nreplicas = 0\n").starts_with("m.toml:3: table.replicas:"));
    assert!(err("mode = \"table\"\n[table]\nbits = 30\n").starts_with("m.toml:3: table.bits:"));
    assert!(err("mode = \"skeleton\"\n[skeleton]\nfanout_bits = 9\nlevels = 1\n").contains("skeleton"));
    assert!(err("mode = \"flat\"\n\n[table]\nbits = 3\n")
        .starts_with("m.toml:3: table: a [table] section does not belong to mode \"flat\""));
}

#[test]
fn the_full_seed_range_is_written_and_read() {
    for seed in [0u64, 1, i64::MAX as u64, i64::MAX as u64 + 1, u64::MAX] {
        let m = Membership {
            seed,
            placement: longstraw::Placement::V1,
            mode: Mode::Flat,
            secret: None,
            nodes: vec![NodeSpec::new("a", 1.0, None)],
        };
        assert_eq!(Membership::parse(&m.to_toml(), "t").unwrap().seed, seed);
    }
    assert_eq!(Membership::parse("seed = \"0xff\"", "t").unwrap().seed, 255);
}

#[test]
fn keyed_files_read_the_secret_from_their_source_and_never_print_it() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    let file = dir.path().join("m.toml");
    std::fs::write(
        &file,
        "[secret]\nfile = \"secret\"\n\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n",
    )
    .unwrap();
    let m = Membership::read(&file).unwrap();
    assert_eq!(m.secret, Some(longstraw_membership::SecretSource::File(secret.clone())));

    // A source that does not hold 32 hex digits is an error naming the source, not the content.
    std::fs::write(&secret, "do-not-print-this-secret").unwrap();
    let shown = longstraw_membership::load(&file).unwrap_err().to_string();
    assert!(
        shown.contains("secret") && shown.contains("hexadecimal") && !shown.contains("do-not-print"),
        "{shown}"
    );

    // 32 hex digits (and a newline) give the keyed set a set built in code with those bytes gives.
    let bytes: [u8; 16] = *b"0123456789abcdef";
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(&secret, format!("{hex}\n")).unwrap();
    let loaded = longstraw_membership::load(&file).unwrap();
    assert_eq!(loaded.mode(), SetMode::Flat, "a flat file built another mode");
    let options = longstraw_set::Options {
        secret: Some(longstraw::Secret::from_bytes(&bytes).unwrap()),
        ..longstraw_set::Options::default()
    };
    let in_code = longstraw_set::Rendezvous::flat(["a", "b", "c"], options).unwrap();
    let unkeyed = longstraw_set::Rendezvous::flat(["a", "b", "c"], longstraw_set::Options::default()).unwrap();
    let (l, c, u) = (loaded.snapshot(), in_code.snapshot(), unkeyed.snapshot());
    assert!(l.is_keyed());
    let mut differs = 0;
    for i in 0..2000 {
        let key = format!("user:{i}");
        assert_eq!(l.owner(key.as_bytes()).unwrap(), c.owner(key.as_bytes()).unwrap());
        differs += usize::from(l.owner(key.as_bytes()).unwrap() != u.owner(key.as_bytes()).unwrap());
    }
    // Independent placements agree on about 1/3 of keys: 2/3 of 2000 differ, far from 0.
    assert!(differs > 1000, "{differs}");

    // Saving a keyed set built in code refuses: there is no source to name, and
    // an unkeyed file would silently place keys elsewhere.
    let e = Membership::of(&c)
        .write(dir.path().join("out.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("secret source"), "{e}");
    // Naming a source makes it savable; the file names the source, never the secret.
    let mut named = Membership::of(&c);
    named
        .name_secret_source(None, Some("LONGSTRAW_TEST_SECRET".into()))
        .unwrap();
    let saved = dir.path().join("named.toml");
    named.write(&saved).unwrap();
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("env = \"LONGSTRAW_TEST_SECRET\"") && !text.contains(&hex),
        "{text}"
    );
    let both = Membership::of(&c).name_secret_source(Some("s".into()), Some("S".into()));
    assert!(both.unwrap_err().to_string().contains("not both"));
    let unkeyed = Membership::of(&u).name_secret_source(Some("s".into()), None);
    assert!(unkeyed.unwrap_err().to_string().contains("not keyed"));
    let empty = Membership::of(&c).name_secret_source(None, Some(String::new()));
    assert!(empty.unwrap_err().to_string().contains("empty"));
    // The text such a membership would give cannot be read back as an unkeyed set.
    assert!(Membership::parse(&Membership::of(&c).to_toml(), "x.toml").is_err());
    // A loaded keyed file saves its source again, never the secret.
    assert!(m.to_toml().contains("[secret]") && !m.to_toml().contains(&hex));

    std::env::remove_var("LONGSTRAW_TEST_UNSET_SECRET");
    assert!(err("[secret]\nenv = \"LONGSTRAW_TEST_UNSET_SECRET\"\n[[nodes]]\nid = \"a\"\n").contains("is not set"));
    assert!(err("[secret]\nvalue = \"hunter2\"\n").contains("unknown field `value`"));
    assert!(err("seed = 3\n[secret]\nenv = \"S\"\n").contains("has no seed"));
    assert!(err("[secret]\nfile = \"a\"\nenv = \"S\"\n").contains("exactly one"));
    assert!(err("mode = \"table\"\n[table]\nbalance = 0.5\n").contains("table.balance"));
}

#[test]
fn a_balanced_table_file_builds_a_balanced_table_and_saves_its_balance() {
    let text = "mode = \"table\"\n[table]\nbits = 8\nbalance = 1.05\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n";
    let m = Membership::parse(text, "m.toml").unwrap();
    let table = m.build().unwrap();
    assert_eq!(table.mode(), SetMode::Table, "a table file built another mode");
    let snap = table.snapshot();
    assert_eq!(snap.balance().map(|b| b.as_f64()), Some(1.05));
    let saved = Membership::of(&snap).to_toml();
    assert!(saved.contains("balance = 1.05"), "{saved}");
    // Out of the §17 range: the error names the field.
    assert!(err("mode = \"table\"\n[table]\nbalance = 5.0\n[[nodes]]\nid = \"a\"\n").contains("table.balance"));
}

#[test]
fn a_missing_file_names_the_path() {
    let e = longstraw_membership::load("/nonexistent/members.toml").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Io(_)));
    assert!(e.to_string().starts_with("/nonexistent/members.toml: "));
}

/// Saving and reloading keeps ids (text and bytes), weights bit for bit,
/// domains, the seed and the mode's shape, so every key keeps its owner.
#[test]
fn save_and_load_keep_every_placement() {
    let nodes = vec![
        NodeSpec::new("plain", 1.0, Some(b"rack-1".to_vec())),
        NodeSpec::new(vec![0xff, 0x00, b'"'], 0.1 + 0.2, Some(vec![0xfe])),
        NodeSpec::new("quote\"and\\slash\nnewline", 3.0e-5, None),
        NodeSpec::new("drained", 0.0, Some(b"rack-1".to_vec())),
        NodeSpec::new("big", 1.5e19, None),
    ];
    let modes = [
        Mode::Flat,
        Mode::Table {
            bits: Some(6),
            replicas: 2,
            distinct_domains: true,
            balance: None,
        },
        Mode::Skeleton {
            shape: Some(longstraw::SkeletonShape::new(1, 2).unwrap()),
        },
    ];
    let dir = tempfile::tempdir().unwrap();
    for mode in modes {
        let m = Membership {
            seed: u64::MAX - 5,
            placement: longstraw::Placement::V1,
            mode,
            secret: None,
            nodes: nodes.clone(),
        };
        let first = m.build().unwrap().snapshot();
        let path = dir.path().join("m.toml");
        Membership::of(&first).write(&path).unwrap();
        let again = longstraw_membership::load(&path).unwrap();
        assert_eq!(again.mode().as_str(), mode.name());
        let again = again.snapshot();
        assert_eq!(Membership::of(&again), m);
        for i in 0..2000u32 {
            let key = format!("k{i}");
            let (mut a, mut b) = ([0u32; 3], [0u32; 3]);
            assert_eq!(
                first.top_k_into(key.as_bytes(), &mut a),
                again.top_k_into(key.as_bytes(), &mut b)
            );
            assert_eq!(a, b);
        }
    }
}
