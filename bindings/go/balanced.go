package longstraw

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
