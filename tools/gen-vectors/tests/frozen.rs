//! Placement v1 is frozen: regenerating the vectors from the oracle must give
//! the committed file byte for byte. If this fails, placement has drifted;
//! fix the code, never the file.

#[test]
fn regenerating_the_vectors_changes_nothing() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/placement-v1.json");
    let committed = std::fs::read_to_string(path).expect("tests/vectors/placement-v1.json");
    let fresh = longstraw_gen_vectors::placement_v1();
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "placement-v1.json differs from the oracle's output, first at line {}",
            line + 1
        );
    }
}
