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

func (e *FileError) Error() string { return "longstraw: " + e.Op + ": " + e.Message }

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

// FileMode is the mode a membership file declares: "flat", "table" or
// "skeleton" (the whole file is validated first). Load it with Load,
// LoadTable or LoadSkeleton accordingly.
func FileMode(path string) (string, error) {
	var mode C.longstraw_mode
	err := fileCall("FileMode", path, func(p, m *C.char) C.longstraw_result {
		return C.longstraw_file_mode(p, &mode, m, messageLen)
	})
	if err != nil {
		return "", err
	}
	switch mode {
	case C.LONGSTRAW_MODE_TABLE:
		return "table", nil
	case C.LONGSTRAW_MODE_SKELETON:
		return "skeleton", nil
	default:
		return "flat", nil
	}
}

// Load reads a flat membership file (docs/MEMBERSHIP.md): the same file
// gives the same placement in every language.
func Load(path string) (*Rendezvous, error) {
	h := &rendezvousHandle{}
	err := fileCall("Load", path, func(p, m *C.char) C.longstraw_result {
		return C.longstraw_rendezvous_load_file(p, &h.p, m, messageLen)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, (*rendezvousHandle).free)
	r := &Rendezvous{}
	r.set = h
	if err := r.refresh(); err != nil {
		return nil, err
	}
	return r, nil
}

// LoadTable reads a table membership file (mode = "table").
func LoadTable(path string) (*Table, error) {
	h := &tableHandle{}
	err := fileCall("LoadTable", path, func(p, m *C.char) C.longstraw_result {
		return C.longstraw_table_load_file(p, &h.p, m, messageLen)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, func(h *tableHandle) { C.longstraw_table_free(h.p) })
	var bits C.uint8_t
	var replicas C.size_t
	var flags C.uint32_t
	if err := check(C.longstraw_table_shape(h.p, &bits, &replicas, &flags), "LoadTable", ""); err != nil {
		return nil, err
	}
	t := &Table{bits: int(bits), replicas: int(replicas), distinct: flags&C.LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0,
		balance: readBalance(h)}
	t.set = h
	if err := t.refresh(); err != nil {
		return nil, err
	}
	return t, nil
}

// LoadSkeleton reads a skeleton membership file (mode = "skeleton").
func LoadSkeleton(path string) (*Skeleton, error) {
	h := &skeletonHandle{}
	err := fileCall("LoadSkeleton", path, func(p, m *C.char) C.longstraw_result {
		return C.longstraw_skeleton_load_file(p, &h.p, m, messageLen)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, func(h *skeletonHandle) { C.longstraw_skeleton_free(h.p) })
	var fanout, levels C.uint8_t
	if err := check(C.longstraw_skeleton_shape(h.p, &fanout, &levels), "LoadSkeleton", ""); err != nil {
		return nil, err
	}
	k := &Skeleton{fanoutBits: int(fanout), levels: int(levels)}
	k.set = h
	if err := k.refresh(); err != nil {
		return nil, err
	}
	return k, nil
}
