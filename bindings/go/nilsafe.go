// These wrappers mirror nodeSet's exported methods one for one; keep them in
// step with longstraw.go. No logic belongs here.

package longstraw

// Every exported method of Rendezvous, Table and Skeleton, guarded against a
// nil pointer or a zero value (a set not made by New, NewTable or
// NewSkeleton): those return an ErrInvalidArgument that says so (or the
// zero value, for methods without an error) instead of panicking with a nil
// dereference. Go promotes nodeSet's methods through the embedded field, and
// reaching that field through a nil pointer panics before any nodeSet method
// runs, hence one wrapper per type.

// Add is nodeSet.Add on a Rendezvous made by New.
func (r *Rendezvous) Add(id string, weight float64) error {
	if r == nil || r.view.Load() == nil {
		return unusable("Add", "Rendezvous")
	}
	return r.nodeSet.Add(id, weight)
}

// AddInDomain is nodeSet.AddInDomain on a Rendezvous made by New.
func (r *Rendezvous) AddInDomain(id string, weight float64, domain string) error {
	if r == nil || r.view.Load() == nil {
		return unusable("AddInDomain", "Rendezvous")
	}
	return r.nodeSet.AddInDomain(id, weight, domain)
}

// Remove is nodeSet.Remove on a Rendezvous made by New.
func (r *Rendezvous) Remove(id string) error {
	if r == nil || r.view.Load() == nil {
		return unusable("Remove", "Rendezvous")
	}
	return r.nodeSet.Remove(id)
}

// SetWeight is nodeSet.SetWeight on a Rendezvous made by New.
func (r *Rendezvous) SetWeight(id string, weight float64) error {
	if r == nil || r.view.Load() == nil {
		return unusable("SetWeight", "Rendezvous")
	}
	return r.nodeSet.SetWeight(id, weight)
}

// SetDomain is nodeSet.SetDomain on a Rendezvous made by New.
func (r *Rendezvous) SetDomain(id string, domain string) error {
	if r == nil || r.view.Load() == nil {
		return unusable("SetDomain", "Rendezvous")
	}
	return r.nodeSet.SetDomain(id, domain)
}

// Len is nodeSet.Len on a Rendezvous made by New.
func (r *Rendezvous) Len() int {
	if r == nil || r.view.Load() == nil {
		return 0
	}
	return r.nodeSet.Len()
}

// Nodes is nodeSet.Nodes on a Rendezvous made by New.
func (r *Rendezvous) Nodes() []string {
	if r == nil || r.view.Load() == nil {
		return nil
	}
	return r.nodeSet.Nodes()
}

// Backend is nodeSet.Backend on a Rendezvous made by New.
func (r *Rendezvous) Backend() string {
	if r == nil || r.view.Load() == nil {
		return ""
	}
	return r.nodeSet.Backend()
}

// Domains is nodeSet.Domains on a Rendezvous made by New.
func (r *Rendezvous) Domains() []string {
	if r == nil || r.view.Load() == nil {
		return nil
	}
	return r.nodeSet.Domains()
}

// Owner is nodeSet.Owner on a Rendezvous made by New.
func (r *Rendezvous) Owner(key string) (string, error) {
	if r == nil || r.view.Load() == nil {
		return "", unusable("Owner", "Rendezvous")
	}
	return r.nodeSet.Owner(key)
}

// OwnerBytes is nodeSet.OwnerBytes on a Rendezvous made by New.
func (r *Rendezvous) OwnerBytes(key []byte) (string, error) {
	if r == nil || r.view.Load() == nil {
		return "", unusable("OwnerBytes", "Rendezvous")
	}
	return r.nodeSet.OwnerBytes(key)
}

// TopK is nodeSet.TopK on a Rendezvous made by New.
func (r *Rendezvous) TopK(key string, k int) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("TopK", "Rendezvous")
	}
	return r.nodeSet.TopK(key, k)
}

// TopKBytes is nodeSet.TopKBytes on a Rendezvous made by New.
func (r *Rendezvous) TopKBytes(key []byte, k int) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("TopKBytes", "Rendezvous")
	}
	return r.nodeSet.TopKBytes(key, k)
}

// TopKDistinct is nodeSet.TopKDistinct on a Rendezvous made by New.
func (r *Rendezvous) TopKDistinct(key string, k int) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("TopKDistinct", "Rendezvous")
	}
	return r.nodeSet.TopKDistinct(key, k)
}

// TopKDistinctBytes is nodeSet.TopKDistinctBytes on a Rendezvous made by New.
func (r *Rendezvous) TopKDistinctBytes(key []byte, k int) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("TopKDistinctBytes", "Rendezvous")
	}
	return r.nodeSet.TopKDistinctBytes(key, k)
}

// Rank is nodeSet.Rank on a Rendezvous made by New.
func (r *Rendezvous) Rank(key string) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("Rank", "Rendezvous")
	}
	return r.nodeSet.Rank(key)
}

// RankBytes is nodeSet.RankBytes on a Rendezvous made by New.
func (r *Rendezvous) RankBytes(key []byte) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("RankBytes", "Rendezvous")
	}
	return r.nodeSet.RankBytes(key)
}

// Owners is nodeSet.Owners on a Rendezvous made by New.
func (r *Rendezvous) Owners(keys []string) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("Owners", "Rendezvous")
	}
	return r.nodeSet.Owners(keys)
}

// OwnersBytes is nodeSet.OwnersBytes on a Rendezvous made by New.
func (r *Rendezvous) OwnersBytes(keys [][]byte) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("OwnersBytes", "Rendezvous")
	}
	return r.nodeSet.OwnersBytes(keys)
}

// OwnersPacked is nodeSet.OwnersPacked on a Rendezvous made by New.
func (r *Rendezvous) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	if r == nil || r.view.Load() == nil {
		return nil, unusable("OwnersPacked", "Rendezvous")
	}
	return r.nodeSet.OwnersPacked(bytes, offsets, out)
}

// Add is nodeSet.Add on a Table made by NewTable.
func (t *Table) Add(id string, weight float64) error {
	if t == nil || t.view.Load() == nil {
		return unusable("Add", "Table")
	}
	return t.nodeSet.Add(id, weight)
}

// AddInDomain is nodeSet.AddInDomain on a Table made by NewTable.
func (t *Table) AddInDomain(id string, weight float64, domain string) error {
	if t == nil || t.view.Load() == nil {
		return unusable("AddInDomain", "Table")
	}
	return t.nodeSet.AddInDomain(id, weight, domain)
}

// Remove is nodeSet.Remove on a Table made by NewTable.
func (t *Table) Remove(id string) error {
	if t == nil || t.view.Load() == nil {
		return unusable("Remove", "Table")
	}
	return t.nodeSet.Remove(id)
}

// SetWeight is nodeSet.SetWeight on a Table made by NewTable.
func (t *Table) SetWeight(id string, weight float64) error {
	if t == nil || t.view.Load() == nil {
		return unusable("SetWeight", "Table")
	}
	return t.nodeSet.SetWeight(id, weight)
}

// SetDomain is nodeSet.SetDomain on a Table made by NewTable.
func (t *Table) SetDomain(id string, domain string) error {
	if t == nil || t.view.Load() == nil {
		return unusable("SetDomain", "Table")
	}
	return t.nodeSet.SetDomain(id, domain)
}

// Len is nodeSet.Len on a Table made by NewTable.
func (t *Table) Len() int {
	if t == nil || t.view.Load() == nil {
		return 0
	}
	return t.nodeSet.Len()
}

// Nodes is nodeSet.Nodes on a Table made by NewTable.
func (t *Table) Nodes() []string {
	if t == nil || t.view.Load() == nil {
		return nil
	}
	return t.nodeSet.Nodes()
}

// Backend is nodeSet.Backend on a Table made by NewTable.
func (t *Table) Backend() string {
	if t == nil || t.view.Load() == nil {
		return ""
	}
	return t.nodeSet.Backend()
}

// Domains is nodeSet.Domains on a Table made by NewTable.
func (t *Table) Domains() []string {
	if t == nil || t.view.Load() == nil {
		return nil
	}
	return t.nodeSet.Domains()
}

// Owner is nodeSet.Owner on a Table made by NewTable.
func (t *Table) Owner(key string) (string, error) {
	if t == nil || t.view.Load() == nil {
		return "", unusable("Owner", "Table")
	}
	return t.nodeSet.Owner(key)
}

// OwnerBytes is nodeSet.OwnerBytes on a Table made by NewTable.
func (t *Table) OwnerBytes(key []byte) (string, error) {
	if t == nil || t.view.Load() == nil {
		return "", unusable("OwnerBytes", "Table")
	}
	return t.nodeSet.OwnerBytes(key)
}

// TopK is nodeSet.TopK on a Table made by NewTable.
func (t *Table) TopK(key string, k int) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("TopK", "Table")
	}
	return t.nodeSet.TopK(key, k)
}

// TopKBytes is nodeSet.TopKBytes on a Table made by NewTable.
func (t *Table) TopKBytes(key []byte, k int) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("TopKBytes", "Table")
	}
	return t.nodeSet.TopKBytes(key, k)
}

// TopKDistinct is nodeSet.TopKDistinct on a Table made by NewTable.
func (t *Table) TopKDistinct(key string, k int) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("TopKDistinct", "Table")
	}
	return t.nodeSet.TopKDistinct(key, k)
}

// TopKDistinctBytes is nodeSet.TopKDistinctBytes on a Table made by NewTable.
func (t *Table) TopKDistinctBytes(key []byte, k int) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("TopKDistinctBytes", "Table")
	}
	return t.nodeSet.TopKDistinctBytes(key, k)
}

// Rank is nodeSet.Rank on a Table made by NewTable.
func (t *Table) Rank(key string) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("Rank", "Table")
	}
	return t.nodeSet.Rank(key)
}

// RankBytes is nodeSet.RankBytes on a Table made by NewTable.
func (t *Table) RankBytes(key []byte) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("RankBytes", "Table")
	}
	return t.nodeSet.RankBytes(key)
}

// Owners is nodeSet.Owners on a Table made by NewTable.
func (t *Table) Owners(keys []string) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("Owners", "Table")
	}
	return t.nodeSet.Owners(keys)
}

// OwnersBytes is nodeSet.OwnersBytes on a Table made by NewTable.
func (t *Table) OwnersBytes(keys [][]byte) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("OwnersBytes", "Table")
	}
	return t.nodeSet.OwnersBytes(keys)
}

// OwnersPacked is nodeSet.OwnersPacked on a Table made by NewTable.
func (t *Table) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	if t == nil || t.view.Load() == nil {
		return nil, unusable("OwnersPacked", "Table")
	}
	return t.nodeSet.OwnersPacked(bytes, offsets, out)
}

// Add is nodeSet.Add on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Add(id string, weight float64) error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("Add", "Skeleton")
	}
	return sk.nodeSet.Add(id, weight)
}

// AddInDomain is nodeSet.AddInDomain on a Skeleton made by NewSkeleton.
func (sk *Skeleton) AddInDomain(id string, weight float64, domain string) error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("AddInDomain", "Skeleton")
	}
	return sk.nodeSet.AddInDomain(id, weight, domain)
}

// Remove is nodeSet.Remove on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Remove(id string) error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("Remove", "Skeleton")
	}
	return sk.nodeSet.Remove(id)
}

// SetWeight is nodeSet.SetWeight on a Skeleton made by NewSkeleton.
func (sk *Skeleton) SetWeight(id string, weight float64) error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("SetWeight", "Skeleton")
	}
	return sk.nodeSet.SetWeight(id, weight)
}

// SetDomain is nodeSet.SetDomain on a Skeleton made by NewSkeleton.
func (sk *Skeleton) SetDomain(id string, domain string) error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("SetDomain", "Skeleton")
	}
	return sk.nodeSet.SetDomain(id, domain)
}

// Len is nodeSet.Len on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Len() int {
	if sk == nil || sk.view.Load() == nil {
		return 0
	}
	return sk.nodeSet.Len()
}

// Nodes is nodeSet.Nodes on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Nodes() []string {
	if sk == nil || sk.view.Load() == nil {
		return nil
	}
	return sk.nodeSet.Nodes()
}

// Backend is nodeSet.Backend on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Backend() string {
	if sk == nil || sk.view.Load() == nil {
		return ""
	}
	return sk.nodeSet.Backend()
}

// Domains is nodeSet.Domains on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Domains() []string {
	if sk == nil || sk.view.Load() == nil {
		return nil
	}
	return sk.nodeSet.Domains()
}

// Owner is nodeSet.Owner on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Owner(key string) (string, error) {
	if sk == nil || sk.view.Load() == nil {
		return "", unusable("Owner", "Skeleton")
	}
	return sk.nodeSet.Owner(key)
}

// OwnerBytes is nodeSet.OwnerBytes on a Skeleton made by NewSkeleton.
func (sk *Skeleton) OwnerBytes(key []byte) (string, error) {
	if sk == nil || sk.view.Load() == nil {
		return "", unusable("OwnerBytes", "Skeleton")
	}
	return sk.nodeSet.OwnerBytes(key)
}

// TopK is nodeSet.TopK on a Skeleton made by NewSkeleton.
func (sk *Skeleton) TopK(key string, k int) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("TopK", "Skeleton")
	}
	return sk.nodeSet.TopK(key, k)
}

// TopKBytes is nodeSet.TopKBytes on a Skeleton made by NewSkeleton.
func (sk *Skeleton) TopKBytes(key []byte, k int) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("TopKBytes", "Skeleton")
	}
	return sk.nodeSet.TopKBytes(key, k)
}

// TopKDistinct is nodeSet.TopKDistinct on a Skeleton made by NewSkeleton.
func (sk *Skeleton) TopKDistinct(key string, k int) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("TopKDistinct", "Skeleton")
	}
	return sk.nodeSet.TopKDistinct(key, k)
}

// TopKDistinctBytes is nodeSet.TopKDistinctBytes on a Skeleton made by NewSkeleton.
func (sk *Skeleton) TopKDistinctBytes(key []byte, k int) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("TopKDistinctBytes", "Skeleton")
	}
	return sk.nodeSet.TopKDistinctBytes(key, k)
}

// Rank is nodeSet.Rank on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Rank(key string) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("Rank", "Skeleton")
	}
	return sk.nodeSet.Rank(key)
}

// RankBytes is nodeSet.RankBytes on a Skeleton made by NewSkeleton.
func (sk *Skeleton) RankBytes(key []byte) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("RankBytes", "Skeleton")
	}
	return sk.nodeSet.RankBytes(key)
}

// Owners is nodeSet.Owners on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Owners(keys []string) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("Owners", "Skeleton")
	}
	return sk.nodeSet.Owners(keys)
}

// OwnersBytes is nodeSet.OwnersBytes on a Skeleton made by NewSkeleton.
func (sk *Skeleton) OwnersBytes(keys [][]byte) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("OwnersBytes", "Skeleton")
	}
	return sk.nodeSet.OwnersBytes(keys)
}

// OwnersPacked is nodeSet.OwnersPacked on a Skeleton made by NewSkeleton.
func (sk *Skeleton) OwnersPacked(bytes []byte, offsets []uint64, out []uint32) ([]string, error) {
	if sk == nil || sk.view.Load() == nil {
		return nil, unusable("OwnersPacked", "Skeleton")
	}
	return sk.nodeSet.OwnersPacked(bytes, offsets, out)
}

// IsKeyed is nodeSet.IsKeyed on a Rendezvous made by New (false for a nil or zero value).
func (r *Rendezvous) IsKeyed() bool {
	if r == nil || r.view.Load() == nil {
		return false
	}
	return r.nodeSet.IsKeyed()
}

// Save is nodeSet.Save on a Rendezvous made by New.
func (r *Rendezvous) Save(path string, opts ...SaveOption) error {
	if r == nil || r.view.Load() == nil {
		return unusable("Save", "Rendezvous")
	}
	return r.nodeSet.Save(path, opts...)
}

// Close is nodeSet.Close on a Rendezvous made by New.
func (r *Rendezvous) Close() error {
	if r == nil || r.view.Load() == nil {
		return unusable("Close", "Rendezvous")
	}
	return r.nodeSet.Close()
}

// IsKeyed is nodeSet.IsKeyed on a Table made by NewTable (false for a nil or zero value).
func (t *Table) IsKeyed() bool {
	if t == nil || t.view.Load() == nil {
		return false
	}
	return t.nodeSet.IsKeyed()
}

// Save is nodeSet.Save on a Table made by NewTable.
func (t *Table) Save(path string, opts ...SaveOption) error {
	if t == nil || t.view.Load() == nil {
		return unusable("Save", "Table")
	}
	return t.nodeSet.Save(path, opts...)
}

// Close is nodeSet.Close on a Table made by NewTable.
func (t *Table) Close() error {
	if t == nil || t.view.Load() == nil {
		return unusable("Close", "Table")
	}
	return t.nodeSet.Close()
}

// IsKeyed is nodeSet.IsKeyed on a Skeleton made by NewSkeleton (false for a nil or zero value).
func (sk *Skeleton) IsKeyed() bool {
	if sk == nil || sk.view.Load() == nil {
		return false
	}
	return sk.nodeSet.IsKeyed()
}

// Save is nodeSet.Save on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Save(path string, opts ...SaveOption) error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("Save", "Skeleton")
	}
	return sk.nodeSet.Save(path, opts...)
}

// Close is nodeSet.Close on a Skeleton made by NewSkeleton.
func (sk *Skeleton) Close() error {
	if sk == nil || sk.view.Load() == nil {
		return unusable("Close", "Skeleton")
	}
	return sk.nodeSet.Close()
}
