//! Values are taken exactly or refused: no rounding, no lenient number
//! syntax, and every value of the wrong type is named with its field and the
//! form the field needs.

use longstraw_membership::Membership;

fn err(text: &str) -> String {
    match Membership::parse(text, "m.toml").and_then(|m| m.build().map(|_| ())) {
        Ok(()) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn weight_of(text: &str) -> f64 {
    Membership::parse(text, "m.toml").unwrap().nodes[0].weight
}

#[test]
fn integer_weights_that_a_float_cannot_hold_are_refused() {
    // 2^53 + 1 would silently become 2^53.
    assert_eq!(
        err("[[nodes]]\nid = \"a\"\nweight = 9007199254740993\n"),
        "m.toml:3: nodes[0].weight: the integer 9007199254740993 is not exactly a 64-bit float (the nearest one \
         is 9007199254740992; above 2^53 not every integer is one): write the value meant"
    );
    assert!(err("[[nodes]]\nid = \"a\"\nweight = 9223372036854775807\n").contains("nodes[0].weight: the integer"));
    assert!(err("mode = \"table\"\n[table]\nbalance = 9007199254740993\n")
        .starts_with("m.toml:3: table.balance: the integer"));
    // Integers a float holds are exact, however large.
    assert_eq!(
        weight_of("[[nodes]]\nid = \"a\"\nweight = 9007199254740992\n"),
        9_007_199_254_740_992.0
    );
    assert_eq!(
        weight_of("[[nodes]]\nid = \"a\"\nweight = 1152921504606846976\n"),
        2f64.powi(60)
    );
    assert_eq!(weight_of("[[nodes]]\nid = \"a\"\nweight = 3\n"), 3.0);
}

#[test]
fn hex_is_pairs_of_hex_digits_only() {
    for bad in ["+1+2", "-1", " 1", "0x12", "1g", "123", "+f"] {
        let e = err(&format!("[[nodes]]\nid_hex = \"{bad}\"\n"));
        assert_eq!(
            e,
            format!("m.toml:2: nodes[0].id_hex: {bad:?} is not hex: give pairs of hex digits (0-9, a-f, A-F) and nothing else")
        );
        let e = err(&format!("[[nodes]]\nid = \"a\"\ndomain_hex = \"{bad}\"\n"));
        assert!(e.starts_with("m.toml:3: nodes[0].domain_hex: "), "{e}");
    }
    let m = Membership::parse("[[nodes]]\nid_hex = \"00fFa1\"\n", "m").unwrap();
    assert_eq!(m.nodes[0].id, vec![0x00, 0xff, 0xa1]);
}

#[test]
fn seed_strings_are_digits_only() {
    for bad in ["+5", "-5", " 5", "5 ", "", "0x", "0x+5", "0X5", "1_000", "0x-1"] {
        assert_eq!(
            err(&format!("seed = \"{bad}\"\n")),
            format!("m.toml:1: seed: seed {bad:?} is not a decimal or 0x-hex number from 0 to 2^64-1 (digits only, no sign)")
        );
    }
    assert_eq!(Membership::parse("seed = \"0xfF\"\n", "m").unwrap().seed, 255);
    assert_eq!(Membership::parse("seed = \"007\"\n", "m").unwrap().seed, 7);
}

#[test]
fn a_value_of_the_wrong_type_names_the_field_and_the_form_it_needs() {
    let number = "must be a number such as 2 or 0.5";
    let seed = "must be an integer from 0 to 2^63-1, or a string of decimal digits or of 0x and hex digits \
                (\"18446744073709551615\", \"0xff\")";
    let cases: &[(&str, &str)] = &[
        (
            "[[nodes]]\nid = \"a\"\nweight = \"2\"\n",
            "m.toml:3: nodes[0].weight: {number}, not a string",
        ),
        (
            "[[nodes]]\nid = \"a\"\nweight = true\n",
            "m.toml:3: nodes[0].weight: {number}, not a boolean",
        ),
        (
            "[[nodes]]\nid = \"a\"\nweight = [1]\n",
            "m.toml:3: nodes[0].weight: {number}, not an array",
        ),
        (
            "[[nodes]]\nid = \"a\"\nweight = { a = 1 }\n",
            "m.toml:3: nodes[0].weight: {number}, not a table",
        ),
        (
            "[[nodes]]\nid = \"a\"\nweight = 1979-05-27\n",
            "m.toml:3: nodes[0].weight: {number}, not a date-time",
        ),
        (
            "mode = \"table\"\n[table]\nbalance = \"1.1\"\n",
            "m.toml:3: table.balance: {number}, not a string",
        ),
        (
            "mode = \"table\"\n[table]\nbalance = false\n",
            "m.toml:3: table.balance: {number}, not a boolean",
        ),
        ("seed = 1.5\n", "m.toml:1: seed: {seed}, not a float"),
        ("seed = true\n", "m.toml:1: seed: {seed}, not a boolean"),
        ("seed = [1]\n", "m.toml:1: seed: {seed}, not an array"),
        (
            "[[nodes]]\nid = 5\n",
            "m.toml:2: nodes[0].id: must be a string, not an integer",
        ),
        (
            "[[nodes]]\nid_hex = 5\n",
            "m.toml:2: nodes[0].id_hex: must be a string of hex digit pairs such as \"00ff\", not an integer",
        ),
        (
            "[[nodes]]\nid = \"a\"\ndomain = 1.0\n",
            "m.toml:3: nodes[0].domain: must be a string, not a float",
        ),
        (
            "placement = \"1\"\n",
            "m.toml:1: placement: must be an integer from 1 to 1, not a string",
        ),
        (
            "format = \"1\"\n",
            "m.toml:1: format: must be the integer 1, not a string",
        ),
        (
            "mode = 1\n",
            "m.toml:1: mode: must be \"flat\", \"table\" or \"skeleton\", not an integer",
        ),
        (
            "mode = \"table\"\n[table]\nbits = 1.0\n",
            "m.toml:3: table.bits: must be an integer from 0 to 24, not a float",
        ),
        (
            "mode = \"table\"\n[table]\nreplicas = \"2\"\n",
            "m.toml:3: table.replicas: must be an integer from 1 to 32, not a string",
        ),
        (
            "mode = \"table\"\n[table]\ndistinct_domains = 1\n",
            "m.toml:3: table.distinct_domains: must be true or false, not an integer",
        ),
        (
            "mode = \"skeleton\"\n[skeleton]\nfanout_bits = \"2\"\nlevels = 1\n",
            "m.toml:3: skeleton.fanout_bits: must be an integer from 0 to 6, not a string",
        ),
        (
            "[secret]\nfile = 1\n",
            "m.toml:2: secret.file: must be a string: a path or a variable name, not an integer",
        ),
    ];
    for (text, want) in cases {
        let want = want.replace("{number}", number).replace("{seed}", seed);
        assert_eq!(err(text), want, "{text}");
        assert!(!err(text).contains("untagged") && !err(text).contains("i64"));
    }
}

#[test]
fn a_section_of_another_mode_says_so() {
    assert_eq!(
        err("mode = \"table\"\n\n[skeleton]\nfanout_bits = 2\nlevels = 1\n"),
        "m.toml:3: skeleton: a [skeleton] section does not belong to mode \"table\" (it needs mode = \"skeleton\")"
    );
    // Also when the section's fields are another mode's (the TOML reader alone would name a field).
    assert_eq!(
        err("mode = \"table\"\n\n[skeleton]\nreplicas = 2\n"),
        "m.toml:3: skeleton: a [skeleton] section does not belong to mode \"table\" (it needs mode = \"skeleton\")"
    );
    assert_eq!(
        err("[table]\nbits = 4\n"),
        "m.toml:1: table: a [table] section does not belong to mode \"flat\" (it needs mode = \"table\")"
    );
}

#[test]
fn parse_all_lists_every_problem_in_file_order() {
    let text = "seed = \"+5\"\n\
                [[nodes]]\nid = \"a\"\nweight = -1\n\
                [[nodes]]\nid_hex = \"zz\"\nweight = \"2\"\n\
                [[nodes]]\nid = \"c\"\n";
    let errors: Vec<String> = Membership::parse_all(text, "m.toml")
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors[0].starts_with("m.toml:1: seed: "), "{errors:#?}");
    assert!(errors[1].starts_with("m.toml:4: nodes[0].weight: "), "{errors:#?}");
    assert!(errors[2].starts_with("m.toml:6: nodes[1].id_hex: "), "{errors:#?}");
    assert!(errors[3].starts_with("m.toml:7: nodes[1].weight: "), "{errors:#?}");
    // parse gives the first of them.
    assert_eq!(Membership::parse(text, "m.toml").unwrap_err().to_string(), errors[0]);
}
