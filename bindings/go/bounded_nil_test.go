package longstraw

import (
	"github.com/longstraw/longstraw/bindings/go/internal/testfs"

	"errors"
	"strings"
	"testing"
)

// Every method of a nil or zero-value *Bounded returns ErrInvalidArgument
// (InFlight 0) that says how to make one, instead of panicking.
func TestNilAndZeroBounded(t *testing.T) {
	var zero Bounded
	for name, b := range map[string]*Bounded{"nil": nil, "zero value": &zero} {
		check := func(method string, err error) {
			t.Helper()
			if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "create it with NewBounded") ||
				!strings.Contains(err.Error(), method) {
				t.Errorf("%s *Bounded: %s: %v", name, method, err)
			}
		}
		node, release, err := b.Acquire("k")
		check("Acquire", err)
		if node != "" || release != nil {
			t.Errorf("%s: Acquire returned %q, %v", name, node, release != nil)
		}
		node, release, err = b.AcquireBytes([]byte("k"))
		check("AcquireBytes", err)
		if node != "" || release != nil {
			t.Errorf("%s: AcquireBytes returned %q, %v", name, node, release != nil)
		}
		loads, err := b.Loads()
		check("Loads", err)
		if loads != nil {
			t.Errorf("%s: Loads returned %v", name, loads)
		}
		check("Add", b.Add("a", 1))
		check("Remove", b.Remove("a"))
		check("SetWeight", b.SetWeight("a", 2))
		if b.IsKeyed() {
			t.Errorf("%s: IsKeyed true", name)
		}
		if n := b.InFlight(); n != 0 {
			t.Errorf("%s: InFlight %d", name, n)
		}
	}
}

// IsKeyed, Save and Close on nil and zero-value sets fail quietly too.
func TestNilAndZeroSetsSaveAndClose(t *testing.T) {
	var r Rendezvous
	var nr *Rendezvous
	for name, s := range map[string]*Rendezvous{"zero Rendezvous": &r, "nil Rendezvous": nr} {
		if s.IsKeyed() {
			t.Errorf("%s: IsKeyed true", name)
		}
		if err := s.Save(testfs.TempDir(t) + "/x.toml"); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: Save: %v", name, err)
		}
		if err := s.Close(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: Close: %v", name, err)
		}
		if b, ok := s.Balance(); b != 0 || ok {
			t.Errorf("%s: Balance %v %v", name, b, ok)
		}
	}
}
