//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

// What readSecretFile found at a keyed membership file's secret file, as
// longstraw_wasm_load_bytes_read numbers it (the membership crate's
// SecretFileRead): the module has no file system, so the host reads the
// secret file and the module judges what it found, with the native load's
// rules and messages.
const (
	secretContent   uint32 = 0
	secretDirectory uint32 = 1
	secretDevice    uint32 = 2
	secretSocket    uint32 = 3
	secretStalled   uint32 = 4
	secretFailed    uint32 = 5
)

// secretReadCap is how much of a secret file is read: the module refuses
// more than 4096 bytes, and one byte more tells it the file is larger.
const secretReadCap = 4097

// failedRead is a secretFailed report with the OS's message (never any of
// the content).
func failedRead(err error) (uint32, []byte) {
	return secretFailed, []byte(osMessage(err))
}
