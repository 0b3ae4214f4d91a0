package longstraw

import (
	"errors"
	"runtime"
	"sync/atomic"
)

// ErrClosed is the kind of error a method returns after Close.
var ErrClosed = errors.New("set is closed")

// Why Close exists: a set's node storage, and a Table's rows (4 bytes per
// partition and replica, 64 MB at 2^24 partitions), live in C memory. Go's
// garbage collector paces itself by the Go heap only, and a set's Go side is a
// few hundred bytes, so dropped sets are collected (and their finalizers free
// the C memory) late or never: 100 dropped 16 MB tables reached 966 MB RSS
// with no collection. Close frees the C memory at once; finalizers remain the
// fallback for sets that are never closed.

// Close frees the set's C memory now rather than whenever the garbage
// collector runs its finalizer. It is idempotent and safe to call while other
// goroutines use the set: lookups already running finish on the membership
// they started with (its memory is freed when the last of them returns), and
// every later lookup or change fails with ErrClosed. After Close, Len is 0 and
// Nodes and Domains are empty.
//
// Snapshots taken before Close stay usable until they are closed themselves.
func (r *Rendezvous) Close() error {
	if !r.usable() {
		return unusable("Close", "Rendezvous")
	}
	r.writer.Lock()
	defer r.writer.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if old := r.view.Swap(closedView); old != nil {
		old.retire()
	}
	r.h.free()
	return nil
}

// viewUse counts the lookups using a view's C snapshot. A view is retired when
// a change or Close replaces it; its snapshot is freed once it is retired and
// no lookup uses it, whichever comes last.
type viewUse struct {
	state atomic.Int64 // lookups in flight, plus retiredBit once retired
	freed atomic.Bool
}

const retiredBit = int64(1) << 62

// closedView is what a closed set points at: no nodes, and retired, so every
// acquire fails.
var closedView = func() *view {
	v := &view{info: noInfo}
	v.use.state.Store(retiredBit)
	v.use.freed.Store(true)
	return v
}()

// acquire counts one more user unless the view is retired. (A plain Add
// followed by an undo would let the count pass through "retired and unused"
// twice, freeing the snapshot twice.)
func (v *view) acquire() bool {
	for {
		n := v.use.state.Load()
		if n&retiredBit != 0 {
			return false
		}
		if v.use.state.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (v *view) release() {
	if v.use.state.Add(-1) == retiredBit {
		v.freeSnapshot()
	}
}

// retire marks the view replaced; called once per view, under the writer lock.
func (v *view) retire() {
	if v.use.state.Add(retiredBit) == retiredBit {
		v.freeSnapshot()
	}
}

func (v *view) freeSnapshot() {
	if v.use.freed.CompareAndSwap(false, true) {
		snapFree(v.snap)
		runtime.SetFinalizer(v, nil)
	}
}

// finalize frees the snapshot of a view that was never retired (its set was
// dropped without Close). An unreachable view has no lookup in flight.
func (v *view) finalize() {
	if v.use.freed.CompareAndSwap(false, true) {
		snapFree(v.snap)
	}
}

func closedError(op string) error {
	// The C library reports a freed handle as a NULL argument; Error()
	// describes it in Go's terms.
	return &Error{Op: op, Code: int(resultNullArgument), kind: ErrClosed}
}
