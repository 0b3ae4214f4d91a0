//go:build (!cgo || longstraw_wasm || !linux || !(amd64 || arm64)) && !unix

package longstraw

import (
	"errors"
	"io"
	"os"
	"strings"
)

// readSecretFile reports what is at a keyed file's secret file, read as a
// native load reads it where there are no POSIX pipes (Windows): a
// directory is refused, anything else is read once to its end or to
// secretReadCap bytes. The content is the secret: never shown.
func readSecretFile(path string) (uint32, []byte) {
	if strings.IndexByte(path, 0) >= 0 {
		return secretFailed, nil // the module refuses the path itself
	}
	f, err := os.Open(path)
	if err != nil {
		return failedRead(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return failedRead(err)
	}
	if st.IsDir() {
		return secretDirectory, nil
	}
	out := make([]byte, secretReadCap)
	n, err := io.ReadFull(f, out)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		clear(out)
		return failedRead(err)
	}
	return secretContent, out[:n]
}

// osMessage is the OS's sentence for err (Windows words it as the native
// library does).
func osMessage(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}
