package longstraw

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"testing"
)

// TestBalancedVectors builds each case of table-balanced-v1.json and checks
// that every key's list is its partition's stored row, and nothing past it.
func TestBalancedVectors(t *testing.T) {
	cases, checked := checkBalancedVectorFile(t, "table-balanced-v1.json")
	if checked != 10*cases {
		t.Fatalf("%d key checks", checked)
	}
}

// checkBalancedVectorFile builds each case of a balanced-table vector file
// (placement table-balanced-v1) and checks every key's list, its owner and
// the table's balance; it returns the number of cases and of keys checked.
func checkBalancedVectorFile(t *testing.T, file string) (cases, checked int) {
	t.Helper()
	data, err := os.ReadFile(vectorsPath(file))
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
		t.Fatalf("%s: placement %q with %d cases", file, vf.Placement, len(vf.Cases))
	}
	for _, c := range vf.Cases {
		ids, opts := c.scaleCase.options(t)
		balance := float64(c.Millionths) / 1e6
		tb, err := NewTable(ids, append(opts, WithPartitionBits(*c.Bits), WithReplicas(c.Replicas), WithBalance(balance))...)
		if err != nil {
			t.Fatalf("%s: NewTable: %v", c.Name, err)
		}
		if got, ok := tb.Balance(); got != balance || !ok {
			t.Errorf("%s: Balance() = %v %v, want %v true", c.Name, got, ok, balance)
		}
		for _, k := range c.Keys {
			key := mustHex(t, k.KeyHex)
			got, err := tb.TopKBytes(key, c.Replicas+2)
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
			owner, err := tb.OwnerBytes(key)
			if len(want) == 0 {
				if !errors.Is(err, ErrNoEligibleNode) {
					t.Errorf("%s: owner of an empty table: %v", c.Name, err)
				}
			} else if err != nil || owner != want[0] {
				t.Errorf("%s: owner %q (%v), want %q", c.Name, owner, err, want[0])
			}
			checked++
		}
	}
	return len(vf.Cases), checked
}

func TestBalanceErrors(t *testing.T) {
	for _, bad := range []float64{0.5, 4.5, math.NaN(), math.Inf(1), -1} {
		_, err := NewTable([]string{"a", "b"}, WithBalance(bad))
		if !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("balance %v: %v", bad, err)
		}
	}
	if _, err := NewTable([]string{"a", "b"}, WithBalance(1.05), WithDistinctDomains()); !errors.Is(err, ErrConflictingOptions) {
		t.Error("balance with distinct domains was accepted")
	}
	if _, err := New([]string{"a"}, WithBalance(1.05)); !errors.Is(err, ErrInvalidArgument) {
		t.Error("WithBalance on New was accepted")
	}
	plain, err := NewTable([]string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := plain.Balance(); b != 0 || ok {
		t.Errorf("plain table: balance %v %v, want 0 false", b, ok)
	}
}

// TestBalancedChangesEqualAFreshBuild: every change rebuilds, and a drained node owns nothing.
func TestBalancedChangesEqualAFreshBuild(t *testing.T) {
	nodes := make([]string, 30)
	for i := range nodes {
		nodes[i] = fmt.Sprintf("n%d", i)
	}
	opts := []Option{WithPartitionBits(10), WithReplicas(2), WithBalance(1.01)}
	tb, err := NewTable(nodes, opts...)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tb.Add("extra", 2))
	must(tb.Remove("n3"))
	must(tb.SetWeight("n4", 0))
	weights := map[string]float64{"extra": 2, "n4": 0}
	var now []string
	for _, n := range nodes {
		if n != "n3" {
			now = append(now, n)
		}
	}
	fresh, err := NewTable(append(now, "extra"), append(opts, WithWeights(weights))...)
	must(err)
	for i := 0; i < 2000; i++ {
		key := fmt.Sprintf("k%d", i)
		a, err1 := tb.TopK(key, 2)
		b, err2 := fresh.TopK(key, 2)
		if err1 != nil || err2 != nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s: %q vs fresh %q (%v %v)", key, a, b, err1, err2)
		}
		for _, n := range a {
			if n == "n4" {
				t.Fatalf("%s: drained node listed", key)
			}
		}
	}
}
