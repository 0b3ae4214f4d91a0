package longstraw

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// OwnersPacked returns a copy of the ids, not the view's own id slice, so a
// caller that edits the slice cannot change any later lookup.
func TestOwnersPackedReturnsACopy(t *testing.T) {
	r, err := New([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.Owner("key")
	bytes, offsets := packStrings([]string{"key"})
	out := make([]uint32, 1)
	ids, err := r.OwnersPacked(bytes, offsets, out)
	if err != nil {
		t.Fatal(err)
	}
	if ids[out[0]] != want {
		t.Fatalf("OwnersPacked says %q, Owner says %q", ids[out[0]], want)
	}
	for i := range ids {
		ids[i] = "scribbled"
	}
	if got, _ := r.Owner("key"); got != want {
		t.Fatalf("editing OwnersPacked's result changed Owner: %q, want %q", got, want)
	}
	if got, _ := r.Owners([]string{"key"}); got[0] != want {
		t.Fatalf("editing OwnersPacked's result changed Owners: %q, want %q", got[0], want)
	}
	if nodes := r.Nodes(); strings.Join(nodes, ",") != "a,b,c" {
		t.Fatalf("editing OwnersPacked's result changed Nodes: %v", nodes)
	}
}

type closer interface {
	Close() error
	Owner(string) (string, error)
	Add(string, float64) error
	Len() int
	Backend() string
}

func everyKind(t *testing.T) map[string]closer {
	t.Helper()
	nodes := []string{"a", "b", "c"}
	r, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := NewTable(nodes, WithPartitionBits(10))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := NewSkeleton(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]closer{"Rendezvous": r, "Table": tb, "Skeleton": sk}
}

func TestCloseIsIdempotentAndLaterCallsFail(t *testing.T) {
	for name, s := range everyKind(t) {
		if _, err := s.Owner("k"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := 0; i < 3; i++ {
			if err := s.Close(); err != nil {
				t.Fatalf("%s: Close #%d: %v", name, i+1, err)
			}
		}
		if _, err := s.Owner("k"); !errors.Is(err, ErrClosed) {
			t.Errorf("%s: Owner after Close: %v, want ErrClosed", name, err)
		} else if !strings.Contains(err.Error(), "closed") {
			t.Errorf("%s: error does not say closed: %v", name, err)
		}
		if err := s.Add("d", 1); !errors.Is(err, ErrClosed) {
			t.Errorf("%s: Add after Close: %v, want ErrClosed", name, err)
		}
		if s.Len() != 0 || s.Backend() != "closed" {
			t.Errorf("%s: after Close Len %d, Backend %q", name, s.Len(), s.Backend())
		}
	}
}

// Lookups racing Close and changes: each gets an answer from a whole
// membership or ErrClosed, never a crash or a freed snapshot (run with -race).
func TestCloseWhileLookupsRun(t *testing.T) {
	for round := 0; round < 20; round++ {
		r, err := New([]string{"a", "b", "c", "d"})
		if err != nil {
			t.Fatal(err)
		}
		valid := map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; ; i++ {
					key := fmt.Sprintf("k%d-%d", g, i)
					o, err := r.Owner(key)
					if errors.Is(err, ErrClosed) {
						return
					}
					if err != nil || !valid[o] {
						errs <- fmt.Errorf("Owner(%q) = %q, %v", key, o, err)
						return
					}
					if _, err := r.Owners([]string{key, "x"}); err != nil && !errors.Is(err, ErrClosed) {
						errs <- err
						return
					}
				}
			}(g)
		}
		_ = r.Add("e", 1)
		_ = r.Remove("e")
		_ = r.Close()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

func rssBytes(t *testing.T) int64 {
	t.Helper()
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("SKIPPED: cannot read /proc/self/statm (%v); the soak needs Linux", err)
	}
	pages, err := strconv.ParseInt(strings.Fields(string(statm))[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// Dropped tables are C memory the collector cannot see. With
// the collector switched off, 30 closed 8 MB tables must leave RSS about
// where the first few leave it; without Close they would add 240 MB.
func TestSoakClosedTablesStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED: table soak in -short mode")
	}
	skipPortable(t, "it measures C memory with the collector off; a WebAssembly instance's memory is Go heap, "+
		"which only the collector returns (TestPortableClosedSetsCloseTheirInstances covers Close there)")
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const tables, warmup, tableBytes = 30, 5, 8 << 20 // 2^19 partitions x 4 replicas x 4 bytes
	nodes := []string{"n0", "n1", "n2", "n3"}
	leak := os.Getenv("LONGSTRAW_SOAK_NO_CLOSE") != "" // to measure the leak this test guards against
	var before int64
	for i := 0; i < tables; i++ {
		tb, err := NewTable(nodes, WithPartitionBits(19), WithReplicas(4))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Owner("k"); err != nil {
			t.Fatal(err)
		}
		if !leak {
			if err := tb.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if i == warmup-1 {
			before = rssBytes(t)
		}
	}
	after := rssBytes(t)
	growth := after - before
	t.Logf("RSS after %d tables %d MB, after %d tables %d MB (GC off, Close %v)", warmup, before>>20, tables, after>>20, !leak)
	// Four tables' worth of slack for allocator caching; a leak would be 25.
	if growth > 4*tableBytes {
		t.Fatalf("RSS grew %d MB over %d dropped tables", growth>>20, tables-warmup)
	}
}
