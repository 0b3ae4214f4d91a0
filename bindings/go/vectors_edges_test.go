package longstraw

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// edgeBytes is a byte string of tests/vectors/placement-v1-edges.json:
// "<what>_hex", or "<what>_gen" {len, start} whose byte i is (start + i) mod 251.
type edgeBytes struct {
	Hex *string
	Gen *struct {
		Len, Start int
	}
}

func (b edgeBytes) bytes(t *testing.T) string {
	if b.Hex != nil {
		out, err := hex.DecodeString(*b.Hex)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	out := make([]byte, b.Gen.Len)
	for i := range out {
		out[i] = byte((b.Gen.Start + i) % 251)
	}
	return string(out)
}

type edgeEntry struct {
	IDHex      *string         `json:"id_hex"`
	IDGen      json.RawMessage `json:"id_gen"`
	KeyHex     *string         `json:"key_hex"`
	KeyGen     json.RawMessage `json:"key_gen"`
	WeightBits string          `json:"weight_bits"`
	Owner      int             `json:"owner"`
	Ranked     []int           `json:"ranked"`
}

func (e edgeEntry) get(t *testing.T, hexPart *string, gen json.RawMessage) string {
	b := edgeBytes{Hex: hexPart}
	if hexPart == nil {
		if err := json.Unmarshal(gen, &b.Gen); err != nil {
			t.Fatal(err)
		}
	}
	return b.bytes(t)
}

// TestVectorsEdges places every key of tests/vectors/placement-v1-edges.json
// (SPEC.md §14): exact ties, order-sensitive group sums, seeds 2^63 and
// 2^64-1, ids of 1 and 65,535 bytes, keys of every XXH3 length class up to
// 1 MiB, as flat sets and skeletons.
func TestVectorsEdges(t *testing.T) {
	data, err := os.ReadFile(vectorsPath("placement-v1-edges.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Placement string `json:"placement"`
		Cases     []struct {
			Name       string      `json:"name"`
			Mode       string      `json:"mode"`
			Seed       string      `json:"seed"`
			FanoutBits uint8       `json:"fanout_bits"`
			Levels     uint8       `json:"levels"`
			Nodes      []edgeEntry `json:"nodes"`
			Keys       []edgeEntry `json:"keys"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if file.Placement != "placement-v1-edges" || len(file.Cases) < 20 {
		t.Fatalf("placement %q with %d cases", file.Placement, len(file.Cases))
	}
	checked := 0
	for _, c := range file.Cases {
		seed, err := strconv.ParseUint(c.Seed, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(c.Nodes))
		weights := map[string]float64{}
		for i, n := range c.Nodes {
			ids[i] = n.get(t, n.IDHex, n.IDGen)
			bits, err := strconv.ParseUint(n.WeightBits, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			weights[ids[i]] = math.Float64frombits(bits)
		}
		opts := []Option{WithSeed(seed), WithWeights(weights)}
		var set interface {
			Owner(string) (string, error)
			Rank(string) ([]string, error)
			Owners([]string) ([]string, error)
		}
		if c.Mode == "skeleton" {
			set, err = NewSkeleton(ids, append(opts, WithShape(c.FanoutBits, c.Levels))...)
		} else {
			set, err = New(ids, opts...)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		keys := make([]string, len(c.Keys))
		wantOwners := make([]string, len(c.Keys))
		for i, k := range c.Keys {
			keys[i] = k.get(t, k.KeyHex, k.KeyGen)
			wantOwners[i] = ids[k.Owner]
			owner, err := set.Owner(keys[i])
			if err != nil || owner != ids[k.Owner] {
				t.Errorf("%s key of %d bytes: owner %q, %v; want node %d", c.Name, len(keys[i]), owner, err, k.Owner)
			}
			want := make([]string, len(k.Ranked))
			for j, idx := range k.Ranked {
				want[j] = ids[idx]
			}
			if got, err := set.Rank(keys[i]); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s key of %d bytes: rank differs (%v)", c.Name, len(keys[i]), err)
			}
			checked++
		}
		if got, err := set.Owners(keys); err != nil || !slices.Equal(got, wantOwners) {
			t.Errorf("%s: batch owners differ (%v)", c.Name, err)
		}
	}
	t.Logf("%d keys checked", checked)
}
