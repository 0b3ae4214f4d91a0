package wasmabi

import (
	"context"

	"github.com/tetratelabs/wazero/api"
)

// Instance is one instance of the module for a host that drives the C ABI
// itself (the public package's build without cgo keeps its own sets,
// snapshots and pools of instances on top of it). An Instance runs one call
// at a time: it is not safe for concurrent use.
type Instance struct{ in *instance }

// NewInstance instantiates the module with the environment env ("K=V"
// entries: LONGSTRAW_BACKEND, a secret named by secret.env) and no file
// system: the host reads every file, a keyed file's secret file too
// (longstraw_wasm_secret_file, longstraw_wasm_load_bytes_read).
func NewInstance(env []string) (*Instance, error) {
	in, err := newInstance(context.Background(), env)
	if err != nil {
		return nil, err
	}
	return &Instance{in: in}, nil
}

// Call runs the export name with args and returns its first result; a trap
// is a *TrapError naming op, after which the instance must be closed.
func (i *Instance) Call(op, name string, args ...uint64) (uint64, error) {
	return i.in.call(context.Background(), op, name, args...)
}

// Reserve makes the instance's scratch buffer hold at least n bytes and
// returns its address. The buffer stays until the next Reserve with a larger
// n, which may move it.
func (i *Instance) Reserve(n uint32) (uint32, error) {
	if err := i.in.grow(context.Background(), n); err != nil {
		return 0, err
	}
	return i.in.scratch + scratchHdr, nil
}

// Memory is the instance's linear memory.
func (i *Instance) Memory() api.Memory { return i.in.mem }

// CString reads the NUL-terminated string at p.
func (i *Instance) CString(p uint32) string { return i.in.cString(p) }

// Close releases the instance.
func (i *Instance) Close() { i.in.mod.Close(context.Background()) }

// Export is one export of an instance, looked up once, for a call on the
// hot path (Instance.Call looks the name up on each call).
type Export struct {
	in *instance
	f  api.Function
}

// Export looks an export up; ok is false when the module has none of that name.
func (i *Instance) Export(name string) (Export, bool) {
	f := i.in.mod.ExportedFunction(name)
	return Export{in: i.in, f: f}, f != nil
}

// Call runs the export with args and returns its first result; a trap is a
// *TrapError naming op.
func (e Export) Call(op string, args ...uint64) (uint64, error) {
	copy(e.in.stack, args)
	if err := e.f.CallWithStack(context.Background(), e.in.stack); err != nil {
		return 0, &TrapError{Op: op, Err: err}
	}
	return e.in.stack[0], nil
}
