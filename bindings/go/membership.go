package longstraw

import (
	"errors"
	"fmt"
)

// ErrBadFile is the sentinel of every membership file error (test with
// errors.Is); the *FileError says which file, line and field.
var ErrBadFile = errors.New("bad membership file")

// FileError is a membership file that could not be read, parsed, validated
// or written. Message names
// the file, the line and the field, e.g.
// "members.toml:12: nodes[3].weight: invalid weight -1: it is negative".
type FileError struct {
	Op      string // the operation, e.g. "Load"
	Message string // from the one parser every language shares
}

func (e *FileError) Error() string {
	if e == nil {
		return "longstraw: <nil *FileError>"
	}
	return "longstraw: " + e.Op + ": " + e.Message
}

// Unwrap returns ErrBadFile, for errors.Is.
func (e *FileError) Unwrap() error { return ErrBadFile }

// fileError turns a failed membership-file call into a *FileError with
// the C library's message (or the usual *Error for other codes).
func fileError(op, value string, code result, message string) error {
	if code == resultBadFile {
		return &FileError{Op: op, Message: message}
	}
	return check(code, op, value)
}

// Load reads a membership file (docs/MEMBERSHIP.md) and gives a set of the
// mode it names (see Mode): the same file gives the same placement in every
// language. The file, and a keyed file's secret, are read once, so either
// may be a pipe or a FIFO. A relative secret.file is relative to the
// membership file's folder; the set remembers its secret source for Save.
func Load(path string) (*Rendezvous, error) {
	if err := checkPath("Load", path); err != nil {
		return nil, err
	}
	h, code, message := loadFileHandle(path)
	if err := fileError("Load", path, code, message); err != nil {
		return nil, err
	}
	return newSet("Load", h)
}

// LoadBytes reads the content of a membership file from memory and gives a
// set of the mode it names, as Load does. A relative secret.file in it is
// relative to the current working directory; secret.env works as in a file.
// Error messages name the origin "<bytes>".
func LoadBytes(data []byte) (*Rendezvous, error) {
	h, code, message := loadBytesHandle(data)
	if err := fileError("LoadBytes", fmt.Sprintf("(%d bytes)", len(data)), code, message); err != nil {
		return nil, err
	}
	return newSet("LoadBytes", h)
}
