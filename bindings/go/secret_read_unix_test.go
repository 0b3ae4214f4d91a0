//go:build (!cgo || longstraw_wasm || !linux || !(amd64 || arm64)) && unix

package longstraw

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/longstraw/longstraw/bindings/go/internal/testfs"
)

// The portable build's reader of secret files classifies what is at the
// path as a native load does, reads at most one byte past the 4096-byte
// limit, and gives up on a pipe that gives no data.
func TestPortableSecretFileReader(t *testing.T) {
	dir := testfs.TempDir(t)
	if read, _ := readSecretFile(dir); read != secretDirectory {
		t.Errorf("a directory: report %d", read)
	}
	if read, _ := readSecretFile("/dev/null"); read != secretDevice {
		t.Errorf("/dev/null: report %d", read)
	}
	read, msg := readSecretFile(filepath.Join(dir, "missing"))
	if read != secretFailed || string(msg) != "No such file or directory" {
		t.Errorf("a missing file: report %d, %q", read, msg)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, bytes.Repeat([]byte("a"), 10000), 0o600); err != nil {
		t.Fatal(err)
	}
	if read, content := readSecretFile(big); read != secretContent || len(content) != secretReadCap {
		t.Errorf("a 10000-byte file: report %d, %d bytes", read, len(content))
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("0123"), 0o600); err != nil {
		t.Fatal(err)
	}
	if read, content := readSecretFile(small); read != secretContent || string(content) != "0123" {
		t.Errorf("a 4-byte file: report %d, %d bytes", read, len(content))
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	old := secretStall
	secretStall = 200 * time.Millisecond
	defer func() { secretStall = old }()
	start := time.Now()
	if read, _ := readSecretFile(fifo); read != secretStalled {
		t.Errorf("a FIFO nobody writes: report %d", read)
	}
	if d := time.Since(start); d < secretStall {
		t.Errorf("a FIFO nobody writes was given up after %v, before the stall limit", d)
	}
}

// A keyed file whose secret.file is a directory, or is missing, fails to
// load with the native load's message (the module judges what Go found).
func TestPortableSecretFileMessages(t *testing.T) {
	dir := testfs.TempDir(t)
	for _, c := range []struct{ file, want string }{
		{dir, "it is a directory, not a regular file or a pipe"},
		{filepath.Join(dir, "missing.hex"), "No such file or directory"},
	} {
		members := filepath.Join(dir, "m.toml")
		text := "[secret]\nfile = \"" + c.file + "\"\n\n[[nodes]]\nid = \"a\"\n"
		if err := os.WriteFile(members, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(members)
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "cannot read secret file "+c.file+": "+c.want) {
			t.Errorf("secret file %s: %v", c.file, err)
		}
	}
}
