package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A keyed membership file naming its secret file relative to itself, loaded
// by Load from a folder that is not the current directory (which holds a
// secret file of the same name with another secret), reads the secret beside
// the membership file: its owners are the keyed vectors' answers, and a save
// names that secret file by the absolute path a native load makes of it.
// LoadBytes of the same text resolves the secret file against the current
// directory instead.
func TestKeyedRelativeSecretFileOfAnotherFolder(t *testing.T) {
	c := keyedVectorCase(t, "flat plain n=33")
	text := "[secret]\nfile = \"keys/s.hex\"\n"
	for _, n := range c.Nodes {
		text += fmt.Sprintf("\n[[nodes]]\nid_hex = %q\n", n.IDHex)
	}
	conf := filepath.Join(testfs.TempDir(t), "conf")
	writeSecretHex(t, filepath.Join(conf, "keys", "s.hex"), c.SecretHex)
	path := filepath.Join(conf, "m.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	other := testfs.TempDir(t)
	decoy := strings.Repeat("5a", SecretLen)
	writeSecretHex(t, filepath.Join(other, "keys", "s.hex"), decoy)
	// The saved files go to a third folder, so that the saved path is
	// not relative to the saved file either.
	saves := testfs.TempDir(t)
	chdirForTest(t, other)

	r, err := Load(path)
	if err != nil {
		t.Fatalf("Load of a keyed file in another folder: %v", err)
	}
	defer r.Close()
	ownersAreTheVectors(t, "Load", r, c)
	out := filepath.Join(saves, "loaded.toml")
	if err := r.Save(out); err != nil {
		t.Fatal(err)
	}
	if got, want := savedSecretFile(t, out), filepath.Join(conf, "keys", "s.hex"); got != want {
		t.Fatalf("the saved file names secret file %q, want %q", got, want)
	}
	again, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	ownersAreTheVectors(t, "Load of the saved file", again, c)

	// A ".." in secret.file: a native load keeps it on POSIX (the folder
	// may be reached through a symbolic link), Windows removes it.
	up := strings.Replace(text, `"keys/s.hex"`, `"../conf/keys/s.hex"`, 1)
	if err := os.WriteFile(path, []byte(up), 0o644); err != nil {
		t.Fatal(err)
	}
	r2, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	ownersAreTheVectors(t, "Load with ..", r2, c)
	if err := r2.Save(out); err != nil {
		t.Fatal(err)
	}
	want := conf + "/../conf/keys/s.hex"
	if runtime.GOOS == "windows" {
		want = filepath.Join(conf, "keys", "s.hex")
	}
	if got := savedSecretFile(t, out); got != want {
		t.Fatalf("the saved file names secret file %q, want %q", got, want)
	}

	// Bytes: the current directory's secret file.
	fromBytes, err := LoadBytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	defer fromBytes.Close()
	decoyCase := c
	decoyCase.SecretHex = decoy
	inCode := keyedSetOf(t, decoyCase)
	sameRankings(t, "LoadBytes reads the current directory's secret file", fromBytes, inCode)
	if err := fromBytes.Save(out); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := savedSecretFile(t, out), filepath.Join(wd, "keys", "s.hex"); got != want {
		t.Fatalf("the file saved of bytes names secret file %q, want %q", got, want)
	}
}

// keyedVectorCase is the case of tests/vectors/keyed-v1.json named name.
func keyedVectorCase(t *testing.T, name string) keyedCase {
	t.Helper()
	for _, c := range readKeyedVectors(t).Cases {
		if c.Name == name {
			for _, n := range c.Nodes {
				if n.WeightBits != "3ff0000000000000" || n.DomainHex != nil {
					t.Fatalf("%s: a node with a weight or a domain", name)
				}
			}
			return c
		}
	}
	t.Fatalf("no keyed vector case %q", name)
	return keyedCase{}
}

// keyedSetOf builds case c's flat set in code.
func keyedSetOf(t *testing.T, c keyedCase) *Rendezvous {
	t.Helper()
	ids := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		ids[i] = string(mustHex(t, n.IDHex))
	}
	r, err := New(ids, WithSecret(mustHex(t, c.SecretHex)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// ownersAreTheVectors checks r's owner of every key of case c.
func ownersAreTheVectors(t *testing.T, what string, r *Rendezvous, c keyedCase) {
	t.Helper()
	if !r.IsKeyed() {
		t.Fatalf("%s: not keyed", what)
	}
	for _, k := range c.Keys {
		owner, err := r.OwnerBytes(mustHex(t, k.KeyHex))
		if k.Owner == nil {
			if !errors.Is(err, ErrNoEligibleNode) {
				t.Fatalf("%s: key %s: want ErrNoEligibleNode, got %q, %v", what, k.KeyHex, owner, err)
			}
			continue
		}
		if want := string(mustHex(t, c.Nodes[*k.Owner].IDHex)); err != nil || owner != want {
			t.Fatalf("%s: key %s: owner %q (%v), want %q", what, k.KeyHex, owner, err, want)
		}
	}
}

// writeSecretHex writes a secret file (and its folder).
func writeSecretHex(t *testing.T, path, secretHex string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(secretHex+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// chdirForTest makes dir the current directory until the test ends.
func chdirForTest(t *testing.T, dir string) {
	t.Helper()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.Chdir(here); err != nil {
			t.Errorf("back to %s: %v", here, err)
		}
	})
}

// savedSecretFile is the secret.file a saved membership file names.
func savedSecretFile(t *testing.T, path string) string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(text), "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "file = ")
		if !ok {
			continue
		}
		if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			return v[1 : len(v)-1] // a TOML literal string
		}
		s, err := strconv.Unquote(v)
		if err != nil {
			t.Fatalf("%s: secret file %s: %v", path, v, err)
		}
		return s
	}
	t.Fatalf("%s names no secret file:\n%s", path, text)
	return ""
}
