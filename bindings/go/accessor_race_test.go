package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// perturbed re-runs the calling test in a child process with glibc's
// MALLOC_PERTURB_ set, so that C memory is filled with 0xa5 bytes when it is
// freed, and with the per-thread cache off (GLIBC_TUNABLES), whose list
// pointers would otherwise overwrite the start of a small freed block: an
// accessor that reads a snapshot a concurrent change has freed then sees
// garbage (an unkeyed set answers IsKeyed true) instead of the stale value it
// happened to find before. It returns true in the child, which runs the test
// body; the parent only checks the child's verdict.
func perturbed(t *testing.T) bool {
	t.Helper()
	if os.Getenv("LONGSTRAW_TEST_PERTURBED_CHILD") != "" {
		return true
	}
	if portable {
		// No C heap to poison: the library's memory is the instances' own.
		// Run here (a child would also need the host to run this binary,
		// which an emulated cross-test cannot).
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "LONGSTRAW_TEST_PERTURBED_CHILD=1", "MALLOC_PERTURB_=165",
		"GLIBC_TUNABLES=glibc.malloc.tcache_count=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("under MALLOC_PERTURB_=165: %v\n%s", err, out)
	}
	return false
}

// raceChanges runs Add and Remove of a spare node on s until stop is closed,
// so that every few microseconds a view is retired and its snapshot freed.
// It pauses after each change, so that the freed (poisoned) block is not at
// once reused by the next change's snapshot.
func raceChanges(t *testing.T, s interface {
	Add(string, float64) error
	Remove(string) error
}, stop <-chan struct{}, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := s.Add("spare", 1); err != nil {
				t.Errorf("Add: %v", err)
				return
			}
			spin(20 * time.Microsecond)
			if err := s.Remove("spare"); err != nil {
				t.Errorf("Remove: %v", err)
				return
			}
			spin(20 * time.Microsecond)
		}
	}()
}

// spin waits d without giving up the thread (a sleep would last far longer).
func spin(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// Every accessor that reads the set (IsKeyed, Backend, Len, Nodes, Domains,
// Balance, String, Save, lookups) keeps giving the right answer while other
// goroutines add and remove a node as fast as they can: none reads a snapshot
// that a change has freed.
func TestAccessorsRacingChanges(t *testing.T) {
	if !perturbed(t) {
		return
	}
	plain, err := New([]string{"a", "b", "c"}, WithDomains(map[string]string{"a": "r1"}))
	if err != nil {
		t.Fatal(err)
	}
	keyed, err := New([]string{"a", "b", "c"}, WithSecret(make([]byte, SecretLen)))
	if err != nil {
		t.Fatal(err)
	}
	table, err := NewTable([]string{"a", "b", "c"}, WithPartitionBits(4), WithBalance(1.5), WithReplicas(2))
	if err != nil {
		t.Fatal(err)
	}
	skeleton, err := NewSkeleton([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	dir := testfs.TempDir(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, s := range []interface {
		Add(string, float64) error
		Remove(string) error
	}{plain, keyed, table, skeleton} {
		raceChanges(t, s, stop, &wg)
	}
	var checks atomic.Int64
	deadline := time.Now().Add(1500 * time.Millisecond)
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				for i := 0; i < 100; i++ {
					if plain.IsKeyed() || table.IsKeyed() || skeleton.IsKeyed() {
						t.Error("IsKeyed: true for an unkeyed set")
						return
					}
				}
				if !keyed.IsKeyed() {
					t.Error("IsKeyed: false for a keyed set")
					return
				}
				if b, ok := table.Balance(); b != 1.5 || !ok {
					t.Errorf("Balance: %v %v, want 1.5 true", b, ok)
					return
				}
				if n := plain.Len(); n != 3 && n != 4 {
					t.Errorf("Len: %d, want 3 or 4", n)
					return
				}
				if d := plain.Domains(); d[0] != "r1" {
					t.Errorf("Domains: %q", d)
					return
				}
				if b := skeleton.Backend(); b == "closed" || b == "unknown" || b == "" {
					t.Errorf("Backend: %q", b)
					return
				}
				if o, err := plain.Owner("k"); err != nil || (o != "a" && o != "b" && o != "c" && o != "spare") {
					t.Errorf("Owner: %q, %v", o, err)
					return
				}
				checks.Add(1)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for time.Now().Before(deadline) {
			if err := plain.Save(dir + "/plain.toml"); err != nil {
				t.Errorf("Save: %v", err)
				return
			}
		}
	}()
	time.Sleep(time.Until(deadline))
	close(stop)
	wg.Wait()
	if checks.Load() == 0 {
		t.Fatal("no accessor round ran")
	}
	t.Logf("%d accessor rounds against concurrent changes", checks.Load())
}

// Balance and IsKeyed racing Close: each answers from the set as it was,
// and never reads the table after Close freed it.
// (Under -race, an unsynchronised read of the freed handle is reported.)
func TestAccessorsRacingClose(t *testing.T) {
	for round := 0; round < 50; round++ {
		table, err := NewTable([]string{"a", "b"}, WithPartitionBits(2), WithBalance(2))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if b, ok := table.Balance(); b != 2 || !ok {
					t.Errorf("Balance: %v %v, want 2 true (the balance never changes, even once closed)", b, ok)
					return
				}
				if table.IsKeyed() {
					t.Error("IsKeyed: true for an unkeyed table")
					return
				}
			}
		}()
		if err := table.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
	}
}
