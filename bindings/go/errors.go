package longstraw

/*
#include "longstraw.h"
*/
import "C"

import (
	"errors"
	"fmt"
)

// Sentinel errors, one per failure kind of the C library. Test for them with
// errors.Is; the error returned by a method is an *Error that names the
// operation and the offending value and wraps one of these.
var (
	ErrInvalidNodeID      = errors.New("invalid node id")
	ErrInvalidWeight      = errors.New("invalid weight")
	ErrDuplicateNode      = errors.New("duplicate node")
	ErrUnknownNode        = errors.New("unknown node")
	ErrHashCollision      = errors.New("hash collision")
	ErrNoEligibleNode     = errors.New("no eligible node")
	ErrTooManyNodes       = errors.New("too many nodes")
	ErrUnknownPlacement   = errors.New("unknown placement version")
	ErrBackendUnavailable = errors.New("backend unavailable")
	ErrInvalidArgument    = errors.New("invalid argument")
	ErrInvalidParameter   = errors.New("invalid table or skeleton parameter")
	ErrInvalidDomain      = errors.New("invalid domain label")
	ErrInvalidSecret      = errors.New("invalid secret")
	ErrConflictingOptions = errors.New("conflicting options")
	ErrOutOfMemory        = errors.New("out of memory")
	ErrInternal           = errors.New("internal error")
)

// Error is the error every method returns: which operation failed, on what
// value, and why (Code is the C library's longstraw_result).
type Error struct {
	Op    string // the operation, e.g. "Add"
	Value string // the offending value, quoted, or "" when none applies
	Code  int    // the longstraw_result code
	kind  error
	// reason replaces the code's generic text when the binding itself
	// refused the call (a negative k, a nil set) and knows exactly why.
	reason string
}

func (e *Error) Error() string {
	if e == nil {
		return "longstraw: <nil *Error>"
	}
	msg := e.reason
	if msg == "" {
		msg = C.GoString(C.longstraw_result_str(C.int(e.Code)))
	}
	if e.kind == ErrClosed {
		msg = ErrClosed.Error()
	}
	if e.Value == "" {
		return fmt.Sprintf("longstraw: %s: %s", e.Op, msg)
	}
	return fmt.Sprintf("longstraw: %s %s: %s", e.Op, e.Value, msg)
}

// Unwrap returns the sentinel for the error's kind, for errors.Is.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.kind
}

func kindOf(code C.longstraw_result) error {
	switch code {
	case C.LONGSTRAW_INVALID_NODE_ID:
		return ErrInvalidNodeID
	case C.LONGSTRAW_INVALID_WEIGHT:
		return ErrInvalidWeight
	case C.LONGSTRAW_DUPLICATE_NODE:
		return ErrDuplicateNode
	case C.LONGSTRAW_UNKNOWN_NODE:
		return ErrUnknownNode
	case C.LONGSTRAW_HASH_COLLISION:
		return ErrHashCollision
	case C.LONGSTRAW_NO_ELIGIBLE_NODE:
		return ErrNoEligibleNode
	case C.LONGSTRAW_TOO_MANY_NODES:
		return ErrTooManyNodes
	case C.LONGSTRAW_UNKNOWN_PLACEMENT:
		return ErrUnknownPlacement
	case C.LONGSTRAW_BACKEND_UNAVAILABLE:
		return ErrBackendUnavailable
	case C.LONGSTRAW_INVALID_PARAMETER:
		return ErrInvalidParameter
	case C.LONGSTRAW_INVALID_DOMAIN:
		return ErrInvalidDomain
	case C.LONGSTRAW_INVALID_SECRET:
		return ErrInvalidSecret
	case C.LONGSTRAW_CONFLICTING_OPTIONS:
		return ErrConflictingOptions
	case C.LONGSTRAW_OUT_OF_MEMORY:
		return ErrOutOfMemory
	case C.LONGSTRAW_WRONG_MODE:
		return ErrInvalidArgument
	case C.LONGSTRAW_NULL_ARGUMENT, C.LONGSTRAW_MISALIGNED_POINTER, C.LONGSTRAW_INDEX_OUT_OF_RANGE,
		C.LONGSTRAW_BUFFER_TOO_SMALL, C.LONGSTRAW_LENGTH_MISMATCH, C.LONGSTRAW_BAD_OFFSETS:
		// The binding builds every pointer and length itself, so these are
		// bugs here, reported as such rather than blamed on the caller.
		return ErrInternal
	default:
		return ErrInternal
	}
}

// check turns a C result into nil or an *Error.
func check(code C.longstraw_result, op, value string) error {
	if code == C.LONGSTRAW_OK {
		return nil
	}
	return &Error{Op: op, Value: value, Code: int(code), kind: kindOf(code)}
}

// checkWith is check with the C library's message for the failure (from
// withMessage), which replaces the code's generic text when there is one.
func checkWith(code C.longstraw_result, op, value, message string) error {
	err := check(code, op, value)
	if e, ok := err.(*Error); ok {
		e.reason = message
	}
	return err
}
