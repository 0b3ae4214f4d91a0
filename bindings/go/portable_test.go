package longstraw

import "testing"

// skipPortable skips a test that is about the cgo path only, on the build
// that runs liblongstraw.wasm (the reason is printed).
func skipPortable(t *testing.T, why string) {
	t.Helper()
	if portable {
		t.Skip("SKIPPED on the portable (WebAssembly) build: " + why)
	}
}
