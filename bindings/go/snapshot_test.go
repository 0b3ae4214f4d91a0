package longstraw

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// A snapshot keeps answering for the membership it was taken from, in every
// mode, while the set moves on; the expected answers come from a set built
// fresh with that membership.
func TestSnapshotIsImmutable(t *testing.T) {
	nodes := []string{"a", "b", "c", "d", "e"}
	for _, c := range []struct {
		mode  Mode
		build func([]string) (*Rendezvous, error)
	}{
		{Flat, func(n []string) (*Rendezvous, error) { return New(n, WithSeed(7)) }},
		{Table, func(n []string) (*Rendezvous, error) {
			return NewTable(n, WithSeed(7), WithPartitionBits(8), WithReplicas(2))
		}},
		{Skeleton, func(n []string) (*Rendezvous, error) { return NewSkeleton(n, WithSeed(7), WithShape(1, 2)) }},
	} {
		set, err := c.build(nodes)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := set.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if err := set.Remove("c"); err != nil {
			t.Fatal(err)
		}
		if err := set.Add("f", 2); err != nil {
			t.Fatal(err)
		}
		before, _ := c.build(nodes)
		after, _ := c.build([]string{"a", "b", "d", "e"})
		after.Add("f", 2)
		if snap.Mode() != c.mode || set.Mode() != c.mode {
			t.Fatalf("%v: modes %v and %v", c.mode, snap.Mode(), set.Mode())
		}
		if !slices.Equal(snap.Nodes(), nodes) || snap.Len() != 5 || !snap.Contains("c") || snap.Contains("f") {
			t.Fatalf("%v: snapshot nodes %q", c.mode, snap.Nodes())
		}
		if i := slices.Index(set.Nodes(), "f"); set.Contains("c") || !set.Contains("f") || set.Weights()[i] != 2 {
			t.Fatalf("%v: set nodes %q weights %v", c.mode, set.Nodes(), set.Weights())
		}
		keys := make([]string, 300)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d", i)
		}
		moved := 0
		for _, key := range keys {
			got, err1 := snap.TopK(key, 3)
			want, err2 := before.TopK(key, 3)
			if err1 != nil || err2 != nil || !slices.Equal(got, want) {
				t.Fatalf("%v %s: snapshot %q (%v), want %q (%v)", c.mode, key, got, err1, want, err2)
			}
			now, _ := set.Owner(key)
			wantNow, _ := after.Owner(key)
			if now != wantNow {
				t.Fatalf("%v %s: set %q, want %q", c.mode, key, now, wantNow)
			}
			if now != got[0] {
				moved++
			}
		}
		if moved == 0 {
			t.Fatalf("%v: no key moved, so the test proves nothing", c.mode)
		}
		batch, err := snap.Owners(keys)
		if err != nil {
			t.Fatal(err)
		}
		for i, key := range keys {
			if want, _ := before.Owner(key); batch[i] != want {
				t.Fatalf("%v: Owners[%d] %q, want %q", c.mode, i, batch[i], want)
			}
		}
		// The snapshot outlives the set.
		set.Close()
		if o, err := snap.Owner("k1"); err != nil || o == "" {
			t.Fatalf("%v: snapshot after the set's Close: %q %v", c.mode, o, err)
		}
		if err := snap.Close(); err != nil {
			t.Fatal(err)
		}
		if err := snap.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if _, err := snap.Owner("k1"); !errors.Is(err, ErrClosed) {
			t.Fatalf("%v: Owner after Close: %v", c.mode, err)
		}
		if snap.Len() != 0 || snap.Nodes() != nil || snap.Mode() != c.mode {
			t.Fatalf("%v: closed snapshot: %d nodes, mode %v", c.mode, snap.Len(), snap.Mode())
		}
		if _, err := set.Snapshot(); !errors.Is(err, ErrClosed) {
			t.Fatalf("Snapshot of a closed set: %v", err)
		}
	}
}

// The mode's parameters answer (value, true) on their mode, on the set and
// on its snapshot, and (zero, false) on the others.
func TestModeAccessors(t *testing.T) {
	nodes := []string{"a", "b", "c"}
	flat, _ := New(nodes, WithSeed(3))
	table, _ := NewTable(nodes, WithPartitionBits(5), WithReplicas(2), WithBalance(1.5))
	distinct, _ := NewTable(nodes, WithDistinctDomains())
	skeleton, _ := NewSkeleton(nodes, WithShape(2, 1))
	keyed, _ := New(nodes, WithSecret(testSecret))
	type answers struct {
		mode                          string
		bits, parts, replicas, fb, lv int
		distinct                      bool
		balance                       float64
		okTable, okBalance, okSkel    bool
	}
	read := func(s interface {
		Mode() Mode
		PartitionBits() (int, bool)
		Partitions() (int, bool)
		Replicas() (int, bool)
		DistinctDomains() (bool, bool)
		Balance() (float64, bool)
		FanoutBits() (int, bool)
		Levels() (int, bool)
	}) answers {
		var a answers
		a.mode = s.Mode().String()
		a.bits, a.okTable = s.PartitionBits()
		a.parts, _ = s.Partitions()
		a.replicas, _ = s.Replicas()
		a.distinct, _ = s.DistinctDomains()
		a.balance, a.okBalance = s.Balance()
		a.fb, a.okSkel = s.FanoutBits()
		a.lv, _ = s.Levels()
		return a
	}
	for _, c := range []struct {
		set  *Rendezvous
		want answers
	}{
		{flat, answers{mode: "flat"}},
		{table, answers{mode: "table", bits: 5, parts: 32, replicas: 2, balance: 1.5, okTable: true, okBalance: true}},
		{distinct, answers{mode: "table", bits: 10, parts: 1024, replicas: 1, distinct: true, okTable: true}},
		{skeleton, answers{mode: "skeleton", fb: 2, lv: 1, okSkel: true}},
	} {
		snap, err := c.set.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if got := read(c.set); got != c.want {
			t.Errorf("%v: %+v, want %+v", c.set, got, c.want)
		}
		if got := read(snap); got != c.want {
			t.Errorf("snapshot of %v: %+v, want %+v", c.set, got, c.want)
		}
	}
	if seed, ok := flat.Seed(); seed != 3 || !ok {
		t.Errorf("Seed of a seeded set: %d %v", seed, ok)
	}
	if seed, ok := keyed.Seed(); seed != 0 || ok {
		t.Errorf("Seed of a keyed set: %d %v", seed, ok)
	}
	if flat.Placement() != PlacementVersion || !keyed.IsKeyed() || flat.IsKeyed() {
		t.Errorf("Placement %d, keyed %v/%v", flat.Placement(), keyed.IsKeyed(), flat.IsKeyed())
	}
	for m, want := range map[Mode]string{Flat: "flat", Table: "table", Skeleton: "skeleton", Mode(7): "Mode(7)"} {
		if m.String() != want {
			t.Errorf("%d: %q", int(m), m.String())
		}
	}
}

// Lookups on one snapshot racing its Close (run with -race): each lookup
// answers or fails with ErrClosed, never reads freed memory.
func TestSnapshotLookupsRacingClose(t *testing.T) {
	set, err := NewTable([]string{"a", "b", "c"}, WithPartitionBits(6))
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 50; round++ {
		snap, err := set.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 200; i++ {
					o, err := snap.Owner(fmt.Sprint(i))
					if err != nil && !errors.Is(err, ErrClosed) || err == nil && o == "" {
						t.Errorf("Owner: %q %v", o, err)
						return
					}
				}
			}()
		}
		snap.Close()
		wg.Wait()
	}
}
