package longstraw

import (
	"fmt"
	"strconv"
)

// String and Format describe a set for logs and %v: its kind, node count,
// whether it is keyed and its shape, never the secret, a node id or any
// internal pointer. A nil or zero-value set says so.

func keyedWord(keyed bool) string {
	if keyed {
		return "keyed"
	}
	return "unkeyed"
}

func (s *nodeSet) describe(kind string, shape string) string {
	if s == nil || s.view.Load() == nil {
		return "longstraw." + kind + "(unusable: nil or zero value)"
	}
	if s.view.Load() == closedView {
		return "longstraw." + kind + "(closed)"
	}
	text := fmt.Sprintf("longstraw.%s(%d nodes, %s", kind, s.Len(), keyedWord(s.IsKeyed()))
	if shape != "" {
		text += ", " + shape
	}
	return text + ")"
}

// String is e.g. "longstraw.Rendezvous(3 nodes, unkeyed)".
func (r *Rendezvous) String() string {
	if r == nil {
		return (*nodeSet)(nil).describe("Rendezvous", "")
	}
	return r.describe("Rendezvous", "")
}

// String is e.g. "longstraw.Table(3 nodes, keyed, 2^10 partitions, 2 replicas, balance 1.25)".
func (t *Table) String() string {
	if t == nil {
		return (*nodeSet)(nil).describe("Table", "")
	}
	shape := fmt.Sprintf("2^%d partitions, %d replicas", t.bits, t.replicas)
	if t.distinct {
		shape += ", distinct domains"
	}
	if t.balance != 0 {
		shape += ", balance " + strconv.FormatFloat(t.balance, 'g', -1, 64)
	}
	return t.describe("Table", shape)
}

// String is e.g. "longstraw.Skeleton(100 nodes, unkeyed, fanout bits 4, levels 2)".
func (k *Skeleton) String() string {
	if k == nil {
		return (*nodeSet)(nil).describe("Skeleton", "")
	}
	return k.describe("Skeleton", fmt.Sprintf("fanout bits %d, levels %d", k.fanoutBits, k.levels))
}

// String is e.g. "longstraw.Bounded(3 nodes, unkeyed, 2 requests in flight)".
func (b *Bounded) String() string {
	if b.unusable() {
		return "longstraw.Bounded(unusable: nil or zero value)"
	}
	loads, err := b.Loads()
	if err != nil {
		return "longstraw.Bounded(" + err.Error() + ")"
	}
	return fmt.Sprintf("longstraw.Bounded(%d nodes, %s, %d requests in flight)", len(loads), keyedWord(b.IsKeyed()), b.InFlight())
}

// Format prints String for every verb (%v, %+v, %#v, %s, ...), so that no
// verb shows the set's internals.
func (r *Rendezvous) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(r.String())) }

// Format prints String for every verb, as Rendezvous.Format.
func (t *Table) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(t.String())) }

// Format prints String for every verb, as Rendezvous.Format.
func (k *Skeleton) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(k.String())) }

// Format prints String for every verb, as Rendezvous.Format.
func (b *Bounded) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(b.String())) }
