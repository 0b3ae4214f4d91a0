//go:build !windows

package longstraw

import "os"

// replaceFile renames oldpath over newpath: one atomic rename(2), which
// replaces the file even while others have it open (files_windows.go says
// what Windows needs instead).
func replaceFile(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// readFile is os.ReadFile (files_windows.go says what Windows needs instead).
func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
