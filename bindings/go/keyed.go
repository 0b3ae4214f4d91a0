package longstraw

// Keyed placement (keyed-v1, docs/SPEC.md §15): a set built WithSecret hashes
// keys and node ids with SipHash-2-4 under the secret, so that whoever chooses
// keys cannot steer them onto one node (docs/THREAT-MODEL.md).

/*
#include <stdint.h>
#include "longstraw.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// SecretLen is the length of a keyed-v1 secret in bytes (128 bits).
const SecretLen = C.LONGSTRAW_SECRET_LEN

// WithSecret selects keyed placement (keyed-v1) with a secret of exactly
// SecretLen uniformly random bytes (crypto/rand). Every user of one cluster
// must use the same secret. It excludes WithSeed. The bytes are copied into
// the C set and appear in no error, String or %v output of this package.
func WithSecret(secret []byte) Option {
	held := append([]byte{}, secret...)
	return func(o *options) { o.secret = held }
}

// checkSecretOptions refuses a seed next to a secret (even an explicit 0):
// a keyed set has no seed, and picking one of the two silently would place
// keys differently from what the caller asked.
func checkSecretOptions(op string, o options) error {
	if o.secret != nil && o.seedGiven {
		return &Error{Op: op, Value: "WithSeed together with WithSecret (give one of them)",
			Code: int(C.LONGSTRAW_INVALID_PARAMETER), kind: ErrInvalidArgument}
	}
	return nil
}

// secretArg is the secret as the C library takes it: (NULL, 0) for none; an
// empty secret is a length error there, not "none".
func secretArg(o options) (*C.uint8_t, C.size_t) {
	switch {
	case o.secret == nil:
		return nil, 0
	case len(o.secret) == 0:
		return (*C.uint8_t)(unsafe.Pointer(&noBytes[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(&o.secret[0])), C.size_t(len(o.secret))
}

var noBytes [1]byte

// newCRendezvous creates the empty flat C set the options describe: keyed
// with the secret, or v1 with the seed.
func newCRendezvous(o options, out **C.longstraw_rendezvous) C.longstraw_result {
	secret, secretLen := secretArg(o)
	defer runtime.KeepAlive(o.secret)
	return C.longstraw_rendezvous_new(C.uint64_t(o.seed), secret, secretLen, C.uint32_t(o.placement), out)
}

// newCBounded creates the empty C bounded-load set the options describe,
// keyed or v1 as newCRendezvous does.
func newCBounded(o options, balanceFactor float64, out **C.longstraw_bounded) C.longstraw_result {
	secret, secretLen := secretArg(o)
	defer runtime.KeepAlive(o.secret)
	return C.longstraw_bounded_new(C.uint64_t(o.seed), secret, secretLen, C.uint32_t(o.placement), C.double(balanceFactor), out)
}

// describeHashing names what a failed constructor was given, never the
// secret's bytes.
func describeHashing(o options) string {
	if o.secret != nil {
		return fmt.Sprintf("(secret of %d bytes, placement %d)", len(o.secret), o.placement)
	}
	return fmt.Sprintf("(placement %d)", o.placement)
}
