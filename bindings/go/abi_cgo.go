//go:build cgo && !longstraw_wasm && linux && (amd64 || arm64)

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
	"runtime"
	"unsafe"
)

// The cgo implementation of the seam (abi.go): every C call of the package.

// portable is false: this build calls liblongstraw.a through cgo.
const portable = false

type snapRef = *C.longstraw_snapshot

// handle is the C set behind a Rendezvous, of any mode. Every method keeps
// h alive until C returns, so that its finalizer cannot free the set during
// a call.
type handle struct{ p *C.longstraw_rendezvous }

func libVersion() int { return int(C.longstraw_version()) }

func libVersionString() string { return C.GoString(C.longstraw_version_string()) }

func resultStr(code result) string {
	if code == resultTrap {
		return trapText
	}
	return C.GoString(C.longstraw_result_str(C.int(code)))
}

// trapText is resultTrap's sentence (never returned on this path).
const trapText = "the WebAssembly module trapped (its instance was replaced)"

func cu8(p *byte) *C.uint8_t { return (*C.uint8_t)(unsafe.Pointer(p)) }

func offsetsPtr(o []uint64) *C.uint64_t {
	if len(o) == 0 {
		return nil
	}
	return (*C.uint64_t)(unsafe.Pointer(&o[0]))
}

var noBytes [1]byte

// withMessage runs one C call and, when it fails, reads the C library's
// message for it on the same OS thread.
func withMessage(call func() C.longstraw_result) (result, string) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	code := call()
	if code != C.LONGSTRAW_OK {
		return result(code), C.GoString(C.longstraw_last_error_message())
	}
	return resultOK, ""
}

// cOptionsOf is o as the C struct; the secret (if any) must stay pinned
// while C reads it.
func cOptionsOf(o *setOptions, pin *runtime.Pinner) C.longstraw_options {
	var co C.longstraw_options
	C.longstraw_options_init(&co, C.size_t(unsafe.Sizeof(co)))
	co.placement = C.uint32_t(o.placement)
	co.seed = C.uint64_t(o.seed)
	co.has_seed = 0
	if o.hasSeed {
		co.has_seed = 1
	}
	co.mode = C.uint32_t(o.mode)
	switch {
	case o.secret == nil:
	case len(o.secret) == 0:
		co.secret = (*C.uint8_t)(unsafe.Pointer(&noBytes[0]))
	default:
		co.secret, co.secret_len = (*C.uint8_t)(unsafe.Pointer(&o.secret[0])), C.size_t(len(o.secret))
		pin.Pin(&o.secret[0])
	}
	co.replicas = C.size_t(o.replicas)
	co.balance = C.double(o.balance)
	co.table_flags = C.uint32_t(o.tableFlags)
	co.partition_bits, co.fanout_bits, co.levels = C.uint8_t(o.partitionBits), C.uint8_t(o.fanoutBits), C.uint8_t(o.levels)
	return co
}

// newSetHandle creates the empty flat set o describes (longstraw_rendezvous_new),
// with the library's message on failure.
func newSetHandle(o *setOptions) (*handle, result, string) {
	h := &handle{}
	var pin runtime.Pinner
	defer pin.Unpin()
	co := cOptionsOf(o, &pin)
	code, msg := withMessage(func() C.longstraw_result { return C.longstraw_rendezvous_new(&co, &h.p) })
	if code != resultOK {
		return nil, code, msg
	}
	runtime.SetFinalizer(h, (*handle).free)
	return h, resultOK, ""
}

// newSetFrom creates a table or skeleton of the members' nodes
// (longstraw_rendezvous_new_from).
func newSetFrom(members snapRef, o *setOptions) (*handle, result, string) {
	h := &handle{}
	var pin runtime.Pinner
	defer pin.Unpin()
	co := cOptionsOf(o, &pin)
	code, msg := withMessage(func() C.longstraw_result { return C.longstraw_rendezvous_new_from(members, &co, &h.p) })
	if code != resultOK {
		return nil, code, msg
	}
	runtime.SetFinalizer(h, (*handle).free)
	return h, resultOK, ""
}

// loadFileHandle loads a membership file (longstraw_rendezvous_load_file).
func loadFileHandle(path string) (*handle, result, string) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	h := &handle{}
	code, msg := withMessage(func() C.longstraw_result { return C.longstraw_rendezvous_load_file(cpath, &h.p) })
	if code != resultOK {
		return nil, code, msg
	}
	runtime.SetFinalizer(h, (*handle).free)
	return h, resultOK, ""
}

// loadBytesHandle loads a membership file's content (longstraw_rendezvous_load_bytes).
func loadBytesHandle(data []byte) (*handle, result, string) {
	h := &handle{}
	code, msg := withMessage(func() C.longstraw_result {
		defer runtime.KeepAlive(data)
		return C.longstraw_rendezvous_load_bytes(cu8(bytesPtr(data)), C.size_t(len(data)), &h.p)
	})
	if code != resultOK {
		return nil, code, msg
	}
	runtime.SetFinalizer(h, (*handle).free)
	return h, resultOK, ""
}

// free releases the C set; a second call does nothing. Callers hold the
// set's writer lock (or own the handle alone), so no C call is using it.
func (h *handle) free() {
	if h.p != nil {
		C.longstraw_rendezvous_free(h.p)
		h.p = nil
	}
	runtime.SetFinalizer(h, nil)
}

func (h *handle) add(id string, w float64, domain string) result {
	defer runtime.KeepAlive(h)
	defer runtime.KeepAlive(id)
	defer runtime.KeepAlive(domain)
	return result(C.longstraw_rendezvous_add_in_domain(h.p, cu8(strPtr(id)), C.size_t(len(id)), C.double(w),
		cu8(strPtr(domain)), C.size_t(len(domain))))
}

func (h *handle) addBatch(ids []byte, offsets []uint64, weights []float64, labels []byte, labelOffsets []uint64) result {
	defer runtime.KeepAlive(h)
	var weightsPtr *C.double
	if len(weights) > 0 {
		weightsPtr = (*C.double)(unsafe.Pointer(&weights[0]))
	}
	code := C.longstraw_rendezvous_add_batch(h.p, cu8(bytesPtr(ids)), C.size_t(len(ids)), offsetsPtr(offsets), C.size_t(len(offsets)),
		weightsPtr, C.size_t(len(weights)), cu8(bytesPtr(labels)), C.size_t(len(labels)), offsetsPtr(labelOffsets), C.size_t(len(labelOffsets)))
	runtime.KeepAlive(ids)
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(weights)
	runtime.KeepAlive(labels)
	runtime.KeepAlive(labelOffsets)
	return result(code)
}

func (h *handle) remove(id string) result {
	defer runtime.KeepAlive(h)
	defer runtime.KeepAlive(id)
	return result(C.longstraw_rendezvous_remove(h.p, cu8(strPtr(id)), C.size_t(len(id))))
}

func (h *handle) setWeight(id string, w float64) result {
	defer runtime.KeepAlive(h)
	defer runtime.KeepAlive(id)
	return result(C.longstraw_rendezvous_set_weight(h.p, cu8(strPtr(id)), C.size_t(len(id)), C.double(w)))
}

func (h *handle) setDomain(id, domain string) result {
	defer runtime.KeepAlive(h)
	defer runtime.KeepAlive(id)
	defer runtime.KeepAlive(domain)
	return result(C.longstraw_rendezvous_set_domain(h.p, cu8(strPtr(id)), C.size_t(len(id)), cu8(strPtr(domain)), C.size_t(len(domain))))
}

func (h *handle) snapshot() (snapRef, result) {
	defer runtime.KeepAlive(h)
	var snap *C.longstraw_snapshot
	code := C.longstraw_rendezvous_snapshot(h.p, &snap)
	return snap, result(code)
}

// saveFile saves the set (longstraw_rendezvous_save_file), with the
// library's message on failure.
func (h *handle) saveFile(path string, file, env *string) (result, string) {
	defer runtime.KeepAlive(h)
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cfile, cenv := optionalCString(file), optionalCString(env)
	defer C.free(unsafe.Pointer(cfile))
	defer C.free(unsafe.Pointer(cenv))
	return withMessage(func() C.longstraw_result { return C.longstraw_rendezvous_save_file(h.p, cpath, cfile, cenv) })
}

// optionalCString is NULL for nil, else a C copy (free it with C.free).
func optionalCString(s *string) *C.char {
	if s == nil {
		return nil
	}
	return C.CString(*s)
}

func snapFree(s snapRef) { C.longstraw_snapshot_free(s) }

func snapInfo(s snapRef) (snapInfoOf, result) {
	var i snapInfoOf
	var mode C.longstraw_mode
	var seed C.uint64_t
	var keyed, placement C.uint32_t
	for _, code := range []C.longstraw_result{C.longstraw_snapshot_mode(s, &mode), C.longstraw_snapshot_seed(s, &seed),
		C.longstraw_snapshot_is_keyed(s, &keyed), C.longstraw_snapshot_placement(s, &placement)} {
		if code != C.LONGSTRAW_OK {
			return i, result(code)
		}
	}
	i.mode, i.seed, i.keyed, i.placement = uint32(mode), uint64(seed), keyed != 0, uint32(placement)
	switch mode {
	case C.LONGSTRAW_MODE_TABLE:
		var bits C.uint8_t
		var replicas C.size_t
		var flags C.uint32_t
		var balance C.double
		if code := C.longstraw_snapshot_table_shape(s, &bits, &replicas, &flags, &balance); code != C.LONGSTRAW_OK {
			return i, result(code)
		}
		i.bits, i.replicas, i.flags, i.balance = uint8(bits), uint64(replicas), uint32(flags), float64(balance)
	case C.LONGSTRAW_MODE_SKELETON:
		var fanoutBits, levels C.uint8_t
		if code := C.longstraw_snapshot_skeleton_shape(s, &fanoutBits, &levels); code != C.LONGSTRAW_OK {
			return i, result(code)
		}
		i.fanoutBits, i.levels = uint8(fanoutBits), uint8(levels)
	}
	return i, resultOK
}

// snapCounts is the number of nodes and of eligible nodes.
func snapCounts(s snapRef) (n, eligible int) {
	var cn, ce C.size_t
	C.longstraw_snapshot_len(s, &cn)
	C.longstraw_snapshot_eligible(s, &ce)
	return int(cn), int(ce)
}

// snapNode is node i's id, weight and domain.
func snapNode(s snapRef, i int) (string, float64, string, result) {
	var id, domain *C.uint8_t
	var idLen, domainLen C.size_t
	var weight C.double
	if code := C.longstraw_snapshot_node(s, C.uint32_t(i), &id, &idLen, &weight); code != C.LONGSTRAW_OK {
		return "", 0, "", result(code)
	}
	if code := C.longstraw_snapshot_domain(s, C.uint32_t(i), &domain, &domainLen); code != C.LONGSTRAW_OK {
		return "", 0, "", result(code)
	}
	return C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen)), float64(weight),
		C.GoStringN((*C.char)(unsafe.Pointer(domain)), C.int(domainLen)), resultOK
}

func snapIndexOf(s snapRef, id string) result {
	var index C.uint32_t
	code := C.longstraw_snapshot_index_of(s, cu8(strPtr(id)), C.size_t(len(id)), &index)
	runtime.KeepAlive(id)
	return result(code)
}

func snapBackend(s snapRef) (string, result) {
	var name *C.char
	if code := C.longstraw_snapshot_backend(s, &name); code != C.LONGSTRAW_OK {
		return "", result(code)
	}
	return C.GoString(name), resultOK
}

// snapOwner is the owner's index of a key. The caller keeps key alive.
func snapOwner(s snapRef, key *byte, keyLen int) (uint32, result) {
	// One variable for the three out-parameters: each one passed to C moves
	// to the heap, so this is one allocation rather than three.
	var out struct {
		index C.uint32_t
		idLen C.size_t
		id    *C.uint8_t
	}
	code := C.longstraw_snapshot_owner(s, cu8(key), C.size_t(keyLen), &out.index, &out.id, &out.idLen)
	return uint32(out.index), result(code)
}

// snapPartition is a table key's partition; withMsg reads the library's
// message on failure (on the calling thread).
func snapPartition(s snapRef, key *byte, keyLen int, withMsg bool) (uint32, result, string) {
	if withMsg {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	var p C.uint32_t
	code := C.longstraw_snapshot_partition(s, cu8(key), C.size_t(keyLen), &p)
	if code != C.LONGSTRAW_OK && withMsg {
		return 0, result(code), C.GoString(C.longstraw_last_error_message())
	}
	return uint32(p), result(code), ""
}

// snapTopK writes the best len(out) indices for key to out (len(out) > 0).
func snapTopK(s snapRef, key *byte, keyLen int, out []uint32, distinct bool) (int, result) {
	var written C.size_t
	var code C.longstraw_result
	if distinct {
		code = C.longstraw_snapshot_top_k_distinct(s, cu8(key), C.size_t(keyLen),
			(*C.uint32_t)(unsafe.Pointer(&out[0])), C.size_t(len(out)), &written)
	} else {
		code = C.longstraw_snapshot_top_k(s, cu8(key), C.size_t(keyLen),
			(*C.uint32_t)(unsafe.Pointer(&out[0])), C.size_t(len(out)), &written)
	}
	return int(written), result(code)
}

func snapOwners(s snapRef, bytes []byte, offsets []uint64, out []uint32) result {
	var outPtr *C.uint32_t
	if len(out) > 0 {
		outPtr = (*C.uint32_t)(unsafe.Pointer(&out[0]))
	}
	code := C.longstraw_snapshot_owners(s, cu8(bytesPtr(bytes)), C.size_t(len(bytes)),
		offsetsPtr(offsets), C.size_t(len(offsets)), outPtr, C.size_t(len(out)))
	runtime.KeepAlive(bytes)
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(out)
	return result(code)
}

// boundedHandle is the C bounded-load set.
type boundedHandle struct {
	p *C.longstraw_bounded
}

// leaseRef is one request in flight.
type leaseRef = *C.longstraw_lease

func newBoundedHandle(o *setOptions, balanceFactor float64) (*boundedHandle, result) {
	var secret *C.uint8_t
	var secretLen C.size_t
	switch {
	case o.secret == nil:
	case len(o.secret) == 0:
		secret = (*C.uint8_t)(unsafe.Pointer(&noBytes[0]))
	default:
		secret, secretLen = (*C.uint8_t)(unsafe.Pointer(&o.secret[0])), C.size_t(len(o.secret))
	}
	h := &boundedHandle{}
	code := C.longstraw_bounded_new(C.uint64_t(o.seed), secret, secretLen, C.uint32_t(o.placement), C.double(balanceFactor), &h.p)
	runtime.KeepAlive(o.secret)
	if code != C.LONGSTRAW_OK {
		return nil, result(code)
	}
	runtime.SetFinalizer(h, func(h *boundedHandle) { C.longstraw_bounded_free(h.p) })
	return h, resultOK
}

func (b *boundedHandle) usable() bool { return b != nil && b.p != nil }

func (b *boundedHandle) isKeyed() bool {
	defer runtime.KeepAlive(b)
	var snap *C.longstraw_snapshot
	var count C.size_t
	if C.longstraw_bounded_loads(b.p, &snap, nil, 0, &count) != C.LONGSTRAW_OK {
		return false
	}
	defer C.longstraw_snapshot_free(snap)
	var keyed C.uint32_t
	if C.longstraw_snapshot_is_keyed(snap, &keyed) != C.LONGSTRAW_OK {
		return false
	}
	return keyed != 0
}

func (b *boundedHandle) acquire(key *byte, keyLen int) (leaseRef, string, result) {
	defer runtime.KeepAlive(b)
	var l *C.longstraw_lease
	var id *C.uint8_t
	var idLen C.size_t
	code := C.longstraw_bounded_acquire(b.p, cu8(key), C.size_t(keyLen), &l, &id, &idLen)
	if code != C.LONGSTRAW_OK {
		return nil, "", result(code)
	}
	return l, C.GoStringN((*C.char)(unsafe.Pointer(id)), C.int(idLen)), resultOK
}

func (b *boundedHandle) release(l leaseRef) { C.longstraw_bounded_release(l) }

func (b *boundedHandle) loads() ([]NodeLoad, result) {
	defer runtime.KeepAlive(b)
	for {
		var snap *C.longstraw_snapshot
		var count C.size_t
		if code := C.longstraw_bounded_loads(b.p, &snap, nil, 0, &count); code != C.LONGSTRAW_OK {
			return nil, result(code)
		}
		C.longstraw_snapshot_free(snap)
		loads := make([]uint64, int(count)+8)
		if code := C.longstraw_bounded_loads(b.p, &snap, (*C.uint64_t)(unsafe.Pointer(&loads[0])),
			C.size_t(len(loads)), &count); code != C.LONGSTRAW_OK {
			return nil, result(code)
		}
		if int(count) > len(loads) {
			// Nodes were added between the two calls; ask again.
			C.longstraw_snapshot_free(snap)
			continue
		}
		out := make([]NodeLoad, int(count))
		for i := range out {
			id, _, _, code := snapNode(snap, i)
			if code != resultOK {
				C.longstraw_snapshot_free(snap)
				return nil, code
			}
			out[i] = NodeLoad{Node: id, InFlight: int(loads[i])}
		}
		C.longstraw_snapshot_free(snap)
		return out, resultOK
	}
}

func (b *boundedHandle) inFlight() uint64 {
	defer runtime.KeepAlive(b)
	var n C.uint64_t
	C.longstraw_bounded_in_flight(b.p, &n)
	return uint64(n)
}

func (b *boundedHandle) add(id string, w float64) result {
	defer runtime.KeepAlive(b)
	defer runtime.KeepAlive(id)
	return result(C.longstraw_bounded_add(b.p, cu8(strPtr(id)), C.size_t(len(id)), C.double(w)))
}

func (b *boundedHandle) remove(id string) result {
	defer runtime.KeepAlive(b)
	defer runtime.KeepAlive(id)
	return result(C.longstraw_bounded_remove(b.p, cu8(strPtr(id)), C.size_t(len(id))))
}

func (b *boundedHandle) setWeight(id string, w float64) result {
	defer runtime.KeepAlive(b)
	defer runtime.KeepAlive(id)
	return result(C.longstraw_bounded_set_weight(b.p, cu8(strPtr(id)), C.size_t(len(id)), C.double(w)))
}

// headerVersionNumber is LONGSTRAW_VERSION_NUMBER from the header this
// package was compiled against (Version() is the linked library's).
func headerVersionNumber() int { return int(C.LONGSTRAW_VERSION_NUMBER) }

// headerConstants are the header's values of the constants abi.go repeats.
func headerConstants() map[string][2]int64 {
	return map[string][2]int64{
		"LONGSTRAW_PLACEMENT_VERSION":      {cPlacementVersion, C.LONGSTRAW_PLACEMENT_VERSION},
		"LONGSTRAW_SECRET_LEN":             {cSecretLen, C.LONGSTRAW_SECRET_LEN},
		"LONGSTRAW_AUTO":                   {cAuto, C.LONGSTRAW_AUTO},
		"LONGSTRAW_MAX_PARTITION_BITS":     {cMaxPartitionBits, C.LONGSTRAW_MAX_PARTITION_BITS},
		"LONGSTRAW_TABLE_DISTINCT_DOMAINS": {cTableDistinctDomains, C.LONGSTRAW_TABLE_DISTINCT_DOMAINS},
		"LONGSTRAW_MODE_TABLE":             {cModeTable, C.LONGSTRAW_MODE_TABLE},
		"LONGSTRAW_MODE_SKELETON":          {cModeSkeleton, C.LONGSTRAW_MODE_SKELETON},
		"LONGSTRAW_MODE_FLAT":              {cModeFlat, C.LONGSTRAW_MODE_FLAT},
		"LONGSTRAW_OK":                     {int64(resultOK), C.LONGSTRAW_OK},
		"LONGSTRAW_NULL_ARGUMENT":          {int64(resultNullArgument), C.LONGSTRAW_NULL_ARGUMENT},
		"LONGSTRAW_MISALIGNED_POINTER":     {int64(resultMisalignedPointer), C.LONGSTRAW_MISALIGNED_POINTER},
		"LONGSTRAW_INVALID_NODE_ID":        {int64(resultInvalidNodeID), C.LONGSTRAW_INVALID_NODE_ID},
		"LONGSTRAW_INVALID_WEIGHT":         {int64(resultInvalidWeight), C.LONGSTRAW_INVALID_WEIGHT},
		"LONGSTRAW_DUPLICATE_NODE":         {int64(resultDuplicateNode), C.LONGSTRAW_DUPLICATE_NODE},
		"LONGSTRAW_UNKNOWN_NODE":           {int64(resultUnknownNode), C.LONGSTRAW_UNKNOWN_NODE},
		"LONGSTRAW_HASH_COLLISION":         {int64(resultHashCollision), C.LONGSTRAW_HASH_COLLISION},
		"LONGSTRAW_NO_ELIGIBLE_NODE":       {int64(resultNoEligibleNode), C.LONGSTRAW_NO_ELIGIBLE_NODE},
		"LONGSTRAW_TOO_MANY_NODES":         {int64(resultTooManyNodes), C.LONGSTRAW_TOO_MANY_NODES},
		"LONGSTRAW_INDEX_OUT_OF_RANGE":     {int64(resultIndexOutOfRange), C.LONGSTRAW_INDEX_OUT_OF_RANGE},
		"LONGSTRAW_BUFFER_TOO_SMALL":       {int64(resultBufferTooSmall), C.LONGSTRAW_BUFFER_TOO_SMALL},
		"LONGSTRAW_LENGTH_MISMATCH":        {int64(resultLengthMismatch), C.LONGSTRAW_LENGTH_MISMATCH},
		"LONGSTRAW_BAD_OFFSETS":            {int64(resultBadOffsets), C.LONGSTRAW_BAD_OFFSETS},
		"LONGSTRAW_UNKNOWN_PLACEMENT":      {int64(resultUnknownPlacement), C.LONGSTRAW_UNKNOWN_PLACEMENT},
		"LONGSTRAW_BACKEND_UNAVAILABLE":    {int64(resultBackendUnavailable), C.LONGSTRAW_BACKEND_UNAVAILABLE},
		"LONGSTRAW_OUT_OF_MEMORY":          {int64(resultOutOfMemory), C.LONGSTRAW_OUT_OF_MEMORY},
		"LONGSTRAW_INTERNAL_ERROR":         {int64(resultInternalError), C.LONGSTRAW_INTERNAL_ERROR},
		"LONGSTRAW_INVALID_PARAMETER":      {int64(resultInvalidParameter), C.LONGSTRAW_INVALID_PARAMETER},
		"LONGSTRAW_INVALID_DOMAIN":         {int64(resultInvalidDomain), C.LONGSTRAW_INVALID_DOMAIN},
		"LONGSTRAW_BAD_FILE":               {int64(resultBadFile), C.LONGSTRAW_BAD_FILE},
		"LONGSTRAW_INVALID_SECRET":         {int64(resultInvalidSecret), C.LONGSTRAW_INVALID_SECRET},
		"LONGSTRAW_CONFLICTING_OPTIONS":    {int64(resultConflictingOptions), C.LONGSTRAW_CONFLICTING_OPTIONS},
		"LONGSTRAW_WRONG_MODE":             {int64(resultWrongMode), C.LONGSTRAW_WRONG_MODE},
	}
}

// libraryDefaultOptions is longstraw_options_init's defaults in Go terms.
func libraryDefaultOptions() setOptions {
	var co C.longstraw_options
	C.longstraw_options_init(&co, C.size_t(unsafe.Sizeof(co)))
	return setOptions{placement: uint32(co.placement), seed: uint64(co.seed), hasSeed: co.has_seed != 0, mode: uint32(co.mode),
		replicas: uint64(co.replicas), balance: float64(co.balance), tableFlags: uint32(co.table_flags),
		partitionBits: uint8(co.partition_bits), fanoutBits: uint8(co.fanout_bits), levels: uint8(co.levels)}
}

// snapNodes decodes every node of a snapshot, and counts the eligible ones.
func snapNodes(s snapRef) (ids []string, weights []float64, domains []string, eligible int, code result) {
	n, eligible := snapCounts(s)
	ids, weights, domains = make([]string, n), make([]float64, n), make([]string, n)
	for i := range ids {
		if ids[i], weights[i], domains[i], code = snapNode(s, i); code != resultOK {
			return nil, nil, nil, 0, code
		}
	}
	return ids, weights, domains, eligible, resultOK
}
