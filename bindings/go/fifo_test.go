//go:build unix

package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A keyed membership file whose secret is in a FIFO (which gives its content
// to one reader only) loads, in every mode: the secret is read once, and the
// set places keys as the same secret given in code does.
func TestKeyedFileWithSecretInAFIFO(t *testing.T) {
	nodes := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		mode, section string
		inCode        func() (*Rendezvous, error)
	}{
		{"flat", "", func() (*Rendezvous, error) { return New(nodes, WithSecret(testSecret)) }},
		{"table", "[table]\nbits = 6\nreplicas = 2\n", func() (*Rendezvous, error) {
			return NewTable(nodes, WithSecret(testSecret), WithPartitionBits(6), WithReplicas(2))
		}},
		{"skeleton", "[skeleton]\nfanout_bits = 1\nlevels = 1\n", func() (*Rendezvous, error) {
			return NewSkeleton(nodes, WithSecret(testSecret), WithShape(1, 1))
		}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			dir := testfs.TempDir(t)
			fifo := filepath.Join(dir, "secret.fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			text := fmt.Sprintf("mode = %q\n%s\n[secret]\nfile = \"secret.fifo\"\n", c.mode, c.section)
			for _, id := range nodes {
				text += fmt.Sprintf("\n[[nodes]]\nid = %q\n", id)
			}
			path := filepath.Join(dir, "members.toml")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			// The writer serves exactly one reader: a second open would block.
			wrote := make(chan error, 1)
			go func() {
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					wrote <- err
					return
				}
				_, err = f.WriteString(hex.EncodeToString(testSecret) + "\n")
				f.Close()
				wrote <- err
			}()
			type result struct {
				r   *Rendezvous
				err error
			}
			done := make(chan result, 1)
			go func() {
				r, err := Load(path)
				done <- result{r, err}
			}()
			var got result
			select {
			case got = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Load blocked: it opened the secret FIFO more than once")
			}
			if got.err != nil {
				t.Fatalf("Load: %v", got.err)
			}
			if err := <-wrote; err != nil {
				t.Fatalf("writing the FIFO: %v", err)
			}
			if got.r.Mode().String() != c.mode || !got.r.IsKeyed() {
				t.Fatalf("loaded a %v set, keyed %v", got.r.Mode(), got.r.IsKeyed())
			}
			want, err := c.inCode()
			if err != nil {
				t.Fatal(err)
			}
			sameRankings(t, c.mode+" from a FIFO secret", got.r, want)
		})
	}
}

// A secret written once into a FIFO loads: the secret source is read exactly
// once (a second open would wait forever for a writer that is gone).
func TestSecretFromAFIFO(t *testing.T) {
	dir := testfs.TempDir(t)
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
