//go:build !unix

package longstraw

import (
	"runtime"
	"testing"
)

// The tests of fifo_test.go need syscall.Mkfifo: on systems without FIFOs
// they are reported as skipped, by name, rather than silently absent.
func TestKeyedFileWithSecretInAFIFO(t *testing.T) {
	t.Skipf("SKIPPED on %s: it has no FIFOs (named pipes of the POSIX kind)", runtime.GOOS)
}

func TestSecretFromAFIFO(t *testing.T) {
	t.Skipf("SKIPPED on %s: it has no FIFOs (named pipes of the POSIX kind)", runtime.GOOS)
}
