package longstraw

import (
	"fmt"
	"runtime"
)

// source is what lookups run on: a set's current view, or a snapshot's own.
// Both implementations answer a nil pointer or a zero value (acquire with an
// ErrInvalidArgument, current with an empty view), so every method built on
// them is nil-safe without a guard of its own.
type source interface {
	// acquire returns the view, counted as in use until release, or the
	// error of an unusable or closed source.
	acquire(op string) (*view, error)
	// current is the view to read decoded fields from (never nil).
	current() *view
	// fixed is what never changes over the set's life (never nil).
	fixed() *setInfo
}

// emptyView answers for a nil or zero value: no nodes, flat.
var emptyView = &view{info: noInfo}

func (r *Rendezvous) acquire(op string) (*view, error) {
	if !r.usable() {
		return nil, unusable(op, "Rendezvous")
	}
	for {
		v := r.view.Load()
		if v == closedView {
			return nil, closedError(op)
		}
		if v.acquire() {
			return v, nil
		}
		// A change retired v after we loaded it; its successor is published.
	}
}

func (r *Rendezvous) current() *view {
	if r == nil {
		return emptyView
	}
	if v := r.view.Load(); v != nil {
		return v
	}
	return emptyView
}

func (r *Rendezvous) fixed() *setInfo {
	if r == nil || r.info == nil {
		return noInfo
	}
	return r.info
}

// The lookups, declared once for both kinds of source. The exported methods
// of Rendezvous and Snapshot are one line each over these (lookup_methods.go).

func lenOf(s source) int          { return len(s.current().ids) }
func nodesOf(s source) []string   { return cloneOrNil(s.current().ids) }
func domainsOf(s source) []string { return cloneOrNil(s.current().domains) }
func weightsOf(s source) []float64 {
	w := s.current().weights
	if w == nil {
		return nil
	}
	return append([]float64(nil), w...)
}

func cloneOrNil(ids []string) []string {
	if ids == nil {
		return nil
	}
	return append([]string(nil), ids...)
}

func seedOf(s source) (uint64, bool) {
	i := s.fixed()
	return i.seed, i != noInfo && !i.keyed
}

func containsID(s source, id string) bool {
	v, err := s.acquire("Contains")
	if err != nil {
		return false
	}
	defer v.release()
	return snapIndexOf(v.snap, id) == resultOK
}

func backend(s source) string {
	if s.current() == emptyView {
		return ""
	}
	v, err := s.acquire("Backend")
	if err != nil {
		return "closed"
	}
	defer v.release()
	name, code := snapBackend(v.snap)
	if code != resultOK {
		return "unknown"
	}
	return name
}

func owner(s source, op string, key *byte, keyLen int, keep any) (string, error) {
	v, err := s.acquire(op)
	if err != nil {
		return "", err
	}
	defer v.release()
	index, code := snapOwner(v.snap, key, keyLen)
	runtime.KeepAlive(v)
	runtime.KeepAlive(keep)
	if code != resultOK {
		return "", check(code, "Owner", "")
	}
	return v.ids[index], nil
}

// partition is Partition: the C library refuses another mode than a table
// with its own message, which is read on the thread that made the call.
func partition(s source, op string, key *byte, keyLen int, keep any) (uint32, error) {
	v, err := s.acquire(op)
	if err != nil {
		return 0, err
	}
	defer v.release()
	p, code, msg := snapPartition(v.snap, key, keyLen, v.info.mode != Table)
	runtime.KeepAlive(v)
	runtime.KeepAlive(keep)
	if code != resultOK {
		err := check(code, trimBytes(op), "")
		if e, ok := err.(*Error); ok && code == resultWrongMode {
			e.reason = msg
		}
		return 0, err
	}
	return p, nil
}

// topK is TopK, TopKDistinct (distinct) and Rank (k = math.MaxInt).
func topK(s source, op string, key *byte, keyLen int, keep any, k int, distinct bool) ([]string, error) {
	if k < 0 {
		return nil, &Error{Op: op, Value: fmt.Sprintf("k=%d", k), Code: int(resultLengthMismatch), kind: ErrInvalidArgument,
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
	written, code := snapTopK(v.snap, key, keyLen, out, distinct)
	runtime.KeepAlive(v)
	runtime.KeepAlive(keep)
	if err := check(code, trimBytes(op), ""); err != nil {
		return nil, err
	}
	ids := make([]string, written)
	for i := range ids {
		ids[i] = v.ids[out[i]]
	}
	return ids, nil
}

// trimBytes names a C failure after the string form of the method, as the
// errors always have ("TopK" for TopKBytes too).
func trimBytes(op string) string {
	if n := len(op) - len("Bytes"); n > 0 && op[n:] == "Bytes" {
		return op[:n]
	}
	return op
}

// ownersOf is Owners (keys as strings) and OwnersBytes.
func ownersOf(s source, op string, bytes []byte, offsets []uint64, n int) ([]string, error) {
	out := make([]uint32, n)
	ids, err := ownersPacked(s, op, bytes, offsets, out, fmt.Sprintf("(%d keys)", n))
	if err != nil {
		return nil, err
	}
	owners := make([]string, n)
	for i, o := range out {
		owners[i] = ids[o]
	}
	return owners, nil
}

func packBytes(keys [][]byte) ([]byte, []uint64) {
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
	return bytes, offsets
}

// ownersPacked is OwnersPacked returning the view's own ids, which are
// shared by every lookup and must not be changed. batch describes the keys
// in an error ("" for the packed arrays themselves).
func ownersPacked(s source, op string, bytes []byte, offsets []uint64, out []uint32, batch string) ([]string, error) {
	v, err := s.acquire(op)
	if err != nil {
		return nil, err
	}
	defer v.release()
	code := snapOwners(v.snap, bytes, offsets, out)
	runtime.KeepAlive(v)
	if code != resultOK {
		if batch == "" {
			batch = fmt.Sprintf("(%d bytes, %d offsets, %d outputs)", len(bytes), len(offsets), len(out))
		}
		err := check(code, trimBytes(op), batch)
		if e, ok := err.(*Error); ok {
			switch code {
			case resultBadOffsets, resultLengthMismatch:
				e.kind = ErrInvalidArgument // the caller's arrays, not a bug here
			}
		}
		return nil, err
	}
	return v.ids, nil
}

func ownersPackedCopy(s source, bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	ids, err := ownersPacked(s, "OwnersPacked", bytes, offsets, out, "")
	if err != nil {
		return nil, err
	}
	return append([]string(nil), ids...), nil
}

// The mode's parameters: (value, true) on the mode they belong to,
// (zero, false) on the others.

func (i *setInfo) partitionBits() (int, bool) { return i.bits, i.mode == Table }
func (i *setInfo) partitions() (int, bool) {
	if i.mode != Table {
		return 0, false
	}
	return 1 << i.bits, true
}
func (i *setInfo) replicaCount() (int, bool) { return i.replicas, i.mode == Table }
func (i *setInfo) distinctDomains() (bool, bool) {
	return i.distinct, i.mode == Table
}
func (i *setInfo) balanced() (float64, bool) { return i.balance, i.mode == Table && i.balance != 0 }
func (i *setInfo) fanout() (int, bool)       { return i.fanoutBits, i.mode == Skeleton }
func (i *setInfo) levelCount() (int, bool)   { return i.levels, i.mode == Skeleton }
