package longstraw

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Four goroutines save four different sets to one path while a reader loads
// it over and over: every save succeeds, and the reader only ever sees a
// whole file (one of the four sets), never half of one: each save writes its
// own exclusively created temporary file, then renames it over the target.
func TestConcurrentSavesAndAReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "members.toml")
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

// A secret written once into a FIFO loads: the secret source is read exactly
// once (a second open would wait forever for a writer that is gone).
func TestSecretFromAFIFO(t *testing.T) {
	skipPortable(t, "WASI has no FIFO file type (wazero reports a FIFO as unknown), so the module refuses a secret file that is a FIFO; a regular secret file works")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "secret.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	members := filepath.Join(dir, "members.toml")
	text := fmt.Sprintf("[secret]\nfile = %q\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n\n[[nodes]]\nid = \"c\"\n", fifo)
	if err := os.WriteFile(members, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(hex.EncodeToString(testSecret) + "\n")
		f.Close()
	}()
	type result struct {
		r   *Rendezvous
		err error
	}
	got := make(chan result, 1)
	go func() {
		r, err := Load(members)
		got <- result{r, err}
	}()
	select {
	case res := <-got:
		if res.err != nil {
			t.Fatalf("load with a FIFO secret: %v", res.err)
		}
		inCode, err := New([]string{"a", "b", "c"}, WithSecret(testSecret))
		if err != nil {
			t.Fatal(err)
		}
		sameRankings(t, "FIFO secret vs built in code", res.r, inCode)
	case <-time.After(20 * time.Second):
		t.Fatal("load with a FIFO secret hangs (the source is read more than once)")
	}
}
