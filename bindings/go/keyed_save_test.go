package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testSecret is a distinctive secret; leaks are looked for as any 6 of its
// hex digits in a row (and its raw bytes).
var testSecret = []byte{0xc2, 0x2e, 0x91, 0x5b, 0x7d, 0x04, 0xe8, 0x3a, 0x66, 0xf1, 0x0b, 0x9c, 0x52, 0xad, 0x17, 0x48}

// leaked reports which part of testSecret text shows, or "".
func leaked(text string) string {
	h := hex.EncodeToString(testSecret)
	for _, form := range []string{h, strings.ToUpper(h)} {
		for i := 0; i+6 <= len(form); i++ {
			if strings.Contains(text, form[i:i+6]) {
				return form[i : i+6]
			}
		}
	}
	for i := 0; i+3 <= len(testSecret); i++ {
		if strings.Contains(text, string(testSecret[i:i+3])) {
			return fmt.Sprintf("raw bytes %x", testSecret[i:i+3])
		}
	}
	return ""
}

// keyedFiles writes a secret file and a keyed membership file of mode (with
// its section) that names it; it returns the membership file's path.
func keyedFiles(t *testing.T, dir, mode, section string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "secret.hex"), []byte(hex.EncodeToString(testSecret)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("mode = %q\n%s\n[secret]\nfile = \"secret.hex\"\n", mode, section)
	for _, id := range []string{"a", "b", "c", "d"} {
		text += fmt.Sprintf("\n[[nodes]]\nid = %q\n", id)
	}
	path := filepath.Join(dir, mode+".toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type topKer interface {
	TopK(string, int) ([]string, error)
}

// sameRankings checks that two sets give the same top 2 for 500 keys.
func sameRankings(t *testing.T, what string, a, b topKer) {
	t.Helper()
	for i := 0; i < 500; i++ {
		key := fmt.Sprintf("user:%d", i)
		x, err1 := a.TopK(key, 2)
		y, err2 := b.TopK(key, 2)
		if err1 != nil || err2 != nil || fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("%s: %s: %q (%v) vs %q (%v)", what, key, x, err1, y, err2)
		}
	}
}

// checkSavedFile checks that a saved file names a source and holds no part of the secret.
func checkSavedFile(t *testing.T, path, wantSource string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "[secret]") || !strings.Contains(string(text), wantSource) {
		t.Fatalf("%s names no secret source %q:\n%s", path, wantSource, text)
	}
	if l := leaked(string(text)); l != "" {
		t.Fatalf("%s holds part of the secret (%s)", path, l)
	}
}

// A set loaded from a keyed file saves again with no argument, naming the
// same source, and the saved file loads to the same placement as the
// original and as a set built in code with the secret.
func TestKeyedSaveOfLoadedSets(t *testing.T) {
	dir := testfs.TempDir(t)
	inCode, err := New([]string{"a", "b", "c", "d"}, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}

	flat, err := Load(keyedFiles(t, dir, "flat", ""))
	if err != nil {
		t.Fatal(err)
	}
	sameRankings(t, "loaded flat vs built in code", flat, inCode)
	out := filepath.Join(testfs.TempDir(t), "flat-again.toml")
	if err := flat.Save(out); err != nil {
		t.Fatalf("save of a loaded keyed set: %v", err)
	}
	checkSavedFile(t, out, filepath.Join(dir, "secret.hex"))
	again, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !again.IsKeyed() {
		t.Fatal("the saved file loads unkeyed")
	}
	sameRankings(t, "saved flat", again, inCode)

	table, err := Load(keyedFiles(t, dir, "table", "[table]\nbits = 6\nreplicas = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(testfs.TempDir(t), "table-again.toml")
	if err := table.Save(out); err != nil {
		t.Fatalf("save of a loaded keyed table: %v", err)
	}
	checkSavedFile(t, out, "secret.hex")
	tableAgain, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	sameRankings(t, "saved table", tableAgain, table)

	skeleton, err := Load(keyedFiles(t, dir, "skeleton", "[skeleton]\nfanout_bits = 1\nlevels = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(testfs.TempDir(t), "skeleton-again.toml")
	if err := skeleton.Save(out); err != nil {
		t.Fatalf("save of a loaded keyed skeleton: %v", err)
	}
	skeletonAgain, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	sameRankings(t, "saved skeleton", skeletonAgain, skeleton)

	// A source given at save overrides the remembered one.
	t.Setenv("LONGSTRAW_TEST_SECRET", hex.EncodeToString(testSecret))
	out = filepath.Join(testfs.TempDir(t), "env.toml")
	if err := flat.Save(out, SecretEnv("LONGSTRAW_TEST_SECRET")); err != nil {
		t.Fatal(err)
	}
	checkSavedFile(t, out, `env = "LONGSTRAW_TEST_SECRET"`)
	byEnv, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	sameRankings(t, "saved with an env source", byEnv, inCode)
}

// A keyed set built in code saves once a source is named, and not before;
// two sources, or a source for an unkeyed set, are refused.
func TestKeyedSaveOfSetsBuiltInCode(t *testing.T) {
	dir := testfs.TempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "s.hex"), []byte(hex.EncodeToString(testSecret)), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := New([]string{"a", "b", "c"}, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.toml")
	err = r.Save(out)
	if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "needs a secret source") {
		t.Fatalf("keyed set built in code, no source: %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Fatalf("a refused save wrote %s", out)
	}
	if l := leaked(err.Error()); l != "" {
		t.Fatalf("error shows the secret (%s): %v", l, err)
	}
	err = r.Save(out, SecretFile("s.hex"), SecretEnv("X"))
	if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("two sources: %v", err)
	}
	err = r.Save(out, SecretFile(""))
	if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("an empty source: %v", err)
	}
	if err := r.Save(out, SecretFile("s.hex")); err != nil {
		t.Fatal(err)
	}
	checkSavedFile(t, out, "s.hex")
	back, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	sameRankings(t, "built in code, saved with a file source", back, r)

	plain, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	err = plain.Save(filepath.Join(dir, "plain.toml"), SecretEnv("X"))
	if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "not keyed") {
		t.Fatalf("a source for an unkeyed set: %v", err)
	}
	if err := plain.Save(filepath.Join(dir, "plain.toml")); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "plain.toml"))
	if strings.Contains(string(text), "[secret]") {
		t.Fatalf("an unkeyed set saved a [secret] section:\n%s", text)
	}
	r.Close()
	if err := r.Save(out, SecretFile("s.hex")); !errors.Is(err, ErrClosed) {
		t.Fatalf("save after Close: %v", err)
	}
}

// A path with a NUL byte is refused: C would cut it there and read or write
// another file.
func TestPathsWithNUL(t *testing.T) {
	dir := testfs.TempDir(t)
	real := filepath.Join(dir, "members.toml")
	if err := os.WriteFile(real, []byte("[[nodes]]\nid = \"a\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	cut := real + "\x00.bak"
	if err := r.Save(cut); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "path contains a NUL byte") {
		t.Fatalf("Save(%q): %v", cut, err)
	}
	if text, _ := os.ReadFile(real); string(text) != "[[nodes]]\nid = \"a\"\n" {
		t.Fatalf("Save with a NUL in the path overwrote %s:\n%s", real, text)
	}
	for name, call := range map[string]func() error{
		"Load": func() error { _, err := Load(cut); return err },
	} {
		if err := call(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "path contains a NUL byte") {
			t.Errorf("%s(%q): %v", name, cut, err)
		}
	}
	keyed, err := New([]string{"a"}, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	if err := keyed.Save(filepath.Join(dir, "k.toml"), SecretFile("s.hex\x00x")); !errors.Is(err, ErrBadFile) ||
		!strings.Contains(err.Error(), "path contains a NUL byte") {
		t.Fatalf("secret file with a NUL: %v", err)
	}
	if err := keyed.Save(filepath.Join(dir, "k.toml"), SecretEnv("A\x00B")); !errors.Is(err, ErrBadFile) ||
		!strings.Contains(err.Error(), "contains a NUL byte") {
		t.Fatalf("env name with a NUL: %v", err)
	}
}

// No error and no fmt output shows any part of a secret: wrong lengths,
// bad digits in a secret file or variable, a keyed set printed every way.
func TestSecretsNeverShown(t *testing.T) {
	dir := testfs.TempDir(t)
	var texts []string
	for _, n := range []int{0, 1, 15, 17, 32} {
		secret := append(append([]byte{}, testSecret...), testSecret...)[:n]
		_, err := New([]string{"a"}, WithSecret(secret))
		if !errors.Is(err, ErrInvalidSecret) {
			t.Fatalf("%d-byte secret: %v", n, err)
		}
		texts = append(texts, err.Error())
		_, err = NewBounded([]string{"a"}, 1.25, WithSecret(secret))
		if err == nil {
			t.Fatalf("%d-byte secret accepted by NewBounded", n)
		}
		texts = append(texts, err.Error())
	}
	h := hex.EncodeToString(testSecret)
	badForms := []string{h[:31], h[:31] + "z", h + "00", h[:16] + " " + h[16:], "0x" + h, h[:30] + "\xff\xfe"}
	for i, form := range badForms {
		secretFile := filepath.Join(dir, fmt.Sprintf("bad%d.hex", i))
		os.WriteFile(secretFile, []byte(form), 0o600)
		members := filepath.Join(dir, fmt.Sprintf("m%d.toml", i))
		os.WriteFile(members, []byte(fmt.Sprintf("[secret]\nfile = %q\n\n[[nodes]]\nid = \"a\"\n", secretFile)), 0o644)
		_, err := Load(members)
		if !errors.Is(err, ErrBadFile) {
			t.Fatalf("secret file %d: %v", i, err)
		}
		texts = append(texts, err.Error())
		t.Setenv("LONGSTRAW_TEST_BAD_SECRET", form)
		os.WriteFile(members, []byte("[secret]\nenv = \"LONGSTRAW_TEST_BAD_SECRET\"\n\n[[nodes]]\nid = \"a\"\n"), 0o644)
		_, err = Load(members)
		if !errors.Is(err, ErrBadFile) {
			t.Fatalf("secret env %d: %v", i, err)
		}
		texts = append(texts, err.Error())
	}
	keyed, err := New([]string{"a", "b"}, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	table, err := NewTable([]string{"a", "b"}, WithSecret(testSecret), WithPartitionBits(3))
	if err != nil {
		t.Fatal(err)
	}
	bounded, err := NewBounded([]string{"a", "b"}, 1.25, WithSecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{keyed, table, bounded, *bounded} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			texts = append(texts, fmt.Sprintf(verb, v))
		}
	}
	if err := keyed.Save(filepath.Join(dir, "x.toml")); err != nil {
		texts = append(texts, err.Error())
	}
	for _, text := range texts {
		if l := leaked(text); l != "" {
			t.Errorf("shows part of the secret (%s): %s", l, text)
		}
	}
}

// fmt of a set prints its kind, node count and keying, never internals.
func TestSetFormat(t *testing.T) {
	r, _ := New([]string{"a", "b", "c"})
	keyed, _ := New([]string{"a", "b"}, WithSecret(testSecret))
	table, _ := NewTable([]string{"a", "b"}, WithPartitionBits(4), WithReplicas(2), WithBalance(1.5))
	skeleton, _ := NewSkeleton([]string{"a", "b"}, WithShape(2, 1))
	bounded, _ := NewBounded([]string{"a", "b"}, 1.25)
	keyedBounded, _ := NewBounded([]string{"a", "b", "c"}, 1.25, WithSecret(testSecret))
	_, release, _ := bounded.Acquire("k")
	defer release()
	var zero Rendezvous
	var nilSnapshot *Snapshot
	snap, _ := table.Snapshot()
	for _, c := range []struct {
		v    any
		want string
	}{
		{r, "longstraw.Rendezvous(3 nodes, flat, unkeyed)"},
		{keyed, "longstraw.Rendezvous(2 nodes, flat, keyed)"},
		{table, "longstraw.Rendezvous(2 nodes, table, unkeyed, 2^4 partitions, 2 replicas, balance 1.5)"},
		{skeleton, "longstraw.Rendezvous(2 nodes, skeleton, unkeyed, fanout bits 2, levels 1)"},
		{snap, "longstraw.Snapshot(2 nodes, table, unkeyed, 2^4 partitions, 2 replicas, balance 1.5)"},
		{bounded, "longstraw.Bounded(2 nodes, unkeyed, 1 requests in flight)"},
		{keyedBounded, "longstraw.Bounded(3 nodes, keyed, 0 requests in flight)"},
		{&zero, "longstraw.Rendezvous(unusable: nil or zero value)"},
		{nilSnapshot, "longstraw.Snapshot(unusable: nil or zero value)"},
	} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			if got := fmt.Sprintf(verb, c.v); got != c.want {
				t.Errorf("%s: got %q, want %q", verb, got, c.want)
			}
		}
	}
	r.Close()
	if got := fmt.Sprint(r); got != "longstraw.Rendezvous(closed)" {
		t.Errorf("closed: %q", got)
	}
	snap.Close()
	if got := fmt.Sprint(snap); got != "longstraw.Snapshot(closed)" {
		t.Errorf("closed snapshot: %q", got)
	}
}

// A keyed file loaded by a relative path, naming its secret file relative to
// itself, saves into another folder naming the same secret file.
func TestKeyedSaveAfterARelativeLoad(t *testing.T) {
	dir := testfs.TempDir(t)
	keyedFiles(t, dir, "flat", "")
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Dir(dir)); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(here)
	r, err := Load(filepath.Join(filepath.Base(dir), "flat.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(testfs.TempDir(t), "elsewhere.toml")
	if err := r.Save(out); err != nil {
		t.Fatal(err)
	}
	again, err := Load(out)
	if err != nil {
		t.Fatalf("the saved file names another secret file: %v", err)
	}
	sameRankings(t, "saved after a relative load", again, r)
}
