//! Regression (found by the `keyed` fuzz target): a keyed membership with a
//! non-zero seed is a contradiction that building refuses; saving it used to
//! drop the seed, so its text read back as a valid keyed file.

use longstraw_membership::{Membership, Mode, NodeSpec, SecretSource};

#[test]
fn a_keyed_membership_with_a_seed_never_saves_as_a_valid_file() {
    let m = Membership {
        seed: 526_749_323_607_260_771,
        placement: longstraw::Placement::V1,
        mode: Mode::Flat,
        secret: Some(SecretSource::Env("LONGSTRAW_TEST_KEYED_WITH_SEED".into())),
        nodes: vec![NodeSpec::new("a", 1.0, None)],
    };
    let text = m.to_toml();
    let e = Membership::parse(&text, "saved").expect_err("the contradiction reads back as a valid file");
    assert!(e.to_string().contains("has no seed"), "{e}\n{text}");
    // Without the seed the same membership saves and reads back unchanged.
    let keyed = Membership { seed: 0, ..m };
    assert_eq!(
        Membership::parse(&keyed.to_toml(), "saved").expect("a keyed file"),
        keyed
    );
}

#[test]
fn a_secret_read_once_builds_the_same_set_as_build() {
    let m = Membership {
        seed: 0,
        placement: longstraw::Placement::V1,
        mode: Mode::Flat,
        secret: Some(SecretSource::Env("LONGSTRAW_TEST_READ_SECRET_ONCE".into())),
        nodes: vec![NodeSpec::new("a", 1.0, None), NodeSpec::new("b", 2.0, None)],
    };
    std::env::set_var("LONGSTRAW_TEST_READ_SECRET_ONCE", "000102030405060708090a0b0c0d0e0f");
    let secret = m.read_secret().unwrap();
    assert!(secret.is_some());
    let once = m.build_keyed(secret, None).unwrap().snapshot();
    let again = m.build().unwrap().snapshot();
    for key in 0..200u32 {
        let key = key.to_le_bytes();
        assert_eq!(once.owner_index(&key).unwrap(), again.owner_index(&key).unwrap());
    }
    let e = m.build_keyed(None, None).unwrap_err().to_string();
    assert_eq!(e, "membership: secret: a keyed membership needs its secret to be built");
    let unkeyed = Membership { secret: None, ..m };
    assert!(unkeyed.read_secret().unwrap().is_none());
    let e = unkeyed.build_keyed(secret, None).unwrap_err().to_string();
    assert_eq!(
        e,
        "membership: secret: a secret was given for a membership that is not keyed"
    );
}
