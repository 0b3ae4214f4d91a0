package longstraw

import (
	"slices"
	"testing"
)

// loadsByNode is b.Loads as a map, failing the test on an error.
func loadsByNode(b *Bounded) map[string]uint64 {
	loads, err := b.Loads()
	if err != nil {
		panic(err)
	}
	m := make(map[string]uint64, len(loads))
	for _, l := range loads {
		m[l.Node] = uint64(l.InFlight)
	}
	return m
}

// Loads lists every node once, in the order the nodes were added (which is
// not their sorted order here), with its own requests in flight.
func TestLoadsInNodeOrder(t *testing.T) {
	nodes := []string{"zeta", "alpha", "mu", "beta"}
	b, err := NewBounded(nodes, 4)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]int{}
	var releases []func()
	for i := 0; i < 7; i++ {
		node, release, err := b.Acquire(string(rune('a' + i)))
		if err != nil {
			t.Fatal(err)
		}
		held[node]++
		releases = append(releases, release)
	}
	loads, err := b.Loads()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, l := range loads {
		order = append(order, l.Node)
		if l.InFlight != held[l.Node] {
			t.Errorf("%s: InFlight %d, want %d (the acquires that returned it)", l.Node, l.InFlight, held[l.Node])
		}
	}
	if !slices.Equal(order, nodes) {
		t.Errorf("Loads order %q, want the node order %q", order, nodes)
	}
	if err := b.Remove("mu"); err != nil {
		t.Fatal(err)
	}
	loads, _ = b.Loads()
	order = order[:0]
	for _, l := range loads {
		order = append(order, l.Node)
	}
	if want := []string{"zeta", "alpha", "beta"}; !slices.Equal(order, want) {
		t.Errorf("after Remove(mu): %q, want %q", order, want)
	}
	for _, r := range releases {
		r()
	}
}
