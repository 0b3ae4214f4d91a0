package longstraw

import (
	"fmt"
	"strings"
)

// SaveOption names where a keyed set's secret comes from when Save writes
// it; see Save.
type SaveOption func(*saveOptions)

type saveOptions struct {
	file, env *string
}

// SecretFile names a file that holds the secret (32 hexadecimal digits) as
// the saved file's secret source. A relative path is read relative to the
// saved file's folder when the file is loaded.
func SecretFile(path string) SaveOption {
	return func(o *saveOptions) { o.file = &path }
}

// SecretEnv names an environment variable that holds the secret as the
// saved file's secret source.
func SecretEnv(name string) SaveOption {
	return func(o *saveOptions) { o.env = &name }
}

// Save writes the set's current membership as a membership file (to a
// temporary file, then renamed). The file pins the seed, the placement
// version and the mode's shape, so loading it gives the same placement.
//
// A keyed set's file names where its secret comes from, never the secret:
// SecretFile or SecretEnv names it (give at most one); without either, a set
// loaded from a keyed file names the source that file named, and a keyed set
// built WithSecret fails (ErrBadFile) because no source is known. Naming a
// source for an unkeyed set fails too.
func (r *Rendezvous) Save(path string, opts ...SaveOption) error {
	if !r.usable() {
		return unusable("Save", "Rendezvous")
	}
	var o saveOptions
	for _, opt := range opts {
		opt(&o)
	}
	if err := checkPath("Save", path); err != nil {
		return err
	}
	if o.file != nil {
		if err := checkPath("Save", *o.file); err != nil {
			return err
		}
	}
	if o.env != nil && strings.IndexByte(*o.env, 0) >= 0 {
		return &FileError{Op: "Save", Message: "secret: the environment variable name contains a NUL byte"}
	}
	// The writer lock keeps Close from freeing the C set during the call.
	r.writer.Lock()
	defer r.writer.Unlock()
	if r.closed {
		return closedError("Save")
	}
	code, message := r.h.saveFile(path, o.file, o.env)
	return fileError("Save", path, code, message)
}

// checkPath refuses a path with a NUL byte, which C would silently cut there
// (so that another file would be read or written).
func checkPath(op, path string) error {
	if strings.IndexByte(path, 0) >= 0 {
		return &FileError{Op: op, Message: fmt.Sprintf("%s: path contains a NUL byte", shown(path))}
	}
	return nil
}
