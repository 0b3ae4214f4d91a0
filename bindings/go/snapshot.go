package longstraw

import "sync/atomic"

// Snapshot is an immutable view of a set's membership at one moment, of the
// set's mode: the same lookups and accessors as the set, answered on the
// membership it was taken from, whatever changes the set sees later. Its
// methods are safe for concurrent use.
//
// A snapshot holds its own reference to the C membership. Close releases it
// at once; a snapshot that is never closed releases it when the garbage
// collector finds it unreachable.
type Snapshot struct {
	v      *view
	closed atomic.Bool
}

// Snapshot returns an immutable view of the set's current membership. It
// fails with ErrClosed after Close.
func (r *Rendezvous) Snapshot() (*Snapshot, error) {
	if !r.usable() {
		return nil, unusable("Snapshot", "Rendezvous")
	}
	r.writer.Lock()
	defer r.writer.Unlock()
	if r.closed {
		return nil, closedError("Snapshot")
	}
	// The current view is the set's membership (every change refreshes it
	// under this lock): share its decoded nodes, and take a C snapshot of
	// our own, which the snapshot frees when it is done.
	cur := r.view.Load()
	v, err := r.newViewOf(cur)
	if err != nil {
		return nil, err
	}
	return &Snapshot{v: v}, nil
}

// Close releases the snapshot's membership now rather than when the garbage
// collector finds the snapshot unreachable. It is idempotent and safe to
// call while other goroutines use the snapshot: lookups already running
// finish, and every later lookup fails with ErrClosed. After Close, Len is 0
// and Nodes, Weights and Domains are empty.
func (s *Snapshot) Close() error {
	if s == nil || s.v == nil {
		return unusable("Close", "Snapshot")
	}
	if s.closed.CompareAndSwap(false, true) {
		s.v.retire()
	}
	return nil
}

func (s *Snapshot) acquire(op string) (*view, error) {
	if s == nil || s.v == nil {
		return nil, unusable(op, "Snapshot")
	}
	if !s.v.acquire() {
		return nil, closedError(op)
	}
	return s.v, nil
}

func (s *Snapshot) current() *view {
	switch {
	case s == nil || s.v == nil:
		return emptyView
	case s.closed.Load():
		return closedView
	}
	return s.v
}

func (s *Snapshot) fixed() *setInfo {
	if s == nil || s.v == nil {
		return noInfo
	}
	return s.v.info
}
