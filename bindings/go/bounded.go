package longstraw

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

// DefaultBalanceFactor is the usual balance factor c for NewBounded.
const DefaultBalanceFactor = 1.25

// Bounded places requests, not keys: each node takes at most
// ceil(c * (in-flight + 1) * weight / total weight) requests at once, and a
// request whose owner is full goes to the next node of the key's ranking
// (SPEC.md section 16). When the owner has room, Acquire returns the owner,
// exactly as Rendezvous.Owner would.
//
// A Bounded is safe for concurrent use; Acquire and release take no lock
// (on the portable WebAssembly build, the set's requests in flight live in
// one instance, so its calls take turns behind a mutex).
type Bounded struct {
	h *boundedHandle
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
			Code: int(resultInvalidParameter), kind: ErrInvalidArgument}
	}
	co := hashingOptions(o)
	h, code := newBoundedHandle(&co, balanceFactor)
	if err := check(code, "NewBounded", fmt.Sprintf("balance factor %v %s", balanceFactor, describeHashing(o))); err != nil {
		return nil, err
	}
	for id := range o.weights {
		if !contains(nodes, id) {
			return nil, &Error{Op: "NewBounded", Value: fmt.Sprintf("%q", id), Code: int(resultUnknownNode), kind: ErrUnknownNode}
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
	return b.h.isKeyed()
}

// unusable reports a nil *Bounded or a zero value (not made by NewBounded):
// every method then returns an ErrInvalidArgument (InFlight returns 0)
// instead of panicking.
func (b *Bounded) unusable() bool { return b == nil || !b.h.usable() }

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
	b        *boundedHandle
	p        leaseRef
	released atomic.Bool
}

func (l *lease) release() {
	if l.released.CompareAndSwap(false, true) {
		l.b.release(l.p)
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

func (b *Bounded) acquire(key *byte, keyLen int, keep any) (string, func(), error) {
	p, node, code := b.h.acquire(key, keyLen)
	runtime.KeepAlive(keep)
	if code != resultOK {
		return "", nil, check(code, "Acquire", "")
	}
	l := &lease{b: b.h, p: p}
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
	loads, code := b.h.loads()
	if err := check(code, "Loads", ""); err != nil {
		return nil, err
	}
	return loads, nil
}

// InFlight is the number of requests in flight on all nodes, including nodes
// removed since their requests started (0 for a nil or zero-value *Bounded).
func (b *Bounded) InFlight() uint64 {
	if b.unusable() {
		return 0
	}
	return b.h.inFlight()
}

// Add adds a node with the given weight.
func (b *Bounded) Add(id string, weight float64) error {
	if b.unusable() {
		return unusable("Add", "Bounded")
	}
	code := b.h.add(id, weight)
	return check(code, "Add", fmt.Sprintf("%q", id))
}

// Remove removes a node. Its requests in flight end normally when released.
func (b *Bounded) Remove(id string) error {
	if b.unusable() {
		return unusable("Remove", "Bounded")
	}
	code := b.h.remove(id)
	return check(code, "Remove", fmt.Sprintf("%q", id))
}

// SetWeight changes a node's weight; 0 drains it (no new requests, and its
// requests in flight run out).
func (b *Bounded) SetWeight(id string, weight float64) error {
	if b.unusable() {
		return unusable("SetWeight", "Bounded")
	}
	code := b.h.setWeight(id, weight)
	return check(code, "SetWeight", fmt.Sprintf("%q", id))
}
