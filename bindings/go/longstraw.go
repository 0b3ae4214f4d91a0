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
// For large fleets, NewTable (a partition table: O(1) lookups, exact HRW per
// partition) and NewSkeleton (skeleton HRW: O(log n) lookups, its own
// placement) have the same methods. Every set can label nodes with failure
// domains (WithDomains, AddInDomain) and pick at most one replica per domain
// (TopKDistinct).
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

// VersionString is the C library's version, e.g. "0.1.0".
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

// Rendezvous is a node set placed by flat rendezvous hashing. Its methods
// are safe for concurrent use.
type Rendezvous struct{ nodeSet }

// Table is a partition table: each key belongs to one of 2^bits partitions
// (by its key hash) and each partition is placed by rendezvous hashing, so a
// lookup is a table read. Removing a node moves exactly its partitions;
// adding one moves only the partitions it wins. Its methods are safe for
// concurrent use.
type Table struct {
	nodeSet
	bits, replicas int
	distinct       bool
	balance        float64 // 0 for a plain table; fixed when the table is made
}

// Skeleton places keys by skeleton (hierarchical) rendezvous hashing: nodes
// are the leaves of a virtual tree that depends only on the membership, and
// a lookup races the children level by level. Its placement differs from a
// Rendezvous's (unless levels is 0). Its methods are safe for concurrent use.
type Skeleton struct {
	nodeSet
	fanoutBits, levels int
}

// nodeSet is what the three kinds of set share: the C set, serialised
// changes, and the view lookups run on.
type nodeSet struct {
	writer sync.Mutex // serialises changes, so each view follows the one before
	set    members
	view   atomic.Pointer[view]
	closed bool // set by Close, under writer
}

// view is one immutable membership: a C snapshot and its node ids, decoded
// once, so that a lookup is a single C call and an index into ids.
type view struct {
	snap     *C.longstraw_snapshot
	ids      []string
	domains  []string
	eligible int
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
	if err := checkShapeOptions(op, o); err != nil {
		return o, err
	}
	return o, checkSecretOptions(op, o)
}

// New creates a set of nodes, each with weight 1 unless WithWeights says
// otherwise. The order of nodes does not affect placement.
func New(nodes []string, opts ...Option) (*Rendezvous, error) {
	o, err := buildOptions("New", opts)
	if err != nil {
		return nil, err
	}
	h, err := newRendezvousHandle("New", nodes, o)
	if err != nil {
		return nil, err
	}
	r := &Rendezvous{}
	r.set = h
	if err := r.refresh(); err != nil {
		return nil, err
	}
	return r, nil
}

// NewTable creates a partition table of nodes (see Table), with the options
// of New plus WithPartitionBits, WithReplicas and WithDistinctDomains.
// Building ranks every partition over every node (on all cores); a table is
// meant for up to about 10^4 nodes.
func NewTable(nodes []string, opts ...Option) (*Table, error) {
	o, err := buildOptions("NewTable", opts)
	if err != nil {
		return nil, err
	}
	bits, replicas, flags := C.uint8_t(C.LONGSTRAW_AUTO), 1, C.uint32_t(0)
	if o.partitionBits != nil {
		bits = C.uint8_t(*o.partitionBits)
	}
	if o.replicas != nil {
		replicas = *o.replicas
	}
	if o.distinct {
		flags = C.LONGSTRAW_TABLE_DISTINCT_DOMAINS
	}
	cReplicas := C.size_t(replicas)
	if replicas < 0 {
		cReplicas = C.size_t(math.MaxUint32) // refused by the C library, like any count above 32
	}
	h := &tableHandle{}
	var detail string // the C library's own words for a refusal
	err = fromMembers("NewTable", nodes, o, func(members *C.longstraw_snapshot) C.longstraw_result {
		// The last error message is per thread: read it on the thread that failed.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var code C.longstraw_result
		if o.balance != nil {
			code = newBalancedTable(members, bits, cReplicas, flags, *o.balance, &h.p)
		} else {
			code = C.longstraw_table_new(members, bits, cReplicas, flags, &h.p)
		}
		if code != C.LONGSTRAW_OK {
			detail = C.GoString(C.longstraw_last_error_message())
		}
		return code
	})
	if err != nil {
		if e, ok := err.(*Error); ok {
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
	runtime.SetFinalizer(h, (*tableHandle).free)
	var gotBits C.uint8_t
	var gotReplicas C.size_t
	var gotFlags C.uint32_t
	if err := check(C.longstraw_table_shape(h.p, &gotBits, &gotReplicas, &gotFlags), "NewTable", ""); err != nil {
		return nil, err
	}
	t := &Table{bits: int(gotBits), replicas: int(gotReplicas), distinct: gotFlags&C.LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0,
		balance: readBalance(h)}
	t.set = h
	if err := t.refresh(); err != nil {
		return nil, err
	}
	return t, nil
}

func autoOr(bits *uint8) string {
	if bits == nil {
		return "default"
	}
	return fmt.Sprint(*bits)
}

// NewSkeleton creates a skeleton HRW set of nodes (see Skeleton), with the
// options of New plus WithShape.
func NewSkeleton(nodes []string, opts ...Option) (*Skeleton, error) {
	o, err := buildOptions("NewSkeleton", opts)
	if err != nil {
		return nil, err
	}
	fanoutBits, levels := C.uint8_t(C.LONGSTRAW_AUTO), C.uint8_t(C.LONGSTRAW_AUTO)
	if o.shape != nil {
		fanoutBits, levels = C.uint8_t(o.shape[0]), C.uint8_t(o.shape[1])
	}
	h := &skeletonHandle{}
	err = fromMembers("NewSkeleton", nodes, o, func(members *C.longstraw_snapshot) C.longstraw_result {
		return C.longstraw_skeleton_new(members, fanoutBits, levels, &h.p)
	})
	if err != nil {
		if e, ok := err.(*Error); ok && e.Code == int(C.LONGSTRAW_INVALID_PARAMETER) && o.shape != nil {
			e.Value = fmt.Sprintf("WithShape(%d, %d)", o.shape[0], o.shape[1])
		}
		return nil, err
	}
	runtime.SetFinalizer(h, (*skeletonHandle).free)
	var gotFanout, gotLevels C.uint8_t
	if err := check(C.longstraw_skeleton_shape(h.p, &gotFanout, &gotLevels), "NewSkeleton", ""); err != nil {
		return nil, err
	}
	k := &Skeleton{fanoutBits: int(gotFanout), levels: int(gotLevels)}
	k.set = h
	if err := k.refresh(); err != nil {
		return nil, err
	}
	return k, nil
}

// PartitionBits is the table's partition bits: it has 2^PartitionBits partitions.
func (t *Table) PartitionBits() int {
	if t == nil {
		return 0
	}
	return t.bits
}

// Replicas is how many nodes the table stores per partition.
func (t *Table) Replicas() int {
	if t == nil {
		return 0
	}
	return t.replicas
}

// DistinctDomains is whether the stored nodes are at most one per failure domain.
func (t *Table) DistinctDomains() bool { return t != nil && t.distinct }

// Shape is the skeleton's fan-out bits and levels (both 0 when flat).
func (k *Skeleton) Shape() (fanoutBits, levels int) {
	if k == nil {
		return 0, 0
	}
	return k.fanoutBits, k.levels
}

// fromMembers builds the nodes as a flat set, then makes the table or
// skeleton from its snapshot with create (the C library takes a table's or
// skeleton's initial nodes from a snapshot, so that it can build at once).
func fromMembers(op string, nodes []string, o options, create func(*C.longstraw_snapshot) C.longstraw_result) error {
	h, err := newRendezvousHandle(op, nodes, o)
	if err != nil {
		return err
	}
	defer h.free()
	var snap *C.longstraw_snapshot
	if err := check(C.longstraw_rendezvous_snapshot(h.p, &snap), op, ""); err != nil {
		return err
	}
	defer C.longstraw_snapshot_free(snap)
	return check(create(snap), op, "")
}

// newRendezvousHandle makes a C rendezvous of the nodes, weights and domains.
func newRendezvousHandle(op string, nodes []string, o options) (*rendezvousHandle, error) {
	h := &rendezvousHandle{}
	if err := check(newCRendezvous(o, &h.p), op, describeHashing(o)); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(h, (*rendezvousHandle).free)

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
	var weightsPtr *C.double
	if len(weights) > 0 {
		weightsPtr = (*C.double)(unsafe.Pointer(&weights[0]))
	}
	var code C.longstraw_result
	if o.domains == nil {
		code = C.longstraw_rendezvous_add_batch(h.p, bytesPtr(bytes), C.size_t(len(bytes)),
			offsetsPtr(offsets), C.size_t(len(offsets)), weightsPtr, C.size_t(len(weights)))
	} else {
		labelBytes, labelOffsets := packStrings(labels)
		code = C.longstraw_rendezvous_add_batch_in_domains(h.p, bytesPtr(bytes), C.size_t(len(bytes)),
			offsetsPtr(offsets), C.size_t(len(offsets)), weightsPtr, C.size_t(len(weights)),
			bytesPtr(labelBytes), C.size_t(len(labelBytes)), offsetsPtr(labelOffsets), C.size_t(len(labelOffsets)))
		runtime.KeepAlive(labelBytes)
		runtime.KeepAlive(labelOffsets)
	}
	runtime.KeepAlive(bytes)
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(weights)
	if code != C.LONGSTRAW_OK {
		return nil, check(code, op, explainBatch(o, nodes, weights, labels))
	}
	return h, nil
}

// explainBatch finds the node a failed batch add tripped on, by adding the
// nodes one at a time to a scratch set, so the error names it.
func explainBatch(o options, nodes []string, weights []float64, labels []string) string {
	var scratch *C.longstraw_rendezvous
	if newCRendezvous(o, &scratch) != C.LONGSTRAW_OK {
		return ""
	}
	defer C.longstraw_rendezvous_free(scratch)
	for i, n := range nodes {
		label := labels[i]
		if C.longstraw_rendezvous_add_in_domain(scratch, strPtr(n), C.size_t(len(n)), C.double(weights[i]),
			strPtr(label), C.size_t(len(label))) != C.LONGSTRAW_OK {
			if label != "" {
				return fmt.Sprintf("(node %s, weight %v, domain %s)", shown(n), weights[i], shown(label))
			}
			return fmt.Sprintf("(node %s, weight %v)", shown(n), weights[i])
		}
	}
	return ""
}

// members is the C node set behind a Rendezvous, Table or Skeleton; each
// kind wraps its handle (and frees it when collected).
type members interface {
	add(id *C.uint8_t, idLen C.size_t, weight C.double, domain *C.uint8_t, domainLen C.size_t) C.longstraw_result
	remove(id *C.uint8_t, idLen C.size_t) C.longstraw_result
	setWeight(id *C.uint8_t, idLen C.size_t, weight C.double) C.longstraw_result
	setDomain(id *C.uint8_t, idLen C.size_t, domain *C.uint8_t, domainLen C.size_t) C.longstraw_result
	snapshot(out **C.longstraw_snapshot) C.longstraw_result
	// save writes the set as a membership file (save.go).
	save(path, secretFile, secretEnv, msg *C.char) C.longstraw_result
	free()
}

type rendezvousHandle struct{ p *C.longstraw_rendezvous }
type tableHandle struct{ p *C.longstraw_table }
type skeletonHandle struct{ p *C.longstraw_skeleton }

// free releases the C set; a second call does nothing. Callers hold the
// set's writer lock (or own the handle alone), so no C call is using it.
func (h *rendezvousHandle) free() {
	if h.p != nil {
		C.longstraw_rendezvous_free(h.p)
		h.p = nil
	}
	runtime.SetFinalizer(h, nil)
}

func (h *tableHandle) free() {
	if h.p != nil {
		C.longstraw_table_free(h.p)
		h.p = nil
	}
	runtime.SetFinalizer(h, nil)
}

func (h *skeletonHandle) free() {
	if h.p != nil {
		C.longstraw_skeleton_free(h.p)
		h.p = nil
	}
	runtime.SetFinalizer(h, nil)
}

// The methods keep h alive until C returns, so that its finalizer cannot
// free the handle during a call.

func (h *rendezvousHandle) add(id *C.uint8_t, n C.size_t, w C.double, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_add_in_domain(h.p, id, n, w, d, dn)
}
func (h *rendezvousHandle) remove(id *C.uint8_t, n C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_remove(h.p, id, n)
}
func (h *rendezvousHandle) setWeight(id *C.uint8_t, n C.size_t, w C.double) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_set_weight(h.p, id, n, w)
}
func (h *rendezvousHandle) setDomain(id *C.uint8_t, n C.size_t, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_set_domain(h.p, id, n, d, dn)
}
func (h *rendezvousHandle) snapshot(out **C.longstraw_snapshot) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_rendezvous_snapshot(h.p, out)
}

func (h *tableHandle) add(id *C.uint8_t, n C.size_t, w C.double, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_table_add_in_domain(h.p, id, n, w, d, dn)
}
func (h *tableHandle) remove(id *C.uint8_t, n C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_table_remove(h.p, id, n)
}
func (h *tableHandle) setWeight(id *C.uint8_t, n C.size_t, w C.double) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_table_set_weight(h.p, id, n, w)
}
func (h *tableHandle) setDomain(id *C.uint8_t, n C.size_t, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_table_set_domain(h.p, id, n, d, dn)
}
func (h *tableHandle) snapshot(out **C.longstraw_snapshot) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_table_snapshot(h.p, out)
}

func (h *skeletonHandle) add(id *C.uint8_t, n C.size_t, w C.double, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_skeleton_add_in_domain(h.p, id, n, w, d, dn)
}
func (h *skeletonHandle) remove(id *C.uint8_t, n C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_skeleton_remove(h.p, id, n)
}
func (h *skeletonHandle) setWeight(id *C.uint8_t, n C.size_t, w C.double) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_skeleton_set_weight(h.p, id, n, w)
}
func (h *skeletonHandle) setDomain(id *C.uint8_t, n C.size_t, d *C.uint8_t, dn C.size_t) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_skeleton_set_domain(h.p, id, n, d, dn)
}
func (h *skeletonHandle) snapshot(out **C.longstraw_snapshot) C.longstraw_result {
	defer runtime.KeepAlive(h)
	return C.longstraw_skeleton_snapshot(h.p, out)
}

// refresh publishes a view of the set's current membership. Callers hold
// s.writer (or own s exclusively, in a constructor).
func (s *nodeSet) refresh() error {
	v := &view{}
	if err := check(s.set.snapshot(&v.snap), "snapshot", ""); err != nil {
		return err
	}
	runtime.SetFinalizer(v, (*view).finalize)
	var n, eligible C.size_t
	C.longstraw_snapshot_len(v.snap, &n)
	C.longstraw_snapshot_eligible(v.snap, &eligible)
	v.eligible = int(eligible)
	v.ids = make([]string, int(n))
	v.domains = make([]string, int(n))
	for i := range v.ids {
		var id, domain *C.uint8_t
		var idLen, domainLen C.size_t
		var weight C.double
		if err := check(C.longstraw_snapshot_node(v.snap, C.uint32_t(i), &id, &idLen, &weight), "snapshot", ""); err != nil {
			return err
		}
		v.ids[i] = C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen))
		if err := check(C.longstraw_snapshot_domain(v.snap, C.uint32_t(i), &domain, &domainLen), "snapshot", ""); err != nil {
			return err
		}
		v.domains[i] = C.GoStringN((*C.char)(unsafe.Pointer(domain)), C.int(domainLen))
	}
	if old := s.view.Swap(v); old != nil {
		old.retire()
	}
	return nil
}

func (s *nodeSet) change(op, value string, call func() C.longstraw_result) error {
	s.writer.Lock()
	defer s.writer.Unlock()
	if s.closed {
		return closedError(op)
	}
	if err := check(call(), op, value); err != nil {
		return err
	}
	return s.refresh()
}

// Add adds a node with a weight (1 is the usual weight; 0 adds it drained).
// Keys move only to the new node.
func (s *nodeSet) Add(id string, weight float64) error {
	return s.AddInDomain(id, weight, "")
}

// AddInDomain adds a node in a failure domain (rack, zone); see
// TopKDistinct. The domain "" means none: the node is a domain of its own.
func (s *nodeSet) AddInDomain(id string, weight float64, domain string) error {
	op, value := "Add", fmt.Sprintf("(%s, %v)", shown(id), weight)
	if domain != "" {
		op, value = "AddInDomain", fmt.Sprintf("(%s, %v, %s)", shown(id), weight, shown(domain))
	}
	return s.change(op, value, func() C.longstraw_result {
		defer runtime.KeepAlive(id)
		defer runtime.KeepAlive(domain)
		return s.set.add(strPtr(id), C.size_t(len(id)), C.double(weight), strPtr(domain), C.size_t(len(domain)))
	})
}

// Remove removes a node. Only the keys it owned move.
func (s *nodeSet) Remove(id string) error {
	return s.change("Remove", shown(id), func() C.longstraw_result {
		defer runtime.KeepAlive(id)
		return s.set.remove(strPtr(id), C.size_t(len(id)))
	})
}

// SetWeight changes a node's weight; 0 drains it.
func (s *nodeSet) SetWeight(id string, weight float64) error {
	return s.change("SetWeight", fmt.Sprintf("(%s, %v)", shown(id), weight), func() C.longstraw_result {
		defer runtime.KeepAlive(id)
		return s.set.setWeight(strPtr(id), C.size_t(len(id)), C.double(weight))
	})
}

// SetDomain sets a node's failure domain; "" clears it.
func (s *nodeSet) SetDomain(id string, domain string) error {
	return s.change("SetDomain", fmt.Sprintf("(%s, %s)", shown(id), shown(domain)), func() C.longstraw_result {
		defer runtime.KeepAlive(id)
		defer runtime.KeepAlive(domain)
		return s.set.setDomain(strPtr(id), C.size_t(len(id)), strPtr(domain), C.size_t(len(domain)))
	})
}

// Len is the number of nodes, drained ones included.
func (s *nodeSet) Len() int { return len(s.view.Load().ids) }

// Nodes returns the node ids in index order.
func (s *nodeSet) Nodes() []string { return append([]string(nil), s.view.Load().ids...) }

// Backend names the kernel lookups run on ("scalar", "sse2", "avx2",
// "avx512" or "neon"), chosen once per process from the CPU, or forced with
// the LONGSTRAW_BACKEND environment variable. It never changes placement.
func (s *nodeSet) Backend() string {
	v, err := s.acquire("Backend")
	if err != nil {
		return "closed"
	}
	defer v.release()
	var name *C.char
	if C.longstraw_snapshot_backend(v.snap, &name) != C.LONGSTRAW_OK {
		return "unknown"
	}
	return C.GoString(name)
}

// Domains returns each node's failure domain in index order ("" for none).
func (s *nodeSet) Domains() []string { return append([]string(nil), s.view.Load().domains...) }

// Owner returns the node that owns key. It fails with ErrNoEligibleNode when
// the set is empty or every node has weight 0.
func (s *nodeSet) Owner(key string) (string, error) {
	return s.owner(strPtr(key), len(key), key)
}

// OwnerBytes is Owner for a key given as bytes; the key is not copied.
func (s *nodeSet) OwnerBytes(key []byte) (string, error) {
	return s.owner(bytesPtr(key), len(key), key)
}

func (s *nodeSet) owner(key *C.uint8_t, keyLen int, keep any) (string, error) {
	v, err := s.acquire("Owner")
	if err != nil {
		return "", err
	}
	defer v.release()
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
// (For a Table, the ranking of the key's partition; for a Skeleton, the
// skeleton ranking.)
func (s *nodeSet) TopK(key string, k int) ([]string, error) {
	return s.topK(strPtr(key), len(key), key, k, "TopK")
}

// TopKBytes is TopK for a key given as bytes; the key is not copied.
func (s *nodeSet) TopKBytes(key []byte, k int) ([]string, error) {
	return s.topK(bytesPtr(key), len(key), key, k, "TopK")
}

// TopKDistinct returns at most one node per failure domain for key: the
// first k nodes of TopK's order that are each the first of their domain
// (CRUSH firstn). Its first node is the owner, and when a node or a whole
// domain fails the later replicas shift up. Fewer than k come back when
// fewer domains have an eligible node. Without domain labels it is TopK.
func (s *nodeSet) TopKDistinct(key string, k int) ([]string, error) {
	return s.topK(strPtr(key), len(key), key, k, "TopKDistinct")
}

// TopKDistinctBytes is TopKDistinct for a key given as bytes.
func (s *nodeSet) TopKDistinctBytes(key []byte, k int) ([]string, error) {
	return s.topK(bytesPtr(key), len(key), key, k, "TopKDistinct")
}

// Rank returns every eligible node for key, best first.
func (s *nodeSet) Rank(key string) ([]string, error) {
	return s.topK(strPtr(key), len(key), key, math.MaxInt, "Rank")
}

// RankBytes is Rank for a key given as bytes.
func (s *nodeSet) RankBytes(key []byte) ([]string, error) {
	return s.topK(bytesPtr(key), len(key), key, math.MaxInt, "Rank")
}

func (s *nodeSet) topK(key *C.uint8_t, keyLen int, keep any, k int, op string) ([]string, error) {
	if k < 0 {
		return nil, &Error{Op: op, Value: fmt.Sprintf("k=%d", k), Code: int(C.LONGSTRAW_LENGTH_MISMATCH), kind: ErrInvalidArgument,
			reason: "k must not be negative (0 gives an empty list)"}
	}
	v, err := s.acquire(op)
	if err != nil {
		return nil, err
	}
	defer v.release()
	k = min(k, v.eligible)
	if k == 0 {
		return []string{}, nil
	}
	out := make([]uint32, k)
	var written C.size_t
	var code C.longstraw_result
	if op == "TopKDistinct" {
		code = C.longstraw_snapshot_top_k_distinct(v.snap, key, C.size_t(keyLen),
			(*C.uint32_t)(unsafe.Pointer(&out[0])), C.size_t(k), &written)
	} else {
		code = C.longstraw_snapshot_top_k(v.snap, key, C.size_t(keyLen),
			(*C.uint32_t)(unsafe.Pointer(&out[0])), C.size_t(k), &written)
	}
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
func (s *nodeSet) Owners(keys []string) ([]string, error) {
	bytes, offsets := packStrings(keys)
	return s.owners(bytes, offsets, len(keys))
}

// OwnersBytes is Owners for keys given as byte slices.
func (s *nodeSet) OwnersBytes(keys [][]byte) ([]string, error) {
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
	return s.owners(bytes, offsets, len(keys))
}

// OwnersPacked is the batch call on keys already in the packed layout: key i
// is bytes[offsets[i]:offsets[i+1]], so len(offsets) is the number of keys
// plus one. It writes owner indices (positions in Nodes at the time of the
// call) to out, which must have one entry per key, and returns the node ids
// those indices refer to: a copy the caller may keep or change.
func (s *nodeSet) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	ids, err := s.ownersPacked(bytes, offsets, out)
	if err != nil {
		return nil, err
	}
	return append([]string(nil), ids...), nil
}

// ownersPacked is OwnersPacked returning the view's own ids, which are
// shared by every lookup and must not be changed.
func (s *nodeSet) ownersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	v, err := s.acquire("OwnersPacked")
	if err != nil {
		return nil, err
	}
	defer v.release()
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

func (s *nodeSet) owners(bytes []byte, offsets []uint64, n int) ([]string, error) {
	out := make([]uint32, n)
	ids, err := s.ownersPacked(bytes, offsets, out)
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
