package wasmabi

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

type vectorCase struct {
	Name      string `json:"name"`
	Seed      string `json:"seed"`
	Mode      string `json:"mode"`
	SecretHex string `json:"secret_hex"`
	Depth     int    `json:"depth"`
	Nodes     []struct {
		IDHex      string `json:"id_hex"`
		WeightBits string `json:"weight_bits"`
	} `json:"nodes"`
	Keys []struct {
		KeyHex string `json:"key_hex"`
		Owner  *int   `json:"owner"`
		Ranked []int  `json:"ranked"`
	} `json:"keys"`
}

func readVectors(t *testing.T, name string) []vectorCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "tests", "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	var vf struct {
		Cases []vectorCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Cases) == 0 {
		t.Fatalf("%s has no cases", name)
	}
	return vf.Cases
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkCase builds the case's set through the runner and compares every
// key's owner and ranking with the frozen answers.
func checkCase(t *testing.T, c vectorCase, seed uint64, secret []byte) int {
	t.Helper()
	s, err := New(seed, secret, 1, Options{MaxInstances: 2})
	if err != nil {
		t.Fatalf("%s: New: %v", c.Name, err)
	}
	defer s.Close()
	ids := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		ids[i] = string(unhex(t, n.IDHex))
		bits, err := strconv.ParseUint(n.WeightBits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Add(ids[i], math.Float64frombits(bits)); err != nil {
			t.Fatalf("%s: Add: %v", c.Name, err)
		}
	}
	keys := make([][]byte, len(c.Keys))
	for i, k := range c.Keys {
		key := unhex(t, k.KeyHex)
		keys[i] = key
		idx, id, err := s.Owner(key)
		if k.Owner == nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s key %d: want no eligible node, got %d %q %v", c.Name, i, idx, id, err)
			}
		} else if err != nil || int(idx) != *k.Owner || id != ids[*k.Owner] {
			t.Fatalf("%s key %d: owner %d %q %v, want %d", c.Name, i, idx, id, err, *k.Owner)
		}
		ranked, err := s.TopK(key, c.Depth)
		if err != nil {
			t.Fatalf("%s key %d: TopK: %v", c.Name, i, err)
		}
		if fmt.Sprint(ranked) != fmt.Sprint(k.Ranked) && !(len(ranked) == 0 && len(k.Ranked) == 0) {
			t.Fatalf("%s key %d: ranked %v, want %v", c.Name, i, ranked, k.Ranked)
		}
	}
	// The batch export agrees with the frozen owners.
	if len(keys) > 0 && c.Keys[0].Owner != nil {
		out := make([]uint32, len(keys))
		if err := s.Owners(keys, out); err != nil {
			t.Fatalf("%s: Owners: %v", c.Name, err)
		}
		for i, k := range c.Keys {
			if k.Owner != nil && int(out[i]) != *k.Owner {
				t.Fatalf("%s: Owners[%d] = %d, want %d", c.Name, i, out[i], *k.Owner)
			}
		}
	}
	return len(c.Keys)
}

func TestPlacementVectors(t *testing.T) {
	n := 0
	for _, c := range readVectors(t, "placement-v1.json") {
		seed, err := strconv.ParseUint(c.Seed, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		n += checkCase(t, c, seed, nil)
	}
	t.Logf("placement-v1: %d keys agree", n)
}

// TestKeyedVectors checks the flat keyed cases (the runner builds flat sets;
// tables and skeletons are not wired into it yet).
func TestKeyedVectors(t *testing.T) {
	n, cases := 0, 0
	for _, c := range readVectors(t, "keyed-v1.json") {
		if c.Mode != "flat" {
			continue
		}
		cases++
		n += checkCase(t, c, 0, unhex(t, c.SecretHex))
	}
	if cases == 0 {
		t.Fatal("no flat keyed case")
	}
	t.Logf("keyed-v1: %d flat cases, %d keys agree", cases, n)
}

func TestErrorsCarryTheLibraryMessage(t *testing.T) {
	s, err := New(7, nil, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Add("a", 1); err != nil {
		t.Fatal(err)
	}
	err = s.Add("a", 1)
	var e *Error
	if !errors.As(err, &e) || e.Code == 0 || !strings.Contains(err.Error(), "Add") {
		t.Fatalf("duplicate Add: %v", err)
	}
	if err := s.Add("b", -1); !errors.As(err, &e) {
		t.Fatalf("negative weight: %v", err)
	}
	if _, err := New(0, []byte("short"), 1, Options{}); !errors.As(err, &e) || strings.Contains(err.Error(), "short") {
		t.Fatalf("a 5-byte secret: %v (must fail without echoing it)", err)
	}
	if _, err := New(1, nil, 99, Options{}); !errors.As(err, &e) {
		t.Fatalf("unknown placement: %v", err)
	}
	// A failed mutation does not join the log: a fresh copy agrees.
	if _, id, err := s.Owner([]byte("k")); err != nil || id != "a" {
		t.Fatalf("Owner after failures: %q %v", id, err)
	}
}

func TestNoFileSystem(t *testing.T) {
	dir := testfs.TempDir(t)
	path := filepath.Join(dir, "m.toml")
	data := []byte("placement = 1\nseed = 3\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\nweight = 2.0\n")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	err := LoadFile(path)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Message, "not read or written inside WebAssembly") {
		t.Fatalf("load_file inside wasm: %v, want the library's no-file-system error", err)
	}
	t.Logf("load_file in wasm: %v", err)
	// The host reads the file and hands the bytes over.
	s, err := LoadBytes(data, Options{})
	if err != nil {
		t.Fatalf("LoadBytes: %v", err)
	}
	defer s.Close()
	if _, _, err := s.Owner([]byte("x")); err != nil {
		t.Fatal(err)
	}
}

// TestTrapReplacesTheInstance provokes a trap (a key pointer outside linear
// memory), checks that it comes back as a *TrapError, that the instance is
// discarded, and that the set goes on answering from a fresh copy.
func TestTrapReplacesTheInstance(t *testing.T) {
	s, err := New(1, nil, 1, Options{MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"a", "b", "c"} {
		if err := s.Add(id, 1); err != nil {
			t.Fatal(err)
		}
	}
	_, want, err := s.Owner([]byte("user:1"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in, err := s.acquire(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	sc := in.scratch
	_, err = in.call(ctx, "Owner", "longstraw_snapshot_owner", uint64(in.snap), uint64(0xFFFF_FF00), 200,
		uint64(sc+outIndex), uint64(sc+outIDPtr), uint64(sc+outIDLen))
	var trap *TrapError
	if !errors.As(err, &trap) {
		t.Fatalf("an out-of-bounds key: %v, want a trap", err)
	}
	t.Logf("trap: %v", err)
	if s.done(in, err) == nil {
		t.Fatal("done swallowed the trap")
	}
	if live, trapped := s.Instances(); live != 0 || trapped != 1 {
		t.Fatalf("after the trap: %d live, %d trapped; want 0, 1", live, trapped)
	}
	_, got, err := s.Owner([]byte("user:1"))
	if err != nil || got != want {
		t.Fatalf("after the trap: %q %v, want %q", got, err, want)
	}
	if live, _ := s.Instances(); live != 1 {
		t.Fatalf("after the trap: %d live, want 1 fresh instance", live)
	}
}

// TestConcurrentLookupsAndMutations runs many goroutines of lookups against
// one set while another changes its membership; every answer must be an owner
// that a single-instance set with the same membership gives. Instances are
// capped below the goroutine count so that they are shared and reused.
func TestConcurrentLookupsAndMutations(t *testing.T) {
	const goroutines, perG = 32, 200
	maxInst := max(2, runtime.GOMAXPROCS(0))
	s, err := New(42, nil, 1, Options{MaxInstances: maxInst})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ref, err := New(42, nil, 1, Options{MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for i := range 20 {
		id := fmt.Sprintf("node-%d", i)
		for _, x := range []*Set{s, ref} {
			if err := x.Add(id, float64(1+i%3)); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]string{}
	for i := range perG {
		k := fmt.Sprintf("key-%d", i)
		_, id, err := ref.Owner([]byte(k))
		if err != nil {
			t.Fatal(err)
		}
		want[k] = id
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines+1)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perG {
				k := fmt.Sprintf("key-%d", (i+g)%perG)
				_, id, err := s.Owner([]byte(k))
				if err != nil {
					errs <- err
					return
				}
				// The mutator only adds and removes the extra node "x", so
				// every answer is the reference owner or "x".
				if id != want[k] && id != "x" {
					errs <- fmt.Errorf("%s: %q, want %q", k, id, want[k])
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 20 {
			if err := s.Add("x", 1); err != nil {
				errs <- err
				return
			}
			if err := s.Remove("x"); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if live, _ := s.Instances(); live < 1 || live > maxInst {
		t.Fatalf("%d instances, cap %d", live, maxInst)
	}
	// After the mutations the membership is the reference's again: every copy agrees.
	for k, w := range want {
		if _, id, err := s.Owner([]byte(k)); err != nil || id != w {
			t.Fatalf("%s after mutations: %q %v, want %q", k, id, err, w)
		}
	}
	live, _ := s.Instances()
	t.Logf("%d goroutines over %d instances (cap %d)", goroutines, live, maxInst)
}
