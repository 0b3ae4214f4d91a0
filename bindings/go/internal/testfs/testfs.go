// Package testfs holds what the Go tests of this module share about files.
package testfs

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// TempDir is t.TempDir, and on Windows it also empties and removes the
// folder itself, file by file with os.Remove, when the test ends (before
// t.TempDir's own removal, which then finds nothing left to do).
//
// The reason is wine, under which make test-go-wasm-cross runs the Windows
// test binary: Go's os.RemoveAll on Windows (Go 1.26 here) deletes through
// NtSetInformationFile(FileDispositionInformationEx), which Windows 10 1607
// and later have but Debian bookworm's wine 8.0 does not ("Unsupported class
// (64)", reported as "Invalid function"), so every t.TempDir cleanup would
// fail the test there. os.Remove (DeleteFile, RemoveDirectory) works on both.
// A file that cannot be removed still fails the test, naming it.
func TempDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if runtime.GOOS == "windows" {
		t.Cleanup(func() { removeTree(t, dir) })
	}
	return dir
}

// removeTree removes dir and everything under it with os.Remove, deepest
// first, and fails t for anything left.
func removeTree(t testing.TB, dir string) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		t.Errorf("removing the test's folder %s: %v", dir, err)
		return
	}
	// Longer paths first: every entry before the folder that holds it.
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Errorf("removing the test's file %s: %v", p, err)
		}
	}
}
