package longstraw

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestVersion(t *testing.T) {
	parts := strings.Split(VersionString(), ".")
	if len(parts) != 3 {
		t.Fatalf("version %q", VersionString())
	}
	var major, minor, patch int
	fmt.Sscanf(VersionString(), "%d.%d.%d", &major, &minor, &patch)
	if Version() != major*10000+minor*100+patch {
		t.Errorf("Version() = %d, VersionString() = %q", Version(), VersionString())
	}
}

func TestErrorsNameTheValue(t *testing.T) {
	r, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		err     error
		kind    error
		mention string
	}{
		{r.Add("a", 1), ErrDuplicateNode, `"a"`},
		{r.Add("c", math.NaN()), ErrInvalidWeight, "NaN"},
		{r.Add("c", math.Copysign(0, -1)), ErrInvalidWeight, `"c"`},
		{r.Add("c", -1), ErrInvalidWeight, "-1"},
		{r.Add("", 1), ErrInvalidNodeID, `""`},
		{r.Add(strings.Repeat("x", 65536), 1), ErrInvalidNodeID, "invalid node id"},
		{r.Remove("zz"), ErrUnknownNode, `"zz"`},
		{r.SetWeight("zz", 1), ErrUnknownNode, `"zz"`},
		{r.SetWeight("a", math.Inf(1)), ErrInvalidWeight, "+Inf"},
	}
	for i, c := range cases {
		var e *Error
		if !errors.Is(c.err, c.kind) || !errors.As(c.err, &e) || !strings.Contains(c.err.Error(), c.mention) {
			t.Errorf("case %d: got %v, want %v mentioning %s", i, c.err, c.kind, c.mention)
		}
	}
	if r.Len() != 2 {
		t.Errorf("failed changes changed the set: Len = %d", r.Len())
	}
	if _, err := New([]string{"a", "a"}); !errors.Is(err, ErrDuplicateNode) || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("New with a duplicate: %v", err)
	}
	if _, err := New([]string{"a"}, WithWeights(map[string]float64{"a": math.NaN()})); !errors.Is(err, ErrInvalidWeight) {
		t.Errorf("New with a NaN weight: %v", err)
	}
	if _, err := New([]string{"a"}, WithWeights(map[string]float64{"b": 1})); !errors.Is(err, ErrUnknownNode) {
		t.Errorf("New with a weight for a missing node: %v", err)
	}
	if _, err := New(nil, WithPlacement(2)); !errors.Is(err, ErrUnknownPlacement) {
		t.Errorf("New with placement 2: %v", err)
	}
	if _, err := r.TopK("k", -1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("TopK(-1): %v", err)
	}
	if _, err := r.OwnersPacked([]byte("ab"), []uint64{0, 3}, make([]uint32, 1)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("OwnersPacked with bad offsets: %v", err)
	}
}

func TestHashCollisionIsAnError(t *testing.T) {
	// Two ids with equal node hashes under seed 0 (see tests/c/test_api.c).
	a := "\xe7\x00\x2b\xcb\xbd\x9f\x33\xaccollide!"
	b := "\x76\x64\xc1\x41\xea\x2e\x95\x48collide!"
	if _, err := New([]string{a, b}); !errors.Is(err, ErrHashCollision) {
		t.Errorf("want ErrHashCollision, got %v", err)
	}
	if _, err := New([]string{a, b}, WithSeed(1)); err != nil {
		t.Errorf("seed 1: %v", err)
	}
}

func TestEmptyAndDrained(t *testing.T) {
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Owner("k"); !errors.Is(err, ErrNoEligibleNode) {
		t.Errorf("empty set: %v", err)
	}
	if top, err := r.TopK("k", 3); err != nil || len(top) != 0 {
		t.Errorf("empty TopK: %v %v", top, err)
	}
	if got, err := r.Owners(nil); err != nil || len(got) != 0 {
		t.Errorf("Owners(nil): %v %v", got, err)
	}
	if err := r.Add("a", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Owner("k"); !errors.Is(err, ErrNoEligibleNode) {
		t.Errorf("all drained: %v", err)
	}
	if err := r.SetWeight("a", 2); err != nil {
		t.Fatal(err)
	}
	if o, err := r.Owner(""); err != nil || o != "a" {
		t.Errorf("Owner(\"\") = %q, %v", o, err)
	}
	if top, err := r.TopK("k", 0); err != nil || len(top) != 0 {
		t.Errorf("TopK(k=0): %v %v", top, err)
	}
}

// A removal moves only the keys the removed node owned, and Owners agrees
// with Owner key by key.
func TestRemoveMovesOnlyItsKeys(t *testing.T) {
	nodes := []string{"n0", "n1", "n2", "n3", "n4"}
	r, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 2000)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	before, err := r.Owners(keys)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys[:100] {
		if o, _ := r.Owner(k); o != before[i] {
			t.Fatalf("Owner(%q) = %q, Owners says %q", k, o, before[i])
		}
	}
	if err := r.Remove("n2"); err != nil {
		t.Fatal(err)
	}
	after, err := r.Owners(keys)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i := range keys {
		if before[i] != after[i] {
			moved++
			if before[i] != "n2" {
				t.Fatalf("%s moved from %s, not from the removed node", keys[i], before[i])
			}
		}
	}
	if moved == 0 {
		t.Fatal("nothing moved")
	}
}

// Lookups racing changes; run with -race.
func TestConcurrentUse(t *testing.T) {
	r, err := New([]string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("k%d-%d", g, i)
				owner, err := r.Owner(key)
				if err != nil {
					t.Error(err)
					return
				}
				top, err := r.TopK(key, 2)
				if err != nil || len(top) == 0 {
					t.Error(top, err)
					return
				}
				if _, err := r.Owners([]string{key, "x", "y"}); err != nil {
					t.Error(err)
					return
				}
				_ = owner
			}
		}(g)
	}
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("extra-%d", i)
		if err := r.Add(id, 1); err != nil {
			t.Fatal(err)
		}
		if err := r.SetWeight("a", float64(i%3)); err != nil {
			t.Fatal(err)
		}
		if err := r.Remove(id); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if r.Len() != 4 {
		t.Errorf("Len = %d", r.Len())
	}
}

func TestBackendNamesTheKernel(t *testing.T) {
	r, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Backend()
	known := map[string]bool{"scalar": true, "sse2": true, "avx2": true, "avx512": true, "neon": true, "simd128": true}
	if !known[got] {
		t.Fatalf("Backend() = %q, not a known kernel", got)
	}
	if want := os.Getenv("LONGSTRAW_BACKEND"); want != "" && want != "auto" && got != want {
		t.Fatalf("LONGSTRAW_BACKEND=%s but Backend() = %q", want, got)
	}
}
