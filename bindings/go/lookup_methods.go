package longstraw

// The read-only methods of Rendezvous and Snapshot: one line each over the
// shared lookups of lookup.go, which take the set's current view or the
// snapshot's own. TestSnapshotHasEveryLookup checks that the two method sets
// stay alike and TestEveryMethodIsNilSafe that each method is nil-safe.

import "math"

// Mode is how the set places keys: Flat, Table or Skeleton (Flat for a nil
// or zero value).
func (r *Rendezvous) Mode() Mode { return r.fixed().mode }

// Len is the number of nodes, drained ones included (0 once closed).
func (r *Rendezvous) Len() int { return lenOf(r) }

// Nodes returns the node ids in index order.
func (r *Rendezvous) Nodes() []string { return nodesOf(r) }

// Weights returns each node's weight in index order.
func (r *Rendezvous) Weights() []float64 { return weightsOf(r) }

// Domains returns each node's failure domain in index order ("" for none).
func (r *Rendezvous) Domains() []string { return domainsOf(r) }

// Contains reports whether id is one of the nodes.
func (r *Rendezvous) Contains(id string) bool { return containsID(r, id) }

// Seed is the seed keys are placed with, and true; (0, false) for a keyed set
// (which has no seed) or a nil or zero value.
func (r *Rendezvous) Seed() (uint64, bool) { return seedOf(r) }

// IsKeyed reports whether keys are placed by keyed-v1 (the set was built
// WithSecret, or loaded from a keyed file).
func (r *Rendezvous) IsKeyed() bool { return r.fixed().keyed }

// Placement is the placement version keys are placed by (0 for a nil or
// zero value).
func (r *Rendezvous) Placement() uint32 { return r.fixed().placement }

// Backend names the kernel lookups run on ("scalar", "sse2", "avx2",
// "avx512" or "neon"; "simd128" on the portable WebAssembly build), chosen
// once per process from the CPU, or forced with the LONGSTRAW_BACKEND
// environment variable. It never changes placement.
// It is "closed" after Close and "" for a nil or zero value.
func (r *Rendezvous) Backend() string { return backend(r) }

// Owner returns the node that owns key. It fails with ErrNoEligibleNode when
// the set is empty or every node has weight 0.
func (r *Rendezvous) Owner(key string) (string, error) {
	return owner(r, "Owner", strPtr(key), len(key), key)
}

// OwnerBytes is Owner for a key given as bytes; the key is not copied.
func (r *Rendezvous) OwnerBytes(key []byte) (string, error) {
	return owner(r, "OwnerBytes", bytesPtr(key), len(key), key)
}

// TopK returns the best k nodes for key, best first: its owner and then the
// nodes that would own it if the ones before were gone. Fewer than k come
// back when fewer nodes are eligible; an empty set gives an empty slice.
// (For a table, the ranking of the key's partition; for a skeleton, the
// skeleton ranking.)
func (r *Rendezvous) TopK(key string, k int) ([]string, error) {
	return topK(r, "TopK", strPtr(key), len(key), key, k, false)
}

// TopKBytes is TopK for a key given as bytes; the key is not copied.
func (r *Rendezvous) TopKBytes(key []byte, k int) ([]string, error) {
	return topK(r, "TopKBytes", bytesPtr(key), len(key), key, k, false)
}

// TopKDistinct returns at most one node per failure domain for key: the
// first k nodes of TopK's order that are each the first of their domain
// (CRUSH firstn). Its first node is the owner, and when a node or a whole
// domain fails the later replicas shift up. Fewer than k come back when
// fewer domains have an eligible node. Without domain labels it is TopK.
func (r *Rendezvous) TopKDistinct(key string, k int) ([]string, error) {
	return topK(r, "TopKDistinct", strPtr(key), len(key), key, k, true)
}

// TopKDistinctBytes is TopKDistinct for a key given as bytes.
func (r *Rendezvous) TopKDistinctBytes(key []byte, k int) ([]string, error) {
	return topK(r, "TopKDistinctBytes", bytesPtr(key), len(key), key, k, true)
}

// Rank returns every eligible node for key, best first.
func (r *Rendezvous) Rank(key string) ([]string, error) {
	return topK(r, "Rank", strPtr(key), len(key), key, math.MaxInt, false)
}

// RankBytes is Rank for a key given as bytes.
func (r *Rendezvous) RankBytes(key []byte) ([]string, error) {
	return topK(r, "RankBytes", bytesPtr(key), len(key), key, math.MaxInt, false)
}

// Owners returns the owner of each key, in one call into the library: the
// keys are packed into one byte buffer and an offsets array (the layout every
// longstraw batch call shares), never passed as Go string headers.
func (r *Rendezvous) Owners(keys []string) ([]string, error) {
	b, o := packStrings(keys)
	return ownersOf(r, "Owners", b, o, len(keys))
}

// OwnersBytes is Owners for keys given as byte slices.
func (r *Rendezvous) OwnersBytes(keys [][]byte) ([]string, error) {
	b, o := packBytes(keys)
	return ownersOf(r, "OwnersBytes", b, o, len(keys))
}

// OwnersPacked is the batch call on keys already in the packed layout: key i
// is bytes[offsets[i]:offsets[i+1]], so len(offsets) is the number of keys
// plus one. It writes owner indices (positions in Nodes at the time of the
// call) to out, which must have one entry per key, and returns the node ids
// those indices refer to: a copy the caller may keep or change.
func (r *Rendezvous) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	return ownersPackedCopy(r, bytes, offsets, out)
}

// Partition is the partition of a table key falls in: a number below
// 2^PartitionBits, and every key of one partition has the same owner and
// replicas. On another mode it fails with an ErrInvalidArgument that says
// which mode the set is.
func (r *Rendezvous) Partition(key string) (uint32, error) {
	return partition(r, "Partition", strPtr(key), len(key), key)
}

// PartitionBytes is Partition for a key given as bytes.
func (r *Rendezvous) PartitionBytes(key []byte) (uint32, error) {
	return partition(r, "PartitionBytes", bytesPtr(key), len(key), key)
}

// PartitionBits is a table's partition bits (it has 2^bits partitions) and
// true; (0, false) on another mode.
func (r *Rendezvous) PartitionBits() (int, bool) { return r.fixed().partitionBits() }

// Partitions is a table's number of partitions, 2^PartitionBits, and true;
// (0, false) on another mode.
func (r *Rendezvous) Partitions() (int, bool) { return r.fixed().partitions() }

// Replicas is how many nodes a table stores per partition, and true; (0,
// false) on another mode.
func (r *Rendezvous) Replicas() (int, bool) { return r.fixed().replicaCount() }

// DistinctDomains is whether a table stores at most one node per failure
// domain per partition, and true; (false, false) on another mode.
func (r *Rendezvous) DistinctDomains() (bool, bool) { return r.fixed().distinctDomains() }

// Balance is a balanced table's balance (WithBalance) and true; (0, false)
// for a plain table or another mode.
func (r *Rendezvous) Balance() (float64, bool) { return r.fixed().balanced() }

// FanoutBits is a skeleton's fan-out bits (2^bits children per group; 0
// when it has 0 levels) and true; (0, false) on another mode.
func (r *Rendezvous) FanoutBits() (int, bool) { return r.fixed().fanout() }

// Levels is a skeleton's number of levels of groups (0 is flat HRW) and
// true; (0, false) on another mode.
func (r *Rendezvous) Levels() (int, bool) { return r.fixed().levelCount() }

// Mode is Rendezvous.Mode, on the snapshot's membership.
func (s *Snapshot) Mode() Mode { return s.fixed().mode }

// Len is Rendezvous.Len, on the snapshot's membership.
func (s *Snapshot) Len() int { return lenOf(s) }

// Nodes is Rendezvous.Nodes, on the snapshot's membership.
func (s *Snapshot) Nodes() []string { return nodesOf(s) }

// Weights is Rendezvous.Weights, on the snapshot's membership.
func (s *Snapshot) Weights() []float64 { return weightsOf(s) }

// Domains is Rendezvous.Domains, on the snapshot's membership.
func (s *Snapshot) Domains() []string { return domainsOf(s) }

// Contains is Rendezvous.Contains, on the snapshot's membership.
func (s *Snapshot) Contains(id string) bool { return containsID(s, id) }

// Seed is Rendezvous.Seed, on the snapshot's membership.
func (s *Snapshot) Seed() (uint64, bool) { return seedOf(s) }

// IsKeyed is Rendezvous.IsKeyed, on the snapshot's membership.
func (s *Snapshot) IsKeyed() bool { return s.fixed().keyed }

// Placement is Rendezvous.Placement, on the snapshot's membership.
func (s *Snapshot) Placement() uint32 { return s.fixed().placement }

// Backend is Rendezvous.Backend, on the snapshot's membership.
func (s *Snapshot) Backend() string { return backend(s) }

// Owner is Rendezvous.Owner, on the snapshot's membership.
func (s *Snapshot) Owner(key string) (string, error) {
	return owner(s, "Owner", strPtr(key), len(key), key)
}

// OwnerBytes is Rendezvous.OwnerBytes, on the snapshot's membership.
func (s *Snapshot) OwnerBytes(key []byte) (string, error) {
	return owner(s, "OwnerBytes", bytesPtr(key), len(key), key)
}

// TopK is Rendezvous.TopK, on the snapshot's membership.
func (s *Snapshot) TopK(key string, k int) ([]string, error) {
	return topK(s, "TopK", strPtr(key), len(key), key, k, false)
}

// TopKBytes is Rendezvous.TopKBytes, on the snapshot's membership.
func (s *Snapshot) TopKBytes(key []byte, k int) ([]string, error) {
	return topK(s, "TopKBytes", bytesPtr(key), len(key), key, k, false)
}

// TopKDistinct is Rendezvous.TopKDistinct, on the snapshot's membership.
func (s *Snapshot) TopKDistinct(key string, k int) ([]string, error) {
	return topK(s, "TopKDistinct", strPtr(key), len(key), key, k, true)
}

// TopKDistinctBytes is Rendezvous.TopKDistinctBytes, on the snapshot's membership.
func (s *Snapshot) TopKDistinctBytes(key []byte, k int) ([]string, error) {
	return topK(s, "TopKDistinctBytes", bytesPtr(key), len(key), key, k, true)
}

// Rank is Rendezvous.Rank, on the snapshot's membership.
func (s *Snapshot) Rank(key string) ([]string, error) {
	return topK(s, "Rank", strPtr(key), len(key), key, math.MaxInt, false)
}

// RankBytes is Rendezvous.RankBytes, on the snapshot's membership.
func (s *Snapshot) RankBytes(key []byte) ([]string, error) {
	return topK(s, "RankBytes", bytesPtr(key), len(key), key, math.MaxInt, false)
}

// Owners is Rendezvous.Owners, on the snapshot's membership.
func (s *Snapshot) Owners(keys []string) ([]string, error) {
	b, o := packStrings(keys)
	return ownersOf(s, "Owners", b, o, len(keys))
}

// OwnersBytes is Rendezvous.OwnersBytes, on the snapshot's membership.
func (s *Snapshot) OwnersBytes(keys [][]byte) ([]string, error) {
	b, o := packBytes(keys)
	return ownersOf(s, "OwnersBytes", b, o, len(keys))
}

// OwnersPacked is Rendezvous.OwnersPacked, on the snapshot's membership.
func (s *Snapshot) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	return ownersPackedCopy(s, bytes, offsets, out)
}

// Partition is Rendezvous.Partition, on the snapshot's membership.
func (s *Snapshot) Partition(key string) (uint32, error) {
	return partition(s, "Partition", strPtr(key), len(key), key)
}

// PartitionBytes is Rendezvous.PartitionBytes, on the snapshot's membership.
func (s *Snapshot) PartitionBytes(key []byte) (uint32, error) {
	return partition(s, "PartitionBytes", bytesPtr(key), len(key), key)
}

// PartitionBits is Rendezvous.PartitionBits, on the snapshot's membership.
func (s *Snapshot) PartitionBits() (int, bool) { return s.fixed().partitionBits() }

// Partitions is Rendezvous.Partitions, on the snapshot's membership.
func (s *Snapshot) Partitions() (int, bool) { return s.fixed().partitions() }

// Replicas is Rendezvous.Replicas, on the snapshot's membership.
func (s *Snapshot) Replicas() (int, bool) { return s.fixed().replicaCount() }

// DistinctDomains is Rendezvous.DistinctDomains, on the snapshot's membership.
func (s *Snapshot) DistinctDomains() (bool, bool) { return s.fixed().distinctDomains() }

// Balance is Rendezvous.Balance, on the snapshot's membership.
func (s *Snapshot) Balance() (float64, bool) { return s.fixed().balanced() }

// FanoutBits is Rendezvous.FanoutBits, on the snapshot's membership.
func (s *Snapshot) FanoutBits() (int, bool) { return s.fixed().fanout() }

// Levels is Rendezvous.Levels, on the snapshot's membership.
func (s *Snapshot) Levels() (int, bool) { return s.fixed().levelCount() }
