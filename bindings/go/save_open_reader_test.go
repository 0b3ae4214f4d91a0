package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A Save while another handle has the file open (a reader loading it, here or
// in another process) succeeds once that reader closes the file: on Windows
// the rename over an open file is refused until then, and Save waits for it
// (for a bounded time) instead of failing at once.
func TestSaveWhileAReaderHasTheFileOpen(t *testing.T) {
	path := filepath.Join(testfs.TempDir(t), "members.toml")
	old, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := old.Save(path); err != nil {
		t.Fatal(err)
	}
	reader, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		time.Sleep(200 * time.Millisecond)
		reader.Close()
		close(closed)
	}()
	r, err := New([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	err = r.Save(path)
	<-closed
	if err != nil {
		t.Fatalf("a save while a reader had the file open for 200 ms: %v", err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	if loaded.Len() != 3 {
		t.Fatalf("the saved file has %d nodes, want the new set's 3", loaded.Len())
	}
}

// A reader that keeps the file open does not make Save hang: on Windows the
// save gives up after a bounded wait with the system's error, and leaves the
// file as it was (and no temporary file beside it); elsewhere the rename
// replaces the open file at once.
func TestSaveGivesUpOnAFileHeldOpen(t *testing.T) {
	dir := testfs.TempDir(t)
	path := filepath.Join(dir, "members.toml")
	old, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := old.Save(path); err != nil {
		t.Fatal(err)
	}
	reader, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New([]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	start := time.Now()
	err = r.Save(path)
	took := time.Since(start)
	reader.Close()
	want := 3
	if runtime.GOOS == "windows" {
		if err == nil {
			t.Fatal("on Windows, a rename over a file held open succeeded; this test's premise is wrong")
		}
		if took > 30*time.Second {
			t.Fatalf("Save took %v before giving up", took)
		}
		t.Logf("gave up after %v: %v", took.Round(time.Millisecond), err)
		want = 2
	} else if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("the folder holds %d entries, want the saved file only: %v", len(entries), entries)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	if loaded.Len() != want {
		t.Fatalf("the file has %d nodes, want %d", loaded.Len(), want)
	}
}
