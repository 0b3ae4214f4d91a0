//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The portable build keeps each set's log short: after compactAfter changes
// it becomes one base loading the rendered state. Each mode is built twice,
// with and without compaction, given the same changes, and fresh copies of
// both are compared (the one without compaction replays every change).

type answers struct {
	Owners []string
	TopK   [][]string
	Nodes  []string
}

func answersOf(t *testing.T, s *Snapshot) answers {
	t.Helper()
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprint("key-", i)
	}
	owners, err := s.Owners(keys)
	if err != nil {
		t.Fatal(err)
	}
	a := answers{Owners: owners, Nodes: s.Nodes()}
	for _, k := range keys[:200] {
		top, err := s.TopK(k, 2)
		if err != nil {
			t.Fatal(err)
		}
		a.TopK = append(a.TopK, top)
	}
	return a
}

// fresh answers from copies built now: every idle instance is closed first.
func fresh(t *testing.T, r *Rendezvous) answers {
	t.Helper()
	f := r.h.f
	for len(f.pool) > 0 {
		in := <-f.pool
		in.close()
		f.slots <- struct{}{}
	}
	s, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return answersOf(t, s)
}

func churn(t *testing.T, sets []*Rendezvous, n int, rng *rand.Rand, made int) {
	t.Helper()
	present := sets[0].Nodes()
	var gone []string
	for i := 0; i < n; i++ {
		roll := rng.Float64()
		var err error
		switch {
		case roll < 0.3 && len(present) > 4:
			j := rng.Intn(len(present))
			node := present[j]
			present = append(present[:j], present[j+1:]...)
			gone = append(gone, node)
			for _, s := range sets {
				if err = s.Remove(node); err != nil {
					t.Fatal(err)
				}
			}
		case roll < 0.6:
			var node string
			if len(gone) > 0 && rng.Intn(2) == 0 {
				j := rng.Intn(len(gone))
				node = gone[j]
				gone = append(gone[:j], gone[j+1:]...)
			} else {
				made++
				node = fmt.Sprint("new-", made)
			}
			w, d := float64(1+rng.Intn(4)), fmt.Sprint("rack-", rng.Intn(6))
			present = append(present, node)
			for _, s := range sets {
				if err = s.AddInDomain(node, w, d); err != nil {
					t.Fatal(err)
				}
			}
		case roll < 0.85:
			node, w := present[rng.Intn(len(present))], float64(1+rng.Intn(4))
			for _, s := range sets {
				if err = s.SetWeight(node, w); err != nil {
					t.Fatal(err)
				}
			}
		default:
			node, d := present[rng.Intn(len(present))], fmt.Sprint("rack-", rng.Intn(6))
			for _, s := range sets {
				if err = s.SetDomain(node, d); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestPortableCompactedSetPlacesAsTheReplayedOneInEveryMode(t *testing.T) {
	old := compactAfter
	compactAfter = 16
	defer func() { compactAfter = old }()
	dir := testfs.TempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "secret.hex"), []byte(hex.EncodeToString(testSecret)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	nodes := make([]string, 24)
	weights, domains := map[string]float64{}, map[string]string{}
	keyed := ""
	for i := range nodes {
		nodes[i] = fmt.Sprint("node-", i)
		weights[nodes[i]] = float64(1 + i%4)
		domains[nodes[i]] = fmt.Sprint("rack-", i%5)
		keyed += fmt.Sprintf("\n[[nodes]]\nid = %q\ndomain = %q\n", nodes[i], domains[nodes[i]])
	}
	write := func(name, head string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head+"[secret]\nfile = \"secret.hex\"\n"+keyed), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flatFile := write("flat.toml", "")
	tableFile := write("table.toml", "mode = \"table\"\n[table]\nreplicas = 2\n")
	modes := []struct {
		name string
		make func() (*Rendezvous, error)
	}{
		{"flat", func() (*Rendezvous, error) { return New(nodes) }},
		{"flat-seed-weights-domains", func() (*Rendezvous, error) {
			return New(nodes, WithSeed(7), WithWeights(weights), WithDomains(domains))
		}},
		{"table", func() (*Rendezvous, error) { return NewTable(nodes) }},
		{"table-bits-replicas", func() (*Rendezvous, error) {
			return NewTable(nodes, WithPartitionBits(9), WithReplicas(3), WithWeights(weights), WithSeed(3))
		}},
		{"table-distinct", func() (*Rendezvous, error) {
			return NewTable(nodes, WithReplicas(3), WithDistinctDomains(), WithDomains(domains))
		}},
		{"table-balanced", func() (*Rendezvous, error) {
			return NewTable(nodes, WithReplicas(2), WithBalance(1.25), WithWeights(weights))
		}},
		{"skeleton", func() (*Rendezvous, error) { return NewSkeleton(nodes) }},
		{"skeleton-shape", func() (*Rendezvous, error) {
			return NewSkeleton(nodes, WithShape(2, 3), WithWeights(weights), WithDomains(domains))
		}},
		{"keyed-file", func() (*Rendezvous, error) { return Load(flatFile) }},
		{"keyed-file-table", func() (*Rendezvous, error) { return Load(tableFile) }},
	}
	for i, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			compacted, err := m.make()
			if err != nil {
				t.Fatal(err)
			}
			defer compacted.Close()
			replayed, err := m.make()
			if err != nil {
				t.Fatal(err)
			}
			defer replayed.Close()
			replayed.h.f.compacts = false
			n0 := len(replayed.h.f.log.Load().ops)
			rng := rand.New(rand.NewSource(int64(i)))
			churn(t, []*Rendezvous{compacted, replayed}, 40, rng, 0)
			held, err := compacted.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			defer held.Close()
			atHold := answersOf(t, held)
			churn(t, []*Rendezvous{compacted, replayed}, 100, rng, 1000)
			l := compacted.h.f.log.Load()
			if l.base <= 40 || len(l.ops) > 16 {
				t.Fatalf("the log was not compacted: base %d, %d entries", l.base, len(l.ops))
			}
			if n := len(replayed.h.f.log.Load().ops); n != n0+140 {
				t.Fatalf("the set without compaction has %d entries", n)
			}
			if a, b := fresh(t, compacted), fresh(t, replayed); !reflect.DeepEqual(a, b) {
				t.Fatalf("a copy built after compaction differs from the replayed one")
			}
			fresh(t, compacted) // closes the pool: the held version is rebuilt from its base
			if got := answersOf(t, held); !reflect.DeepEqual(got, atHold) {
				t.Fatalf("a held snapshot answers differently after compaction")
			}
		})
	}
}

func TestPortableTenThousandChangesKeepTheLogBounded(t *testing.T) {
	nodes := []string{"a", "b", "c", "d", "e", "f"}
	r, err := NewTable(nodes)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	want := answersOf(t, first)
	for i := 0; i < 5000; i++ {
		if err := r.Add(fmt.Sprint("churn-", i), 1); err != nil {
			t.Fatal(err)
		}
		if err := r.Remove(fmt.Sprint("churn-", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(r.h.f.log.Load().ops); n > 256 {
		t.Fatalf("the log holds %d entries after 10,000 changes", n)
	}
	fresh(t, r)
	if got := answersOf(t, first); !reflect.DeepEqual(got, want) {
		t.Fatal("a snapshot held across 10,000 changes answers differently")
	}
}

func TestPortableKeyedSetMadeInCodeKeepsItsLog(t *testing.T) {
	old := compactAfter
	compactAfter = 8
	defer func() { compactAfter = old }()
	r, err := New([]string{"a", "b", "c"}, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n0 := len(r.h.f.log.Load().ops)
	for i := 0; i < 20; i++ {
		if err := r.Add(fmt.Sprint("more-", i), 1); err != nil {
			t.Fatal(err)
		}
	}
	if f := r.h.f; f.compacts || len(f.log.Load().ops) != n0+20 {
		t.Fatalf("a keyed set made in code compacted (or lost entries): %d entries", len(f.log.Load().ops))
	}
	want, err := New(r.Nodes(), WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	sameRankings(t, "keyed set made in code", r, want)
}
