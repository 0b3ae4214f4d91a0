package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LoadBytes gives the set Load gives for the same text, in every mode.
func TestLoadBytesIsLoad(t *testing.T) {
	dir := testfs.TempDir(t)
	for _, text := range []string{
		"seed = 9\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\nweight = 2.5\n\n[[nodes]]\nid = \"c\"\ndomain = \"r1\"\n",
		"mode = \"table\"\n[table]\nbits = 5\nreplicas = 2\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n\n[[nodes]]\nid = \"c\"\n",
		"mode = \"skeleton\"\n[skeleton]\nfanout_bits = 1\nlevels = 1\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n\n[[nodes]]\nid = \"c\"\n",
	} {
		path := filepath.Join(dir, "m.toml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		fromFile, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		fromBytes, err := LoadBytes([]byte(text))
		if err != nil {
			t.Fatalf("LoadBytes: %v", err)
		}
		if fromBytes.Mode() != fromFile.Mode() || fromBytes.String() != fromFile.String() ||
			strings.Join(fromBytes.Domains(), ",") != strings.Join(fromFile.Domains(), ",") {
			t.Fatalf("LoadBytes %v, Load %v", fromBytes, fromFile)
		}
		sameRankings(t, "LoadBytes "+fromFile.Mode().String(), fromBytes, fromFile)
	}
}

// A relative secret.file in loaded bytes is relative to the current
// directory; the bytes' errors name the origin "<bytes>" and never show
// the secret.
func TestLoadBytesSecretAndErrors(t *testing.T) {
	dir := testfs.TempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "s.hex"), []byte(hex.EncodeToString(testSecret)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(here)
	r, err := LoadBytes([]byte("[secret]\nfile = \"s.hex\"\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n"))
	if err != nil {
		t.Fatalf("LoadBytes with a relative secret file: %v", err)
	}
	inCode, _ := New([]string{"a", "b"}, WithSecret(testSecret))
	if !r.IsKeyed() {
		t.Fatal("not keyed")
	}
	sameRankings(t, "LoadBytes keyed", r, inCode)
	_, err = LoadBytes([]byte("seed = 1\n[[nodes]]\nid = \"a\"\nweight = -1\n"))
	if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "<bytes>") || !strings.Contains(err.Error(), "weight") {
		t.Fatalf("bad weight: %v", err)
	}
	_, err = LoadBytes([]byte("[secret]\nfile = \"missing.hex\"\n[[nodes]]\nid = \"a\"\n"))
	if !errors.Is(err, ErrBadFile) || leaked(err.Error()) != "" {
		t.Fatalf("missing secret file: %v", err)
	}
	for _, data := range [][]byte{{0xff, 0xfe}, []byte("mode = \"ring\"\n")} {
		if _, err := LoadBytes(data); !errors.Is(err, ErrBadFile) {
			t.Errorf("LoadBytes(%q): %v", data, err)
		}
	}
}

// Partition on a flat or skeleton set (and its snapshot) fails with an
// ErrInvalidArgument in the Rust layer's words, naming the set's mode.
func TestPartitionOnAnotherMode(t *testing.T) {
	flat, _ := New([]string{"a", "b"})
	skeleton, _ := NewSkeleton([]string{"a", "b"})
	for _, s := range []*Rendezvous{flat, skeleton} {
		snap, _ := s.Snapshot()
		for _, err := range []error{second(s.Partition("k")), second(snap.PartitionBytes([]byte("k")))} {
			if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "table") ||
				!strings.Contains(err.Error(), s.Mode().String()) || !strings.Contains(err.Error(), "Partition") {
				t.Errorf("%v: Partition: %v", s.Mode(), err)
			}
		}
	}
}
