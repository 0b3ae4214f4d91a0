//! Every mode builds its set once, and still names a refused node by its
//! index and line; an error about the whole set names no node.

use longstraw_membership::{Membership, Mode, NodeSpec};

fn membership(mode: Mode, nodes: &[(&str, usize)]) -> Membership {
    let mut m = Membership::parse("", "m.toml").unwrap();
    m.mode = mode;
    m.nodes = nodes
        .iter()
        .map(|&(id, line)| NodeSpec {
            line,
            ..NodeSpec::new(id, 1.0, None)
        })
        .collect();
    m
}

fn modes() -> [Mode; 3] {
    [
        Mode::Flat,
        Mode::Table {
            bits: Some(4),
            replicas: 1,
            distinct_domains: false,
            balance: None,
        },
        Mode::Skeleton { shape: None },
    ]
}

#[test]
fn a_refused_node_is_named_in_every_mode() {
    for mode in modes() {
        let m = membership(mode, &[("a", 3), ("b", 5), ("a", 7), ("c", 9)]);
        let e = m.build().unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(7), Some("nodes[2]")),
            "{mode:?}: {e}"
        );
        assert!(
            e.to_string()
                .starts_with("membership:7: nodes[2]: duplicate node \"a\""),
            "{e}"
        );
        // The last node refused: named too, not taken for a whole-set error.
        let m = membership(mode, &[("a", 3), ("b", 5), ("a", 7)]);
        let e = m.build().unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(7), Some("nodes[2]")),
            "{mode:?}: {e}"
        );
        // A node made in code (line 0) is named by index only.
        let m = membership(mode, &[("a", 0), ("a", 0)]);
        let e = m.build().unwrap_err();
        assert_eq!((e.line, e.field.as_deref()), (None, Some("nodes[1]")), "{mode:?}: {e}");
    }
}

#[test]
fn a_whole_set_error_names_no_node() {
    let mode = Mode::Table {
        bits: Some(4),
        replicas: 2,
        distinct_domains: true,
        balance: Some(1.25),
    };
    let e = membership(mode, &[("a", 3), ("b", 5)]).build().unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (None, None), "{e}");
    assert!(
        e.to_string().contains("cannot also keep distinct failure domains"),
        "{e}"
    );
}
