//go:build linux

package longstraw

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/longstraw/longstraw/bindings/go/internal/testfs"
)

// A keyed file whose secret.file is an anonymous pipe named by /dev/fd (as
// a shell's <(command) names one) loads, in every build, and places keys as
// the same secret given in code.
func TestKeyedFileWithSecretInAnAnonymousPipe(t *testing.T) {
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := wr.WriteString(hex.EncodeToString(testSecret) + "\n"); err != nil {
		t.Fatal(err)
	}
	wr.Close()
	dir := testfs.TempDir(t)
	members := filepath.Join(dir, "members.toml")
	text := fmt.Sprintf("[secret]\nfile = \"/dev/fd/%d\"\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n\n[[nodes]]\nid = \"c\"\n", rd.Fd())
	if err := os.WriteFile(members, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Load(members)
	if err != nil {
		t.Fatalf("load with a secret in a pipe: %v", err)
	}
	inCode, err := New([]string{"a", "b", "c"}, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	sameRankings(t, "pipe secret vs built in code", r, inCode)
}
