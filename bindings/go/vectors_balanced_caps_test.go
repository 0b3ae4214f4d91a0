package longstraw

import "testing"

// TestBalancedCapsVectors builds each case of table-balanced-caps-v1.json
// (SPEC.md §17.2: rows that depend on caps computed exactly, where f64
// arithmetic would differ) and checks every key's list.
func TestBalancedCapsVectors(t *testing.T) {
	if _, checked := checkBalancedVectorFile(t, "table-balanced-caps-v1.json"); checked == 0 {
		t.Fatal("no keys checked")
	}
}
