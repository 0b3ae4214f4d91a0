//go:build cgo && !longstraw_wasm && linux && (amd64 || arm64)

package longstraw

import "testing"

// The header this package was compiled against and the archive it linked
// must be one release. (cgo only: the portable build has no header.)
func TestHeaderAndLibraryVersionsAgree(t *testing.T) {
	if got, want := Version(), headerVersionNumber(); got != want {
		t.Fatalf("linked library is version %d, header says %d", got, want)
	}
}

// abi.go repeats the header's constants and result codes for the build
// without cgo; they must be the header's.
func TestHeaderConstants(t *testing.T) {
	for name, v := range headerConstants() {
		if v[0] != v[1] {
			t.Errorf("%s: abi.go says %d, the header %d", name, v[0], v[1])
		}
	}
}

// defaultSetOptions must be longstraw_options_init's defaults.
func TestDefaultSetOptionsAreTheLibrarys(t *testing.T) {
	got, want := defaultSetOptions(), libraryDefaultOptions()
	if got.placement != want.placement || got.seed != want.seed || got.hasSeed != want.hasSeed || got.mode != want.mode ||
		got.replicas != want.replicas || got.balance != want.balance || got.tableFlags != want.tableFlags ||
		got.partitionBits != want.partitionBits || got.fanoutBits != want.fanoutBits || got.levels != want.levels {
		t.Fatalf("defaultSetOptions() = %+v, longstraw_options_init gives %+v", got, want)
	}
}
