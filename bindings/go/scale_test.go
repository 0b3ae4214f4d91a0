package longstraw

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// scaleCase is a case of table-v1.json, skeleton-v1.json or domains-v1.json.
type scaleCase struct {
	Name       string       `json:"name"`
	Mode       string       `json:"mode"`
	Seed       string       `json:"seed"`
	Depth      int          `json:"depth"`
	K          int          `json:"k"`
	Bits       *uint8       `json:"bits"`
	FanoutBits *uint8       `json:"fanout_bits"`
	Levels     *uint8       `json:"levels"`
	Nodes      []vectorNode `json:"nodes"`
	Keys       []vectorKey  `json:"keys"`
}

func readScaleVectors(t *testing.T, name, kind string) []scaleCase {
	t.Helper()
	data, err := os.ReadFile(vectorsPath(name))
	if err != nil {
		t.Fatalf("reading the golden vectors: %v", err)
	}
	var vf struct {
		Placement string      `json:"placement"`
		Cases     []scaleCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	if vf.Placement != kind || len(vf.Cases) == 0 {
		t.Fatalf("%s: placement %q with %d cases", name, vf.Placement, len(vf.Cases))
	}
	return vf.Cases
}

// options builds the case's nodes, seed, weights and domains.
func (c *scaleCase) options(t *testing.T) ([]string, []Option) {
	seed, err := strconv.ParseUint(c.Seed, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(c.Nodes))
	weights := map[string]float64{}
	domains := map[string]string{}
	for i, n := range c.Nodes {
		ids[i] = string(mustHex(t, n.IDHex))
		bits, err := strconv.ParseUint(n.WeightBits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		weights[ids[i]] = math.Float64frombits(bits)
		if n.DomainHex != nil {
			domains[ids[i]] = string(mustHex(t, *n.DomainHex))
		}
	}
	return ids, []Option{WithSeed(seed), WithWeights(weights), WithDomains(domains), WithPlacement(1)}
}

// lookups is what the three kinds of set have in common.
type lookups interface {
	OwnerBytes([]byte) (string, error)
	TopKBytes([]byte, int) ([]string, error)
	TopKDistinctBytes([]byte, int) ([]string, error)
	Rank(string) ([]string, error)
	OwnersBytes([][]byte) ([]string, error)
}

// checkPlacement compares owner, top-k, rank and the batch call on one set
// with a case's recorded answers.
func checkPlacement(t *testing.T, label string, s lookups, c *scaleCase, ids []string) int {
	keys := make([][]byte, len(c.Keys))
	want := make([]string, len(c.Keys))
	anyNull := false
	for i, k := range c.Keys {
		key := mustHex(t, k.KeyHex)
		keys[i] = key
		owner, err := s.OwnerBytes(key)
		if k.Owner == nil {
			anyNull = true
			if !errors.Is(err, ErrNoEligibleNode) {
				t.Errorf("%s key %s: want ErrNoEligibleNode, got %q, %v", label, k.KeyHex, owner, err)
			}
		} else if want[i] = ids[*k.Owner]; err != nil || owner != want[i] {
			t.Errorf("%s key %s: owner %q (%v), want %q", label, k.KeyHex, owner, err, want[i])
		}
		top, err := s.TopKBytes(key, c.Depth)
		all, err2 := s.Rank(string(key))
		if err != nil || err2 != nil || len(top) != len(k.Ranked) || len(all) < len(k.Ranked) {
			t.Errorf("%s key %s: TopK %v (%v), Rank %v (%v), want %v", label, k.KeyHex, top, err, all, err2, k.Ranked)
			continue
		}
		for j, idx := range k.Ranked {
			if top[j] != ids[idx] || all[j] != ids[idx] {
				t.Errorf("%s key %s: rank %d is %q/%q, want %q", label, k.KeyHex, j, top[j], all[j], ids[idx])
			}
		}
	}
	got, err := s.OwnersBytes(keys)
	if anyNull {
		if !errors.Is(err, ErrNoEligibleNode) {
			t.Errorf("%s: Owners: want ErrNoEligibleNode, got %v", label, err)
		}
	} else if err != nil || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("%s: Owners = %q (%v), want %q", label, got, err, want)
	}
	return len(c.Keys)
}

// TestTableVectors builds each case of table-v1.json storing the recorded
// depth per partition, and storing 1 (longer lists ranked), and checks both.
func TestTableVectors(t *testing.T) {
	checked := 0
	for _, c := range readScaleVectors(t, "table-v1.json", "table-v1") {
		ids, opts := c.options(t)
		for _, replicas := range []int{c.Depth, 1} {
			tb, err := NewTable(ids, append(opts, WithPartitionBits(*c.Bits), WithReplicas(replicas))...)
			if err != nil {
				t.Fatalf("%s: NewTable: %v", c.Name, err)
			}
			bits, _ := tb.PartitionBits()
			got, _ := tb.Replicas()
			if bits != int(*c.Bits) || got != replicas {
				t.Errorf("%s: shape %d/%d", c.Name, bits, got)
			}
			checked += checkPlacement(t, fmt.Sprintf("%s (replicas %d)", c.Name, replicas), tb, &c, ids)
			snap, err := tb.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range c.Keys {
				key := mustHex(t, k.KeyHex)
				p, err := tb.PartitionBytes(key)
				q, err2 := snap.Partition(string(key))
				if k.Partition == nil || err != nil || err2 != nil || p != uint32(*k.Partition) || q != p {
					t.Errorf("%s key %s: Partition %d (%v), snapshot %d (%v), want %v", c.Name, k.KeyHex, p, err, q, err2, k.Partition)
				}
			}
			snap.Close()
		}
	}
	t.Logf("%d key checks", checked)
}

// TestSkeletonVectors checks each case of skeleton-v1.json, built at once
// and grown node by node in reverse (the tree depends on membership only).
func TestSkeletonVectors(t *testing.T) {
	checked := 0
	for _, c := range readScaleVectors(t, "skeleton-v1.json", "skeleton-v1") {
		ids, opts := c.options(t)
		shape := WithShape(*c.FanoutBits, *c.Levels)
		k, err := NewSkeleton(ids, append(opts, shape)...)
		if err != nil {
			t.Fatalf("%s: NewSkeleton: %v", c.Name, err)
		}
		fb, _ := k.FanoutBits()
		if lv, ok := k.Levels(); !ok || lv != int(*c.Levels) || (lv > 0 && fb != int(*c.FanoutBits)) {
			t.Errorf("%s: FanoutBits, Levels = %d, %d", c.Name, fb, lv)
		}
		checked += checkPlacement(t, c.Name, k, &c, ids)

		seed, _ := strconv.ParseUint(c.Seed, 10, 64)
		grown, err := NewSkeleton(nil, WithSeed(seed), shape)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(c.Nodes) - 1; i >= 0; i-- {
			bits, _ := strconv.ParseUint(c.Nodes[i].WeightBits, 16, 64)
			if err := grown.Add(ids[i], math.Float64frombits(bits)); err != nil {
				t.Fatal(err)
			}
		}
		checked += checkPlacement(t, c.Name+" (grown)", grown, &c, ids)
	}
	t.Logf("%d key checks", checked)
}

// TestDomainsVectors checks TopKDistinct of each case of domains-v1.json in
// its mode (tables with and without WithDistinctDomains).
func TestDomainsVectors(t *testing.T) {
	checked := 0
	for _, c := range readScaleVectors(t, "domains-v1.json", "domains-v1") {
		ids, opts := c.options(t)
		var sets []lookups
		switch c.Mode {
		case "flat":
			r, err := New(ids, opts...)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			sets = append(sets, r)
		case "table":
			for _, distinct := range []bool{false, true} {
				o := append(opts, WithPartitionBits(*c.Bits), WithReplicas(c.K))
				if distinct {
					o = append(o, WithDistinctDomains())
				}
				tb, err := NewTable(ids, o...)
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				sets = append(sets, tb)
			}
		case "skeleton":
			k, err := NewSkeleton(ids, append(opts, WithShape(*c.FanoutBits, *c.Levels))...)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			sets = append(sets, k)
		default:
			t.Fatalf("%s: unknown mode %q", c.Name, c.Mode)
		}
		for _, s := range sets {
			for _, k := range c.Keys {
				got, err := s.TopKDistinctBytes(mustHex(t, k.KeyHex), c.K)
				wantIDs := make([]string, len(k.Distinct))
				for i, idx := range k.Distinct {
					wantIDs[i] = ids[idx]
				}
				if err != nil || strings.Join(got, "\x00") != strings.Join(wantIDs, "\x00") {
					t.Errorf("%s key %s: TopKDistinct = %q (%v), want %q", c.Name, k.KeyHex, got, err, wantIDs)
				}
				checked++
			}
		}
	}
	t.Logf("%d key checks", checked)
}

func numbered(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("n%d", i)
	}
	return ids
}

func TestScaleParametersAndErrors(t *testing.T) {
	ids := numbered(20)
	cases := []struct {
		err     error
		kind    error
		mention string
	}{
		{second(NewTable(ids, WithPartitionBits(25))), ErrInvalidParameter, "partition bits 25"},
		{second(NewTable(ids, WithReplicas(0))), ErrInvalidParameter, "replicas 0"},
		{second(NewTable(ids, WithReplicas(33))), ErrInvalidParameter, "replicas 33"},
		{second(NewTable(ids, WithReplicas(-1))), ErrInvalidParameter, "replicas -1"},
		{second(NewSkeleton(ids, WithShape(7, 1))), ErrInvalidParameter, "WithShape(7, 1)"},
		{second(NewSkeleton(ids, WithShape(0, 2))), ErrInvalidParameter, "WithShape(0, 2)"},
		{second(NewSkeleton(ids, WithShape(2, 6))), ErrInvalidParameter, "WithShape(2, 6)"},
		{second(New(ids, WithReplicas(2))), ErrInvalidArgument, "WithReplicas"},
		{second(New(ids, WithShape(2, 1))), ErrInvalidArgument, "WithShape"},
		{second(NewSkeleton(ids, WithPartitionBits(8))), ErrInvalidArgument, "WithPartitionBits"},
		{second(NewTable(ids, WithShape(2, 1))), ErrInvalidArgument, "WithShape"},
		{second(NewSkeleton(ids, WithDistinctDomains())), ErrInvalidArgument, "WithDistinctDomains"},
		{second(NewTable(ids, WithDomains(map[string]string{"zz": "a"}))), ErrUnknownNode, `"zz"`},
		{second(NewTable(ids, WithDomains(map[string]string{"n1": strings.Repeat("d", 65536)}))), ErrInvalidDomain, `"n1"`},
		{second(NewSkeleton([]string{"a", "a"})), ErrDuplicateNode, `"a"`},
		{second(NewTable(ids, WithPlacement(2))), ErrUnknownPlacement, "placement 2"},
	}
	for i, c := range cases {
		if !errors.Is(c.err, c.kind) || !strings.Contains(fmt.Sprint(c.err), c.mention) {
			t.Errorf("case %d: got %v, want %v mentioning %s", i, c.err, c.kind, c.mention)
		}
	}
	tb, err := NewTable(ids)
	if err != nil {
		t.Fatal(err)
	}
	bits, _ := tb.PartitionBits()
	replicas, _ := tb.Replicas()
	distinct, _ := tb.DistinctDomains()
	if bits != 11 || replicas != 1 || distinct {
		t.Errorf("defaults for 20 nodes: bits %d, replicas %d, distinct %v", bits, replicas, distinct)
	}
	if tb0, err := NewTable(ids, WithPartitionBits(0)); err != nil {
		t.Errorf("one partition: %v", err)
	} else if n, ok := tb0.Partitions(); n != 1 || !ok {
		t.Errorf("one partition: Partitions() = %d, %v", n, ok)
	}
	k, err := NewSkeleton(numbered(300))
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := k.FanoutBits()
	if lv, _ := k.Levels(); fb != 6 || lv != 1 {
		t.Errorf("default shape for 300 nodes: %d, %d", fb, lv)
	}
	if err := tb.AddInDomain("x", 1, strings.Repeat("d", 65536)); !errors.Is(err, ErrInvalidDomain) {
		t.Errorf("long label: %v", err)
	}
	if err := tb.SetDomain("zz", "a"); !errors.Is(err, ErrUnknownNode) || !strings.Contains(err.Error(), `"zz"`) {
		t.Errorf("SetDomain of a missing node: %v", err)
	}
	if err := k.Add("n1", 1); !errors.Is(err, ErrDuplicateNode) {
		t.Errorf("skeleton duplicate: %v", err)
	}
	if err := k.SetWeight("n1", math.NaN()); !errors.Is(err, ErrInvalidWeight) {
		t.Errorf("skeleton NaN: %v", err)
	}
	if _, err := tb.TopKDistinct("k", -1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("TopKDistinct(-1): %v", err)
	}
	if tb.Len() != 20 || k.Len() != 300 {
		t.Errorf("failed changes changed the sets: %d, %d", tb.Len(), k.Len())
	}
}

func second[T any](_ T, err error) error { return err }

// Domains: one replica per zone, replica 0 the owner, fewer zones than k
// gives fewer replicas; labels read back and clear.
func TestTopKDistinct(t *testing.T) {
	ids := numbered(12)
	zones := map[string]string{}
	for i, id := range ids {
		zones[id] = fmt.Sprintf("zone-%d", i%3)
	}
	r, _ := New(ids, WithDomains(zones))
	tb, _ := NewTable(ids, WithDomains(zones), WithReplicas(3), WithDistinctDomains())
	k, _ := NewSkeleton(ids, WithDomains(zones), WithShape(1, 2))
	for _, s := range []interface {
		lookups
		Owner(string) (string, error)
		Domains() []string
	}{r, tb, k} {
		if d := s.Domains(); d[4] != "zone-1" {
			t.Errorf("Domains()[4] = %q", d[4])
		}
		for i := 0; i < 200; i++ {
			key := fmt.Sprintf("key-%d", i)
			got, err := s.TopKDistinctBytes([]byte(key), 5)
			owner, _ := s.Owner(key)
			if err != nil || len(got) != 3 || got[0] != owner {
				t.Fatalf("%s: %v (%v), owner %s", key, got, err, owner)
			}
			seen := map[string]bool{}
			for _, id := range got {
				seen[zones[id]] = true
			}
			if len(seen) != 3 {
				t.Errorf("%s: %v repeats a zone", key, got)
			}
		}
	}
	if err := r.SetDomain("n4", ""); err != nil || r.Domains()[4] != "" {
		t.Errorf("clearing a label: %v %q", err, r.Domains()[4])
	}
	if err := r.AddInDomain("x", 1, "zone-9"); err != nil || r.Domains()[12] != "zone-9" {
		t.Errorf("AddInDomain: %v", err)
	}
}

// A table removal moves exactly the removed node's keys; re-adding it
// restores every owner.
func TestTableRemoveMovesOnlyItsKeys(t *testing.T) {
	tb, err := NewTable(numbered(16), WithPartitionBits(12), WithReplicas(2))
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 4000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	before, _ := tb.Owners(keys)
	if err := tb.Remove("n7"); err != nil {
		t.Fatal(err)
	}
	after, _ := tb.Owners(keys)
	moved := 0
	for i := range keys {
		if before[i] == "n7" {
			moved++
			if after[i] == "n7" {
				t.Fatalf("%s still on the removed node", keys[i])
			}
		} else if before[i] != after[i] {
			t.Fatalf("%s moved from %s, not from the removed node", keys[i], before[i])
		}
	}
	// n7 owned about 1/16 of 4000 keys: 250, sigma about 15; allow 5 sigma.
	if moved < 175 || moved > 325 {
		t.Errorf("%d keys moved", moved)
	}
	if err := tb.Add("n7", 1); err != nil {
		t.Fatal(err)
	}
	again, _ := tb.Owners(keys)
	if strings.Join(again, ",") != strings.Join(before, ",") {
		t.Error("re-adding the node did not restore every owner")
	}
}

// Lookups on a table and a skeleton racing changes; run with -race.
func TestScaleConcurrentUse(t *testing.T) {
	tb, _ := NewTable(numbered(8), WithPartitionBits(8))
	k, _ := NewSkeleton(numbered(8), WithShape(1, 2))
	for _, s := range []interface {
		lookups
		Add(string, float64) error
		Remove(string) error
		Len() int
	}{tb, k} {
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					key := []byte(fmt.Sprintf("k%d-%d", g, i))
					if _, err := s.OwnerBytes(key); err != nil {
						t.Error(err)
						return
					}
					if top, err := s.TopKDistinctBytes(key, 2); err != nil || len(top) != 2 {
						t.Error(top, err)
						return
					}
				}
			}(g)
		}
		for i := 0; i < 100; i++ {
			id := fmt.Sprintf("extra-%d", i)
			if err := s.Add(id, 1); err != nil {
				t.Fatal(err)
			}
			if err := s.Remove(id); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		wg.Wait()
		if s.Len() != 8 {
			t.Errorf("Len = %d", s.Len())
		}
	}
}
