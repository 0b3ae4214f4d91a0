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
// With cgo on, the package links liblongstraw statically: the module carries
// the header (include/longstraw.h) and one archive per platform
// (lib/<GOOS>_<GOARCH>/liblongstraw.a), so plain `go build` needs no
// environment variables. With cgo off (CGO_ENABLED=0) it runs the same C ABI
// compiled to WebAssembly (liblongstraw.wasm, embedded) under wazero, a
// runtime written in Go: same API, same errors, same placement, on every
// GOOS/GOARCH. See the README for which path a build takes and what the
// portable one costs.
package longstraw

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// PlacementVersion is the placement version this package defaults to. Pin it
// with WithPlacement so that an upgrade of longstraw never moves keys.
const PlacementVersion = cPlacementVersion

// Version is the C library's version as major*10000 + minor*100 + patch.
func Version() int { return libVersion() }

// VersionString is the C library's version, e.g. "0.2.0".
func VersionString() string { return libVersionString() }

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
	snap     snapRef
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
			Code: int(resultInvalidParameter), kind: ErrInvalidArgument}
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
	co := defaultSetOptions() // the hashing comes from the flat set's snapshot
	co.mode = cModeTable
	if o.partitionBits != nil {
		co.partitionBits = *o.partitionBits
	}
	replicas := 1
	if o.replicas != nil {
		replicas = *o.replicas
	}
	co.replicas = uint64(replicas)
	if replicas < 0 {
		co.replicas = math.MaxUint32 // refused by the C library, like any count above 32
	}
	if o.distinct {
		co.tableFlags = cTableDistinctDomains
	}
	if o.balance != nil {
		co.balance = *o.balance
	}
	var h *handle
	var tableCode result // the table's own refusal, not the flat set's
	var detail string    // the C library's own words for it
	err = fromMembers("NewTable", nodes, o, func(members snapRef) result {
		h, tableCode, detail = newSetFrom(members, &co)
		return tableCode
	})
	if err != nil {
		if e, ok := err.(*Error); ok && tableCode != resultOK {
			switch e.Code {
			case int(resultInvalidParameter):
				e.Value = fmt.Sprintf("(partition bits %s, replicas %d%s)", autoOr(o.partitionBits), replicas, balanceNote(o.balance))
			case int(resultConflictingOptions):
				e.Value = fmt.Sprintf("(WithDistinctDomains%s)", balanceNote(o.balance))
				e.reason = detail
			}
		}
		return nil, err
	}
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
	co := defaultSetOptions() // the hashing comes from the flat set's snapshot
	co.mode = cModeSkeleton
	if o.shape != nil {
		co.fanoutBits, co.levels = o.shape[0], o.shape[1]
	}
	var h *handle
	err = fromMembers("NewSkeleton", nodes, o, func(members snapRef) result {
		var code result
		h, code, _ = newSetFrom(members, &co)
		return code
	})
	if err != nil {
		if e, ok := err.(*Error); ok && e.Code == int(resultInvalidParameter) && o.shape != nil {
			e.Value = fmt.Sprintf("WithShape(%d, %d)", o.shape[0], o.shape[1])
		}
		return nil, err
	}
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
func (i *setInfo) read(op string, snap snapRef) error {
	si, code := snapInfo(snap)
	if err := check(code, op, ""); err != nil {
		return err
	}
	i.seed, i.keyed, i.placement = si.seed, si.keyed, si.placement
	switch si.mode {
	case cModeTable:
		i.mode, i.bits, i.replicas = Table, int(si.bits), int(si.replicas)
		i.distinct, i.balance = si.flags&cTableDistinctDomains != 0, si.balance
	case cModeSkeleton:
		i.mode, i.fanoutBits, i.levels = Skeleton, int(si.fanoutBits), int(si.levels)
	}
	return nil
}

// fromMembers builds the nodes as a flat set, then makes the table or
// skeleton from its snapshot with create (the C library takes a table's or
// skeleton's initial nodes from a snapshot, so that it can build at once).
func fromMembers(op string, nodes []string, o options, create func(snapRef) result) error {
	h, err := newFlatHandle(op, nodes, o)
	if err != nil {
		return err
	}
	defer h.free()
	snap, code := h.snapshot()
	if err := check(code, op, ""); err != nil {
		return err
	}
	defer snapFree(snap)
	return check(create(snap), op, "")
}

// newFlatHandle makes a flat C set of the nodes, weights and domains.
func newFlatHandle(op string, nodes []string, o options) (*handle, error) {
	h, code, message := newCRendezvous(o)
	if err := checkWith(code, op, describeHashing(o), message); err != nil {
		return nil, err
	}

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
				Code: int(resultUnknownNode), kind: ErrUnknownNode}
		}
	}
	for n := range o.domains {
		if !index[n] {
			return nil, &Error{Op: op, Value: fmt.Sprintf("WithDomains(%s)", shown(n)),
				Code: int(resultUnknownNode), kind: ErrUnknownNode}
		}
	}
	bytes, offsets := packStrings(nodes)
	var labelBytes []byte
	var labelOffsets []uint64
	if o.domains != nil {
		labelBytes, labelOffsets = packStrings(labels)
	}
	code = h.addBatch(bytes, offsets, weights, labelBytes, labelOffsets)
	if code != resultOK {
		return nil, check(code, op, explainBatch(o, nodes, weights, labels))
	}
	return h, nil
}

// explainBatch finds the node a failed batch add tripped on, by adding the
// nodes one at a time to a scratch set, so the error names it.
func explainBatch(o options, nodes []string, weights []float64, labels []string) string {
	scratch, code, _ := newCRendezvous(o)
	if code != resultOK {
		return ""
	}
	defer scratch.free()
	for i, n := range nodes {
		label := labels[i]
		if scratch.add(n, weights[i], label) != resultOK {
			if label != "" {
				return fmt.Sprintf("(node %s, weight %v, domain %s)", shown(n), weights[i], shown(label))
			}
			return fmt.Sprintf("(node %s, weight %v)", shown(n), weights[i])
		}
	}
	return ""
}

// newViewOf takes a C snapshot of the set and decodes its nodes, or shares
// them with same, a view of the same membership. Callers hold the writer
// lock (or own the set alone).
func (r *Rendezvous) newViewOf(same *view) (*view, error) {
	snap, code := r.h.snapshot()
	if err := check(code, "Snapshot", ""); err != nil {
		return nil, err
	}
	v := &view{snap: snap, info: r.info}
	runtime.SetFinalizer(v, (*view).finalize)
	if same != nil {
		v.ids, v.weights, v.domains, v.eligible = same.ids, same.weights, same.domains, same.eligible
		return v, nil
	}
	ids, weights, domains, eligible, code := snapNodes(v.snap)
	if err := check(code, "snapshot", ""); err != nil {
		return nil, err
	}
	v.ids, v.weights, v.domains, v.eligible = ids, weights, domains, eligible
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

func (r *Rendezvous) change(op, value string, call func(h *handle) result) error {
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
	return r.change(op, value, func(h *handle) result { return h.add(id, weight, domain) })
}

// Remove removes a node. Only the keys it owned move.
func (r *Rendezvous) Remove(id string) error {
	return r.change("Remove", shown(id), func(h *handle) result { return h.remove(id) })
}

// SetWeight changes a node's weight; 0 drains it.
func (r *Rendezvous) SetWeight(id string, weight float64) error {
	return r.change("SetWeight", fmt.Sprintf("(%s, %v)", shown(id), weight), func(h *handle) result { return h.setWeight(id, weight) })
}

// SetDomain sets a node's failure domain; "" clears it.
func (r *Rendezvous) SetDomain(id string, domain string) error {
	return r.change("SetDomain", fmt.Sprintf("(%s, %s)", shown(id), shown(domain)), func(h *handle) result { return h.setDomain(id, domain) })
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
