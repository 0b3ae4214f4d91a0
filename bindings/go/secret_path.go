//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// secretFilePath resolves a keyed membership file's secret.file, as the
// file writes it, by this OS's path rules, as a native load resolves it
// (the membership crate: Path::join, then std::path::absolute): a relative
// path is relative to the folder of the membership file at path, or, for
// content with no file (path ""), to the current directory; the result is
// absolute, so that the set finds the file again from any folder and a
// save names it. The module cannot: it has no file system, and WASI's path
// rules know no drive letters.
func secretFilePath(file, path string) (string, error) {
	if runtime.GOOS == "windows" {
		return windowsSecretPath(file, path)
	}
	return posixSecretPath(file, path)
}

// windowsSecretPath is secretFilePath by Windows' rules: a verbatim path
// (\\?\...) is kept as it is; one with a drive of its own ("C:x") is
// resolved against that drive; a rooted one with no drive (\x) takes the
// membership file's drive; anything else is joined to the file's folder.
// Then GetFullPathName (filepath.Abs), as std::path::absolute does.
func windowsSecretPath(file, path string) (string, error) {
	if strings.HasPrefix(file, `\\?\`) {
		return file, nil
	}
	if path != "" && filepath.VolumeName(file) == "" {
		dir := filepath.Dir(path)
		if file != "" && os.IsPathSeparator(file[0]) {
			file = filepath.VolumeName(dir) + file
		} else {
			file = filepath.Join(dir, file)
		}
	}
	return filepath.Abs(file)
}

// posixSecretPath is secretFilePath by POSIX rules, as Rust's are: the
// folder is what precedes the membership path's last slash, and making the
// path absolute drops "." components and repeated slashes but keeps ".."
// (a folder reached through a symbolic link has another parent than the
// text says) and a trailing slash; "//" at the start stays (POSIX leaves
// its meaning to the system), "///" is one slash. Unlike filepath.Abs,
// which would drop "..", this gives the path a native load remembers.
func posixSecretPath(file, path string) (string, error) {
	if !strings.HasPrefix(file, "/") {
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			file = path[:i+1] + file
		}
	}
	var out string
	switch {
	case strings.HasPrefix(file, "//") && !strings.HasPrefix(file, "///"):
		out = "//"
	case strings.HasPrefix(file, "/"):
		out = "/"
	default:
		wd, err := currentDir()
		if err != nil {
			return "", err
		}
		out = wd
	}
	for _, c := range strings.Split(file, "/") {
		if c == "" || c == "." {
			continue
		}
		if !strings.HasSuffix(out, "/") {
			out += "/"
		}
		out += c
	}
	if strings.HasSuffix(file, "/") && !strings.HasSuffix(out, "/") {
		out += "/"
	}
	return out, nil
}

// currentDir is the current directory as the OS gives it (getcwd, as Rust's
// std::env::current_dir), not os.Getwd's $PWD, which may name it through a
// symbolic link.
func currentDir() (string, error) {
	for {
		wd, err := syscall.Getwd()
		if err != syscall.EINTR {
			return wd, err
		}
	}
}
