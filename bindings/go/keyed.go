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

// cOptions is the C library's defaults for every set-wide option.
func cOptions() C.longstraw_options {
	var co C.longstraw_options
	C.longstraw_options_init(&co, C.size_t(unsafe.Sizeof(co)))
	return co
}

// newCRendezvous creates the empty flat C set the options describe: keyed
// with the secret, or v1 with the seed. A seed given with a secret (even 0)
// is refused by the C library, in its own words (see withMessage).
func newCRendezvous(o options, out **C.longstraw_rendezvous) C.longstraw_result {
	co := cOptions()
	if o.seedGiven {
		co.has_seed = 1
	}
	co.seed = C.uint64_t(o.seed)
	co.placement = C.uint32_t(o.placement)
	co.secret, co.secret_len = secretArg(o)
	// The options struct holds a pointer to the secret's Go memory while C
	// reads it, so that memory is pinned for the call.
	var pin runtime.Pinner
	defer pin.Unpin()
	if co.secret != nil {
		pin.Pin(co.secret)
	}
	return C.longstraw_rendezvous_new(&co, out)
}

// withMessage runs one C call and, when it fails, reads the C library's
// message for it on the same OS thread.
func withMessage(call func() C.longstraw_result) (C.longstraw_result, string) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	code := call()
	if code != C.LONGSTRAW_OK {
		return code, C.GoString(C.longstraw_last_error_message())
	}
	return code, ""
}

// checkHashing asks the C library whether the options' hashing (seed,
// secret, placement) makes a set, for a constructor whose C function takes
// them another way: the one rule and its message stay the library's.
func checkHashing(op string, o options) error {
	h := &handle{}
	code, message := withMessage(func() C.longstraw_result { return newCRendezvous(o, &h.p) })
	if code == C.LONGSTRAW_OK {
		h.free()
		return nil
	}
	return checkWith(code, op, describeHashing(o), message)
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
