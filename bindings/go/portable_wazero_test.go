//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// The portable build's instance strategy (abi_wazero.go): a pool of
// instances per set, each with its own copy rebuilt from the set's log.

// Lookups from many goroutines run on several instances at once, while
// changes land: every answer is the owner of its key in some membership the
// set had, and after the changes every instance answers as a fresh set does.
func TestPortableManyGoroutinesUseSeveralInstances(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	nodes := []string{"a", "b", "c", "d", "e"}
	r, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	keys := make([]string, 200)
	for i := range keys {
		keys[i] = fmt.Sprint("key-", i)
	}
	// The answers of the two memberships the set will have, from fresh sets.
	with, _ := New(nodes)
	without, _ := New(nodes[:4])
	allowed := map[string][2]string{}
	for _, k := range keys {
		o1, _ := with.Owner(k)
		o2, _ := without.Owner(k)
		allowed[k] = [2]string{o1, o2}
	}

	// Hold one instance of the set: a lookup that still completes ran on
	// another one (one instance behind a mutex would block here forever).
	f := r.h.f
	held, code := f.acquire()
	if code != resultOK {
		t.Fatal(code)
	}
	if _, err := r.Owner("k"); err != nil {
		t.Fatal(err)
	}
	f.release(held)

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				k := keys[(g*31+i)%len(keys)]
				o, err := r.Owner(k)
				if err != nil || (o != allowed[k][0] && o != allowed[k][1]) {
					errs <- fmt.Errorf("Owner(%q) = %q, %v; want one of %q", k, o, err, allowed[k])
					return
				}
			}
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			if err := r.Remove("e"); err != nil {
				errs <- err
				return
			}
			if err := r.Add("e", 1); err != nil {
				errs <- err
				return
			}
		}
		if err := r.Remove("e"); err != nil {
			errs <- err
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := len(f.slots); cap(f.slots)-n < 2 {
		t.Fatalf("the set made %d instance(s) for 16 goroutines; want several", cap(f.slots)-n)
	}
	// Every instance, brought up to date from the log, answers as a fresh set.
	var ins []*winst
	for len(ins) < cap(f.slots)-len(f.slots) {
		in, _ := f.acquire()
		ins = append(ins, in)
	}
	for _, in := range ins {
		f.release(in)
	}
	for range ins {
		for _, k := range keys {
			if o, err := r.Owner(k); err != nil || o != allowed[k][1] {
				t.Fatalf("after the changes Owner(%q) = %q, %v; want %q", k, o, err, allowed[k][1])
			}
		}
	}
}

// A trap kills only its instance: it is closed, and the next lookup runs
// on a copy rebuilt from the log, with the same answers.
func TestPortableTrapReplacesTheInstance(t *testing.T) {
	r, err := NewTable([]string{"a", "b", "c"}, WithPartitionBits(8))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Add("d", 2); err != nil {
		t.Fatal(err)
	}
	want, _ := r.TopK("some key", 3)
	f := r.h.f
	in, _ := f.acquire()
	// A key pointer far outside linear memory: the library's read of it traps.
	snap, code := f.snapAt(in, f.log.Load().version())
	if code != resultOK {
		t.Fatal(code)
	}
	base, _ := in.args(0)
	if code := in.code("longstraw_snapshot_owner", uint64(snap), 0xFFFFFF00, 4096, uint64(base), uint64(base+8), uint64(base+16)); code != resultTrap {
		t.Fatalf("an access outside memory gave %d, want a trap", code)
	}
	if !in.broken {
		t.Fatal("the trapped instance is not marked broken")
	}
	free := len(f.slots)
	f.release(in)
	if got := len(f.slots); got != free+1 {
		t.Fatalf("the trapped instance was not closed (%d free slots, then %d)", free, got)
	}
	for i := 0; i < 4; i++ {
		got, err := r.TopK("some key", 3)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after the trap TopK = %q, %v; want %q", got, err, want)
		}
	}
	if err := check(resultTrap, "Owner", ""); err == nil || err.Error() != "longstraw: Owner: "+trapText {
		t.Fatalf("a trap reads %v", err)
	}
}

// Close (and the last snapshot's Close) closes the set's instances.
func TestPortableClosedSetsCloseTheirInstances(t *testing.T) {
	r, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Owner("k"); err != nil {
		t.Fatal(err)
	}
	s, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Owner("k"); err != nil {
		t.Fatalf("a snapshot after its set's Close: %v", err)
	}
	f := r.h.f
	if len(f.slots) == cap(f.slots) {
		t.Fatal("the snapshot has no instance left")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !f.done.Load() || len(f.slots) != cap(f.slots) || len(f.pool) != 0 {
		t.Fatalf("after closing the set and its snapshot: done %v, %d of %d instances still open",
			f.done.Load(), cap(f.slots)-len(f.slots), cap(f.slots))
	}
}
