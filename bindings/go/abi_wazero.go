//go:build !cgo || longstraw_wasm || !linux || !(amd64 || arm64)

package longstraw

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/longstraw/longstraw/bindings/go/internal/wasmabi"
	"github.com/tetratelabs/wazero/api"
)

// The portable implementation of the seam (abi.go): the C ABI compiled to
// WebAssembly (liblongstraw.wasm, embedded), run by wazero.
//
// # Instance strategy
//
// A WebAssembly instance runs one call at a time, and its memory is its own.
// So each set (with every snapshot taken of it) is a family that owns a pool
// of instances, at most GOMAXPROCS, each holding its own copy of the set.
// A copy is rebuilt by replaying the family's log: the operation that made
// the set and every change that succeeded since, in order (the same core and
// the same operations give the same set, byte for byte). A membership is a
// version, the length of the log when it was taken; a lookup takes an idle
// instance (or makes one while the pool is below its cap, or waits), gives
// it a C snapshot of the version it asks for (kept per instance while some
// view of that version is alive), calls the export and returns the
// instance. A change runs on one instance under the family's lock and joins
// the log only when it succeeds.
//
// A trap (a panic in the library) kills its instance: the call returns an
// error (ErrInternal, "the WebAssembly module trapped"), the instance is
// closed, and the next call builds a fresh copy from the log. A bounded-load
// set keeps requests in flight, which cannot be copied, so it lives in one
// instance behind a mutex; a trap there makes the set unusable.

// portable is true: this build runs liblongstraw.wasm under wazero.
const portable = true

// trapText is resultTrap's sentence.
const trapText = "the WebAssembly module trapped (its instance was replaced)"

// winst is one instance of a family: its copy of the set at version applied
// and the C snapshots of the versions it has served.
type winst struct {
	*wasmabi.Instance
	mem      api.Memory
	set      uint32
	applied  int
	snaps    map[int]uint32
	deadSeen uint64
	broken   bool // trapped: never used again
	// The last snapshot served, and the owner export: the lookup path's
	// shortcuts past two map lookups.
	lastVersion int
	lastSnap    uint32
	ownerFn     wasmabi.Export
}

// famOp is one log entry: it runs on in, on the set handle set (0 before the
// first entry), and returns the set handle after it (a new one for the
// entry that makes the set).
type famOp func(in *winst, set uint32) (uint32, result, string)

type family struct {
	env  []string
	wmu  sync.Mutex             // serialises changes
	mu   sync.Mutex             // refs, alive
	log  atomic.Pointer[famLog] // replaced, never changed
	olds map[int]famOp          // bases of held versions older than log.base+1 (under mu)
	// Under wmu: whether the set compacts at all (a keyed set made in code
	// cannot be rendered without naming a secret source), and the log length
	// at which to try again after a compaction that did not happen.
	compacts bool
	retryAt  int
	pool     chan *winst
	slots    chan struct{}
	refs     map[int]int // live snapRefs per version
	deadGen  atomic.Uint64
	alive    bool        // the handle is not freed
	done     atomic.Bool // the handle is freed and no view is alive: instances close
}

// scratch layout: out-parameters first, then the arguments.
const (
	outA    = 0
	outB    = 8
	outC    = 16
	outD    = 24
	argBase = 64
)

func newFamily() *family {
	n := runtime.GOMAXPROCS(0)
	f := &family{env: os.Environ(), pool: make(chan *winst, n), slots: make(chan struct{}, n), refs: map[int]int{}, alive: true}
	for range n {
		f.slots <- struct{}{}
	}
	f.log.Store(&famLog{})
	f.olds = map[int]famOp{}
	f.compacts = true
	return f
}

func newWinst(env []string) (*winst, error) {
	i, err := wasmabi.NewInstance(env)
	if err != nil {
		return nil, err
	}
	liveInstances.Add(1)
	ownerFn, _ := i.Export("longstraw_snapshot_owner")
	return &winst{Instance: i, mem: i.Memory(), snaps: map[int]uint32{}, lastVersion: -1, ownerFn: ownerFn}, nil
}

// liveInstances counts the instances open in the process (for tests).
var liveInstances atomic.Int64

// close releases the instance.
func (in *winst) close() {
	in.Instance.Close()
	liveInstances.Add(-1)
}

// call runs an export; a trap marks the instance broken and returns ok false.
func (in *winst) call(name string, args ...uint64) (uint64, bool) {
	r, err := in.Call(name, name, args...)
	if err != nil {
		in.broken = true
		return 0, false
	}
	return r, true
}

// code runs an export that returns a longstraw_result.
func (in *winst) code(name string, args ...uint64) result {
	r, ok := in.call(name, args...)
	if !ok {
		return resultTrap
	}
	return result(int32(uint32(r)))
}

// message is longstraw_last_error_message for a failed code ("" for OK).
func (in *winst) message(code result) string {
	if code == resultOK {
		return ""
	}
	if code == resultTrap {
		return trapText
	}
	p, ok := in.call("longstraw_last_error_message")
	if !ok {
		return trapText
	}
	return in.CString(uint32(p))
}

// args reserves room for the out-parameters and n bytes of arguments and
// returns the scratch base; the arguments start at base+argBase.
func (in *winst) args(n int) (uint32, bool) {
	if uint64(n)+argBase > math.MaxUint32/2 {
		return 0, false
	}
	base, err := in.Reserve(uint32(n) + argBase)
	if err != nil {
		var trap *wasmabi.TrapError
		if errors.As(err, &trap) {
			in.broken = true
		}
		return 0, false
	}
	return base, true
}

func (in *winst) u32(p uint32) uint32 { v, _ := in.mem.ReadUint32Le(p); return v }
func (in *winst) u64(p uint32) uint64 { v, _ := in.mem.ReadUint64Le(p); return v }
func (in *winst) f64(p uint32) float64 {
	return math.Float64frombits(in.u64(p))
}
func (in *winst) bytesAt(p, n uint32) []byte {
	b, _ := in.mem.Read(p, n)
	return b
}

// putArgs writes parts one after another from base+argBase, each 8-byte
// aligned, and returns each part's address (0 for an empty part, so that
// the library sees NULL as the cgo path passes it).
func (in *winst) putArgs(parts ...[]byte) ([]uint32, uint32, bool) {
	total := 0
	for _, p := range parts {
		total += (len(p) + 7) &^ 7
	}
	base, ok := in.args(total)
	if !ok {
		return nil, 0, false
	}
	addrs := make([]uint32, len(parts))
	at := base + argBase
	for i, p := range parts {
		if len(p) > 0 {
			in.mem.Write(at, p)
			addrs[i] = at
		}
		at += uint32((len(p) + 7) &^ 7)
	}
	return addrs, base, true
}

// oomOrTrap is the result of a scratch buffer that could not be had.
func (in *winst) oomOrTrap() result {
	if in.broken {
		return resultTrap
	}
	return resultOutOfMemory
}

// acquire takes an idle instance, or makes one, or waits for one.
func (f *family) acquire() (*winst, result) {
	var in *winst
	select {
	case in = <-f.pool:
	default:
		select {
		case in = <-f.pool:
		case <-f.slots:
			var err error
			if in, err = newWinst(f.env); err != nil {
				f.slots <- struct{}{}
				return nil, resultInternalError
			}
		}
	}
	if g := f.deadGen.Load(); in.deadSeen != g {
		f.dropDead(in, g)
	}
	return in, resultOK
}

// dropDead frees the instance's snapshots of versions no view holds.
func (f *family) dropDead(in *winst, gen uint64) {
	f.mu.Lock()
	var dead []int
	for v := range in.snaps {
		if f.refs[v] == 0 {
			dead = append(dead, v)
		}
	}
	f.mu.Unlock()
	for _, v := range dead {
		in.call("longstraw_snapshot_free", uint64(in.snaps[v]))
		delete(in.snaps, v)
	}
	in.lastVersion = -1
	in.deadSeen = gen
}

// release returns an instance to the pool, or closes it after a trap or
// once the family is gone.
func (f *family) release(in *winst) {
	if in.broken || f.done.Load() {
		in.close()
		f.slots <- struct{}{}
		return
	}
	f.pool <- in
}

func (f *family) finished() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.alive && len(f.refs) == 0
}

// finish closes the idle instances once the handle is freed and no view is
// alive; busy ones close when released.
func (f *family) finishIfDone() {
	if !f.finished() {
		return
	}
	f.done.Store(true)
	for {
		select {
		case in := <-f.pool:
			in.close()
			f.slots <- struct{}{}
		default:
			return
		}
	}
}

// famLog is the family's log: ops[0] leads to version base+1 (from nothing
// when base > 0: it is then a base, see compactAfter), each later entry to
// the next version. Versions are absolute: base + len(ops) is the current one.
type famLog struct {
	base int
	ops  []famOp
}

func (l *famLog) version() int { return l.base + len(l.ops) }

// compactAfter is the log length at which a change replaces the log by one
// base: an entry that loads the set from the membership file text the module
// renders of it (longstraw_rendezvous_save_bytes), checked to render the same
// text when loaded back, with a keyed set's secret passed in
// (longstraw_wasm_load_bytes_keyed) rather than read again. A version a live
// snapshot holds that is older than the new base gets a base of its own.
var compactAfter = 256

// opsFor is what rebuilds version from nothing: its own base, or a prefix of
// the log (nil when the version is no longer servable).
func (f *family) opsFor(version int) []famOp {
	l := f.log.Load()
	f.mu.Lock()
	old := f.olds[version]
	f.mu.Unlock()
	if old != nil {
		return []famOp{old}
	}
	if l.base < version && version <= l.version() {
		return l.ops[:version-l.base]
	}
	return nil
}

// catchUp applies the log up to version on the instance's copy; a copy past
// version is not moved back (see snapAt).
func (f *family) catchUp(in *winst, l *famLog, version int) (result, string) {
	for in.applied < version {
		var op famOp
		if in.applied <= l.base {
			op = l.ops[0] // a base frees the copy it is given
		} else {
			op = l.ops[in.applied-l.base]
		}
		set, code, msg := op(in, in.set)
		if code != resultOK {
			// The log holds only operations that succeeded; a replay that
			// fails leaves the copy unusable.
			in.broken = true
			if code != resultTrap {
				code, msg = resultInternalError, "replaying the membership log failed: "+msg
			}
			return code, msg
		}
		in.set = set
		if in.applied <= l.base {
			in.applied = l.base + 1
		} else {
			in.applied++
		}
	}
	return resultOK, ""
}

// snapAt is the instance's C snapshot of version, taken now if needed: from
// its copy when the copy is at or before version, else from a copy of its
// own replayed in the same instance and freed at once.
func (f *family) snapAt(in *winst, version int) (uint32, result) {
	if in.lastVersion == version {
		return in.lastSnap, resultOK
	}
	if h, ok := in.snaps[version]; ok {
		in.lastVersion, in.lastSnap = version, h
		return h, resultOK
	}
	l := f.log.Load()
	base, ok := in.args(0)
	if !ok {
		return 0, in.oomOrTrap()
	}
	var set uint32
	temp := false
	if in.applied <= version && version > l.base {
		if code, _ := f.catchUp(in, l, version); code != resultOK {
			return 0, code
		}
		set = in.set
	} else {
		temp = true
		ops := f.opsFor(version)
		if ops == nil {
			return 0, resultInternalError
		}
		for _, op := range ops {
			var code result
			if set, code, _ = op(in, set); code != resultOK {
				in.broken = true
				return 0, resultInternalError
			}
		}
		base, _ = in.args(0)
	}
	code := in.code("longstraw_rendezvous_snapshot", uint64(set), uint64(base+outA))
	if temp {
		in.call("longstraw_rendezvous_free", uint64(set))
	}
	if code != resultOK {
		return 0, code
	}
	h := in.u32(base + outA)
	in.snaps[version] = h
	in.lastVersion, in.lastSnap = version, h
	return h, resultOK
}

// handle is a set (a family) behind a Rendezvous.
type handle struct {
	f     *family
	freed bool
}

// snapRef is one membership: a version of a family's log.
type snapRef = *wsnap

type wsnap struct {
	f       *family
	version int
	freed   atomic.Bool
}

// create runs first as the family's first log entry on a fresh instance, so
// that a bad argument fails here.
func create(first famOp) (*handle, result, string) {
	f := newFamily()
	in, code := f.acquire()
	if code != resultOK {
		return nil, code, ""
	}
	set, code, msg := first(in, 0)
	if code != resultOK {
		in.broken = true // its memory may hold a half-made set; start afresh
		f.alive = false
		f.done.Store(true)
		f.release(in)
		return nil, code, msg
	}
	in.set, in.applied = set, 1
	f.log.Store(&famLog{ops: []famOp{first}})
	f.release(in)
	h := &handle{f: f}
	runtime.SetFinalizer(h, (*handle).free)
	return h, resultOK, ""
}

// writeOptions lays longstraw_options out in the instance (the wasm32 layout
// the ffi crate pins at 56 bytes) and returns its address.
func writeOptions(in *winst, o *setOptions) (uint32, bool) {
	addrs, _, ok := in.putArgs(o.secret, make([]byte, 56))
	if !ok {
		return 0, false
	}
	p := addrs[1]
	if in.code("longstraw_options_init", uint64(p), 56) != resultOK {
		return 0, false
	}
	b := make([]byte, 56)
	copy(b, in.bytesAt(p, 56))
	le := binary.LittleEndian
	le.PutUint32(b[4:], o.placement)
	le.PutUint64(b[8:], o.seed)
	has := uint32(0)
	if o.hasSeed {
		has = 1
	}
	le.PutUint32(b[16:], has)
	le.PutUint32(b[20:], o.mode)
	secret := addrs[0]
	if o.secret != nil && len(o.secret) == 0 {
		secret = p // non-NULL with length 0: an empty secret, refused by the library
	}
	le.PutUint32(b[24:], secret)
	le.PutUint32(b[28:], uint32(len(o.secret)))
	le.PutUint32(b[32:], 0)
	replicas := o.replicas
	if replicas > math.MaxUint32 {
		replicas = math.MaxUint32
	}
	le.PutUint32(b[36:], uint32(replicas))
	le.PutUint64(b[40:], math.Float64bits(o.balance))
	le.PutUint32(b[48:], o.tableFlags)
	b[52], b[53], b[54] = o.partitionBits, o.fanoutBits, o.levels
	in.mem.Write(p, b)
	return p, true
}

func newFlatOp(o setOptions) famOp {
	o.secret = cloneBytes(o.secret)
	return func(in *winst, _ uint32) (uint32, result, string) {
		p, ok := writeOptions(in, &o)
		if !ok {
			return 0, in.oomOrTrap(), ""
		}
		base, _ := in.args(0) // writeOptions reserved room; the base did not move
		code := in.code("longstraw_rendezvous_new", uint64(p), uint64(base+outA))
		if code != resultOK {
			return 0, code, in.message(code)
		}
		return in.u32(base + outA), resultOK, ""
	}
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

func newSetHandle(o *setOptions) (*handle, result, string) { return create(newFlatOp(*o)) }

// newSetFrom makes a table or skeleton of the members' nodes: its first log
// entry replays the members' log into a scratch set of the same instance.
func newSetFrom(members snapRef, o *setOptions) (*handle, result, string) {
	prefix := members.f.opsFor(members.version) // held by members: servable
	oc := *o
	oc.secret = cloneBytes(o.secret)
	return create(func(in *winst, _ uint32) (uint32, result, string) {
		var flat uint32
		for _, op := range prefix {
			var code result
			var msg string
			if flat, code, msg = op(in, flat); code != resultOK {
				return 0, code, msg
			}
		}
		base, ok := in.args(0)
		if !ok {
			return 0, in.oomOrTrap(), ""
		}
		code := in.code("longstraw_rendezvous_snapshot", uint64(flat), uint64(base+outA))
		in.call("longstraw_rendezvous_free", uint64(flat))
		if code != resultOK {
			return 0, code, in.message(code)
		}
		snap := in.u32(base + outA)
		defer in.call("longstraw_snapshot_free", uint64(snap))
		p, ok := writeOptions(in, &oc)
		if !ok {
			return 0, in.oomOrTrap(), ""
		}
		base, _ = in.args(0)
		code = in.code("longstraw_rendezvous_new_from", uint64(snap), uint64(p), uint64(base+outA))
		if code != resultOK {
			return 0, code, in.message(code)
		}
		return in.u32(base + outA), resultOK, ""
	})
}

// loadOp loads a membership from data, the content of the file at path
// (fromFile) or bytes that origin names in errors. Its first run, in create,
// reads a keyed file's secret from its source: a secret.file is read here,
// in Go (readSecretFile), at the path the module names
// (longstraw_wasm_secret_file, as written) resolved by this OS's rules as a
// native load resolves it (secretFilePath), and the module judges what was
// found and remembers the resolved path (longstraw_wasm_load_bytes_read), as
// a native load does; a secret.env is read by the module from the
// environment it was given. Every later run (a copy in another instance of
// the pool) builds the set with the secret that first run read
// (longstraw_wasm_rendezvous_secret, longstraw_wasm_load_bytes_keyed) and
// the path it resolved, not reading the source again: a FIFO gives its
// content once, and a rotated secret file would give a copy that places keys
// differently. The secret stays in this process, as in a cgo build, is
// never shown, and its copies in the module's memory are zeroed after each
// call.
func loadOp(data []byte, origin string, fromFile bool) famOp {
	data = cloneBytes(data)
	pathZ := append([]byte(origin), 0)
	first := true
	var secret, secretPathZ []byte
	return func(in *winst, _ uint32) (uint32, result, string) {
		if !first && secret != nil {
			a, base, ok := in.putArgs(data, pathZ, secretPathZ, secret)
			if !ok {
				return 0, in.oomOrTrap(), ""
			}
			code := in.code("longstraw_wasm_load_bytes_keyed", uint64(a[0]), uint64(len(data)), uint64(a[1]),
				uint64(a[2]), uint64(a[3]), uint64(len(secret)), uint64(base+outA))
			in.zero(a[3], len(secret))
			if code != resultOK {
				return 0, code, in.message(code)
			}
			return in.u32(base + outA), resultOK, ""
		}
		read, content := secretContent, []byte(nil)
		if first {
			var code result
			var msg string
			file := ""
			if fromFile {
				file = origin
			}
			if read, content, secretPathZ, code, msg = readSecretOf(in, data, pathZ, file); code != resultOK {
				return 0, code, msg
			}
		}
		a, base, ok := in.putArgs(data, pathZ, secretPathZ, content)
		if !ok {
			clear(content)
			return 0, in.oomOrTrap(), ""
		}
		code := in.code("longstraw_wasm_load_bytes_read", uint64(a[0]), uint64(len(data)), uint64(a[1]),
			uint64(a[2]), uint64(read), uint64(a[3]), uint64(len(content)), uint64(base+outA))
		in.zero(a[3], len(content))
		clear(content)
		if code != resultOK {
			return 0, code, in.message(code)
		}
		set := in.u32(base + outA)
		if first {
			// Run once, in create, before the op joins the log (later runs read
			// first and secret after the log's atomic store).
			b, _, ok := in.putArgs(make([]byte, 16))
			if !ok {
				in.call("longstraw_rendezvous_free", uint64(set))
				return 0, in.oomOrTrap(), ""
			}
			if in.code("longstraw_wasm_rendezvous_secret", uint64(set), uint64(b[0]), 16) == resultOK {
				secret = append([]byte(nil), in.bytesAt(b[0], 16)...)
			}
			in.zero(b[0], 16)
			first = false
		}
		return set, resultOK, ""
	}
}

// readSecretOf reads the secret file that the membership file content data
// (pathZ names it in errors) names, if any: what readSecretFile found there,
// for longstraw_wasm_load_bytes_read, and where (NUL-terminated), the path
// resolved against the folder of the membership file at path ("" for bytes:
// the current directory). A membership that reads no secret file gives
// secretContent, no content and no path; a bad file fails here as the load
// would.
func readSecretOf(in *winst, data, pathZ []byte, path string) (uint32, []byte, []byte, result, string) {
	a, base, ok := in.putArgs(data, pathZ)
	if !ok {
		return 0, nil, nil, in.oomOrTrap(), ""
	}
	code := in.code("longstraw_wasm_secret_file", uint64(a[0]), uint64(len(data)), uint64(a[1]),
		uint64(base+outA), uint64(base+outB))
	if code != resultOK {
		return 0, nil, nil, code, in.message(code)
	}
	p, n := in.u32(base+outA), in.u32(base+outB)
	if p == 0 {
		return secretContent, nil, nil, resultOK, ""
	}
	file := string(in.bytesAt(p, n))
	if _, ok := in.call("longstraw_wasm_free", uint64(p), uint64(n)); !ok {
		return 0, nil, nil, resultTrap, trapText
	}
	resolved, err := secretFilePath(file, path)
	if err != nil {
		// No current directory to resolve against: the load fails naming
		// the path as written, with the OS's message.
		read, content := failedRead(err)
		return read, content, append([]byte(file), 0), resultOK, ""
	}
	read, content := readSecretFile(resolved)
	return read, content, append([]byte(resolved), 0), resultOK, ""
}

// zero overwrites n bytes at p in the module's memory (a secret's copy,
// once the call that needed it is done).
func (in *winst) zero(p uint32, n int) {
	if p != 0 && n > 0 {
		in.mem.Write(p, make([]byte, n))
	}
}

// loadBytesHandle loads membership file content held in memory. Its errors
// name it "<bytes>", the name longstraw_rendezvous_load_bytes gives it (the
// wasm exports name a NULL path "<data>"); a relative secret.file is
// relative to the current directory, as for bytes.
func loadBytesHandle(data []byte) (*handle, result, string) {
	return create(loadOp(data, "<bytes>", false))
}

// loadFileHandle reads the file in Go (the module reads no membership file),
// once, so that a pipe works; the module parses its bytes as the file's
// (longstraw_wasm_load_bytes_read: messages name the path), and a relative
// secret.file is relative to its folder.
func loadFileHandle(path string) (*handle, result, string) {
	data, err := readFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, resultBadFile, path + ": " + err.Error()
	}
	return create(loadOp(data, path, true))
}

// free releases the set; snapshots taken of it stay usable.
func (h *handle) free() {
	if h.f != nil && !h.freed {
		h.freed = true
		h.f.mu.Lock()
		h.f.alive = false
		h.f.mu.Unlock()
		h.f.finishIfDone()
	}
	runtime.SetFinalizer(h, nil)
}

// mutate runs op on one instance's up-to-date copy and, when it succeeds,
// adds it to the log.
func (h *handle) mutate(op famOp) (result, string) {
	f := h.f
	f.wmu.Lock()
	defer f.wmu.Unlock()
	in, code := f.acquire()
	if code != resultOK {
		return code, ""
	}
	defer f.release(in)
	l := f.log.Load()
	if code, msg := f.catchUp(in, l, l.version()); code != resultOK {
		return code, msg
	}
	set, code, msg := op(in, in.set)
	if code != resultOK {
		// The library refuses a change before making it, but a copy that a
		// refused change might have touched is not worth the risk of a
		// silent difference: it is dropped, and the next call replays the log.
		in.broken = true
		return code, msg
	}
	n := len(l.ops)
	next := &famLog{base: l.base, ops: append(l.ops[:n:n], op)}
	f.log.Store(next)
	in.set, in.applied = set, next.version()
	if f.compacts && len(next.ops) >= max(compactAfter, f.retryAt) {
		f.compact(in, next)
	}
	return resultOK, ""
}

// saveBytes renders set as a membership file, naming no secret source (a
// keyed set loaded from a file names the one it remembers).
func saveBytes(in *winst, set uint32) ([]byte, result) {
	a, base, ok := in.putArgs([]byte("<data>\x00"))
	if !ok {
		return nil, in.oomOrTrap()
	}
	code := in.code("longstraw_rendezvous_save_bytes", uint64(set), uint64(a[0]), 0, 0, uint64(base+outA), uint64(base+outB))
	if code != resultOK {
		return nil, code
	}
	p, n := in.u32(base+outA), in.u32(base+outB)
	text := cloneBytes(in.bytesAt(p, n))
	in.call("longstraw_bytes_free", uint64(p), uint64(n))
	return text, resultOK
}

// secretOf is a keyed set's secret (nil for an unkeyed one); never shown.
func secretOf(in *winst, set uint32) ([]byte, bool) {
	b, _, ok := in.putArgs(make([]byte, 16))
	if !ok {
		return nil, false
	}
	if in.code("longstraw_wasm_rendezvous_secret", uint64(set), uint64(b[0]), 16) != resultOK {
		return nil, !in.broken
	}
	secret := append([]byte(nil), in.bytesAt(b[0], 16)...)
	in.zero(b[0], 16)
	return secret, true
}

// baseOp frees the set it is given and loads data (with secret, a keyed
// set's, passed in rather than read from the source data names).
func baseOp(data, secret []byte) famOp {
	pathZ := []byte("<data>\x00")
	return func(in *winst, set uint32) (uint32, result, string) {
		if set != 0 {
			in.call("longstraw_rendezvous_free", uint64(set))
		}
		var code result
		var base uint32
		if secret != nil {
			// No secret path: the rendered text names the path the set
			// remembers, as it is.
			a, b, ok := in.putArgs(data, pathZ, secret)
			if !ok {
				return 0, in.oomOrTrap(), ""
			}
			base = b
			code = in.code("longstraw_wasm_load_bytes_keyed", uint64(a[0]), uint64(len(data)), uint64(a[1]), 0,
				uint64(a[2]), uint64(len(secret)), uint64(base+outA))
			in.zero(a[2], len(secret))
		} else {
			a, b, ok := in.putArgs(data)
			if !ok {
				return 0, in.oomOrTrap(), ""
			}
			base = b
			code = in.code("longstraw_rendezvous_load_bytes", uint64(a[0]), uint64(len(data)), uint64(base+outA))
		}
		if code != resultOK {
			return 0, code, in.message(code)
		}
		return in.u32(base + outA), resultOK, ""
	}
}

// capture is a base for set (a handle in in), or nil when it cannot be
// rendered or does not load back to the same text and secret.
func capture(in *winst, set uint32) famOp {
	data, code := saveBytes(in, set)
	if code != resultOK {
		return nil
	}
	secret, ok := secretOf(in, set)
	if !ok {
		return nil
	}
	op := baseOp(data, secret)
	t, code, _ := op(in, 0)
	if code != resultOK {
		return nil
	}
	again, code := saveBytes(in, t)
	secret2, ok := secretOf(in, t)
	in.call("longstraw_rendezvous_free", uint64(t))
	if code != resultOK || !ok || string(again) != string(data) || string(secret2) != string(secret) || in.broken {
		return nil
	}
	return op
}

// compact replaces the log l (the current one, under wmu; in's copy is at
// its version) by one base, after giving every held version older than it a
// base of its own. Nothing changes when any of that fails.
func (f *family) compact(in *winst, l *famLog) {
	if _, code := saveBytes(in, in.set); code != resultOK {
		if code != resultTrap && !in.broken {
			f.compacts = false // a keyed set with no source to name
		}
		return
	}
	f.retryAt = len(l.ops) + compactAfter // when this one does not happen
	base := capture(in, in.set)
	if base == nil {
		return
	}
	version := l.version()
	f.mu.Lock() // no version is held or dropped meanwhile
	defer f.mu.Unlock()
	olds := map[int]famOp{}
	for v := range f.refs {
		if v <= l.base || v >= version || f.olds[v] != nil {
			continue
		}
		var set uint32
		for _, op := range l.ops[:v-l.base] {
			var code result
			if set, code, _ = op(in, set); code != resultOK {
				in.broken = true
				return
			}
		}
		got := capture(in, set)
		in.call("longstraw_rendezvous_free", uint64(set))
		if got == nil || in.broken {
			return
		}
		olds[v] = got
	}
	for v, op := range olds {
		f.olds[v] = op
	}
	f.log.Store(&famLog{base: version - 1, ops: []famOp{base}})
	f.retryAt = 0
}

// idOp is a change of one node by id (and maybe a weight and a domain).
func idOp(export string, id string, w float64, domain *string) famOp {
	idb := []byte(id)
	var db []byte
	if domain != nil {
		db = []byte(*domain)
	}
	return func(in *winst, set uint32) (uint32, result, string) {
		addrs, _, ok := in.putArgs(idb, db)
		if !ok {
			return set, in.oomOrTrap(), ""
		}
		var code result
		switch export {
		case "longstraw_rendezvous_add_in_domain":
			code = in.code(export, uint64(set), uint64(addrs[0]), uint64(len(idb)), api.EncodeF64(w), uint64(addrs[1]), uint64(len(db)))
		case "longstraw_rendezvous_remove":
			code = in.code(export, uint64(set), uint64(addrs[0]), uint64(len(idb)))
		case "longstraw_rendezvous_set_weight":
			code = in.code(export, uint64(set), uint64(addrs[0]), uint64(len(idb)), api.EncodeF64(w))
		case "longstraw_rendezvous_set_domain":
			code = in.code(export, uint64(set), uint64(addrs[0]), uint64(len(idb)), uint64(addrs[1]), uint64(len(db)))
		}
		return set, code, in.message(code)
	}
}

func (h *handle) add(id string, w float64, domain string) result {
	code, _ := h.mutate(idOp("longstraw_rendezvous_add_in_domain", id, w, &domain))
	return code
}

func (h *handle) remove(id string) result {
	code, _ := h.mutate(idOp("longstraw_rendezvous_remove", id, 0, nil))
	return code
}

func (h *handle) setWeight(id string, w float64) result {
	code, _ := h.mutate(idOp("longstraw_rendezvous_set_weight", id, w, nil))
	return code
}

func (h *handle) setDomain(id, domain string) result {
	code, _ := h.mutate(idOp("longstraw_rendezvous_set_domain", id, 0, &domain))
	return code
}

func u64Bytes(v []uint64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return b
}

func f64Bytes(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

func (h *handle) addBatch(ids []byte, offsets []uint64, weights []float64, labels []byte, labelOffsets []uint64) result {
	ids, labels = cloneBytes(ids), cloneBytes(labels)
	ob, wb, lob := u64Bytes(offsets), f64Bytes(weights), u64Bytes(labelOffsets)
	no, nw, nlo := len(offsets), len(weights), len(labelOffsets)
	code, _ := h.mutate(func(in *winst, set uint32) (uint32, result, string) {
		a, _, ok := in.putArgs(ids, ob, wb, labels, lob)
		if !ok {
			return set, in.oomOrTrap(), ""
		}
		code := in.code("longstraw_rendezvous_add_batch", uint64(set), uint64(a[0]), uint64(len(ids)), uint64(a[1]), uint64(no),
			uint64(a[2]), uint64(nw), uint64(a[3]), uint64(len(labels)), uint64(a[4]), uint64(nlo))
		return set, code, in.message(code)
	})
	return code
}

// snapshot names the set's current version; no instance is involved until
// a lookup asks for it.
func (h *handle) snapshot() (snapRef, result) {
	f := h.f
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.log.Load().version()
	f.refs[v]++
	return &wsnap{f: f, version: v}, resultOK
}

// saveFile renders the file in the module (longstraw_rendezvous_save_bytes)
// and writes it from Go, atomically: to a new temporary file beside it,
// synced, then renamed over it.
func (h *handle) saveFile(path string, file, env *string) (result, string) {
	s, _ := h.snapshot()
	defer snapFree(s)
	var text []byte
	code, msg := s.with(func(in *winst, _ uint32) (result, string) {
		// The membership of the set, as the instance's copy has it at this
		// version: the copy is caught up by with (via snapAt).
		var fb, eb []byte
		if file != nil {
			fb = append([]byte(*file), 0)
		}
		if env != nil {
			eb = append([]byte(*env), 0)
		}
		a, base, ok := in.putArgs(append([]byte(path), 0), fb, eb)
		if !ok {
			return in.oomOrTrap(), ""
		}
		set := in.set
		if in.applied != s.version {
			return resultInternalError, "the instance's copy is not at the saved version"
		}
		code := in.code("longstraw_rendezvous_save_bytes", uint64(set), uint64(a[0]), uint64(a[1]), uint64(a[2]),
			uint64(base+outA), uint64(base+outB))
		if code != resultOK {
			return code, in.message(code)
		}
		p, n := in.u32(base+outA), in.u32(base+outB)
		text = cloneBytes(in.bytesAt(p, n))
		in.call("longstraw_bytes_free", uint64(p), uint64(n))
		return resultOK, ""
	})
	if code != resultOK {
		return code, msg
	}
	if err := writeAtomically(path, text); err != nil {
		return resultBadFile, path + ": " + err.Error()
	}
	return resultOK, ""
}

// writeAtomically writes data to a new temporary file beside path, syncs
// it, gives it the permissions of the file it replaces (0644 less the umask
// for a new one) and renames it over path.
func writeAtomically(path string, data []byte) error {
	dir := filepath.Dir(path)
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := replaceFile(name, path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// with runs fn on an instance holding the snapshot's version, with that
// version's C snapshot handle.
func (s *wsnap) with(fn func(in *winst, snap uint32) (result, string)) (result, string) {
	f := s.f
	in, code := f.acquire()
	if code != resultOK {
		return code, ""
	}
	h, code := f.snapAt(in, s.version)
	if code != resultOK {
		f.release(in)
		if code == resultTrap {
			return code, trapText
		}
		return code, ""
	}
	code, msg := fn(in, h)
	f.release(in)
	return code, msg
}

func snapFree(s snapRef) {
	if s == nil || !s.freed.CompareAndSwap(false, true) {
		return
	}
	f := s.f
	f.mu.Lock()
	if f.refs[s.version]--; f.refs[s.version] <= 0 {
		delete(f.refs, s.version)
		delete(f.olds, s.version)
		f.deadGen.Add(1)
	}
	f.mu.Unlock()
	f.finishIfDone()
}

func snapInfo(s snapRef) (snapInfoOf, result) {
	var i snapInfoOf
	code, _ := s.with(func(in *winst, snap uint32) (result, string) {
		base, ok := in.args(0)
		if !ok {
			return in.oomOrTrap(), ""
		}
		p := uint64(snap)
		for _, c := range []struct {
			name string
			read func()
		}{
			{"longstraw_snapshot_mode", func() { i.mode = in.u32(base + outA) }},
			{"longstraw_snapshot_seed", func() { i.seed = in.u64(base + outA) }},
			{"longstraw_snapshot_is_keyed", func() { i.keyed = in.u32(base+outA) != 0 }},
			{"longstraw_snapshot_placement", func() { i.placement = in.u32(base + outA) }},
		} {
			if code := in.code(c.name, p, uint64(base+outA)); code != resultOK {
				return code, ""
			}
			c.read()
		}
		switch i.mode {
		case cModeTable:
			code := in.code("longstraw_snapshot_table_shape", p, uint64(base+outA), uint64(base+outB), uint64(base+outC), uint64(base+outD))
			if code != resultOK {
				return code, ""
			}
			i.bits = in.bytesAt(base+outA, 1)[0]
			i.replicas = uint64(in.u32(base + outB))
			i.flags = in.u32(base + outC)
			i.balance = in.f64(base + outD)
		case cModeSkeleton:
			code := in.code("longstraw_snapshot_skeleton_shape", p, uint64(base+outA), uint64(base+outB))
			if code != resultOK {
				return code, ""
			}
			i.fanoutBits, i.levels = in.bytesAt(base+outA, 1)[0], in.bytesAt(base+outB, 1)[0]
		}
		return resultOK, ""
	})
	return i, code
}

// snapNodes decodes every node of a snapshot in one visit to an instance.
func snapNodes(s snapRef) (ids []string, weights []float64, domains []string, eligible int, code result) {
	code, _ = s.with(func(in *winst, snap uint32) (result, string) {
		base, ok := in.args(0)
		if !ok {
			return in.oomOrTrap(), ""
		}
		p := uint64(snap)
		if code := in.code("longstraw_snapshot_len", p, uint64(base+outA)); code != resultOK {
			return code, ""
		}
		n := int(in.u32(base + outA))
		if code := in.code("longstraw_snapshot_eligible", p, uint64(base+outA)); code != resultOK {
			return code, ""
		}
		eligible = int(in.u32(base + outA))
		ids, weights, domains = make([]string, n), make([]float64, n), make([]string, n)
		for i := range n {
			if code := in.code("longstraw_snapshot_node", p, uint64(i), uint64(base+outA), uint64(base+outB), uint64(base+outC)); code != resultOK {
				return code, ""
			}
			ids[i] = string(in.bytesAt(in.u32(base+outA), in.u32(base+outB)))
			weights[i] = in.f64(base + outC)
			if code := in.code("longstraw_snapshot_domain", p, uint64(i), uint64(base+outA), uint64(base+outB)); code != resultOK {
				return code, ""
			}
			domains[i] = string(in.bytesAt(in.u32(base+outA), in.u32(base+outB)))
		}
		return resultOK, ""
	})
	if code != resultOK {
		return nil, nil, nil, 0, code
	}
	return ids, weights, domains, eligible, resultOK
}

func snapIndexOf(s snapRef, id string) result {
	code, _ := s.with(func(in *winst, snap uint32) (result, string) {
		a, base, ok := in.putArgs([]byte(id))
		if !ok {
			return in.oomOrTrap(), ""
		}
		return in.code("longstraw_snapshot_index_of", uint64(snap), uint64(a[0]), uint64(len(id)), uint64(base+outA)), ""
	})
	return code
}

func snapBackend(s snapRef) (string, result) {
	var name string
	code, _ := s.with(func(in *winst, snap uint32) (result, string) {
		base, ok := in.args(0)
		if !ok {
			return in.oomOrTrap(), ""
		}
		code := in.code("longstraw_snapshot_backend", uint64(snap), uint64(base+outA))
		if code == resultOK {
			name = in.CString(in.u32(base + outA))
		}
		return code, ""
	})
	return name, code
}

// putKey copies a key into the arguments area.
func (in *winst) putKey(key *byte, keyLen int) (uint32, uint32, bool) {
	base, ok := in.args(keyLen)
	if !ok {
		return 0, 0, false
	}
	if keyLen == 0 {
		return 0, base, true
	}
	in.mem.Write(base+argBase, unsafeBytes(key, keyLen))
	return base + argBase, base, true
}

func snapOwner(s snapRef, key *byte, keyLen int) (uint32, result) {
	var index uint32
	code, _ := s.with(func(in *winst, snap uint32) (result, string) {
		kp, base, ok := in.putKey(key, keyLen)
		if !ok {
			return in.oomOrTrap(), ""
		}
		r, err := in.ownerFn.Call("Owner", uint64(snap), uint64(kp), uint64(keyLen),
			uint64(base+outA), uint64(base+outB), uint64(base+outC))
		if err != nil {
			in.broken = true
			return resultTrap, trapText
		}
		index = in.u32(base + outA)
		return result(int32(uint32(r))), ""
	})
	return index, code
}

func snapPartition(s snapRef, key *byte, keyLen int, withMsg bool) (uint32, result, string) {
	var p uint32
	code, msg := s.with(func(in *winst, snap uint32) (result, string) {
		kp, base, ok := in.putKey(key, keyLen)
		if !ok {
			return in.oomOrTrap(), ""
		}
		code := in.code("longstraw_snapshot_partition", uint64(snap), uint64(kp), uint64(keyLen), uint64(base+outA))
		p = in.u32(base + outA)
		if code != resultOK && withMsg {
			return code, in.message(code)
		}
		return code, ""
	})
	return p, code, msg
}

func snapTopK(s snapRef, key *byte, keyLen int, out []uint32, distinct bool) (int, result) {
	var written int
	code, _ := s.with(func(in *winst, snap uint32) (result, string) {
		base, ok := in.args(keyLen + 4*len(out))
		if !ok {
			return in.oomOrTrap(), ""
		}
		op := base + argBase
		kp := op + uint32(4*len(out))
		if keyLen > 0 {
			in.mem.Write(kp, unsafeBytes(key, keyLen))
		} else {
			kp = 0
		}
		name := "longstraw_snapshot_top_k"
		if distinct {
			name = "longstraw_snapshot_top_k_distinct"
		}
		code := in.code(name, uint64(snap), uint64(kp), uint64(keyLen), uint64(op), uint64(len(out)), uint64(base+outA))
		if code != resultOK {
			return code, ""
		}
		written = int(in.u32(base + outA))
		raw := in.bytesAt(op, uint32(4*written))
		for i := range written {
			out[i] = binary.LittleEndian.Uint32(raw[4*i:])
		}
		return resultOK, ""
	})
	return written, code
}

func snapOwners(s snapRef, bytes []byte, offsets []uint64, out []uint32) result {
	code, _ := s.with(func(in *winst, snap uint32) (result, string) {
		outB := make([]byte, 4*len(out))
		a, _, ok := in.putArgs(bytes, u64Bytes(offsets), outB)
		if !ok {
			return in.oomOrTrap(), ""
		}
		if len(out) > 0 && a[2] == 0 {
			return resultInternalError, ""
		}
		code := in.code("longstraw_snapshot_owners", uint64(snap), uint64(a[0]), uint64(len(bytes)), uint64(a[1]), uint64(len(offsets)),
			uint64(a[2]), uint64(len(out)))
		if code != resultOK {
			return code, ""
		}
		raw := in.bytesAt(a[2], uint32(4*len(out)))
		for i := range out {
			out[i] = binary.LittleEndian.Uint32(raw[4*i:])
		}
		return resultOK, ""
	})
	return code
}

// The library-wide answers, from one instance made on first use.
var (
	globalOnce sync.Once
	globalMu   sync.Mutex
	globalIn   *winst
	globalErr  error
)

func withGlobal(fn func(in *winst)) bool {
	globalOnce.Do(func() { globalIn, globalErr = newWinst(nil) })
	if globalErr != nil {
		return false
	}
	globalMu.Lock()
	defer globalMu.Unlock()
	if globalIn.broken {
		globalIn.close()
		if globalIn, globalErr = newWinst(nil); globalErr != nil {
			return false
		}
	}
	fn(globalIn)
	return true
}

func libVersion() int {
	v := 0
	withGlobal(func(in *winst) {
		r, _ := in.call("longstraw_version")
		v = int(uint32(r))
	})
	return v
}

func libVersionString() string {
	s := ""
	withGlobal(func(in *winst) {
		if p, ok := in.call("longstraw_version_string"); ok {
			s = in.CString(uint32(p))
		}
	})
	return s
}

var resultStrs sync.Map // result -> string

func resultStr(code result) string {
	if code == resultTrap {
		return trapText
	}
	if s, ok := resultStrs.Load(code); ok {
		return s.(string)
	}
	s := ""
	withGlobal(func(in *winst) {
		if p, ok := in.call("longstraw_result_str", uint64(uint32(code))); ok {
			s = in.CString(uint32(p))
		}
	})
	resultStrs.Store(code, s)
	return s
}

// boundedHandle is a bounded-load set: one instance behind a mutex (its
// requests in flight cannot be copied to another instance).
type boundedHandle struct {
	mu sync.Mutex
	in *winst
	p  uint32
}

// leaseRef is one request in flight (its handle in the instance).
type leaseRef = uint32

func newBoundedHandle(o *setOptions, balanceFactor float64) (*boundedHandle, result) {
	in, err := newWinst(os.Environ())
	if err != nil {
		return nil, resultInternalError
	}
	a, base, ok := in.putArgs(o.secret)
	if !ok {
		in.close()
		return nil, resultOutOfMemory
	}
	secret := a[0]
	if o.secret != nil && len(o.secret) == 0 {
		secret = base + argBase
	}
	code := in.code("longstraw_bounded_new", o.seed, uint64(secret), uint64(len(o.secret)), uint64(o.placement),
		api.EncodeF64(balanceFactor), uint64(base+outA))
	if code != resultOK {
		in.close()
		return nil, code
	}
	b := &boundedHandle{in: in, p: in.u32(base + outA)}
	runtime.SetFinalizer(b, func(b *boundedHandle) { b.in.close() })
	return b, resultOK
}

func (b *boundedHandle) usable() bool { return b != nil && b.in != nil }

// run calls fn under the mutex; a trapped instance answers resultTrap.
func (b *boundedHandle) run(fn func(in *winst) result) result {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.in.broken {
		return resultTrap
	}
	return fn(b.in)
}

func (b *boundedHandle) isKeyed() bool {
	keyed := false
	b.run(func(in *winst) result {
		base, ok := in.args(0)
		if !ok {
			return resultOutOfMemory
		}
		if in.code("longstraw_bounded_loads", uint64(b.p), uint64(base+outA), 0, 0, uint64(base+outB)) != resultOK {
			return resultOK
		}
		snap := in.u32(base + outA)
		if in.code("longstraw_snapshot_is_keyed", uint64(snap), uint64(base+outC)) == resultOK {
			keyed = in.u32(base+outC) != 0
		}
		in.call("longstraw_snapshot_free", uint64(snap))
		return resultOK
	})
	return keyed
}

func (b *boundedHandle) acquire(key *byte, keyLen int) (leaseRef, string, result) {
	var l leaseRef
	var node string
	code := b.run(func(in *winst) result {
		kp, base, ok := in.putKey(key, keyLen)
		if !ok {
			return in.oomOrTrap()
		}
		code := in.code("longstraw_bounded_acquire", uint64(b.p), uint64(kp), uint64(keyLen), uint64(base+outA), uint64(base+outB), uint64(base+outC))
		if code == resultOK {
			l = in.u32(base + outA)
			node = string(in.bytesAt(in.u32(base+outB), in.u32(base+outC)))
		}
		return code
	})
	return l, node, code
}

func (b *boundedHandle) release(l leaseRef) {
	b.run(func(in *winst) result {
		in.call("longstraw_bounded_release", uint64(l))
		return resultOK
	})
}

func (b *boundedHandle) loads() ([]NodeLoad, result) {
	var out []NodeLoad
	code := b.run(func(in *winst) result {
		base, ok := in.args(0)
		if !ok {
			return in.oomOrTrap()
		}
		if code := in.code("longstraw_bounded_loads", uint64(b.p), uint64(base+outA), 0, 0, uint64(base+outB)); code != resultOK {
			return code
		}
		in.call("longstraw_snapshot_free", uint64(in.u32(base+outA)))
		n := in.u32(base + outB)
		base, ok = in.args(int(8 * n))
		if !ok {
			return in.oomOrTrap()
		}
		lp := base + argBase
		if code := in.code("longstraw_bounded_loads", uint64(b.p), uint64(base+outA), uint64(lp), uint64(n), uint64(base+outB)); code != resultOK {
			return code
		}
		snap := in.u32(base + outA)
		defer in.call("longstraw_snapshot_free", uint64(snap))
		out = make([]NodeLoad, n)
		for i := range out {
			load := in.u64(lp + 8*uint32(i))
			if code := in.code("longstraw_snapshot_node", uint64(snap), uint64(i), uint64(base+outB), uint64(base+outC), uint64(base+outD)); code != resultOK {
				return code
			}
			out[i] = NodeLoad{Node: string(in.bytesAt(in.u32(base+outB), in.u32(base+outC))), InFlight: int(load)}
		}
		return resultOK
	})
	if code != resultOK {
		return nil, code
	}
	return out, resultOK
}

func (b *boundedHandle) inFlight() uint64 {
	var n uint64
	b.run(func(in *winst) result {
		base, ok := in.args(0)
		if !ok {
			return in.oomOrTrap()
		}
		if in.code("longstraw_bounded_in_flight", uint64(b.p), uint64(base+outA)) == resultOK {
			n = in.u64(base + outA)
		}
		return resultOK
	})
	return n
}

func (b *boundedHandle) idCall(export string, id string, w float64, withWeight bool) result {
	return b.run(func(in *winst) result {
		a, _, ok := in.putArgs([]byte(id))
		if !ok {
			return in.oomOrTrap()
		}
		if withWeight {
			return in.code(export, uint64(b.p), uint64(a[0]), uint64(len(id)), api.EncodeF64(w))
		}
		return in.code(export, uint64(b.p), uint64(a[0]), uint64(len(id)))
	})
}

func (b *boundedHandle) add(id string, w float64) result {
	return b.idCall("longstraw_bounded_add", id, w, true)
}

func (b *boundedHandle) remove(id string) result {
	return b.idCall("longstraw_bounded_remove", id, 0, false)
}

func (b *boundedHandle) setWeight(id string, w float64) result {
	return b.idCall("longstraw_bounded_set_weight", id, w, true)
}
