package longstraw

import "unsafe"

// The seam between the public types and the C library. The public files
// call the functions and types below and hold no C reference; two
// implementations provide them:
//
//   - abi_cgo.go (cgo on): direct cgo calls into liblongstraw.a;
//   - abi_wazero.go (cgo off): the same C ABI compiled to WebAssembly
//     (liblongstraw.wasm), run by wazero (internal/wasmabi).
//
// They are concrete functions chosen at build time, not an interface, so
// the cgo lookup path has no dispatch and no allocation of its own.
//
// Each implementation defines:
//
//	type handle            a set of any mode; methods free, add, addBatch,
//	                       remove, setWeight, setDomain, snapshot, saveFile
//	type snapRef           an immutable membership (a C snapshot)
//	type boundedHandle     a bounded-load set
//	newSetHandle, newSetFrom, loadFileHandle, loadBytesHandle
//	snapFree, snapInfo, snapCounts, snapNode, snapIndexOf, snapBackend,
//	snapOwner, snapPartition, snapTopK, snapOwners
//	newBoundedHandle, resultStr, libVersion, libVersionString

// result is a longstraw_result code (include/longstraw.h); TestHeaderConstants
// checks the values against the header.
type result int32

const (
	resultOK                 result = 0
	resultNullArgument       result = 1
	resultMisalignedPointer  result = 2
	resultInvalidNodeID      result = 3
	resultInvalidWeight      result = 4
	resultDuplicateNode      result = 5
	resultUnknownNode        result = 6
	resultHashCollision      result = 7
	resultNoEligibleNode     result = 8
	resultTooManyNodes       result = 9
	resultIndexOutOfRange    result = 10
	resultBufferTooSmall     result = 11
	resultLengthMismatch     result = 12
	resultBadOffsets         result = 13
	resultUnknownPlacement   result = 14
	resultBackendUnavailable result = 15
	resultOutOfMemory        result = 16
	resultInternalError      result = 17
	resultInvalidParameter   result = 18
	resultInvalidDomain      result = 19
	resultBadFile            result = 20
	resultInvalidSecret      result = 21
	resultConflictingOptions result = 22
	resultWrongMode          result = 23
	// resultTrap is no C code: the WebAssembly module trapped (a panic in
	// the library) and its instance was replaced. Only the wasm path
	// returns it.
	resultTrap result = -1
)

// Constants of the header (checked against it by TestHeaderConstants).
const (
	cPlacementVersion     = 1
	cSecretLen            = 16
	cAuto                 = 255
	cMaxPartitionBits     = 24
	cTableDistinctDomains = 1
	cModeFlat             = 0
	cModeTable            = 1
	cModeSkeleton         = 2
)

// setOptions is longstraw_options in Go terms.
type setOptions struct {
	placement     uint32
	seed          uint64
	hasSeed       bool
	mode          uint32
	secret        []byte // nil: none; empty but not nil: an empty secret (refused by the library)
	replicas      uint64
	balance       float64
	tableFlags    uint32
	partitionBits uint8
	fanoutBits    uint8
	levels        uint8
}

// defaultSetOptions is longstraw_options_init's defaults
// (TestDefaultSetOptionsAreTheLibrarys checks them on the cgo path).
func defaultSetOptions() setOptions {
	return setOptions{placement: cPlacementVersion, mode: cModeFlat, replicas: 1,
		partitionBits: cAuto, fanoutBits: cAuto, levels: cAuto}
}

// snapInfoOf is what a snapshot says of its set's mode and hashing.
type snapInfoOf struct {
	mode       uint32
	seed       uint64
	keyed      bool
	placement  uint32
	bits       uint8
	replicas   uint64
	flags      uint32
	balance    float64
	fanoutBits uint8
	levels     uint8
}

// strPtr points at a string's bytes without copying; nil for "".
func strPtr(s string) *byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.StringData(s)
}

func bytesPtr(b []byte) *byte {
	if len(b) == 0 {
		return nil
	}
	return &b[0]
}

// unsafeBytes is the n bytes at p (a key the caller keeps alive), not copied.
func unsafeBytes(p *byte, n int) []byte { return unsafe.Slice(p, n) }
