package longstraw

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
		msg = resultStr(result(e.Code))
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

func kindOf(code result) error {
	switch code {
	case resultInvalidNodeID:
		return ErrInvalidNodeID
	case resultInvalidWeight:
		return ErrInvalidWeight
	case resultDuplicateNode:
		return ErrDuplicateNode
	case resultUnknownNode:
		return ErrUnknownNode
	case resultHashCollision:
		return ErrHashCollision
	case resultNoEligibleNode:
		return ErrNoEligibleNode
	case resultTooManyNodes:
		return ErrTooManyNodes
	case resultUnknownPlacement:
		return ErrUnknownPlacement
	case resultBackendUnavailable:
		return ErrBackendUnavailable
	case resultInvalidParameter:
		return ErrInvalidParameter
	case resultInvalidDomain:
		return ErrInvalidDomain
	case resultInvalidSecret:
		return ErrInvalidSecret
	case resultConflictingOptions:
		return ErrConflictingOptions
	case resultOutOfMemory:
		return ErrOutOfMemory
	case resultWrongMode:
		return ErrInvalidArgument
	case resultNullArgument, resultMisalignedPointer, resultIndexOutOfRange,
		resultBufferTooSmall, resultLengthMismatch, resultBadOffsets:
		// The binding builds every pointer and length itself, so these are
		// bugs here, reported as such rather than blamed on the caller.
		return ErrInternal
	default:
		return ErrInternal
	}
}

// check turns a C result into nil or an *Error.
func check(code result, op, value string) error {
	if code == resultOK {
		return nil
	}
	return &Error{Op: op, Value: value, Code: int(code), kind: kindOf(code)}
}

// checkWith is check with the C library's message for the failure (from
// withMessage), which replaces the code's generic text when there is one.
func checkWith(code result, op, value, message string) error {
	err := check(code, op, value)
	if e, ok := err.(*Error); ok {
		e.reason = message
	}
	return err
}
