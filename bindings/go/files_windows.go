//go:build windows

package longstraw

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// errSharingViolation is ERROR_SHARING_VIOLATION (the syscall package names
// ERROR_ACCESS_DENIED but not this one).
const errSharingViolation = syscall.Errno(32)

// shareWait bounds how long replaceFile and readFile retry an operation
// that another handle on the file blocks.
const shareWait = 5 * time.Second

// replaceFile renames oldpath over newpath (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING, by os.Rename). Windows refuses to replace a file
// that anyone has open without FILE_SHARE_DELETE, which is how Go's os.Open
// and most programs open files: a Load, here or in another process, reading
// the file at that moment makes the rename fail with ERROR_ACCESS_DENIED or
// ERROR_SHARING_VIOLATION. Such a reader closes the file soon, so the rename
// is retried, with growing waits, for up to shareWait; after that the
// error is returned. A read-only target, which Windows does not replace
// (ERROR_ACCESS_DENIED that no wait cures), fails at once; wine does replace
// one, so the tests under wine do not reach that branch.
func replaceFile(oldpath, newpath string) error {
	deadline := time.Now().Add(shareWait)
	wait := time.Millisecond
	for {
		err := os.Rename(oldpath, newpath)
		if err == nil || !(errors.Is(err, syscall.ERROR_ACCESS_DENIED) || errors.Is(err, errSharingViolation)) {
			return err
		}
		if st, serr := os.Lstat(newpath); serr == nil && st.Mode().Perm()&0o200 == 0 {
			return err
		}
		if time.Now().Add(wait).After(deadline) {
			return err
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// readFile is os.ReadFile, retried while it fails with
// ERROR_SHARING_VIOLATION, for up to shareWait: while a rename replaces the
// file (a Save, here or in another process), the rename holds it open for
// deletion, and Windows refuses to open it for reading until the rename is
// done. Other errors (a missing file, no permission) return at once.
func readFile(path string) ([]byte, error) {
	deadline := time.Now().Add(shareWait)
	wait := time.Millisecond
	for {
		data, err := os.ReadFile(path)
		if err == nil || !errors.Is(err, errSharingViolation) || time.Now().Add(wait).After(deadline) {
			return data, err
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}
