// Package longstraw places keys on nodes by rendezvous (highest random
// weight) hashing, through the same Rust core as every other longstraw
// binding, so a Go service puts each key on exactly the node a C, Rust,
// Python or Node service would.
//
//	r, err := longstraw.New([]string{"cache-a", "cache-b", "cache-c"})
//	owner, err := r.Owner("user:42")
//	replicas, err := r.TopK("user:42", 2)
//
// A Rendezvous is safe for concurrent use: lookups never block, and a
// membership change (Add, Remove, SetWeight) is seen by a lookup entirely or
// not at all.
//
// The package links liblongstraw (cgo, include/longstraw.h). Inside the
// repository `make build-go` builds it; elsewhere install it with
// `make install` and build with CGO_CFLAGS/CGO_LDFLAGS pointing at it.
package longstraw

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: -llongstraw -lm -ldl -lpthread
#include <stdint.h>
#include <stdlib.h>
#include "longstraw.h"
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// PlacementVersion is the placement version this package defaults to. Pin it
// with WithPlacement so that an upgrade of longstraw never moves keys.
const PlacementVersion = C.LONGSTRAW_PLACEMENT_VERSION

// Version is the C library's version as major*10000 + minor*100 + patch.
func Version() int { return int(C.longstraw_version()) }

// VersionString is the C library's version, e.g. "0.1.0".
func VersionString() string { return C.GoString(C.longstraw_version_string()) }

type options struct {
	seed      uint64
	placement uint32
	weights   map[string]float64
}

// Option configures New.
type Option func(*options)

// WithSeed sets the seed (default 0). Every user of one cluster must agree on it.
func WithSeed(seed uint64) Option { return func(o *options) { o.seed = seed } }

// WithPlacement pins the placement version (default PlacementVersion, 1).
func WithPlacement(version uint32) Option { return func(o *options) { o.placement = version } }

// WithWeights gives nodes weights other than 1: a node with weight 2 owns
// twice as many keys as one with weight 1, and weight 0 drains a node. Every
// key of the map must be one of the nodes passed to New.
func WithWeights(weights map[string]float64) Option {
	return func(o *options) { o.weights = weights }
}

// Rendezvous is a node set. Its methods are safe for concurrent use.
type Rendezvous struct {
	writer sync.Mutex // serialises changes, so each view follows the one before
	set    *C.longstraw_rendezvous
	view   atomic.Pointer[view]
}

// view is one immutable membership: a C snapshot and its node ids, decoded
// once, so that a lookup is a single C call and an index into ids.
type view struct {
	snap     *C.longstraw_snapshot
	ids      []string
	eligible int
}

// New creates a set of nodes, each with weight 1 unless WithWeights says
// otherwise. The order of nodes does not affect placement.
func New(nodes []string, opts ...Option) (*Rendezvous, error) {
	o := options{placement: PlacementVersion}
	for _, opt := range opts {
		opt(&o)
	}
	r := &Rendezvous{}
	if err := check(C.longstraw_rendezvous_new(C.uint64_t(o.seed), C.uint32_t(o.placement), &r.set),
		"New", fmt.Sprintf("(placement %d)", o.placement)); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(r, func(r *Rendezvous) { C.longstraw_rendezvous_free(r.set) })

	index := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		index[n] = true
	}
	weights := make([]float64, len(nodes))
	for i, n := range nodes {
		weights[i] = 1
		if w, ok := o.weights[n]; ok {
			weights[i] = w
		}
	}
	for n := range o.weights {
		if !index[n] {
			return nil, &Error{Op: "New", Value: fmt.Sprintf("WithWeights(%q)", n),
				Code: int(C.LONGSTRAW_UNKNOWN_NODE), kind: ErrUnknownNode}
		}
	}
	bytes, offsets := packStrings(nodes)
	var weightsPtr *C.double
	if len(weights) > 0 {
		weightsPtr = (*C.double)(unsafe.Pointer(&weights[0]))
	}
	code := C.longstraw_rendezvous_add_batch(r.set, bytesPtr(bytes), C.size_t(len(bytes)),
		offsetsPtr(offsets), C.size_t(len(offsets)), weightsPtr, C.size_t(len(weights)))
	if code != C.LONGSTRAW_OK {
		return nil, check(code, "New", explainBatch(r, nodes, weights))
	}
	if err := r.refresh(); err != nil {
		return nil, err
	}
	return r, nil
}

// explainBatch finds the node a failed batch add tripped on, by adding the
// nodes one at a time to a scratch set, so the error names it.
func explainBatch(r *Rendezvous, nodes []string, weights []float64) string {
	var seed C.uint64_t
	var s *C.longstraw_snapshot
	if C.longstraw_rendezvous_snapshot(r.set, &s) == C.LONGSTRAW_OK {
		C.longstraw_snapshot_seed(s, &seed)
		C.longstraw_snapshot_free(s)
	}
	var scratch *C.longstraw_rendezvous
	if C.longstraw_rendezvous_new(seed, PlacementVersion, &scratch) != C.LONGSTRAW_OK {
		return ""
	}
	defer C.longstraw_rendezvous_free(scratch)
	for i, n := range nodes {
		if C.longstraw_rendezvous_add(scratch, strPtr(n), C.size_t(len(n)), C.double(weights[i])) != C.LONGSTRAW_OK {
			return fmt.Sprintf("(node %q, weight %v)", n, weights[i])
		}
	}
	return ""
}

// refresh publishes a view of the set's current membership. Callers hold
// r.writer (or own r exclusively, in New).
func (r *Rendezvous) refresh() error {
	v := &view{}
	if err := check(C.longstraw_rendezvous_snapshot(r.set, &v.snap), "snapshot", ""); err != nil {
		return err
	}
	runtime.SetFinalizer(v, func(v *view) { C.longstraw_snapshot_free(v.snap) })
	var n, eligible C.size_t
	C.longstraw_snapshot_len(v.snap, &n)
	C.longstraw_snapshot_eligible(v.snap, &eligible)
	v.eligible = int(eligible)
	v.ids = make([]string, int(n))
	for i := range v.ids {
		var id *C.uint8_t
		var idLen C.size_t
		var weight C.double
		if err := check(C.longstraw_snapshot_node(v.snap, C.uint32_t(i), &id, &idLen, &weight), "snapshot", ""); err != nil {
			return err
		}
		v.ids[i] = C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen))
	}
	r.view.Store(v)
	return nil
}

func (r *Rendezvous) change(op, id string, weight float64, withWeight bool,
	call func(set *C.longstraw_rendezvous, id *C.uint8_t, idLen C.size_t) C.longstraw_result) error {
	r.writer.Lock()
	defer r.writer.Unlock()
	code := call(r.set, strPtr(id), C.size_t(len(id)))
	runtime.KeepAlive(id)
	value := fmt.Sprintf("%q", id)
	if withWeight {
		value = fmt.Sprintf("(%q, %v)", id, weight)
	}
	if err := check(code, op, value); err != nil {
		return err
	}
	return r.refresh()
}

// Add adds a node with a weight (1 is the usual weight; 0 adds it drained).
// Keys move only to the new node.
func (r *Rendezvous) Add(id string, weight float64) error {
	return r.change("Add", id, weight, true, func(s *C.longstraw_rendezvous, p *C.uint8_t, n C.size_t) C.longstraw_result {
		return C.longstraw_rendezvous_add(s, p, n, C.double(weight))
	})
}

// Remove removes a node. Only the keys it owned move.
func (r *Rendezvous) Remove(id string) error {
	return r.change("Remove", id, 0, false, func(s *C.longstraw_rendezvous, p *C.uint8_t, n C.size_t) C.longstraw_result {
		return C.longstraw_rendezvous_remove(s, p, n)
	})
}

// SetWeight changes a node's weight; 0 drains it.
func (r *Rendezvous) SetWeight(id string, weight float64) error {
	return r.change("SetWeight", id, weight, true, func(s *C.longstraw_rendezvous, p *C.uint8_t, n C.size_t) C.longstraw_result {
		return C.longstraw_rendezvous_set_weight(s, p, n, C.double(weight))
	})
}

// Len is the number of nodes, drained ones included.
func (r *Rendezvous) Len() int { return len(r.view.Load().ids) }

// Nodes returns the node ids in index order.
func (r *Rendezvous) Nodes() []string { return append([]string(nil), r.view.Load().ids...) }

// Owner returns the node that owns key. It fails with ErrNoEligibleNode when
// the set is empty or every node has weight 0.
func (r *Rendezvous) Owner(key string) (string, error) {
	return r.owner(strPtr(key), len(key), key)
}

// OwnerBytes is Owner for a key given as bytes; the key is not copied.
func (r *Rendezvous) OwnerBytes(key []byte) (string, error) {
	return r.owner(bytesPtr(key), len(key), key)
}

func (r *Rendezvous) owner(key *C.uint8_t, keyLen int, keep any) (string, error) {
	v := r.view.Load()
	var index C.uint32_t
	var id *C.uint8_t
	var idLen C.size_t
	code := C.longstraw_snapshot_owner(v.snap, key, C.size_t(keyLen), &index, &id, &idLen)
	runtime.KeepAlive(v)
	runtime.KeepAlive(keep)
	if code != C.LONGSTRAW_OK {
		return "", check(code, "Owner", "")
	}
	return v.ids[index], nil
}

// TopK returns the best k nodes for key, best first: its owner and then the
// nodes that would own it if the ones before were gone. Fewer than k come
// back when fewer nodes are eligible; an empty set gives an empty slice.
func (r *Rendezvous) TopK(key string, k int) ([]string, error) {
	return r.topK(strPtr(key), len(key), key, k, "TopK")
}

// TopKBytes is TopK for a key given as bytes; the key is not copied.
func (r *Rendezvous) TopKBytes(key []byte, k int) ([]string, error) {
	return r.topK(bytesPtr(key), len(key), key, k, "TopK")
}

// Rank returns every eligible node for key, best first.
func (r *Rendezvous) Rank(key string) ([]string, error) {
	return r.topK(strPtr(key), len(key), key, math.MaxInt, "Rank")
}

// RankBytes is Rank for a key given as bytes.
func (r *Rendezvous) RankBytes(key []byte) ([]string, error) {
	return r.topK(bytesPtr(key), len(key), key, math.MaxInt, "Rank")
}

func (r *Rendezvous) topK(key *C.uint8_t, keyLen int, keep any, k int, op string) ([]string, error) {
	if k < 0 {
		return nil, &Error{Op: op, Value: fmt.Sprintf("k=%d", k), Code: int(C.LONGSTRAW_LENGTH_MISMATCH), kind: ErrInvalidArgument}
	}
	v := r.view.Load()
	k = min(k, v.eligible)
	if k == 0 {
		return []string{}, nil
	}
	out := make([]uint32, k)
	var written C.size_t
	code := C.longstraw_snapshot_top_k(v.snap, key, C.size_t(keyLen),
		(*C.uint32_t)(unsafe.Pointer(&out[0])), C.size_t(k), &written)
	runtime.KeepAlive(v)
	runtime.KeepAlive(keep)
	if err := check(code, op, ""); err != nil {
		return nil, err
	}
	ids := make([]string, int(written))
	for i := range ids {
		ids[i] = v.ids[out[i]]
	}
	return ids, nil
}

// Owners returns the owner of each key, in one call into the library: the
// keys are packed into one byte buffer and an offsets array (the layout every
// longstraw batch call shares), never passed as Go string headers.
func (r *Rendezvous) Owners(keys []string) ([]string, error) {
	bytes, offsets := packStrings(keys)
	return r.owners(bytes, offsets, len(keys))
}

// OwnersBytes is Owners for keys given as byte slices.
func (r *Rendezvous) OwnersBytes(keys [][]byte) ([]string, error) {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	bytes := make([]byte, 0, total)
	offsets := make([]uint64, 1, len(keys)+1)
	for _, k := range keys {
		bytes = append(bytes, k...)
		offsets = append(offsets, uint64(len(bytes)))
	}
	return r.owners(bytes, offsets, len(keys))
}

// OwnersPacked is the batch call on keys already in the packed layout: key i
// is bytes[offsets[i]:offsets[i+1]], so len(offsets) is the number of keys
// plus one. It writes owner indices (positions in Nodes at the time of the
// call) to out, which must have one entry per key, and returns the node ids
// those indices refer to.
func (r *Rendezvous) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	v := r.view.Load()
	var outPtr *C.uint32_t
	if len(out) > 0 {
		outPtr = (*C.uint32_t)(unsafe.Pointer(&out[0]))
	}
	code := C.longstraw_snapshot_owners(v.snap, bytesPtr(bytes), C.size_t(len(bytes)),
		offsetsPtr(offsets), C.size_t(len(offsets)), outPtr, C.size_t(len(out)))
	runtime.KeepAlive(v)
	runtime.KeepAlive(bytes)
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(out)
	if code != C.LONGSTRAW_OK {
		value := fmt.Sprintf("(%d bytes, %d offsets, %d outputs)", len(bytes), len(offsets), len(out))
		err := check(code, "OwnersPacked", value)
		if e, ok := err.(*Error); ok {
			switch code {
			case C.LONGSTRAW_BAD_OFFSETS, C.LONGSTRAW_LENGTH_MISMATCH:
				e.kind = ErrInvalidArgument // the caller's arrays, not a bug here
			}
		}
		return nil, err
	}
	return v.ids, nil
}

func (r *Rendezvous) owners(bytes []byte, offsets []uint64, n int) ([]string, error) {
	out := make([]uint32, n)
	ids, err := r.OwnersPacked(bytes, offsets, out)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Op, e.Value = "Owners", fmt.Sprintf("(%d keys)", n)
		}
		return nil, err
	}
	owners := make([]string, n)
	for i, o := range out {
		owners[i] = ids[o]
	}
	return owners, nil
}

// packStrings lays strings out in the packed layout.
func packStrings(items []string) ([]byte, []uint64) {
	total := 0
	for _, s := range items {
		total += len(s)
	}
	bytes := make([]byte, 0, total)
	offsets := make([]uint64, 1, len(items)+1)
	for _, s := range items {
		bytes = append(bytes, s...)
		offsets = append(offsets, uint64(len(bytes)))
	}
	return bytes, offsets
}

// strPtr points at a string's bytes without copying; nil for "". The memory
// holds no Go pointers, so cgo lets C read it for the duration of a call.
func strPtr(s string) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s)))
}

func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func offsetsPtr(o []uint64) *C.uint64_t {
	if len(o) == 0 {
		return nil
	}
	return (*C.uint64_t)(unsafe.Pointer(&o[0]))
}
