package longstraw

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// TestBalancedCapsVectors builds each case of table-balanced-caps-v1.json
// (SPEC.md §17.2: rows that depend on caps computed exactly, where f64
// arithmetic would differ) and checks every key's list.
func TestBalancedCapsVectors(t *testing.T) {
	data, err := os.ReadFile(vectorsPath("table-balanced-caps-v1.json"))
	if err != nil {
		t.Fatalf("reading the golden vectors: %v", err)
	}
	var vf struct {
		Placement string `json:"placement"`
		Cases     []struct {
			scaleCase
			Replicas   int `json:"replicas"`
			Millionths int `json:"balance_millionths"`
			Keys       []struct {
				KeyHex string `json:"key_hex"`
				List   []int  `json:"list"`
			} `json:"keys"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	if vf.Placement != "table-balanced-v1" || len(vf.Cases) == 0 {
		t.Fatalf("placement %q with %d cases", vf.Placement, len(vf.Cases))
	}
	checked := 0
	for _, c := range vf.Cases {
		ids, opts := c.scaleCase.options(t)
		tb, err := NewTable(ids, append(opts, WithPartitionBits(*c.Bits), WithReplicas(c.Replicas),
			WithBalance(float64(c.Millionths)/1e6))...)
		if err != nil {
			t.Fatalf("%s: NewTable: %v", c.Name, err)
		}
		for _, k := range c.Keys {
			got, err := tb.TopKBytes(mustHex(t, k.KeyHex), c.Replicas+2)
			if err != nil {
				t.Fatalf("%s: TopK: %v", c.Name, err)
			}
			want := make([]string, len(k.List))
			for i, idx := range k.List {
				want[i] = ids[idx]
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s key %s: %q, want %q", c.Name, k.KeyHex, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no keys checked")
	}
}
