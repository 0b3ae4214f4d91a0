//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

import (
	"path/filepath"
	"runtime"
	"testing"
)

// secretFilePath resolves secret.file as Rust's Path::join and
// std::path::absolute do on each OS (a native load's rules), for the
// portable build, whose module knows neither this OS's paths nor its
// current directory.
func TestPortableSecretFilePathIsTheNativeOne(t *testing.T) {
	for _, c := range []struct{ file, path, want string }{
		{"s.hex", "/a/b/m.toml", "/a/b/s.hex"},
		{"keys/s.hex", "/a/b/m.toml", "/a/b/keys/s.hex"},
		{"../k/s.hex", "/a/b/m.toml", "/a/b/../k/s.hex"},
		{"./k//s.hex", "/a/./b//m.toml", "/a/b/k/s.hex"},
		{"/abs/s.hex", "/a/b/m.toml", "/abs/s.hex"},
		{"//host/s.hex", "/a/m.toml", "//host/s.hex"},
		{"///x//y", "/a/m.toml", "/x/y"},
		{"k/", "/a/m.toml", "/a/k/"},
		{"s.hex", "/m.toml", "/s.hex"},
	} {
		got, err := posixSecretPath(c.file, c.path)
		if err != nil || got != c.want {
			t.Errorf("POSIX: %q in %q: %q (%v), want %q", c.file, c.path, got, err, c.want)
		}
	}
	wd, err := currentDir()
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		for _, c := range []struct{ file, path, want string }{
			{"s.hex", `C:\dir\m.toml`, `C:\dir\s.hex`},
			{"keys/s.hex", `C:\dir\m.toml`, `C:\dir\keys\s.hex`},
			{`..\k\s.hex`, `C:\a\b\m.toml`, `C:\a\k\s.hex`},
			{`\k\s.hex`, `D:\a\m.toml`, `D:\k\s.hex`},
			{`/k/s.hex`, `D:\a\m.toml`, `D:\k\s.hex`},
			{`E:\k\s.hex`, `C:\a\m.toml`, `E:\k\s.hex`},
			{`\\?\C:\x\..\s.hex`, `C:\a\m.toml`, `\\?\C:\x\..\s.hex`},
			{"s.hex", `\\server\share\d\m.toml`, `\\server\share\d\s.hex`},
			{`\k\s.hex`, `\\server\share\d\m.toml`, `\\server\share\k\s.hex`},
			{"s.hex", "m.toml", filepath.Join(wd, "s.hex")},
			{"s.hex", "", filepath.Join(wd, "s.hex")},
		} {
			got, err := secretFilePath(c.file, c.path)
			if err != nil || got != c.want {
				t.Errorf("Windows: %q in %q: %q (%v), want %q", c.file, c.path, got, err, c.want)
			}
		}
		return
	}
	for _, c := range []struct{ file, path, want string }{
		{"s.hex", "m.toml", wd + "/s.hex"},
		{"s.hex", "conf/m.toml", wd + "/conf/s.hex"},
		{"../s.hex", "", wd + "/../s.hex"},
		{"/abs/s.hex", "", "/abs/s.hex"},
	} {
		got, err := secretFilePath(c.file, c.path)
		if err != nil || got != c.want {
			t.Errorf("%q in %q: %q (%v), want %q", c.file, c.path, got, err, c.want)
		}
	}
}
