package longstraw

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The module carries its own copy of the C header so that a downloaded
// module builds; it must be the repository's include/longstraw.h byte for
// byte, or cgo would compile against a different ABI than the archive has.
func TestModuleHeaderIsTheRepositoryHeader(t *testing.T) {
	module, err := os.ReadFile(filepath.Join("include", "longstraw.h"))
	if err != nil {
		t.Fatalf("the module's header: %v", err)
	}
	repoPath := filepath.Join("..", "..", "include", "longstraw.h")
	repo, err := os.ReadFile(repoPath)
	if os.IsNotExist(err) {
		t.Skipf("SKIPPED: %s is absent: this is a release copy of the module, outside the repository", repoPath)
	}
	if err != nil {
		t.Fatalf("%s: %v", repoPath, err)
	}
	if !bytes.Equal(module, repo) {
		t.Fatalf("bindings/go/include/longstraw.h differs from include/longstraw.h: run `make header` and commit both")
	}
}

// vectorsPath is tests/vectors/<name> in the repository, or in
// $LONGSTRAW_VECTORS_DIR when the module is a release copy elsewhere.
func vectorsPath(name string) string {
	return testsPath("vectors", name)
}

// testsPath is tests/<parts...> of the repository. A release copy of the
// module is tested with $LONGSTRAW_VECTORS_DIR naming a copy of tests/vectors,
// whose parent holds the other shared test data (membership, validation).
func testsPath(parts ...string) string {
	root := filepath.Join("..", "..", "tests")
	if dir := os.Getenv("LONGSTRAW_VECTORS_DIR"); dir != "" {
		root = filepath.Dir(filepath.Clean(dir))
	}
	return filepath.Join(append([]string{root}, parts...)...)
}
