package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type fileSet interface {
	Mode() Mode
	Owner(string) (string, error)
	TopK(string, int) ([]string, error)
	TopKDistinct(string, int) ([]string, error)
	Nodes() []string
	Save(string, ...SaveOption) error
}

func loadAny(t *testing.T, path string) fileSet {
	t.Helper()
	s, err := Load(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	// The mode the file names (flat when it names none).
	text, _ := os.ReadFile(path)
	want := "flat"
	for _, line := range strings.Split(string(text), "\n") {
		if rest, ok := strings.CutPrefix(line, "mode = "); ok {
			want = strings.Trim(rest, `"`)
		}
	}
	if s.Mode().String() != want {
		t.Fatalf("%s names mode %q; Load gave a %v set", path, want, s.Mode())
	}
	return s
}

// TestMembershipFixtures loads every fixture in tests/membership/ (a vector
// case written as a membership file) and checks the case's answers.
func TestMembershipFixtures(t *testing.T) {
	var manifest struct {
		Fixtures []struct {
			File    string `json:"file"`
			Vectors string `json:"vectors"`
			Case    int    `json:"case"`
		} `json:"fixtures"`
	}
	data, err := os.ReadFile(testsPath("membership", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	type vectorCase struct {
		K     int          `json:"k"`
		Nodes []vectorNode `json:"nodes"`
		Keys  []vectorKey  `json:"keys"`
	}
	files := map[string][]vectorCase{}
	keys := 0
	for _, f := range manifest.Fixtures {
		if _, ok := files[f.Vectors]; !ok {
			var vf struct {
				Cases []vectorCase `json:"cases"`
			}
			raw, err := os.ReadFile(vectorsPath(f.Vectors))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &vf); err != nil {
				t.Fatal(err)
			}
			files[f.Vectors] = vf.Cases
		}
		c := files[f.Vectors][f.Case]
		s := loadAny(t, testsPath("membership", f.File))
		ids := make([]string, len(c.Nodes))
		for i, n := range c.Nodes {
			b, _ := hex.DecodeString(n.IDHex)
			ids[i] = string(b)
		}
		if got := s.Nodes(); fmt.Sprint(got) != fmt.Sprint(ids) {
			t.Fatalf("%s: nodes %q, want %q", f.File, got, ids)
		}
		names := func(idx []int) []string {
			out := []string{}
			for _, i := range idx {
				out = append(out, ids[i])
			}
			return out
		}
		for _, k := range c.Keys {
			kb, _ := hex.DecodeString(k.KeyHex)
			key := string(kb)
			if f.Vectors == "domains-v1.json" {
				got, err := s.TopKDistinct(key, c.K)
				if err != nil || fmt.Sprint(got) != fmt.Sprint(names(k.Distinct)) {
					t.Fatalf("%s: distinct %q (%v), want %q", f.File, got, err, names(k.Distinct))
				}
				keys++
				continue
			}
			owner, err := s.Owner(key)
			if k.Owner == nil {
				if !errors.Is(err, ErrNoEligibleNode) {
					t.Fatalf("%s: owner %q, %v; want no eligible node", f.File, owner, err)
				}
			} else if err != nil || owner != ids[*k.Owner] {
				t.Fatalf("%s: owner %q (%v), want %q", f.File, owner, err, ids[*k.Owner])
			}
			if len(k.Ranked) > 0 {
				got, err := s.TopK(key, len(k.Ranked))
				if err != nil || fmt.Sprint(got) != fmt.Sprint(names(k.Ranked)) {
					t.Fatalf("%s: top-k %q (%v), want %q", f.File, got, err, names(k.Ranked))
				}
			}
			keys++
		}
	}
	if len(manifest.Fixtures) < 100 || keys < 1000 {
		t.Fatalf("only %d fixtures, %d keys", len(manifest.Fixtures), keys)
	}
}

func TestMembershipErrorsAndSave(t *testing.T) {
	dir := testfs.TempDir(t)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"a\"\n"), 0o644)
	_, err := Load(bad)
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, ErrBadFile) || !strings.Contains(fe.Message, ":4: nodes[1]: duplicate node") {
		t.Fatalf("duplicate: %v", err)
	}
	typo := filepath.Join(dir, "typo.toml")
	os.WriteFile(typo, []byte("seed = 2\nmode = \"table\"\n[table]\nbitz = 3\n"), 0o644)
	if _, err := Load(typo); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), ":4:") || !strings.Contains(err.Error(), "bitz") {
		t.Fatalf("typo: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); !errors.Is(err, ErrBadFile) {
		t.Fatalf("missing: %v", err)
	}

	tb, err := NewTable([]string{"a", "b", "\xff\x00", "d"}, WithSeed(1<<63+5), WithPartitionBits(7), WithReplicas(2),
		WithWeights(map[string]float64{"a": 0.5, "d": 0}), WithDomains(map[string]string{"a": "r1", "b": "r1"}))
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "saved.toml")
	if err := tb.Save(saved); err != nil {
		t.Fatal(err)
	}
	again, err := Load(saved)
	if err != nil {
		t.Fatal(err)
	}
	bits, isTable := again.PartitionBits()
	replicas, _ := again.Replicas()
	if again.Mode() != Table || !isTable || bits != 7 || replicas != 2 {
		t.Fatalf("loaded %v: bits %d (%v), replicas %d", again.Mode(), bits, isTable, replicas)
	}
	for i := 0; i < 2000; i++ {
		key := fmt.Sprintf("key-%d", i)
		a, _ := tb.TopK(key, 2)
		b, _ := again.TopK(key, 2)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s: %q vs %q", key, a, b)
		}
	}
	if err := tb.Save(filepath.Join(dir, "no", "such", "dir.toml")); !errors.Is(err, ErrBadFile) {
		t.Fatalf("save into a missing folder: %v", err)
	}
}
