// Package longstraw places keys on nodes by rendezvous (highest random
// weight) hashing, through the same Rust core as every other longstraw
// binding, so a Go service puts each key on exactly the node a C, Rust,
// Python or Node service would.
//
//	r, err := longstraw.New([]string{"cache-a", "cache-b", "cache-c"})
//	owner, err := r.Owner("user:42")
//	replicas, err := r.TopK("user:42", 2)
//
// One type, *Rendezvous, is a set of any mode: New makes a flat set (every
// node races for every key), NewTable a partition table (O(1) lookups, exact
// HRW per partition) and NewSkeleton a skeleton (O(log n) lookups, its own
// placement); Load and LoadBytes give whatever mode a membership file names.
// Every mode has the same methods; Mode says which one a set is, and the
// mode's own parameters (PartitionBits, Replicas, FanoutBits, ...) answer
// (value, true) on that mode and (zero, false) on the others.
//
// A Rendezvous is safe for concurrent use: lookups never block, and a
// membership change (Add, Remove, SetWeight) is seen by a lookup entirely or
// not at all. Snapshot gives an immutable view of the current membership
// with the same lookups. Every set can label nodes with failure domains
// (WithDomains, AddInDomain) and pick at most one replica per domain
// (TopKDistinct).
//
// Every method of every type is safe on a nil pointer or a zero value: it
// returns an ErrInvalidArgument (or a zero value) instead of panicking.
//
// The package links liblongstraw statically (cgo): the module carries the
// header (include/longstraw.h) and one archive per platform
// (lib/<GOOS>_<GOARCH>/liblongstraw.a), so plain `go build` needs no
// environment variables. Inside the repository `make build` puts the archive
// there; a release copy of the module ships it.
package longstraw

/*
#cgo CFLAGS: -I${SRCDIR}/include
#cgo linux,amd64 LDFLAGS: ${SRCDIR}/lib/linux_amd64/liblongstraw.a
#cgo linux,arm64 LDFLAGS: ${SRCDIR}/lib/linux_arm64/liblongstraw.a
#cgo LDFLAGS: -lgcc_s -lutil -lrt -lpthread -lm -ldl
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

// VersionString is the C library's version, e.g. "0.2.0".
func VersionString() string { return C.GoString(C.longstraw_version_string()) }

type options struct {
	seed      uint64
	seedGiven bool
	secret    []byte // keyed-v1 (keyed.go); only held until the C set copies it
	placement uint32
	weights   map[string]float64
	domains   map[string]string
	// Shape options, each valid for one constructor only.
	partitionBits *uint8
	replicas      *int
	distinct      bool
	balance       *float64
	shape         *[2]uint8
}

// Option configures New, NewTable and NewSkeleton.
type Option func(*options)

// WithSeed sets the seed (default 0). Every user of one cluster must agree on it.
func WithSeed(seed uint64) Option {
	return func(o *options) { o.seed, o.seedGiven = seed, true }
}

// WithPlacement pins the placement version (default PlacementVersion, 1).
func WithPlacement(version uint32) Option { return func(o *options) { o.placement = version } }

// WithWeights gives nodes weights other than 1: a node with weight 2 owns
// twice as many keys as one with weight 1, and weight 0 drains a node. Every
// key of the map must be one of the nodes passed to New.
func WithWeights(weights map[string]float64) Option {
	return func(o *options) { o.weights = weights }
}

// WithDomains labels nodes with failure domains (rack, zone): TopKDistinct
// takes at most one node per label. Nodes without a label (or with "") are
// domains of their own. Every key of the map must be one of the nodes.
func WithDomains(domains map[string]string) Option {
	return func(o *options) { o.domains = domains }
}

// WithPartitionBits gives a Table 2^bits partitions (0 to 24). The default
// is clamp(ceil(log2(n)) + 6, 10, 20) for the n nodes passed to NewTable;
// pass it explicitly for a fleet that starts small and grows. NewTable only.
func WithPartitionBits(bits uint8) Option {
	return func(o *options) { o.partitionBits = &bits }
}

// WithReplicas sets how many nodes a Table stores per partition (1 to 32,
// default 1): TopK up to this many is a table read, longer lists rank the
// partition over every node. NewTable only.
func WithReplicas(replicas int) Option {
	return func(o *options) { o.replicas = &replicas }
}

// WithDistinctDomains makes a Table store at most one node per failure
// domain per partition, so that TopKDistinct (up to the replicas) is the
// table read and TopK the O(n) one. Placement is the same. NewTable only.
func WithDistinctDomains() Option {
	return func(o *options) { o.distinct = true }
}

// WithShape fixes a Skeleton's tree: 2^fanoutBits children per group (1 to
// 6) and levels levels of groups (0 to 5; 0 is flat HRW). The default is the
// shallowest tree whose leaf groups average at most 64 nodes for the n nodes
// passed to NewSkeleton. Deeper trees look up faster and move more keys on a
// change. NewSkeleton only.
func WithShape(fanoutBits, levels uint8) Option {
	return func(o *options) { o.shape = &[2]uint8{fanoutBits, levels} }
}

// Mode is how a set places keys.
type Mode int

const (
	// Flat is rendezvous hashing: every node races for every key.
	Flat Mode = iota
	// Table is a partition table: each key belongs to one of 2^bits
	// partitions (by its key hash) and each partition is placed by
	// rendezvous hashing, so a lookup is a table read. Removing a node moves
	// exactly its partitions; adding one moves only the partitions it wins.
	Table
	// Skeleton is skeleton (hierarchical) rendezvous hashing: nodes are the
	// leaves of a virtual tree that depends only on the membership, and a
	// lookup races the children level by level. Its placement differs from
	// a flat set's (unless it has 0 levels).
	Skeleton
)

// String is "flat", "table" or "skeleton", as in membership files.
func (m Mode) String() string {
	switch m {
	case Flat:
		return "flat"
	case Table:
		return "table"
	case Skeleton:
		return "skeleton"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Rendezvous is a node set of any mode (see Mode). Its methods are safe for
// concurrent use.
type Rendezvous struct {
	writer sync.Mutex // serialises changes, so each view follows the one before
	h      *handle
	view   atomic.Pointer[view]
	closed bool     // set by Close, under writer
	info   *setInfo // fixed when the set is made
}

// setInfo is what never changes over a set's life: its mode, the mode's
// parameters and how it hashes.
type setInfo struct {
	mode       Mode
	seed       uint64
	keyed      bool
	placement  uint32
	bits       int
	replicas   int
	distinct   bool
	balance    float64 // 0 for a plain table
	fanoutBits int
	levels     int
}

// noInfo answers for a nil or zero-value set: flat, and no mode parameters.
var noInfo = &setInfo{}

// view is one immutable membership: a C snapshot and its nodes, decoded
// once, so that a lookup is a single C call and an index into ids.
type view struct {
	snap     *C.longstraw_snapshot
	ids      []string
	weights  []float64
	domains  []string
	eligible int
	info     *setInfo
	use      viewUse // who is using snap, and whether it is retired (close.go)
}

func buildOptions(op string, opts []Option) (options, error) {
	o := options{placement: PlacementVersion}
	for _, opt := range opts {
		opt(&o)
	}
	misplaced := ""
	switch {
	case op != "NewTable" && o.partitionBits != nil:
		misplaced = "WithPartitionBits"
	case op != "NewTable" && o.replicas != nil:
		misplaced = "WithReplicas"
	case op != "NewTable" && o.distinct:
		misplaced = "WithDistinctDomains"
	case op != "NewTable" && o.balance != nil:
		misplaced = "WithBalance"
	case op != "NewSkeleton" && o.shape != nil:
		misplaced = "WithShape"
	}
	if misplaced != "" {
		return o, &Error{Op: op, Value: misplaced + " (an option of another constructor)",
			Code: int(C.LONGSTRAW_INVALID_PARAMETER), kind: ErrInvalidArgument}
	}
	return o, checkShapeOptions(op, o)
}

// New creates a flat set of nodes, each with weight 1 unless WithWeights
// says otherwise. The order of nodes does not affect placement.
func New(nodes []string, opts ...Option) (*Rendezvous, error) {
	o, err := buildOptions("New", opts)
	if err != nil {
		return nil, err
	}
	h, err := newFlatHandle("New", nodes, o)
	if err != nil {
		return nil, err
	}
	return newSet("New", h)
}

// NewTable creates a partition table of nodes (see Table), with the options
// of New plus WithPartitionBits, WithReplicas, WithDistinctDomains and
// WithBalance. Building ranks every partition over every node (on all
// cores); a table is meant for up to about 10^4 nodes.
func NewTable(nodes []string, opts ...Option) (*Rendezvous, error) {
	o, err := buildOptions("NewTable", opts)
	if err != nil {
		return nil, err
	}
	co := cOptions() // the hashing comes from the flat set's snapshot
	co.mode = C.LONGSTRAW_MODE_TABLE
	if o.partitionBits != nil {
		co.partition_bits = C.uint8_t(*o.partitionBits)
	}
	replicas := 1
	if o.replicas != nil {
		replicas = *o.replicas
	}
	co.replicas = C.size_t(replicas)
	if replicas < 0 {
		co.replicas = C.size_t(math.MaxUint32) // refused by the C library, like any count above 32
	}
	if o.distinct {
		co.table_flags = C.LONGSTRAW_TABLE_DISTINCT_DOMAINS
	}
	if o.balance != nil {
		co.balance = C.double(*o.balance)
	}
	h := &handle{}
	var tableCode C.longstraw_result // the table's own refusal, not the flat set's
	var detail string                // the C library's own words for it
	err = fromMembers("NewTable", nodes, o, func(members *C.longstraw_snapshot) C.longstraw_result {
		tableCode, detail = withMessage(func() C.longstraw_result { return C.longstraw_rendezvous_new_from(members, &co, &h.p) })
		return tableCode
	})
	if err != nil {
		if e, ok := err.(*Error); ok && tableCode != C.LONGSTRAW_OK {
			switch e.Code {
			case int(C.LONGSTRAW_INVALID_PARAMETER):
				e.Value = fmt.Sprintf("(partition bits %s, replicas %d%s)", autoOr(o.partitionBits), replicas, balanceNote(o.balance))
			case int(C.LONGSTRAW_CONFLICTING_OPTIONS):
				e.Value = fmt.Sprintf("(WithDistinctDomains%s)", balanceNote(o.balance))
				e.reason = detail
			}
		}
		return nil, err
	}
	runtime.SetFinalizer(h, (*handle).free)
	return newSet("NewTable", h)
}

func autoOr(bits *uint8) string {
	if bits == nil {
		return "default"
	}
	return fmt.Sprint(*bits)
}

// NewSkeleton creates a skeleton set of nodes (see Skeleton), with the
// options of New plus WithShape.
func NewSkeleton(nodes []string, opts ...Option) (*Rendezvous, error) {
	o, err := buildOptions("NewSkeleton", opts)
	if err != nil {
		return nil, err
	}
	co := cOptions() // the hashing comes from the flat set's snapshot
	co.mode = C.LONGSTRAW_MODE_SKELETON
	if o.shape != nil {
		co.fanout_bits, co.levels = C.uint8_t(o.shape[0]), C.uint8_t(o.shape[1])
	}
	h := &handle{}
	err = fromMembers("NewSkeleton", nodes, o, func(members *C.longstraw_snapshot) C.longstraw_result {
		return C.longstraw_rendezvous_new_from(members, &co, &h.p)
	})
	if err != nil {
		if e, ok := err.(*Error); ok && e.Code == int(C.LONGSTRAW_INVALID_PARAMETER) && o.shape != nil {
			e.Value = fmt.Sprintf("WithShape(%d, %d)", o.shape[0], o.shape[1])
		}
		return nil, err
	}
	runtime.SetFinalizer(h, (*handle).free)
	return newSet("NewSkeleton", h)
}

// newSet wraps a new C set, which the caller owns alone: it publishes the
// first view and reads from it what never changes (the mode and its
// parameters, the hashing).
func newSet(op string, h *handle) (*Rendezvous, error) {
	r := &Rendezvous{h: h, info: &setInfo{}}
	if err := r.refresh(); err != nil {
		h.free()
		return nil, err
	}
	if err := r.info.read(op, r.view.Load().snap); err != nil {
		h.free()
		return nil, err
	}
	return r, nil
}

// read fills in what never changes over a set's life from one snapshot.
func (i *setInfo) read(op string, snap *C.longstraw_snapshot) error {
	var mode C.longstraw_mode
	var seed C.uint64_t
	var keyed, placement C.uint32_t
	for _, code := range []C.longstraw_result{C.longstraw_snapshot_mode(snap, &mode), C.longstraw_snapshot_seed(snap, &seed),
		C.longstraw_snapshot_is_keyed(snap, &keyed), C.longstraw_snapshot_placement(snap, &placement)} {
		if err := check(code, op, ""); err != nil {
			return err
		}
	}
	i.seed, i.keyed, i.placement = uint64(seed), keyed != 0, uint32(placement)
	switch mode {
	case C.LONGSTRAW_MODE_TABLE:
		var bits C.uint8_t
		var replicas C.size_t
		var flags C.uint32_t
		var balance C.double
		if err := check(C.longstraw_snapshot_table_shape(snap, &bits, &replicas, &flags, &balance), op, ""); err != nil {
			return err
		}
		i.mode, i.bits, i.replicas = Table, int(bits), int(replicas)
		i.distinct, i.balance = flags&C.LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0, float64(balance)
	case C.LONGSTRAW_MODE_SKELETON:
		var fanoutBits, levels C.uint8_t
		if err := check(C.longstraw_snapshot_skeleton_shape(snap, &fanoutBits, &levels), op, ""); err != nil {
			return err
		}
		i.mode, i.fanoutBits, i.levels = Skeleton, int(fanoutBits), int(levels)
	}
	return nil
}

// fromMembers builds the nodes as a flat set, then makes the table or
// skeleton from its snapshot with create (the C library takes a table's or
// skeleton's initial nodes from a snapshot, so that it can build at once).
func fromMembers(op string, nodes []string, o options, create func(*C.longstraw_snapshot) C.longstraw_result) error {
	h, err := newFlatHandle(op, nodes, o)
	if err != nil {
		return err
	}
	defer h.free()
	var snap *C.longstraw_snapshot
	if err := check(h.snapshot(&snap), op, ""); err != nil {
		return err
	}
	defer C.longstraw_snapshot_free(snap)
	return check(create(snap), op, "")
}

// newFlatHandle makes a flat C set of the nodes, weights and domains.
func newFlatHandle(op string, nodes []string, o options) (*handle, error) {
	h := &handle{}
	code, message := withMessage(func() C.longstraw_result { return newCRendezvous(o, &h.p) })
	if err := checkWith(code, op, describeHashing(o), message); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, (*handle).free)

	index := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		index[n] = true
	}
	weights := make([]float64, len(nodes))
	labels := make([]string, len(nodes))
	for i, n := range nodes {
		weights[i] = 1
		if w, ok := o.weights[n]; ok {
			weights[i] = w
		}
		labels[i] = o.domains[n]
	}
	for n := range o.weights {
		if !index[n] {
			return nil, &Error{Op: op, Value: fmt.Sprintf("WithWeights(%s)", shown(n)),
				Code: int(C.LONGSTRAW_UNKNOWN_NODE), kind: ErrUnknownNode}
		}
	}
	for n := range o.domains {
		if !index[n] {
			return nil, &Error{Op: op, Value: fmt.Sprintf("WithDomains(%s)", shown(n)),
				Code: int(C.LONGSTRAW_UNKNOWN_NODE), kind: ErrUnknownNode}
		}
	}
	bytes, offsets := packStrings(nodes)
	var labelBytes []byte
	var labelOffsets []uint64
	if o.domains != nil {
		labelBytes, labelOffsets = packStrings(labels)
	}
	code = h.addBatch(bytes, offsets, weights, labelBytes, labelOffsets)
	if code != C.LONGSTRAW_OK {
		return nil, check(code, op, explainBatch(o, nodes, weights, labels))
	}
	return h, nil
}

// explainBatch finds the node a failed batch add tripped on, by adding the
// nodes one at a time to a scratch set, so the error names it.
func explainBatch(o options, nodes []string, weights []float64, labels []string) string {
	scratch := &handle{}
	if newCRendezvous(o, &scratch.p) != C.LONGSTRAW_OK {
		return ""
	}
	defer scratch.free()
	for i, n := range nodes {
		label := labels[i]
		if scratch.add(strPtr(n), C.size_t(len(n)), C.double(weights[i]), strPtr(label), C.size_t(len(label))) != C.LONGSTRAW_OK {
			if label != "" {
				return fmt.Sprintf("(node %s, weight %v, domain %s)", shown(n), weights[i], shown(label))
			}
			return fmt.Sprintf("(node %s, weight %v)", shown(n), weights[i])
		}
	}
	return ""
}

// handle is the C set behind a Rendezvous, of any mode. Every method keeps
// h alive until C returns, so that its finalizer cannot free the set during
// a call.
type handle struct{ p *C.longstraw_rendezvous }

// free releases the C set; a second call does nothing. Callers hold the
// set's writer lock (or own the handle alone), so no C call is using it.
func (h *handle) free() {
	if h.p != nil {
		C.longstraw_rendezvous_free(h.p)
		h.p = nil
	}
	runtime.SetFinalizer(h, nil)
}

func (h *handle) add(id *C.uint8_t, n C.size_t, w C.double, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_add_in_domain(h.p, id, n, w, d, dn)
}

func (h *handle) addBatch(ids []byte, offsets []uint64, weights []float64, labels []byte, labelOffsets []uint64) C.longstraw_result {
	defer runtime.KeepAlive(h)
	var weightsPtr *C.double
	if len(weights) > 0 {
		weightsPtr = (*C.double)(unsafe.Pointer(&weights[0]))
	}
	code := C.longstraw_rendezvous_add_batch(h.p, bytesPtr(ids), C.size_t(len(ids)), offsetsPtr(offsets), C.size_t(len(offsets)),
		weightsPtr, C.size_t(len(weights)), bytesPtr(labels), C.size_t(len(labels)), offsetsPtr(labelOffsets), C.size_t(len(labelOffsets)))
	runtime.KeepAlive(ids)
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(weights)
	runtime.KeepAlive(labels)
	runtime.KeepAlive(labelOffsets)
	return code
}

func (h *handle) remove(id *C.uint8_t, n C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_remove(h.p, id, n)
}

func (h *handle) setWeight(id *C.uint8_t, n C.size_t, w C.double) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_set_weight(h.p, id, n, w)
}

func (h *handle) setDomain(id *C.uint8_t, n C.size_t, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_set_domain(h.p, id, n, d, dn)
}

func (h *handle) snapshot(out **C.longstraw_snapshot) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_snapshot(h.p, out)
}

// newViewOf takes a C snapshot of the set and decodes its nodes, or shares
// them with same, a view of the same membership. Callers hold the writer
// lock (or own the set alone).
func (r *Rendezvous) newViewOf(same *view) (*view, error) {
	var snap *C.longstraw_snapshot // a local: cgo refuses a pointer into a struct holding Go pointers
	if err := check(r.h.snapshot(&snap), "Snapshot", ""); err != nil {
		return nil, err
	}
	v := &view{snap: snap, info: r.info}
	runtime.SetFinalizer(v, (*view).finalize)
	if same != nil {
		v.ids, v.weights, v.domains, v.eligible = same.ids, same.weights, same.domains, same.eligible
		return v, nil
	}
	var n, eligible C.size_t
	C.longstraw_snapshot_len(v.snap, &n)
	C.longstraw_snapshot_eligible(v.snap, &eligible)
	v.eligible = int(eligible)
	v.ids = make([]string, int(n))
	v.weights = make([]float64, int(n))
	v.domains = make([]string, int(n))
	for i := range v.ids {
		var id, domain *C.uint8_t
		var idLen, domainLen C.size_t
		var weight C.double
		if err := check(C.longstraw_snapshot_node(v.snap, C.uint32_t(i), &id, &idLen, &weight), "snapshot", ""); err != nil {
			return nil, err
		}
		v.ids[i] = C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen))
		v.weights[i] = float64(weight)
		if err := check(C.longstraw_snapshot_domain(v.snap, C.uint32_t(i), &domain, &domainLen), "snapshot", ""); err != nil {
			return nil, err
		}
		v.domains[i] = C.GoStringN((*C.char)(unsafe.Pointer(domain)), C.int(domainLen))
	}
	return v, nil
}

// refresh publishes a view of the set's current membership. Callers hold
// r.writer (or own r exclusively, in a constructor).
func (r *Rendezvous) refresh() error {
	v, err := r.newViewOf(nil)
	if err != nil {
		return err
	}
	if old := r.view.Swap(v); old != nil {
		old.retire()
	}
	return nil
}

// usable is false for a nil pointer or a zero value (a set not made by New,
// NewTable, NewSkeleton, Load or LoadBytes).
func (r *Rendezvous) usable() bool { return r != nil && r.view.Load() != nil }

func (r *Rendezvous) change(op, value string, call func(h *handle) C.longstraw_result) error {
	if !r.usable() {
		return unusable(op, "Rendezvous")
	}
	r.writer.Lock()
	defer r.writer.Unlock()
	if r.closed {
		return closedError(op)
	}
	if err := check(call(r.h), op, value); err != nil {
		return err
	}
	return r.refresh()
}

// Add adds a node with a weight (1 is the usual weight; 0 adds it drained).
// Keys move only to the new node.
func (r *Rendezvous) Add(id string, weight float64) error {
	if !r.usable() {
		return unusable("Add", "Rendezvous")
	}
	return r.AddInDomain(id, weight, "")
}

// AddInDomain adds a node in a failure domain (rack, zone); see
// TopKDistinct. The domain "" means none: the node is a domain of its own.
func (r *Rendezvous) AddInDomain(id string, weight float64, domain string) error {
	if !r.usable() {
		return unusable("AddInDomain", "Rendezvous")
	}
	op, value := "Add", fmt.Sprintf("(%s, %v)", shown(id), weight)
	if domain != "" {
		op, value = "AddInDomain", fmt.Sprintf("(%s, %v, %s)", shown(id), weight, shown(domain))
	}
	return r.change(op, value, func(h *handle) C.longstraw_result {
		defer runtime.KeepAlive(id)
		defer runtime.KeepAlive(domain)
		return h.add(strPtr(id), C.size_t(len(id)), C.double(weight), strPtr(domain), C.size_t(len(domain)))
	})
}

// Remove removes a node. Only the keys it owned move.
func (r *Rendezvous) Remove(id string) error {
	return r.change("Remove", shown(id), func(h *handle) C.longstraw_result {
		defer runtime.KeepAlive(id)
		return h.remove(strPtr(id), C.size_t(len(id)))
	})
}

// SetWeight changes a node's weight; 0 drains it.
func (r *Rendezvous) SetWeight(id string, weight float64) error {
	return r.change("SetWeight", fmt.Sprintf("(%s, %v)", shown(id), weight), func(h *handle) C.longstraw_result {
		defer runtime.KeepAlive(id)
		return h.setWeight(strPtr(id), C.size_t(len(id)), C.double(weight))
	})
}

// SetDomain sets a node's failure domain; "" clears it.
func (r *Rendezvous) SetDomain(id string, domain string) error {
	return r.change("SetDomain", fmt.Sprintf("(%s, %s)", shown(id), shown(domain)), func(h *handle) C.longstraw_result {
		defer runtime.KeepAlive(id)
		defer runtime.KeepAlive(domain)
		return h.setDomain(strPtr(id), C.size_t(len(id)), strPtr(domain), C.size_t(len(domain)))
	})
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
