//go:build windows

package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A Load while another handle holds the file without sharing it (as a rename
// replacing the file does, for the instant of the rename) waits for that
// handle to close instead of failing with a sharing violation.
func TestLoadWhileTheFileIsHeldUnshared(t *testing.T) {
	path := filepath.Join(testfs.TempDir(t), "members.toml")
	r, err := New([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Save(path); err != nil {
		t.Fatal(err)
	}
	name, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		t.Fatal(err)
	}
	const DELETE = 0x00010000
	h, err := syscall.CreateFile(name, DELETE, 0, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.CloseHandle(h)
		close(closed)
	}()
	loaded, err := Load(path)
	<-closed
	if err != nil {
		t.Fatalf("a load while the file was held unshared for 200 ms: %v", err)
	}
	defer loaded.Close()
	if loaded.Len() != 3 {
		t.Fatalf("loaded %d nodes, want 3", loaded.Len())
	}
}
