package longstraw

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

type keyedFile struct {
	Placement string      `json:"placement"`
	Cases     []keyedCase `json:"cases"`
}

// keyedCase is one case of tests/vectors/keyed-v1.json.
type keyedCase struct {
	Name       string       `json:"name"`
	Mode       string       `json:"mode"`
	SecretHex  string       `json:"secret_hex"`
	Bits       uint8        `json:"bits"`
	FanoutBits uint8        `json:"fanout_bits"`
	Levels     uint8        `json:"levels"`
	Depth      int          `json:"depth"`
	K          int          `json:"k"`
	Nodes      []vectorNode `json:"nodes"`
	Keys       []vectorKey  `json:"keys"`
}

type keyedPlacer interface {
	OwnerBytes([]byte) (string, error)
	TopKBytes([]byte, int) ([]string, error)
	TopKDistinctBytes([]byte, int) ([]string, error)
	IsKeyed() bool
}

// readKeyedVectors reads tests/vectors/keyed-v1.json.
func readKeyedVectors(t *testing.T) keyedFile {
	t.Helper()
	data, err := os.ReadFile(vectorsPath("keyed-v1.json"))
	if err != nil {
		t.Fatalf("reading the keyed vectors: %v", err)
	}
	var vf keyedFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	return vf
}

// TestKeyedVectors places every key of tests/vectors/keyed-v1.json in its
// mode (flat, table, skeleton) and compares owner, top-k and top-k-distinct.
func TestKeyedVectors(t *testing.T) {
	vf := readKeyedVectors(t)
	if vf.Placement != "keyed-v1" || len(vf.Cases) == 0 {
		t.Fatalf("placement %q with %d cases", vf.Placement, len(vf.Cases))
	}
	checked := 0
	for _, c := range vf.Cases {
		ids := make([]string, len(c.Nodes))
		weights := map[string]float64{}
		var domains map[string]string
		for i, n := range c.Nodes {
			ids[i] = string(mustHex(t, n.IDHex))
			bits, err := strconv.ParseUint(n.WeightBits, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			weights[ids[i]] = math.Float64frombits(bits)
			if n.DomainHex != nil {
				if domains == nil {
					domains = map[string]string{}
				}
				domains[ids[i]] = string(mustHex(t, *n.DomainHex))
			}
		}
		opts := []Option{WithSecret(mustHex(t, c.SecretHex)), WithWeights(weights)}
		if domains != nil {
			opts = append(opts, WithDomains(domains))
		}
		var p keyedPlacer
		var err error
		switch c.Mode {
		case "flat":
			p, err = New(ids, opts...)
		case "table":
			p, err = NewTable(ids, append(opts, WithPartitionBits(c.Bits), WithReplicas(c.Depth))...)
		case "skeleton":
			p, err = NewSkeleton(ids, append(opts, WithShape(c.FanoutBits, c.Levels))...)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !p.IsKeyed() {
			t.Fatalf("%s: not keyed", c.Name)
		}
		for _, k := range c.Keys {
			key := mustHex(t, k.KeyHex)
			owner, err := p.OwnerBytes(key)
			if k.Owner == nil {
				if !errors.Is(err, ErrNoEligibleNode) {
					t.Errorf("%s key %s: want ErrNoEligibleNode, got %q, %v", c.Name, k.KeyHex, owner, err)
				}
			} else if err != nil || owner != ids[*k.Owner] {
				t.Errorf("%s key %s: owner %q (%v), want %q", c.Name, k.KeyHex, owner, err, ids[*k.Owner])
			}
			for _, list := range []struct {
				name string
				want []int
				get  func([]byte, int) ([]string, error)
				k    int
			}{{"TopK", k.Ranked, p.TopKBytes, c.Depth}, {"TopKDistinct", k.Distinct, p.TopKDistinctBytes, c.K}} {
				got, err := list.get(key, list.k)
				if err != nil || len(got) != len(list.want) {
					t.Errorf("%s key %s: %s %q (%v), want %v", c.Name, k.KeyHex, list.name, got, err, list.want)
					continue
				}
				for j, idx := range list.want {
					if got[j] != ids[idx] {
						t.Errorf("%s key %s: %s[%d] = %q, want %q", c.Name, k.KeyHex, list.name, j, got[j], ids[idx])
					}
				}
			}
			checked++
		}
	}
	t.Logf("%d cases, %d keys", len(vf.Cases), checked)
}

func TestSecretOptions(t *testing.T) {
	secret := make([]byte, SecretLen)
	for i := range secret {
		secret[i] = 0xA7
	}
	if _, err := New([]string{"a"}, WithSecret(secret), WithSeed(0)); !errors.Is(err, ErrConflictingOptions) {
		t.Errorf("seed with secret: %v", err)
	}
	for _, n := range []int{0, 15, 17, 32} {
		_, err := New([]string{"a"}, WithSecret(make([]byte, n)))
		if !errors.Is(err, ErrInvalidSecret) {
			t.Errorf("%d-byte secret: %v", n, err)
		}
	}
	r, err := New([]string{"a", "b"}, WithSecret(secret))
	if err != nil || !r.IsKeyed() {
		t.Fatalf("keyed set: %v", err)
	}
	plain, _ := New([]string{"a"})
	if plain.IsKeyed() {
		t.Error("a v1 set reports keyed")
	}
	addErr := r.Add("a", 1) // a duplicate: an error naming the node
	if addErr == nil {
		t.Fatal("duplicate add succeeded")
	}
	shown := fmt.Sprintf("%v %+v %#v", r, r, r) + addErr.Error()
	_, lenErr := New([]string{"a"}, WithSecret(secret[:15]))
	shown += lenErr.Error()
	for _, leak := range []string{"a7a7", "167 167", "0xa7"} {
		if strings.Contains(strings.ToLower(shown), leak) {
			t.Errorf("secret bytes %q shown in %s", leak, shown)
		}
	}
}

// TestAttackSpreadsUnderASecret: 10,000 keys that v1 with seed 0 puts on one
// node spread evenly under a random secret. Chi-square with 9 degrees of
// freedom has mean 9 and sd sqrt(18); 9 + 6 sd = 34.5 is exceeded by a
// uniform spread with probability below 1e-6.
func TestAttackSpreadsUnderASecret(t *testing.T) {
	nodes := make([]string, 10)
	for i := range nodes {
		nodes[i] = fmt.Sprintf("cache-%d", i)
	}
	v1, _ := New(nodes)
	var keys [][]byte
	for i := 0; len(keys) < 10000; i++ {
		key := []byte(fmt.Sprintf("attack-%d", i))
		if o, _ := v1.OwnerBytes(key); o == "cache-3" {
			keys = append(keys, key)
		}
	}
	secret := make([]byte, SecretLen)
	if _, err := rand.Read(secret); err != nil {
		t.Fatal(err)
	}
	k, err := New(nodes, WithSecret(secret))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]float64{}
	for _, key := range keys {
		o, _ := k.OwnerBytes(key)
		counts[o]++
	}
	stat, expected := 0.0, float64(len(keys))/float64(len(nodes))
	for _, n := range nodes {
		stat += (counts[n] - expected) * (counts[n] - expected) / expected
	}
	t.Logf("chi-square %.2f (bound 34.5)", stat)
	if stat >= 9+6*math.Sqrt(18) {
		t.Errorf("chi-square %.2f: %v", stat, counts)
	}
}
