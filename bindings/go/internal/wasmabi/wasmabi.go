// Package wasmabi runs the longstraw C ABI compiled to WebAssembly
// (liblongstraw.wasm, built for wasm32-wasip1 with simd128) under wazero, a
// WebAssembly runtime written in Go: no cgo, no C compiler, every GOOS/GOARCH.
//
// # Instance strategy
//
// A set lives in one instance's linear memory, and an instance runs one call
// at a time. So each Set owns a pool of instances (at most GOMAXPROCS by
// default), each holding its own copy of the set, built by replaying the set's
// membership log: the operation that created it and every mutation that
// succeeded since. A lookup takes an idle instance from the pool (or makes one
// while the pool is below its cap, or waits for one), brings it up to date
// with the log when a mutation happened since it last served, calls the
// export and puts the instance back. Lookups on one set run in parallel up to
// the cap; different sets never share an instance. A mutation is applied on
// one instance first, under the set's mutex; only when it succeeds does it
// join the log, so every copy replays only operations that succeeded. Replay
// is deterministic (the same core, the same operations in the same order), so
// every copy places keys the same way.
//
// The environment the module sees (LONGSTRAW_BACKEND, a secret named by
// secret.env) is the process environment when the set is created, fixed for
// all of its instances so that a copy made later cannot read a different
// secret. The module has no file system: file exports fail and the host reads
// and writes the files.
//
// # Traps
//
// A panic in the module traps (wasm aborts on panic) and so does an access
// outside linear memory. The instance is then unusable: the call returns a
// *TrapError, the instance is closed and never returned to the pool, and the
// next call builds a fresh copy from the log.
package wasmabi

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// The module, copied here by `make wasm-lib` (not committed).
//
//go:embed liblongstraw.wasm
var moduleBytes []byte

// Result codes of the C ABI the runner itself looks at.
const (
	resultOK = 0
)

// Error is a failure the C library reported: its result code, the code's
// sentence (longstraw_result_str) and the last error message, if any.
type Error struct {
	Op      string
	Code    int32
	Summary string // longstraw_result_str(Code)
	Message string // longstraw_last_error_message(), "" when it adds nothing
}

func (e *Error) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("longstraw: %s: %s", e.Op, e.Message)
	}
	return fmt.Sprintf("longstraw: %s: %s", e.Op, e.Summary)
}

// TrapError reports that the module trapped (a panic in the library or an
// access outside its memory). The instance that trapped has been discarded.
type TrapError struct {
	Op  string
	Err error
}

func (e *TrapError) Error() string {
	return fmt.Sprintf("longstraw: %s: the WebAssembly module trapped (instance replaced): %v", e.Op, e.Err)
}
func (e *TrapError) Unwrap() error { return e.Err }

// engine is the compiled module, shared by every instance of the process.
type engine struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
}

var (
	engineOnce sync.Once
	theEngine  *engine
	engineErr  error
)

func getEngine() (*engine, error) {
	engineOnce.Do(func() {
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCoreFeatures(api.CoreFeaturesV2))
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
			engineErr = err
			return
		}
		compiled, err := rt.CompileModule(ctx, moduleBytes)
		if err != nil {
			engineErr = fmt.Errorf("longstraw: compiling liblongstraw.wasm: %w", err)
			return
		}
		theEngine = &engine{rt: rt, compiled: compiled}
	})
	return theEngine, engineErr
}

// Scratch layout at the start of each instance's scratch buffer: the
// out-parameters of the lookups, then the key bytes.
const (
	outIndex   = 0  // u32
	outIDPtr   = 4  // u32 (wasm32 pointer)
	outIDLen   = 8  // u32 (usize)
	outHandle  = 12 // u32 (a handle written by a constructor)
	scratchHdr = 16
)

type instance struct {
	mod     api.Module
	mem     api.Memory
	fns     map[string]api.Function
	stack   []uint64
	scratch uint32 // offset of the scratch buffer
	cap     uint32 // its size
	set     uint32 // the set's handle in this instance
	snap    uint32 // its current snapshot
	applied int    // log entries applied
}

var instanceSeq atomic.Uint64

func newInstance(ctx context.Context, env []string) (*instance, error) {
	e, err := getEngine()
	if err != nil {
		return nil, err
	}
	cfg := wazero.NewModuleConfig().
		WithName(fmt.Sprintf("longstraw-%d", instanceSeq.Add(1))).
		WithStartFunctions() // a library: no _start
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			cfg = cfg.WithEnv(k, v)
		}
	}
	mod, err := e.rt.InstantiateModule(ctx, e.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("longstraw: instantiating liblongstraw.wasm: %w", err)
	}
	in := &instance{mod: mod, mem: mod.Memory(), fns: map[string]api.Function{}, stack: make([]uint64, 16)}
	for _, name := range []string{
		"longstraw_wasm_alloc", "longstraw_wasm_free", "longstraw_last_error_message", "longstraw_result_str",
		"longstraw_options_init", "longstraw_rendezvous_new", "longstraw_rendezvous_load_bytes", "longstraw_rendezvous_load_file",
		"longstraw_rendezvous_free", "longstraw_rendezvous_add", "longstraw_rendezvous_remove",
		"longstraw_rendezvous_set_weight", "longstraw_rendezvous_snapshot", "longstraw_snapshot_free",
		"longstraw_snapshot_owner", "longstraw_snapshot_top_k", "longstraw_snapshot_owners", "longstraw_snapshot_len",
	} {
		f := mod.ExportedFunction(name)
		if f == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("longstraw: liblongstraw.wasm does not export %s", name)
		}
		in.fns[name] = f
	}
	if err := in.grow(ctx, 4096); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

// call runs an export; a trap becomes a *TrapError.
func (in *instance) call(ctx context.Context, op, name string, args ...uint64) (uint64, error) {
	f := in.fns[name]
	if f == nil {
		if f = in.mod.ExportedFunction(name); f == nil {
			return 0, fmt.Errorf("longstraw: liblongstraw.wasm does not export %s", name)
		}
		in.fns[name] = f
	}
	copy(in.stack, args)
	if err := f.CallWithStack(ctx, in.stack); err != nil {
		return 0, &TrapError{Op: op, Err: err}
	}
	return in.stack[0], nil
}

// check turns a result code into an error with the library's message.
func (in *instance) check(ctx context.Context, op string, code uint64) error {
	c := int32(uint32(code))
	if c == resultOK {
		return nil
	}
	e := &Error{Op: op, Code: c}
	if p, err := in.call(ctx, op, "longstraw_last_error_message"); err != nil {
		return err
	} else {
		e.Message = in.cString(uint32(p))
	}
	if p, err := in.call(ctx, op, "longstraw_result_str", uint64(uint32(c))); err != nil {
		return err
	} else {
		e.Summary = in.cString(uint32(p))
	}
	return e
}

func (in *instance) cString(p uint32) string {
	var b []byte
	for {
		c, ok := in.mem.ReadByte(p)
		if !ok || c == 0 {
			return string(b)
		}
		b = append(b, c)
		p++
	}
}

// grow makes the scratch buffer hold at least n bytes after its header.
func (in *instance) grow(ctx context.Context, n uint32) error {
	need := n + scratchHdr
	if need <= in.cap {
		return nil
	}
	if in.cap != 0 {
		if _, err := in.call(ctx, "free", "longstraw_wasm_free", uint64(in.scratch), uint64(in.cap)); err != nil {
			return err
		}
	}
	size := max(need, 2*in.cap)
	p, err := in.call(ctx, "alloc", "longstraw_wasm_alloc", uint64(size))
	if err != nil {
		return err
	}
	if p == 0 {
		in.cap = 0
		return &Error{Op: "alloc", Summary: "out of memory"}
	}
	in.scratch, in.cap = uint32(p), size
	return nil
}

// put copies b into the scratch buffer at offset off (after the header) and
// returns its address.
func (in *instance) put(ctx context.Context, off uint32, b []byte) (uint32, error) {
	if err := in.grow(ctx, off+uint32(len(b))); err != nil {
		return 0, err
	}
	p := in.scratch + scratchHdr + off
	if !in.mem.Write(p, b) {
		return 0, errors.New("longstraw: scratch write outside memory")
	}
	return p, nil
}

func (in *instance) readU32(p uint32) uint32 {
	v, _ := in.mem.ReadUint32Le(p)
	return v
}

// op is one entry of a set's membership log.
type op struct {
	kind   int
	seed   uint64
	secret []byte
	place  uint32
	data   []byte // id, or membership bytes
	weight float64
}

const (
	opNew = iota
	opLoadBytes
	opAdd
	opRemove
	opSetWeight
	opBase // frees the set and loads data: the log's first entry after a compaction
)

// The wasm32 layout of longstraw_options (include/longstraw.h): pointers and
// size_t are 4 bytes, u64 and double 8-byte aligned.
const (
	optionsSize      = 56
	optPlacement     = 4
	optSeed          = 8
	optHasSeed       = 16
	optSecret        = 24
	optSecretLen     = 28
	optionsAfterData = 8 // the struct starts 8-byte aligned after the secret
)

// newSet builds the options struct in scratch memory (the library's defaults
// from longstraw_options_init, then the seed, secret and placement) and
// calls longstraw_rendezvous_new. Seed 0 with no secret is the default seed;
// a non-zero seed is named, so the library refuses it next to a secret.
func (in *instance) newSet(ctx context.Context, o *op, out uint32) (uint64, error) {
	sp, err := in.put(ctx, 0, o.secret)
	if err != nil {
		return 0, err
	}
	off := (uint32(len(o.secret)) + optionsAfterData - 1) / optionsAfterData * optionsAfterData
	opts, err := in.put(ctx, off, make([]byte, optionsSize))
	if err != nil {
		return 0, err
	}
	code, err := in.call(ctx, "New", "longstraw_options_init", uint64(opts), optionsSize)
	if err != nil {
		return 0, err
	}
	if err := in.check(ctx, "New", code); err != nil {
		return 0, err
	}
	if len(o.secret) == 0 {
		sp = 0
	}
	hasSeed := uint32(0)
	if o.seed != 0 {
		hasSeed = 1
	}
	ok := in.mem.WriteUint32Le(opts+optPlacement, o.place) &&
		in.mem.WriteUint64Le(opts+optSeed, o.seed) &&
		in.mem.WriteUint32Le(opts+optHasSeed, hasSeed) &&
		in.mem.WriteUint32Le(opts+optSecret, sp) &&
		in.mem.WriteUint32Le(opts+optSecretLen, uint32(len(o.secret)))
	if !ok {
		return 0, errors.New("longstraw: scratch write outside memory")
	}
	return in.call(ctx, "New", "longstraw_rendezvous_new", uint64(opts), uint64(out))
}

// apply runs one log entry on this instance.
func (in *instance) apply(ctx context.Context, o *op) error {
	switch o.kind {
	case opNew, opLoadBytes, opBase:
		var code uint64
		var err error
		out := in.scratch + outHandle
		if o.kind == opBase && in.set != 0 {
			if _, err := in.call(ctx, "LoadBytes", "longstraw_rendezvous_free", uint64(in.set)); err != nil {
				return err
			}
			in.set = 0
		}
		if o.kind == opNew {
			code, err = in.newSet(ctx, o, out)
		} else {
			var p uint32
			if p, err = in.put(ctx, 0, o.data); err != nil {
				return err
			}
			code, err = in.call(ctx, "LoadBytes", "longstraw_rendezvous_load_bytes", uint64(p), uint64(len(o.data)), uint64(out))
		}
		if err != nil {
			return err
		}
		if err := in.check(ctx, "New", code); err != nil {
			return err
		}
		in.set = in.readU32(out)
	case opAdd, opRemove, opSetWeight:
		p, err := in.put(ctx, 0, o.data)
		if err != nil {
			return err
		}
		var code uint64
		switch o.kind {
		case opAdd:
			code, err = in.call(ctx, "Add", "longstraw_rendezvous_add", uint64(in.set), uint64(p), uint64(len(o.data)), api.EncodeF64(o.weight))
		case opRemove:
			code, err = in.call(ctx, "Remove", "longstraw_rendezvous_remove", uint64(in.set), uint64(p), uint64(len(o.data)))
		default:
			code, err = in.call(ctx, "SetWeight", "longstraw_rendezvous_set_weight", uint64(in.set), uint64(p), uint64(len(o.data)), api.EncodeF64(o.weight))
		}
		if err != nil {
			return err
		}
		if err := in.check(ctx, opName(o.kind), code); err != nil {
			return err
		}
	}
	in.snap = 0 // stale: taken again before the next lookup
	return nil
}

func opName(k int) string {
	return [...]string{"New", "LoadBytes", "Add", "Remove", "SetWeight", "LoadBytes"}[k]
}

// refresh frees the old snapshot and takes the current one.
func (in *instance) refresh(ctx context.Context, old uint32) error {
	if old != 0 {
		if _, err := in.call(ctx, "snapshot", "longstraw_snapshot_free", uint64(old)); err != nil {
			return err
		}
	}
	out := in.scratch + outHandle
	code, err := in.call(ctx, "snapshot", "longstraw_rendezvous_snapshot", uint64(in.set), uint64(out))
	if err != nil {
		return err
	}
	if err := in.check(ctx, "snapshot", code); err != nil {
		return err
	}
	in.snap = in.readU32(out)
	return nil
}

// Set is one node set held in a pool of instances (see the package comment).
type Set struct {
	env []string
	mu  sync.Mutex            // serializes mutations
	log atomic.Pointer[opLog] // the membership log, replaced (never changed) on each mutation
	// Under mu: whether the set compacts (an unkeyed set; a keyed one keeps
	// its whole log), and the log length at which to try again.
	compacts bool
	retryAt  int
	pool     chan *instance // idle instances
	slots    chan struct{}  // one token per instance that may exist
	live     atomic.Int32   // instances alive (for tests and measurements)
	traps    atomic.Int32   // instances discarded after a trap
}

// Options of a Set.
type Options struct {
	// MaxInstances caps the instances of one set (lookups in parallel);
	// 0 means runtime.GOMAXPROCS(0).
	MaxInstances int
}

func newSet(first op, o Options) (*Set, error) {
	n := o.MaxInstances
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	s := &Set{env: os.Environ(), pool: make(chan *instance, n), slots: make(chan struct{}, n)}
	for range n {
		s.slots <- struct{}{}
	}
	s.compacts = true
	s.log.Store(&opLog{ops: []op{first}})
	// Build the first copy now, so that a bad argument fails here.
	in, err := s.acquire(context.Background(), "New")
	if err != nil {
		return nil, err
	}
	s.release(in)
	return s, nil
}

// New creates an empty flat set (longstraw_rendezvous_new).
func New(seed uint64, secret []byte, placement uint32, o Options) (*Set, error) {
	return newSet(op{kind: opNew, seed: seed, secret: append([]byte(nil), secret...), place: placement}, o)
}

// LoadBytes creates a set from the content of a membership file
// (longstraw_rendezvous_load_bytes).
func LoadBytes(data []byte, o Options) (*Set, error) {
	return newSet(op{kind: opLoadBytes, data: append([]byte(nil), data...)}, o)
}

// acquire takes an idle instance, or makes one, or waits for one, and brings
// it up to date with the log.
func (s *Set) acquire(ctx context.Context, opName string) (*instance, error) {
	var in *instance
	select {
	case in = <-s.pool:
	default:
		select {
		case in = <-s.pool:
		case <-s.slots:
			var err error
			if in, err = newInstance(ctx, s.env); err != nil {
				s.slots <- struct{}{}
				return nil, err
			}
			s.live.Add(1)
		}
	}
	l := s.log.Load()
	if in.applied < l.version() || in.snap == 0 {
		if err := s.catchUp(ctx, in, l); err != nil {
			s.discard(in, err)
			return nil, err
		}
	}
	return in, nil
}

func (s *Set) catchUp(ctx context.Context, in *instance, l *opLog) error {
	old := in.snap
	for in.applied < l.version() {
		if in.applied <= l.base { // behind the base: start again from it
			if err := in.apply(ctx, &l.ops[0]); err != nil {
				return err
			}
			in.applied = l.base + 1
			continue
		}
		if err := in.apply(ctx, &l.ops[in.applied-l.base]); err != nil {
			return err
		}
		in.applied++
	}
	return in.refresh(ctx, old)
}

// opLog is a set's log: ops[0] leads to version base+1 (from nothing when
// base > 0: it is then an opBase), each later entry to the next version.
type opLog struct {
	base int
	ops  []op
}

func (l *opLog) version() int { return l.base + len(l.ops) }

// compactAfter is the log length at which a change replaces the log of an
// unkeyed set by one opBase: the membership file text the module renders of
// the set (longstraw_rendezvous_save_bytes), checked to render the same text
// when loaded back.
var compactAfter = 256

// render is the membership file text of the set the handle set names.
func (in *instance) render(ctx context.Context, set uint32) ([]byte, error) {
	p, err := in.put(ctx, 0, []byte("<data>\x00"))
	if err != nil {
		return nil, err
	}
	code, err := in.call(ctx, "Save", "longstraw_rendezvous_save_bytes", uint64(set), uint64(p), 0, 0,
		uint64(in.scratch+outIDPtr), uint64(in.scratch+outIDLen))
	if err != nil {
		return nil, err
	}
	if err := in.check(ctx, "Save", code); err != nil {
		return nil, err
	}
	q, n := in.readU32(in.scratch+outIDPtr), in.readU32(in.scratch+outIDLen)
	b, ok := in.mem.Read(q, n)
	if !ok {
		return nil, errors.New("longstraw: rendered text outside memory")
	}
	text := append([]byte(nil), b...)
	if _, err := in.call(ctx, "Save", "longstraw_bytes_free", uint64(q), uint64(n)); err != nil {
		return nil, err
	}
	return text, nil
}

// compact replaces the log l (the current one, under mu; in's copy is at its
// version) by one opBase when the set is unkeyed and its text loads back the
// same. A trap is returned (the change itself succeeded); any other failure
// leaves the log as it is.
func (s *Set) compact(ctx context.Context, in *instance, l *opLog) error {
	out, err := in.put(ctx, 0, make([]byte, 16))
	if err != nil {
		return nil
	}
	code, err := in.call(ctx, "Save", "longstraw_wasm_rendezvous_secret", uint64(in.set), uint64(out), 16)
	if err != nil {
		return err
	}
	if code == 0 { // keyed: the text names no secret it could be loaded with
		s.compacts = false
		return nil
	}
	s.retryAt = len(l.ops) + compactAfter // when this one does not happen
	data, err := in.render(ctx, in.set)
	if err != nil {
		var trap *TrapError
		if errors.As(err, &trap) {
			return err
		}
		return nil
	}
	base := op{kind: opBase, data: data}
	keep := in.set
	in.set = 0
	err = in.apply(ctx, &base)
	loaded := in.set
	in.set = keep
	if err != nil {
		var trap *TrapError
		if errors.As(err, &trap) {
			return err
		}
		return nil
	}
	again, err := in.render(ctx, loaded)
	if _, ferr := in.call(ctx, "Save", "longstraw_rendezvous_free", uint64(loaded)); ferr != nil {
		return ferr
	}
	if err != nil || string(again) != string(data) {
		var trap *TrapError
		if errors.As(err, &trap) {
			return err
		}
		return nil
	}
	s.log.Store(&opLog{base: l.version() - 1, ops: []op{base}})
	s.retryAt = 0
	return nil
}

func (s *Set) release(in *instance) { s.pool <- in }

// discard closes an instance that trapped (or could not be brought up to
// date) and frees its slot.
func (s *Set) discard(in *instance, err error) {
	var trap *TrapError
	if errors.As(err, &trap) {
		s.traps.Add(1)
	}
	in.mod.Close(context.Background())
	s.live.Add(-1)
	s.slots <- struct{}{}
}

// done returns the instance to the pool, or discards it after a trap.
func (s *Set) done(in *instance, err error) error {
	var trap *TrapError
	if errors.As(err, &trap) {
		s.discard(in, err)
	} else {
		s.release(in)
	}
	return err
}

// mutate applies one operation on one instance and, when it succeeds, adds
// it to the log.
func (s *Set) mutate(o op) error {
	ctx := context.Background()
	s.mu.Lock()
	defer s.mu.Unlock()
	in, err := s.acquire(ctx, opName(o.kind))
	if err != nil {
		return err
	}
	old := in.snap
	if err := in.apply(ctx, &o); err != nil {
		in.snap = old
		return s.done(in, err)
	}
	l := s.log.Load()
	n := len(l.ops)
	next := &opLog{base: l.base, ops: append(l.ops[:n:n], o)}
	s.log.Store(next)
	in.applied = next.version()
	if s.compacts && len(next.ops) >= max(compactAfter, s.retryAt) {
		if err := s.compact(ctx, in, next); err != nil {
			in.snap = old
			s.done(in, err)
			return nil // the change was made; the instance that trapped is gone
		}
	}
	return s.done(in, in.refresh(ctx, old))
}

// Add adds a node with a weight.
func (s *Set) Add(id string, weight float64) error {
	return s.mutate(op{kind: opAdd, data: []byte(id), weight: weight})
}

// Remove removes a node.
func (s *Set) Remove(id string) error { return s.mutate(op{kind: opRemove, data: []byte(id)}) }

// SetWeight changes a node's weight.
func (s *Set) SetWeight(id string, weight float64) error {
	return s.mutate(op{kind: opSetWeight, data: []byte(id), weight: weight})
}

// Owner returns the index and id of the node that owns key.
func (s *Set) Owner(key []byte) (uint32, string, error) {
	ctx := context.Background()
	in, err := s.acquire(ctx, "Owner")
	if err != nil {
		return 0, "", err
	}
	idx, id, err := in.owner(ctx, key)
	return idx, id, s.done(in, err)
}

func (in *instance) owner(ctx context.Context, key []byte) (uint32, string, error) {
	kp, err := in.put(ctx, 0, key)
	if err != nil {
		return 0, "", err
	}
	sc := in.scratch
	code, err := in.call(ctx, "Owner", "longstraw_snapshot_owner", uint64(in.snap), uint64(kp), uint64(len(key)),
		uint64(sc+outIndex), uint64(sc+outIDPtr), uint64(sc+outIDLen))
	if err != nil {
		return 0, "", err
	}
	if err := in.check(ctx, "Owner", code); err != nil {
		return 0, "", err
	}
	idx, idp, idl := in.readU32(sc+outIndex), in.readU32(sc+outIDPtr), in.readU32(sc+outIDLen)
	b, ok := in.mem.Read(idp, idl)
	if !ok {
		return 0, "", errors.New("longstraw: Owner: id outside memory")
	}
	return idx, string(b), nil
}

// TopK returns the indices of the best k nodes for key, best first.
func (s *Set) TopK(key []byte, k int) ([]uint32, error) {
	ctx := context.Background()
	in, err := s.acquire(ctx, "TopK")
	if err != nil {
		return nil, err
	}
	r, err := in.topK(ctx, key, k)
	return r, s.done(in, err)
}

func (in *instance) topK(ctx context.Context, key []byte, k int) ([]uint32, error) {
	if k < 0 {
		return nil, &Error{Op: "TopK", Summary: "k is negative"}
	}
	// [out: k u32][written: u32][key]
	outOff := uint32(0)
	wOff := uint32(4 * k)
	kOff := wOff + 4
	kp, err := in.put(ctx, kOff, key)
	if err != nil {
		return nil, err
	}
	base := in.scratch + scratchHdr
	code, err := in.call(ctx, "TopK", "longstraw_snapshot_top_k", uint64(in.snap), uint64(kp), uint64(len(key)),
		uint64(base+outOff), uint64(k), uint64(base+wOff))
	if err != nil {
		return nil, err
	}
	if err := in.check(ctx, "TopK", code); err != nil {
		return nil, err
	}
	n := in.readU32(base + wOff)
	r := make([]uint32, n)
	for i := range r {
		r[i] = in.readU32(base + outOff + 4*uint32(i))
	}
	return r, nil
}

// Owners writes the owner index of every key to out (len(out) == len(keys)).
func (s *Set) Owners(keys [][]byte, out []uint32) error {
	ctx := context.Background()
	in, err := s.acquire(ctx, "Owners")
	if err != nil {
		return err
	}
	return s.done(in, in.owners(ctx, keys, out))
}

func (in *instance) owners(ctx context.Context, keys [][]byte, out []uint32) error {
	if len(out) != len(keys) {
		return &Error{Op: "Owners", Summary: "out and keys differ in length"}
	}
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	n := uint32(len(keys))
	// [offsets: (n+1) u64][out: n u32][key bytes]
	offOff, outOff := uint32(0), 8*(n+1)
	keyOff := outOff + 4*n
	if err := in.grow(ctx, keyOff+uint32(total)); err != nil {
		return err
	}
	base := in.scratch + scratchHdr
	buf := make([]byte, keyOff+uint32(total))
	pos := uint64(0)
	for i, k := range keys {
		putU64(buf[offOff+8*uint32(i):], pos)
		copy(buf[keyOff+uint32(pos):], k)
		pos += uint64(len(k))
	}
	putU64(buf[offOff+8*n:], pos)
	if !in.mem.Write(base, buf) {
		return errors.New("longstraw: Owners: scratch write outside memory")
	}
	code, err := in.call(ctx, "Owners", "longstraw_snapshot_owners", uint64(in.snap), uint64(base+keyOff), uint64(total),
		uint64(base+offOff), uint64(n+1), uint64(base+outOff), uint64(n))
	if err != nil {
		return err
	}
	if err := in.check(ctx, "Owners", code); err != nil {
		return err
	}
	raw, ok := in.mem.Read(base+outOff, 4*n)
	if !ok {
		return errors.New("longstraw: Owners: out outside memory")
	}
	for i := range out {
		out[i] = uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24
	}
	return nil
}

func putU64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// LoadFile calls longstraw_rendezvous_load_file in a fresh instance: the
// module has no file system, so this always fails; the host reads the file
// and calls LoadBytes. It exists to check that the failure is an error.
func LoadFile(path string) error {
	ctx := context.Background()
	in, err := newInstance(ctx, nil)
	if err != nil {
		return err
	}
	defer in.mod.Close(ctx)
	p, err := in.put(ctx, 0, append([]byte(path), 0))
	if err != nil {
		return err
	}
	code, err := in.call(ctx, "LoadFile", "longstraw_rendezvous_load_file", uint64(p), uint64(in.scratch+outHandle))
	if err != nil {
		return err
	}
	if err := in.check(ctx, "LoadFile", code); err != nil {
		return err
	}
	return errors.New("longstraw: LoadFile: loaded a file from inside WebAssembly, which has no file system")
}

// Instances reports how many instances the set holds now and how many it
// discarded after a trap.
func (s *Set) Instances() (live, trapped int) { return int(s.live.Load()), int(s.traps.Load()) }

// MemoryBytes is the linear memory of the set's idle instances, in bytes.
func (s *Set) MemoryBytes() (total uint64) {
	var held []*instance
	for {
		select {
		case in := <-s.pool:
			held = append(held, in)
			total += uint64(in.mem.Size())
			continue
		default:
		}
		break
	}
	for _, in := range held {
		s.pool <- in
	}
	return total
}

// Close releases every idle instance. The set must not be used afterwards.
func (s *Set) Close() {
	for {
		select {
		case in := <-s.pool:
			in.mod.Close(context.Background())
			s.live.Add(-1)
		default:
			return
		}
	}
}
