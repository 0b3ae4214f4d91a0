//go:build linux

package longstraw

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// A table whose rows do not fit is ErrOutOfMemory, not an
// abort. Linux overcommits memory, so the test re-runs itself in a child
// process with a 2 GB address-space limit, where the allocation really fails.
func TestOutOfMemoryIsAnErrorUnderALimit(t *testing.T) {
	if os.Getenv("LONGSTRAW_OOM_CHILD") == "1" {
		limit := uint64(2097152 * 1024)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			fmt.Println("setrlimit:", err)
			return
		}
		nodes := make([]string, 32)
		for i := range nodes {
			nodes[i] = fmt.Sprint("n", i)
		}
		_, err := NewTable(nodes, WithPartitionBits(24), WithReplicas(32)) // 2 GB of rows
		fmt.Println("big table:", errors.Is(err, ErrOutOfMemory), err)
		small, err := NewTable(nodes, WithPartitionBits(8))
		if err == nil {
			_, err = small.Owner("k")
		}
		fmt.Println("small table:", err)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOutOfMemoryIsAnErrorUnderALimit$")
	cmd.Env = append(os.Environ(), "LONGSTRAW_OOM_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed (%v): %s", err, out)
	}
	if !strings.Contains(string(out), "big table: true") || !strings.Contains(string(out), "small table: <nil>") {
		t.Fatalf("child output:\n%s", out)
	}
}
