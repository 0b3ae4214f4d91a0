package longstraw

import (
	"fmt"
	"unicode/utf8"
)

// checkShapeOptions refuses the values the C library would silently read as
// "default": LONGSTRAW_AUTO (255), which WithPartitionBits and WithShape
// could otherwise pass straight through, and a balance of 0 (a plain table). Every other out-of-range value is
// the C library's to refuse, with the same error.
func checkShapeOptions(op string, o options) error {
	if o.partitionBits != nil && *o.partitionBits == cAuto {
		return &Error{Op: op, Value: fmt.Sprintf("WithPartitionBits(%d)", *o.partitionBits),
			Code: int(resultInvalidParameter), kind: ErrInvalidParameter,
			reason: fmt.Sprintf("partition bits must be 0 to %d (leave the option out for the default)", cMaxPartitionBits)}
	}
	if o.balance != nil && *o.balance == 0 {
		return &Error{Op: op, Value: "WithBalance(0)", Code: int(resultInvalidParameter), kind: ErrInvalidParameter,
			reason: "balance must be 1.0 to 4.0 (leave the option out for a plain table)"}
	}
	if o.shape != nil && (o.shape[0] == cAuto || o.shape[1] == cAuto) {
		return &Error{Op: op, Value: fmt.Sprintf("WithShape(%d, %d)", o.shape[0], o.shape[1]),
			Code: int(resultInvalidParameter), kind: ErrInvalidParameter,
			reason: "skeleton shape out of range: levels 0 to 5, fanout bits 1 to 6 (0 to 6 when levels is 0); leave the option out for the default"}
	}
	return nil
}

// shownLimit is how many bytes of an id or label an error message quotes,
// as in the other bindings (a 64 KiB id must not become a 64 KiB message).
const shownLimit = 60

// shown quotes an id or label for an error message, cut after shownLimit
// bytes (at a rune boundary) with its full length noted.
func shown(s string) string {
	if len(s) <= shownLimit {
		return fmt.Sprintf("%q", s)
	}
	cut := shownLimit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
}

// unusable is the error of a method called on a nil or zero-value set.
func unusable(op, typ string) error {
	ctor := map[string]string{"Rendezvous": "New, NewTable, NewSkeleton, Load or LoadBytes",
		"Snapshot": "Rendezvous.Snapshot", "Bounded": "NewBounded"}[typ]
	return &Error{Op: op, Code: int(resultNullArgument), kind: ErrInvalidArgument,
		reason: fmt.Sprintf("called on a nil or zero-value *%s; create it with %s", typ, ctor)}
}
