package longstraw

import (
	"runtime"
	"testing"
)

// skipPortable skips a test that is about the cgo path only, on the build
// that runs liblongstraw.wasm (the reason is printed).
func skipPortable(t *testing.T, why string) {
	t.Helper()
	if portable {
		t.Skip("SKIPPED on the portable (WebAssembly) build: " + why)
	}
}

// skipNoSecretFiles skips a test that loads a keyed file whose secret is in
// a file, where the portable build cannot read one: on Windows the module is
// given no view of the file system (a WASI path has no drive letter), so
// only secret.env works there.
func skipNoSecretFiles(t *testing.T) {
	t.Helper()
	if portable && runtime.GOOS == "windows" {
		t.Skip("SKIPPED on the portable (WebAssembly) build on Windows: the module reads no secret file there")
	}
}
