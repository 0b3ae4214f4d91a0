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
// a file, where the portable build cannot name one: on Windows the module
// makes a relative secret.file absolute with WASI's paths (no drive letter,
// "/" only), so only secret.env works there.
func skipNoSecretFiles(t *testing.T) {
	t.Helper()
	if portable && runtime.GOOS == "windows" {
		t.Skip("SKIPPED on the portable (WebAssembly) build on Windows: the module resolves secret.file paths as WASI paths (no drive letter), so they name no Windows file")
	}
}
