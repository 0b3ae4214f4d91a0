package longstraw

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"
)

// TestKeyedBoundedFollowsTheKeyedVectors: with nothing in flight every owner
// has room, so a keyed Bounded must acquire exactly the owner that
// tests/vectors/keyed-v1.json gives for each flat case.
func TestKeyedBoundedFollowsTheKeyedVectors(t *testing.T) {
	data, err := os.ReadFile(vectorsPath("keyed-v1.json"))
	if err != nil {
		t.Fatalf("reading the keyed vectors: %v", err)
	}
	var vf keyedFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range vf.Cases {
		if c.Mode != "flat" {
			continue
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
		b, err := NewBounded(ids, DefaultBalanceFactor, WithSecret(mustHex(t, c.SecretHex)), WithWeights(weights))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, k := range c.Keys {
			node, release, err := b.AcquireBytes(mustHex(t, k.KeyHex))
			if k.Owner == nil {
				if !errors.Is(err, ErrNoEligibleNode) {
					t.Errorf("%s key %s: want ErrNoEligibleNode, got %q, %v", c.Name, k.KeyHex, node, err)
				}
				continue
			}
			if err != nil || node != ids[*k.Owner] {
				t.Errorf("%s key %s: acquired %q (%v), want %q", c.Name, k.KeyHex, node, err, ids[*k.Owner])
				continue
			}
			release()
			checked++
		}

	}
	if checked == 0 {
		t.Fatal("no flat keyed case was checked")
	}
	t.Logf("%d keys acquired on their keyed owner", checked)
}

func TestKeyedBoundedOptions(t *testing.T) {
	secret := make([]byte, SecretLen)
	if _, err := NewBounded([]string{"a"}, 1.25, WithSecret(secret), WithSeed(7)); !errors.Is(err, ErrConflictingOptions) {
		t.Errorf("seed with secret: %v", err)
	}
	for _, n := range []int{0, 15, 17} {
		if _, err := NewBounded([]string{"a"}, 1.25, WithSecret(make([]byte, n))); !errors.Is(err, ErrInvalidSecret) {
			t.Errorf("%d-byte secret: %v", n, err)
		}
	}
}
