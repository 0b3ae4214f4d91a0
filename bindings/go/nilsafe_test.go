package longstraw

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// fmtState is a fmt.State for calling Format by reflection.
type fmtState struct{ bytes.Buffer }

func (*fmtState) Width() (int, bool)     { return 0, false }
func (*fmtState) Precision() (int, bool) { return 0, false }
func (*fmtState) Flag(int) bool          { return false }

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// TestEveryMethodIsNilSafe calls every exported method of every exported
// type, found by reflection (so a method added later is covered without
// editing this test), on a nil pointer and on a zero value, with zero
// arguments: none may panic, and each one that returns an error returns an
// ErrInvalidArgument that says how to make the value.
func TestEveryMethodIsNilSafe(t *testing.T) {
	cases := []struct {
		name    string
		value   any
		ctor    string // what the error names; "" for types without errors
		atLeast int    // methods expected, so that the test cannot pass empty
	}{
		{"nil *Rendezvous", (*Rendezvous)(nil), "create it with New", 38},
		{"zero Rendezvous", &Rendezvous{}, "create it with New", 38},
		{"nil *Snapshot", (*Snapshot)(nil), "create it with Rendezvous.Snapshot", 30},
		{"zero Snapshot", &Snapshot{}, "create it with Rendezvous.Snapshot", 30},
		{"nil *Bounded", (*Bounded)(nil), "create it with NewBounded", 10},
		{"zero Bounded", &Bounded{}, "create it with NewBounded", 10},
		{"nil *Error", (*Error)(nil), "", 2},
		{"nil *FileError", (*FileError)(nil), "", 2},
		{"an unknown Mode", Mode(99), "", 1},
	}
	// Every exported type of the package is here, or has no methods.
	covered := map[string]bool{"Option": true, "SaveOption": true, "NodeLoad": true}
	for _, c := range cases {
		covered[strings.TrimPrefix(reflect.TypeOf(c.value).String(), "*longstraw.")] = true
		covered[strings.TrimPrefix(reflect.TypeOf(c.value).String(), "longstraw.")] = true
	}
	for _, name := range exportedTypes(t) {
		if !covered[name] {
			t.Errorf("exported type %s is not checked here", name)
		}
	}
	for _, c := range cases {
		v := reflect.ValueOf(c.value)
		if n := v.Type().NumMethod(); n < c.atLeast {
			t.Errorf("%s: %d exported methods, expected at least %d", c.name, n, c.atLeast)
		}
		for i := 0; i < v.Type().NumMethod(); i++ {
			m := v.Type().Method(i)
			ft := m.Func.Type() // the receiver is argument 0
			args := make([]reflect.Value, 0, ft.NumIn()-1)
			for a := 1; a < ft.NumIn(); a++ {
				if ft.In(a) == reflect.TypeOf((*interface {
					Write([]byte) (int, error)
					Width() (int, bool)
					Precision() (int, bool)
					Flag(int) bool
				})(nil)).Elem() || ft.In(a).Name() == "State" {
					args = append(args, reflect.ValueOf(&fmtState{}))
					continue
				}
				args = append(args, reflect.Zero(ft.In(a)))
			}
			var out []reflect.Value
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s.%s panicked: %v", c.name, m.Name, p)
					}
				}()
				if ft.IsVariadic() {
					out = v.Method(i).CallSlice(args)
				} else {
					out = v.Method(i).Call(args)
				}
			}()
			if out == nil || c.ctor == "" || ft.NumOut() == 0 || ft.Out(ft.NumOut()-1) != errorType {
				continue
			}
			err, _ := out[len(out)-1].Interface().(error)
			if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), c.ctor) ||
				!strings.Contains(err.Error(), m.Name) {
				t.Errorf("%s.%s: error %v, want an ErrInvalidArgument naming %s and %q", c.name, m.Name, err, m.Name, c.ctor)
			}
		}
	}
}

// A Snapshot has every method of a Rendezvous, with the same signature,
// except those that change the set or make something from it.
func TestSnapshotHasEveryLookup(t *testing.T) {
	set, snap := reflect.TypeOf(&Rendezvous{}), reflect.TypeOf(&Snapshot{})
	setOnly := map[string]bool{"Add": true, "AddInDomain": true, "Remove": true, "SetWeight": true,
		"SetDomain": true, "Save": true, "Snapshot": true}
	for i := 0; i < set.NumMethod(); i++ {
		m := set.Method(i)
		other, ok := snap.MethodByName(m.Name)
		switch {
		case setOnly[m.Name] && ok:
			t.Errorf("Snapshot has %s, which changes or derives from a set", m.Name)
		case setOnly[m.Name]:
		case !ok:
			t.Errorf("Snapshot lacks %s", m.Name)
		case m.Type.NumIn() != other.Type.NumIn() || m.Type.String()[len("func(*longstraw.Rendezvous"):] !=
			other.Type.String()[len("func(*longstraw.Snapshot"):]:
			t.Errorf("%s: Rendezvous %s, Snapshot %s", m.Name, m.Type, other.Type)
		}
	}
	for i := 0; i < snap.NumMethod(); i++ {
		if _, ok := set.MethodByName(snap.Method(i).Name); !ok && snap.Method(i).Name != "Close" {
			t.Errorf("Snapshot has %s, which Rendezvous lacks", snap.Method(i).Name)
		}
	}
}

// exportedTypes lists the exported types declared in the package's own
// (non-test) files.
func exportedTypes(t *testing.T) []string {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
					for _, spec := range g.Specs {
						if name := spec.(*ast.TypeSpec).Name.Name; ast.IsExported(name) {
							names = append(names, name)
						}
					}
				}
			}
		}
	}
	if len(names) < 6 {
		t.Fatalf("found only %d exported types: %v", len(names), names)
	}
	return names
}
