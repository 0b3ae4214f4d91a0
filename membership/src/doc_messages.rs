//! Every example message in docs/MEMBERSHIP.md is the message the code gives.

use std::collections::BTreeSet;
use std::path::Path;

use crate::{Error, Membership};

/// The code spans of the document that are messages about a file; `None` where the document is not
/// beside the crate (a crate unpacked from its .crate file ships no docs/ folder).
fn documented() -> Option<BTreeSet<String>> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/MEMBERSHIP.md")).ok()?;
    let spans = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.starts_with("members.toml") || span.starts_with("/dev/zero:"))
        .map(str::to_string)
        .collect();
    Some(spans)
}

fn named(mut e: Error) -> String {
    e.origin = "members.toml".into();
    e.to_string()
}

fn load_text(text: &str) -> String {
    match Membership::parse(text, "members.toml").and_then(|m| m.build().map(drop)) {
        Ok(()) => panic!("accepted:\n{text}"),
        Err(e) => named(e),
    }
}

/// A file whose fourth node's weight is on line 12.
fn fourth_weight(weight: &str) -> String {
    let three = "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n";
    format!("{three}# three lines\n# before\n# the fourth\n[[nodes]]\nid = \"d\"\nweight = {weight}\n")
}

#[test]
fn every_example_message_in_the_document_is_real() {
    let Some(documented) = documented() else {
        eprintln!("SKIPPED: docs/MEMBERSHIP.md is not beside this crate (an unpacked .crate), so its example messages were not checked");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let inside = |e: Error| e.to_string().replace(&format!("{}/", dir.path().display()), "");
    let big = dir.path().join("members.toml");
    std::fs::File::create(&big).unwrap().set_len((1 << 30) + 1).unwrap();
    let too_large = inside(Membership::read(&big).unwrap_err());
    std::fs::remove_file(&big).unwrap();
    let real: BTreeSet<String> = [
        load_text("mode = \"table\"\n\n[skeleton]\nfanout_bits = 2\nlevels = 1\n"),
        load_text(&fourth_weight("-1.0")),
        load_text(&fourth_weight("\"2\"")),
        load_text(&fourth_weight("9007199254740993")),
        load_text(
            "seed = 0\n[[nodes]]\nid = \"cache-a\"\n[[nodes]]\nid = \"cache-b\"\n\n\n[[nodes]]\nid = \"cache-a\"\n",
        ),
        load_text("# the seed\nseed = \"+5\"\n"),
        inside(Membership::read(&big).unwrap_err()),
        too_large,
        crate::load("/dev/zero").unwrap_err().to_string(),
        format!("members.toml: {}", crate::input::stalled(crate::input::STALL)),
        Membership::read("members.toml\0.bak").unwrap_err().to_string(),
    ]
    .into_iter()
    .collect();
    assert!(documented.len() >= 10, "{documented:#?}");
    let wrong: Vec<&String> = documented.difference(&real).collect();
    assert!(
        wrong.is_empty(),
        "documented but not given: {wrong:#?}\nreal: {real:#?}"
    );
}
