package longstraw

/*
#include <stdlib.h>
#include "longstraw.h"
*/
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

// ErrBadFile is the sentinel of every membership file error (test with
// errors.Is); the *FileError says which file, line and field.
var ErrBadFile = errors.New("bad membership file")

// FileError is a membership file that could not be read, parsed, validated
// or written, or that holds another mode than the call loads. Message names
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

const messageLen = 1024

// fileCall runs a C membership-file call with a message buffer and turns a
// failure into a *FileError (or the usual *Error for other codes).
func fileCall(op, path string, call func(cpath *C.char, msg *C.char) C.longstraw_result) error {
	if err := checkPath(op, path); err != nil {
		return err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	msg := (*C.char)(C.calloc(messageLen, 1))
	defer C.free(unsafe.Pointer(msg))
	code := call(cpath, msg)
	if code == C.LONGSTRAW_BAD_FILE {
		return &FileError{Op: op, Message: C.GoString(msg)}
	}
	return check(code, op, path)
}

// FileMode is the mode a membership file declares (the whole file is
// validated first). Load gives a set of whatever mode the file names, so
// this is only needed to know the mode without building the set.
func FileMode(path string) (Mode, error) {
	var mode C.longstraw_mode
	err := fileCall("FileMode", path, func(p, m *C.char) C.longstraw_result {
		return C.longstraw_file_mode(p, &mode, m, messageLen)
	})
	if err != nil {
		return Flat, err
	}
	switch mode {
	case C.LONGSTRAW_MODE_TABLE:
		return Table, nil
	case C.LONGSTRAW_MODE_SKELETON:
		return Skeleton, nil
	}
	return Flat, nil
}

// Load reads a membership file (docs/MEMBERSHIP.md) and gives a set of the
// mode it names: the same file gives the same placement in every language.
// A keyed file's secret is read once, so a secret in a FIFO works.
func Load(path string) (*Rendezvous, error) {
	mode, err := FileMode(path)
	if err != nil {
		if e, ok := err.(*FileError); ok {
			e.Op = "Load"
		}
		return nil, err
	}
	h := &handle{mode: mode}
	err = fileCall("Load", path, func(p, m *C.char) C.longstraw_result {
		switch mode {
		case Table:
			return C.longstraw_table_load_file(p, &h.table, m, messageLen)
		case Skeleton:
			return C.longstraw_skeleton_load_file(p, &h.skeleton, m, messageLen)
		}
		return C.longstraw_rendezvous_load_file(p, &h.flat, m, messageLen)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, (*handle).free)
	return newSet("Load", h)
}
