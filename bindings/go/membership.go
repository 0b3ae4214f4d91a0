package longstraw

/*
#include <stdlib.h>
#include "longstraw.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
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

// fileCall runs a C membership-file call and turns a failure into a
// *FileError with the C library's message (or the usual *Error for other
// codes). The message is per thread, so the call and the read of the
// message stay on one thread.
func fileCall(op, path string, call func(cpath *C.char) C.longstraw_result) error {
	if err := checkPath(op, path); err != nil {
		return err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return fileResult(op, path, func() C.longstraw_result { return call(cpath) })
}

func fileResult(op, value string, call func() C.longstraw_result) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	code := call()
	if code == C.LONGSTRAW_BAD_FILE {
		return &FileError{Op: op, Message: C.GoString(C.longstraw_last_error_message())}
	}
	return check(code, op, value)
}

// Load reads a membership file (docs/MEMBERSHIP.md) and gives a set of the
// mode it names (see Mode): the same file gives the same placement in every
// language. The file, and a keyed file's secret, are read once, so either
// may be a pipe or a FIFO. A relative secret.file is relative to the
// membership file's folder; the set remembers its secret source for Save.
func Load(path string) (*Rendezvous, error) {
	h := &handle{}
	err := fileCall("Load", path, func(p *C.char) C.longstraw_result {
		return C.longstraw_rendezvous_load_file(p, &h.p)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, (*handle).free)
	return newSet("Load", h)
}

// LoadBytes reads the content of a membership file from memory and gives a
// set of the mode it names, as Load does. A relative secret.file in it is
// relative to the current working directory; secret.env works as in a file.
// Error messages name the origin "<bytes>".
func LoadBytes(data []byte) (*Rendezvous, error) {
	h := &handle{}
	err := fileResult("LoadBytes", fmt.Sprintf("(%d bytes)", len(data)), func() C.longstraw_result {
		defer runtime.KeepAlive(data)
		return C.longstraw_rendezvous_load_bytes(bytesPtr(data), C.size_t(len(data)), &h.p)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, (*handle).free)
	return newSet("LoadBytes", h)
}
