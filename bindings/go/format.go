package longstraw

import (
	"fmt"
	"strconv"
)

// String and Format describe a set or snapshot for logs and %v: its type,
// node count, mode, whether it is keyed and the mode's parameters, never the
// secret, a node id or any internal pointer. A nil or zero value says so.

func keyedWord(keyed bool) string {
	if keyed {
		return "keyed"
	}
	return "unkeyed"
}

func describe(s source, typ string) string {
	switch s.current() {
	case emptyView:
		return "longstraw." + typ + "(unusable: nil or zero value)"
	case closedView:
		return "longstraw." + typ + "(closed)"
	}
	i := s.fixed()
	text := fmt.Sprintf("longstraw.%s(%d nodes, %s, %s", typ, lenOf(s), i.mode, keyedWord(i.keyed))
	switch i.mode {
	case Table:
		text += fmt.Sprintf(", 2^%d partitions, %d replicas", i.bits, i.replicas)
		if i.distinct {
			text += ", distinct domains"
		}
		if i.balance != 0 {
			text += ", balance " + strconv.FormatFloat(i.balance, 'g', -1, 64)
		}
	case Skeleton:
		text += fmt.Sprintf(", fanout bits %d, levels %d", i.fanoutBits, i.levels)
	}
	return text + ")"
}

// String is e.g. "longstraw.Rendezvous(3 nodes, flat, unkeyed)" or
// "longstraw.Rendezvous(3 nodes, table, keyed, 2^10 partitions, 2 replicas, balance 1.25)".
func (r *Rendezvous) String() string { return describe(r, "Rendezvous") }

// String is e.g. "longstraw.Snapshot(100 nodes, skeleton, unkeyed, fanout bits 4, levels 2)".
func (s *Snapshot) String() string { return describe(s, "Snapshot") }

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
func (s *Snapshot) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s.String())) }

// Format prints String for every verb, as Rendezvous.Format.
func (b *Bounded) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(b.String())) }
