package longstraw

/*
#include <stdint.h>
#include "longstraw.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// DefaultBalanceFactor is the usual balance factor c for NewBounded.
const DefaultBalanceFactor = 1.25

// Bounded places requests, not keys: each node takes at most
// ceil(c * (in-flight + 1) * weight / total weight) requests at once, and a
// request whose owner is full goes to the next node of the key's ranking
// (SPEC.md section 16). When the owner has room, Acquire returns the owner,
// exactly as Rendezvous.Owner would.
//
// A Bounded is safe for concurrent use; Acquire and release take no lock.
type Bounded struct {
	h *boundedHandle
}

type boundedHandle struct {
	p *C.longstraw_bounded
}

// NewBounded creates a bounded-load set with balance factor balanceFactor
// (c: finite and at least 1 + 2^-16; DefaultBalanceFactor is the usual
// choice). It takes WithSeed or WithSecret (keyed placement, as for New),
// WithPlacement and WithWeights.
func NewBounded(nodes []string, balanceFactor float64, opts ...Option) (*Bounded, error) {
	o, err := buildOptions("NewBounded", opts)
	if err != nil {
		return nil, err
	}
	if err := checkHashing("NewBounded", o); err != nil {
		return nil, err
	}
	if o.domains != nil {
		return nil, &Error{Op: "NewBounded", Value: "WithDomains (an option of another constructor)",
			Code: int(C.LONGSTRAW_INVALID_PARAMETER), kind: ErrInvalidArgument}
	}
	h := &boundedHandle{}
	code := newCBounded(o, balanceFactor, &h.p)
	if err := check(code, "NewBounded", fmt.Sprintf("balance factor %v %s", balanceFactor, describeHashing(o))); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, func(h *boundedHandle) { C.longstraw_bounded_free(h.p) })
	for id := range o.weights {
		if !contains(nodes, id) {
			return nil, &Error{Op: "NewBounded", Value: fmt.Sprintf("%q", id), Code: int(C.LONGSTRAW_UNKNOWN_NODE), kind: ErrUnknownNode}
		}
	}
	b := &Bounded{h: h}
	for _, id := range nodes {
		w, ok := o.weights[id]
		if !ok {
			w = 1
		}
		if err := b.Add(id, w); err != nil {
			err.(*Error).Op = "NewBounded"
			return nil, err
		}
	}
	return b, nil
}

// IsKeyed reports whether keys are placed by keyed-v1 (the set was built
// WithSecret); false for a nil or zero-value *Bounded.
func (b *Bounded) IsKeyed() bool {
	if b.unusable() {
		return false
	}
	var snap *C.longstraw_snapshot
	var count C.size_t
	if C.longstraw_bounded_loads(b.h.p, &snap, nil, 0, &count) != C.LONGSTRAW_OK {
		return false
	}
	runtime.KeepAlive(b.h)
	defer C.longstraw_snapshot_free(snap)
	var keyed C.uint32_t
	if C.longstraw_snapshot_is_keyed(snap, &keyed) != C.LONGSTRAW_OK {
		return false
	}
	return keyed != 0
}

// unusable reports a nil *Bounded or a zero value (not made by NewBounded):
// every method then returns an ErrInvalidArgument (InFlight returns 0)
// instead of panicking.
func (b *Bounded) unusable() bool { return b == nil || b.h == nil || b.h.p == nil }

func contains(nodes []string, id string) bool {
	for _, n := range nodes {
		if n == id {
			return true
		}
	}
	return false
}

// lease is one request in flight. Its finalizer releases a lease the caller
// forgot, so a leak costs a place only until the next garbage collection.
type lease struct {
	p        *C.longstraw_lease
	released atomic.Bool
}

func (l *lease) release() {
	if l.released.CompareAndSwap(false, true) {
		C.longstraw_bounded_release(l.p)
		runtime.SetFinalizer(l, nil)
	}
}

// Acquire places one request for key and returns the node to send it to and
// the function that ends it. Call release exactly when the request is over
// (calling it again does nothing). The error is ErrNoEligibleNode when the
// set is empty or every node is drained.
func (b *Bounded) Acquire(key string) (node string, release func(), err error) {
	if b.unusable() {
		return "", nil, unusable("Acquire", "Bounded")
	}
	return b.acquire(strPtr(key), len(key), key)
}

// AcquireBytes is Acquire for a key given as bytes; the key is not copied.
func (b *Bounded) AcquireBytes(key []byte) (node string, release func(), err error) {
	if b.unusable() {
		return "", nil, unusable("AcquireBytes", "Bounded")
	}
	return b.acquire(bytesPtr(key), len(key), key)
}

func (b *Bounded) acquire(key *C.uint8_t, keyLen int, keep any) (string, func(), error) {
	l := &lease{}
	var id *C.uint8_t
	var idLen C.size_t
	code := C.longstraw_bounded_acquire(b.h.p, key, C.size_t(keyLen), &l.p, &id, &idLen)
	runtime.KeepAlive(b.h)
	runtime.KeepAlive(keep)
	if code != C.LONGSTRAW_OK {
		return "", nil, check(code, "Acquire", "")
	}
	node := C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen))
	runtime.SetFinalizer(l, (*lease).release)
	return node, l.release, nil
}

// NodeLoad is one node's requests in flight (Bounded.Loads).
type NodeLoad struct {
	Node     string
	InFlight int
}

// Loads reports the requests in flight on every current node, in node order
// (the order nodes were added), for metrics. Requests on nodes removed since
// they started count in InFlight only.
func (b *Bounded) Loads() ([]NodeLoad, error) {
	if b.unusable() {
		return nil, unusable("Loads", "Bounded")
	}
	for {
		var snap *C.longstraw_snapshot
		var count C.size_t
		if err := check(C.longstraw_bounded_loads(b.h.p, &snap, nil, 0, &count), "Loads", ""); err != nil {
			return nil, err
		}
		C.longstraw_snapshot_free(snap)
		loads := make([]uint64, int(count)+8)
		if err := check(C.longstraw_bounded_loads(b.h.p, &snap, (*C.uint64_t)(unsafe.Pointer(&loads[0])),
			C.size_t(len(loads)), &count), "Loads", ""); err != nil {
			return nil, err
		}
		runtime.KeepAlive(b.h)
		if int(count) > len(loads) {
			// Nodes were added between the two calls; ask again.
			C.longstraw_snapshot_free(snap)
			continue
		}
		out := make([]NodeLoad, int(count))
		for i := range out {
			var id *C.uint8_t
			var idLen C.size_t
			var weight C.double
			if err := check(C.longstraw_snapshot_node(snap, C.uint32_t(i), &id, &idLen, &weight), "Loads", ""); err != nil {
				C.longstraw_snapshot_free(snap)
				return nil, err
			}
			out[i] = NodeLoad{Node: C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen)), InFlight: int(loads[i])}
		}
		C.longstraw_snapshot_free(snap)
		return out, nil
	}
}

// InFlight is the number of requests in flight on all nodes, including nodes
// removed since their requests started (0 for a nil or zero-value *Bounded).
func (b *Bounded) InFlight() uint64 {
	if b.unusable() {
		return 0
	}
	var n C.uint64_t
	C.longstraw_bounded_in_flight(b.h.p, &n)
	runtime.KeepAlive(b.h)
	return uint64(n)
}

// Add adds a node with the given weight.
func (b *Bounded) Add(id string, weight float64) error {
	if b.unusable() {
		return unusable("Add", "Bounded")
	}
	code := C.longstraw_bounded_add(b.h.p, strPtr(id), C.size_t(len(id)), C.double(weight))
	runtime.KeepAlive(b.h)
	runtime.KeepAlive(id)
	return check(code, "Add", fmt.Sprintf("%q", id))
}

// Remove removes a node. Its requests in flight end normally when released.
func (b *Bounded) Remove(id string) error {
	if b.unusable() {
		return unusable("Remove", "Bounded")
	}
	code := C.longstraw_bounded_remove(b.h.p, strPtr(id), C.size_t(len(id)))
	runtime.KeepAlive(b.h)
	runtime.KeepAlive(id)
	return check(code, "Remove", fmt.Sprintf("%q", id))
}

// SetWeight changes a node's weight; 0 drains it (no new requests, and its
// requests in flight run out).
func (b *Bounded) SetWeight(id string, weight float64) error {
	if b.unusable() {
		return unusable("SetWeight", "Bounded")
	}
	code := C.longstraw_bounded_set_weight(b.h.p, strPtr(id), C.size_t(len(id)), C.double(weight))
	runtime.KeepAlive(b.h)
	runtime.KeepAlive(id)
	return check(code, "SetWeight", fmt.Sprintf("%q", id))
}
