package longstraw

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"
)

type vectorFile struct {
	Placement int `json:"placement"`
	Cases     []struct {
		Name  string `json:"name"`
		Seed  string `json:"seed"`
		Depth int    `json:"depth"`
		Nodes []struct {
			IDHex      string `json:"id_hex"`
			WeightBits string `json:"weight_bits"`
		} `json:"nodes"`
		Keys []struct {
			KeyHex string `json:"key_hex"`
			Owner  *int   `json:"owner"`
			Ranked []int  `json:"ranked"`
		} `json:"keys"`
	} `json:"cases"`
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// TestVectors places every key of tests/vectors/placement-v1.json and
// compares owner, top-k, rank and the batch call with the recorded answers.
func TestVectors(t *testing.T) {
	path := vectorsPath("placement-v1.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden vectors: %v", err)
	}
	var vf vectorFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	if vf.Placement != PlacementVersion || len(vf.Cases) == 0 {
		t.Fatalf("placement %d with %d cases", vf.Placement, len(vf.Cases))
	}
	keysChecked := 0
	for _, c := range vf.Cases {
		seed, err := strconv.ParseUint(c.Seed, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(c.Nodes))
		weights := map[string]float64{}
		for i, n := range c.Nodes {
			ids[i] = string(mustHex(t, n.IDHex))
			bits, err := strconv.ParseUint(n.WeightBits, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			weights[ids[i]] = math.Float64frombits(bits)
		}
		r, err := New(ids, WithSeed(seed), WithWeights(weights), WithPlacement(1))
		if err != nil {
			t.Fatalf("%s: New: %v", c.Name, err)
		}
		keys := make([][]byte, len(c.Keys))
		wantOwners := make([]string, len(c.Keys))
		anyNull := false
		for i, k := range c.Keys {
			key := mustHex(t, k.KeyHex)
			keys[i] = key
			owner, err := r.OwnerBytes(key)
			if k.Owner == nil {
				anyNull = true
				if !errors.Is(err, ErrNoEligibleNode) {
					t.Errorf("%s key %s: want ErrNoEligibleNode, got %q, %v", c.Name, k.KeyHex, owner, err)
				}
			} else {
				wantOwners[i] = ids[*k.Owner]
				if err != nil || owner != ids[*k.Owner] {
					t.Errorf("%s key %s: owner %q (%v), want %q", c.Name, k.KeyHex, owner, err, ids[*k.Owner])
				}
				if s, _ := r.Owner(string(key)); s != owner {
					t.Errorf("%s key %s: Owner(string) %q != OwnerBytes %q", c.Name, k.KeyHex, s, owner)
				}
			}
			top, err := r.TopKBytes(key, c.Depth)
			if err != nil || len(top) != len(k.Ranked) {
				t.Errorf("%s key %s: TopK %v (%v), want %d nodes", c.Name, k.KeyHex, top, err, len(k.Ranked))
				continue
			}
			all, err := r.Rank(string(key))
			if err != nil {
				t.Fatal(err)
			}
			for j, idx := range k.Ranked {
				if top[j] != ids[idx] || all[j] != ids[idx] {
					t.Errorf("%s key %s: rank %d is %q/%q, want %q", c.Name, k.KeyHex, j, top[j], all[j], ids[idx])
				}
			}
			keysChecked++
		}
		got, err := r.OwnersBytes(keys)
		if anyNull {
			if !errors.Is(err, ErrNoEligibleNode) {
				t.Errorf("%s: Owners: want ErrNoEligibleNode, got %v", c.Name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: Owners: %v", c.Name, err)
		}
		for i := range got {
			if got[i] != wantOwners[i] {
				t.Errorf("%s: Owners[%d] = %q, want %q", c.Name, i, got[i], wantOwners[i])
			}
		}
	}
	t.Logf("%d cases, %d keys", len(vf.Cases), keysChecked)
}
