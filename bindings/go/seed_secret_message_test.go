package longstraw

import (
	"errors"
	"strings"
	"testing"
)

// The set's words for a seed given with a secret (longstraw::Error::SeedWithSecret
// in core/src/error.rs): every language shows this same text.
const seedWithSecretText = "give either a seed (placement v1) or a secret (keyed-v1), not both: a keyed set has no seed"

func TestSeedWithSecretIsTheLibrarysRefusal(t *testing.T) {
	secret := []byte("SECRETqzSECRETqz")
	constructors := map[string]func(opts ...Option) error{
		"New":         func(opts ...Option) error { _, err := New([]string{"a", "b"}, opts...); return err },
		"NewTable":    func(opts ...Option) error { _, err := NewTable([]string{"a", "b"}, opts...); return err },
		"NewSkeleton": func(opts ...Option) error { _, err := NewSkeleton([]string{"a", "b"}, opts...); return err },
		"NewBounded": func(opts ...Option) error {
			_, err := NewBounded([]string{"a", "b"}, DefaultBalanceFactor, opts...)
			return err
		},
	}
	for name, build := range constructors {
		for _, seed := range []uint64{0, 7} {
			err := build(WithSeed(seed), WithSecret(secret))
			if !errors.Is(err, ErrConflictingOptions) {
				t.Errorf("%s(WithSeed(%d), WithSecret): %v, want ErrConflictingOptions", name, seed, err)
				continue
			}
			text := err.Error()
			if !strings.HasSuffix(text, ": "+seedWithSecretText) {
				t.Errorf("%s(WithSeed(%d), WithSecret): %q does not end with the library's text", name, seed, text)
			}
			if strings.Contains(text, "SECR") || strings.Contains(text, "ETqz") {
				t.Errorf("%s: the error shows the secret: %q", name, text)
			}
		}
		if err := build(WithSecret(secret)); err != nil {
			t.Errorf("%s(WithSecret): %v", name, err)
		}
	}
}
