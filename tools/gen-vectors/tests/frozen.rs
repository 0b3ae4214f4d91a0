//! The vectors are frozen: regenerating them must give the committed files
//! byte for byte. If this fails, placement has drifted; fix the code, never
//! the file.

fn check(name: &str, fresh: String) {
    let path = format!("{}/../../tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!("{name} differs from the generator's output, first at line {}", line + 1);
    }
}

#[test]
fn regenerating_the_vectors_changes_nothing() {
    check("placement-v1.json", longstraw_gen_vectors::placement_v1());
}

#[test]
fn regenerating_the_table_vectors_changes_nothing() {
    check("table-v1.json", longstraw_gen_vectors::table_v1());
}

#[test]
fn regenerating_the_skeleton_vectors_changes_nothing() {
    check("skeleton-v1.json", longstraw_gen_vectors::skeleton_v1());
}

#[test]
fn regenerating_the_domains_vectors_changes_nothing() {
    check("domains-v1.json", longstraw_gen_vectors::domains_v1());
}
