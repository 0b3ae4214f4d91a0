package longstraw

/*
#include <stdint.h>
#include "longstraw.h"
*/
import "C"

import (
	"fmt"
	"math"
)

// WithBalance makes a Table balanced (SPEC.md section 17): at each replica
// rank no node holds more than ceil(balance * P * w / W) partitions, for P
// partitions and total weight W. balance is 1.0 to 4.0, held to millionths.
// Lists (TopK) then stop at the stored replicas, and every Add, Remove or
// SetWeight places every partition again (the plain ranking underneath is
// patched incrementally, so no pair is scored twice). It cannot be combined with
// WithDistinctDomains. NewTable only.
func WithBalance(balance float64) Option {
	return func(o *options) { o.balance = &balance }
}

// newBalancedTable makes a balanced table; the C library refuses flags it
// cannot combine with a balance (LONGSTRAW_CONFLICTING_OPTIONS, in its own
// words), and a balance of 0, which longstraw_table_new_with_balance would
// read as "no balance", goes to longstraw_table_new_balanced to be refused.
func newBalancedTable(members *C.longstraw_snapshot, bits C.uint8_t, replicas C.size_t, flags C.uint32_t,
	balance float64, out **C.longstraw_table) C.longstraw_result {
	if balance == 0 {
		return C.longstraw_table_new_balanced(members, bits, replicas, C.double(balance), out)
	}
	return C.longstraw_table_new_with_balance(members, bits, replicas, flags, C.double(balance), out)
}

// balanceNote names the balance in an error's value, when one was given.
func balanceNote(balance *float64) string {
	switch {
	case balance == nil:
		return ""
	case math.IsNaN(*balance):
		return ", balance NaN"
	default:
		return fmt.Sprintf(", balance %v", *balance)
	}
}
