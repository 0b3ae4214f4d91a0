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
