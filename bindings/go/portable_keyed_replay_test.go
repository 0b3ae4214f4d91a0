//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A set loaded from a keyed file keeps the secret its first copy read: a copy
// built later in another instance of the pool (more goroutines, or after a
// trap) places keys the same way, even when the secret file has changed (or
// is a FIFO that gives its content once) since the load.
func TestPortableKeyedLoadCopiesKeepTheFirstSecret(t *testing.T) {
	dir := testfs.TempDir(t)
	r, err := Load(keyedFiles(t, dir, "flat", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := make([]string, 300)
	for i := range want {
		if want[i], err = r.Owner(fmt.Sprint("user:", i)); err != nil {
			t.Fatal(err)
		}
	}
	// The secret file is rotated after the load.
	other := make([]byte, len(testSecret))
	for i := range other {
		other[i] = testSecret[i] ^ 0x5a
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.hex"), []byte(hex.EncodeToString(other)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Holding every idle instance makes the next lookup build a new copy.
	f := r.h.f
	var held []*winst
	for len(f.pool) > 0 {
		in, code := f.acquire()
		if code != resultOK {
			t.Fatal(code)
		}
		held = append(held, in)
	}
	defer func() {
		for _, in := range held {
			f.release(in)
		}
	}()
	for i := range want {
		got, err := r.Owner(fmt.Sprint("user:", i))
		if err != nil || got != want[i] {
			t.Fatalf("a copy built after the secret file changed: Owner(user:%d) = %q, %v; the set placed it on %q", i, got, err, want[i])
		}
	}
}
