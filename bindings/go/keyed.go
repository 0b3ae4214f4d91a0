package longstraw

// Keyed placement (keyed-v1, docs/SPEC.md §15): a set built WithSecret hashes
// keys and node ids with SipHash-2-4 under the secret, so that whoever chooses
// keys cannot steer them onto one node (docs/THREAT-MODEL.md).

import "fmt"

// SecretLen is the length of a keyed-v1 secret in bytes (128 bits).
const SecretLen = cSecretLen

// WithSecret selects keyed placement (keyed-v1) with a secret of exactly
// SecretLen uniformly random bytes (crypto/rand). Every user of one cluster
// must use the same secret. It excludes WithSeed. The bytes are copied into
// the C set and appear in no error, String or %v output of this package.
func WithSecret(secret []byte) Option {
	held := append([]byte{}, secret...)
	return func(o *options) { o.secret = held }
}

// hashingOptions is the C options of the empty flat set o describes: keyed
// with the secret, or v1 with the seed. A seed given with a secret (even 0)
// is refused by the C library, in its own words.
func hashingOptions(o options) setOptions {
	co := defaultSetOptions()
	co.hasSeed = o.seedGiven
	co.seed = o.seed
	co.placement = o.placement
	co.secret = o.secret
	return co
}

// newCRendezvous creates the empty flat C set the options describe, with
// the library's message on failure.
func newCRendezvous(o options) (*handle, result, string) {
	co := hashingOptions(o)
	return newSetHandle(&co)
}

// checkHashing asks the C library whether the options' hashing (seed,
// secret, placement) makes a set, for a constructor whose C function takes
// them another way: the one rule and its message stay the library's.
func checkHashing(op string, o options) error {
	h, code, message := newCRendezvous(o)
	if code == resultOK {
		h.free()
		return nil
	}
	return checkWith(code, op, describeHashing(o), message)
}

// describeHashing names what a failed constructor was given, never the
// secret's bytes.
func describeHashing(o options) string {
	if o.secret != nil {
		return fmt.Sprintf("(secret of %d bytes, placement %d)", len(o.secret), o.placement)
	}
	return fmt.Sprintf("(placement %d)", o.placement)
}
