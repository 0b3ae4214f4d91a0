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

// boundedOp is one step of a bounded-v1.json script, with what must follow.
type boundedOp struct {
	Op         string  `json:"op"`
	KeyHex     string  `json:"key_hex"`
	NodeHex    *string `json:"node_hex"`
	Acquire    int     `json:"acquire"`
	IDHex      string  `json:"id_hex"`
	WeightBits string  `json:"weight_bits"`
	InFlight   uint64  `json:"in_flight"`
}

type boundedCase struct {
	Name              string  `json:"name"`
	Seed              *string `json:"seed"`
	SecretHex         *string `json:"secret_hex"`
	BalanceFactorBits string  `json:"balance_factor_bits"`
	Nodes             []struct {
		IDHex      string `json:"id_hex"`
		WeightBits string `json:"weight_bits"`
	} `json:"nodes"`
	Ops []boundedOp `json:"ops"`
}

func unhex(t *testing.T, s string) string {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return string(b)
}

func fromBits(t *testing.T, s string) float64 {
	t.Helper()
	u, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		t.Fatalf("bad bit pattern %q: %v", s, err)
	}
	return math.Float64frombits(u)
}

// TestBoundedVectors runs every script of bounded-v1.json (SPEC.md §16) in
// one goroutine: each acquire must return the node that tests/spec (the
// independent implementation) gives, and InFlight must match after each step.
func TestBoundedVectors(t *testing.T) {
	data, err := os.ReadFile(vectorsPath("bounded-v1.json"))
	if err != nil {
		t.Fatalf("reading the golden vectors: %v", err)
	}
	var vf struct {
		Placement string        `json:"placement"`
		Cases     []boundedCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatalf("parsing the golden vectors: %v", err)
	}
	if vf.Placement != "bounded-v1" || len(vf.Cases) == 0 {
		t.Fatalf("placement %q with %d cases", vf.Placement, len(vf.Cases))
	}
	checked := 0
	for _, c := range vf.Cases {
		ids := make([]string, len(c.Nodes))
		weights := make(map[string]float64, len(c.Nodes))
		for i, n := range c.Nodes {
			ids[i] = unhex(t, n.IDHex)
			weights[ids[i]] = fromBits(t, n.WeightBits)
		}
		opts := []Option{WithWeights(weights)}
		if c.SecretHex != nil {
			opts = append(opts, WithSecret([]byte(unhex(t, *c.SecretHex))))
		} else {
			seed, err := strconv.ParseUint(*c.Seed, 10, 64)
			if err != nil {
				t.Fatalf("%s: seed: %v", c.Name, err)
			}
			if seed != 0 {
				opts = append(opts, WithSeed(seed))
			}
		}
		b, err := NewBounded(ids, fromBits(t, c.BalanceFactorBits), opts...)
		if err != nil {
			t.Fatalf("%s: NewBounded: %v", c.Name, err)
		}
		releases := map[int]func(){}
		for i, op := range c.Ops {
			switch op.Op {
			case "acquire":
				node, release, err := b.AcquireBytes([]byte(unhex(t, op.KeyHex)))
				if op.NodeHex == nil {
					if !errors.Is(err, ErrNoEligibleNode) {
						t.Fatalf("%s op %d: want ErrNoEligibleNode, got node %x, err %v", c.Name, i, node, err)
					}
				} else {
					if err != nil {
						t.Fatalf("%s op %d: %v", c.Name, i, err)
					}
					if node != unhex(t, *op.NodeHex) {
						t.Fatalf("%s op %d: acquired %x, want %s", c.Name, i, node, *op.NodeHex)
					}
					releases[i] = release
				}
			case "release":
				releases[op.Acquire]()
				delete(releases, op.Acquire)
			case "add":
				err = b.Add(unhex(t, op.IDHex), fromBits(t, op.WeightBits))
			case "remove":
				err = b.Remove(unhex(t, op.IDHex))
			case "set_weight":
				err = b.SetWeight(unhex(t, op.IDHex), fromBits(t, op.WeightBits))
			default:
				t.Fatalf("%s op %d: unknown op %q", c.Name, i, op.Op)
			}
			if op.Op != "acquire" && err != nil {
				t.Fatalf("%s op %d (%s): %v", c.Name, i, op.Op, err)
			}
			if got := b.InFlight(); got != op.InFlight {
				t.Fatalf("%s op %d: InFlight %d, want %d", c.Name, i, got, op.InFlight)
			}
			checked++
		}
		for _, release := range releases {
			release()
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d ops checked", checked)
	}
}
