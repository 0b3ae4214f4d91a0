package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The set's words for a balanced table that should also keep distinct
// failure domains, which every language shows.
const balancedDistinct = "conflicting table options: a balanced table cannot also keep distinct failure domains"

// A balanced table with distinct domains is refused with the set's own
// message, from NewTable as from a membership file (not "out of range").
func TestBalancedWithDistinctDomainsIsRefusedInTheSetsWords(t *testing.T) {
	_, err := NewTable([]string{"a", "b", "c"}, WithBalance(1.5), WithDistinctDomains(),
		WithDomains(map[string]string{"a": "r1", "b": "r2"}))
	if !errors.Is(err, ErrConflictingOptions) || !strings.Contains(err.Error(), balancedDistinct) {
		t.Fatalf("NewTable(WithBalance, WithDistinctDomains): %v", err)
	}
	if strings.Contains(err.Error(), "range") {
		t.Fatalf("the refusal speaks of a range: %v", err)
	}
	path := filepath.Join(testfs.TempDir(t), "m.toml")
	text := "mode = \"table\"\n[table]\nbits = 4\nbalance = 1.5\ndistinct_domains = true\n\n[[nodes]]\nid = \"a\"\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, fileErr := Load(path)
	if !errors.Is(fileErr, ErrBadFile) || !strings.Contains(fileErr.Error(), balancedDistinct) {
		t.Fatalf("Load of a balanced file with distinct domains: %v", fileErr)
	}
	// Each option alone still works, and a balance of 0 is still out of range.
	if _, err := NewTable([]string{"a", "b"}, WithBalance(1.5)); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTable([]string{"a", "b"}, WithDistinctDomains()); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTable([]string{"a", "b"}, WithBalance(0), WithDistinctDomains()); !errors.Is(err, ErrInvalidParameter) {
		t.Fatalf("balance 0 with distinct domains: %v", err)
	}
}
