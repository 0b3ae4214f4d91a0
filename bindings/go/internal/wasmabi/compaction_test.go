package wasmabi

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// owners is every key's owner, from copies built now (the pool is emptied).
func ownersFresh(t *testing.T, s *Set) []string {
	t.Helper()
	for len(s.pool) > 0 {
		s.discard(<-s.pool, nil)
	}
	out := make([]string, 1000)
	for i := range out {
		_, id, err := s.Owner([]byte(fmt.Sprint("key-", i)))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = id
	}
	return out
}

// A set changed many times keeps a short log, and a copy built from its base
// places every key as a copy that replays every change.
func TestCompactedLogPlacesAsTheReplayedOne(t *testing.T) {
	old := compactAfter
	compactAfter = 16
	defer func() { compactAfter = old }()
	for _, seed := range []uint64{0, 7} {
		compacted, err := New(seed, nil, 1, Options{MaxInstances: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer compacted.Close()
		replayed, err := New(seed, nil, 1, Options{MaxInstances: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer replayed.Close()
		replayed.compacts = false
		rng := rand.New(rand.NewSource(int64(seed)))
		var present []string
		changes := 0
		for i := 0; i < 2000; i++ {
			var err1, err2 error
			switch roll := rng.Float64(); {
			case roll < 0.3 && len(present) > 4:
				j := rng.Intn(len(present))
				id := present[j]
				present = append(present[:j], present[j+1:]...)
				err1, err2 = compacted.Remove(id), replayed.Remove(id)
			case roll < 0.7:
				id, w := fmt.Sprint("node-", i), float64(1+rng.Intn(4))
				present = append(present, id)
				err1, err2 = compacted.Add(id, w), replayed.Add(id, w)
			default:
				if len(present) == 0 {
					continue
				}
				id, w := present[rng.Intn(len(present))], float64(1+rng.Intn(4))
				err1, err2 = compacted.SetWeight(id, w), replayed.SetWeight(id, w)
			}
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			changes++
		}
		l := compacted.log.Load()
		if l.base == 0 || len(l.ops) > 16 {
			t.Fatalf("seed %d: the log was not compacted: base %d, %d entries", seed, l.base, len(l.ops))
		}
		if n := len(replayed.log.Load().ops); n != changes+1 {
			t.Fatalf("seed %d: the set without compaction has %d entries", seed, n)
		}
		if a, b := ownersFresh(t, compacted), ownersFresh(t, replayed); !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: a copy built after compaction places keys differently", seed)
		}
	}
}

// A keyed set keeps its whole log: its text names no secret to load it with.
func TestKeyedSetKeepsItsLog(t *testing.T) {
	old := compactAfter
	compactAfter = 8
	defer func() { compactAfter = old }()
	s, err := New(0, make([]byte, 16), 1, Options{MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 20; i++ {
		if err := s.Add(fmt.Sprint("n", i), 1); err != nil {
			t.Fatal(err)
		}
	}
	if s.compacts || len(s.log.Load().ops) != 21 {
		t.Fatalf("a keyed set compacted: %d entries", len(s.log.Load().ops))
	}
}
