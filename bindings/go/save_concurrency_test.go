package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// Four goroutines save four different sets to one path while a reader loads
// it over and over: every save succeeds, and the reader only ever sees a
// whole file (one of the four sets), never half of one: each save writes its
// own exclusively created temporary file, then renames it over the target.
func TestConcurrentSavesAndAReader(t *testing.T) {
	path := filepath.Join(testfs.TempDir(t), "members.toml")
	sizes := map[int]bool{}
	var sets []*Rendezvous
	for w := 0; w < 4; w++ {
		nodes := make([]string, 50+25*w)
		for i := range nodes {
			nodes[i] = fmt.Sprintf("node-%d-%d", w, i)
		}
		r, err := New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		sizes[len(nodes)] = true
		sets = append(sets, r)
	}
	if err := sets[0].Save(path); err != nil {
		t.Fatal(err)
	}
	const saves = 100
	var wg sync.WaitGroup
	done := make(chan struct{})
	for _, r := range sets {
		wg.Add(1)
		go func(r *Rendezvous) {
			defer wg.Done()
			for i := 0; i < saves; i++ {
				if err := r.Save(path); err != nil {
					t.Errorf("save %d: %v", i, err)
					return
				}
			}
		}(r)
	}
	var reads, partial int
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-done:
				return
			default:
			}
			loaded, err := Load(path)
			reads++
			if err != nil || !sizes[loaded.Len()] {
				partial++
				if partial <= 3 {
					t.Errorf("the reader saw a partial file: %v", err)
				}
				continue
			}
			loaded.Close()
		}
	}()
	wg.Wait()
	close(done)
	<-readerDone
	if reads == 0 {
		t.Fatal("the reader never ran")
	}
	t.Logf("%d saves, %d reads, %d partial", 4*saves, reads, partial)
}
